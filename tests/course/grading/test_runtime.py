"""The student runtime and the exercise table: what the sandbox holds, checked against the kit.

The runtime's pieces (``course/grading/runtime/pieces.py``) are small plain versions of
the kit's board; the kit is their oracle here, on the positions of seeded random games.
The table is checked against every notebook, and every exercise's runtime against what
the exercise asks students to write.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

from course.grading import compose, exercise
from course.grading import notebook as nbfile
from course.grading.cases import flip_positions, sample_positions
from course.grading.table import ENTRIES, TABLE, Entry, Partial, Question, earned
from reversi import BLACK, WHITE, Board
from reversi.evaluation import evaluate, weights

from .helpers import NAMES, source, student

EVERYTHING = Entry("everything", (), (), names=("BLACK", "WHITE", "Board", "PASS", "weights",
                   "evaluate", "NodeCounter", "MapFileError", "DIRECTIONS"),
                   lends=compose.METHODS)  # fmt: skip


def load(entry: Entry) -> types.ModuleType:
    """The ``allowed`` module of ``entry``'s runtime, made in this process for testing."""
    module = types.ModuleType("allowed")
    exec(compile(compose.runtime(entry)["allowed.py"], "allowed.py", "exec"), module.__dict__)
    return module


@pytest.fixture(scope="module")
def allowed() -> types.ModuleType:
    return load(EVERYTHING)


def mirror(runtime: types.ModuleType, board: Board) -> Any:
    rows = ["".join(c.letter if c else "." for c in row) for row in _rows(board)]
    return runtime.make_board(board.size, rows, runtime.LENT, True)


def _rows(board: Board) -> list[list[Any]]:
    return [[board[r, c] for c in range(board.size)] for r in range(board.size)]


def color(runtime: types.ModuleType, kit_color: Any) -> Any:
    return runtime.BLACK if kit_color is BLACK else runtime.WHITE


POSITIONS = [(b, c) for _, b, c in flip_positions()] + sample_positions(range(3), every=9, size=6)


def test_the_table_is_every_exercise_and_agrees_with_every_notebook() -> None:
    assert [entry.name for entry in TABLE] == NAMES
    for name in NAMES:
        exercise.agrees(source(name), ENTRIES[name], name)
        exercise.agrees(student(name), ENTRIES[name], name)


def test_a_notebook_that_disagrees_with_the_table_is_refused() -> None:
    notebook = source("04_flips")
    for cell in notebook["cells"]:
        if nbfile.tag_with(cell, nbfile.CHECK) == "check:flips":
            cell["source"] = "# NBVAL_CHECK_OUTPUT\nchecks.flips(is_legal)"
    with pytest.raises(nbfile.NotebookError, match="must call checks.flips"):
        exercise.agrees(notebook, ENTRIES["04_flips"], "04_flips")


@pytest.mark.parametrize("name", NAMES)
def test_no_runtime_holds_what_its_exercise_asks(name: str) -> None:
    entry = ENTRIES[name]
    text = compose.runtime(entry)["allowed.py"]
    runtime = load(entry)
    for asked in entry.asked:
        assert f"def {asked}(" not in text
        assert not hasattr(runtime, asked) and not hasattr(runtime.Board, asked)
    assert "import reversi" not in text and "course" not in text
    board = runtime.Board()
    for method in compose.METHODS:
        assert hasattr(runtime.Board, method) == (method in entry.lends)
        if method not in entry.lends:
            with pytest.raises(AttributeError, match=f"board.{method} is not allowed here"):
                getattr(board, method)


def test_an_entry_offering_what_it_asks_is_refused() -> None:
    bad = Entry("x", ("flips",), (), lends=("is_legal",))
    with pytest.raises(ValueError, match="would hand students flips"):
        compose.check_entry(bad)
    with pytest.raises(ValueError, match="no secret"):
        compose.check_entry(Entry("y", (), (), names=("secret",)))


def test_the_runtime_board_plays_as_the_kit_does(allowed: types.ModuleType) -> None:
    for board, to_move in POSITIONS:
        mine, side = mirror(allowed, board), color(allowed, to_move)
        assert [tuple(s) for s in mine.legal_moves(side)] == board.legal_moves(to_move)
        for other in (to_move, to_move.opponent):
            assert mine.count(color(allowed, other)) == board.count(other)
            assert evaluate(board, other) == allowed.evaluate(mine, color(allowed, other))
        assert mine.count(None) == board.count(None)
        for at in board.squares():
            assert [tuple(s) for s in mine.flips(at, side)] == board.flips(at, to_move)
            assert mine.is_legal(tuple(at), side) == board.is_legal(at, to_move)
        for move in board.legal_moves(to_move):
            after, kit = mine.copy(), board.copy()
            assert [tuple(s) for s in after.play(move.name, side)] == kit.play(move, to_move)
            assert [[c and c.value for c in row] for row in after._rows] == [
                [c and c.value for c in row] for row in _rows(kit)
            ]
            assert mine == mirror(allowed, board)  # the copy was played, not the board
        assert str(mine) == str(board)


def test_the_runtime_values_read_as_the_kit_does(allowed: types.ModuleType) -> None:
    assert str(allowed.Board()) == str(Board()) and str(allowed.Board(6)) == str(Board(6))
    for size in (4, 6, 8, 10, 16):
        assert allowed.weights(size) == weights(size)
    assert repr(allowed.square("d3", 8)) == "d3" and allowed.square((2, 3), 8) == (2, 3)
    for wrong in ("i1", "d0", "3d", (8, 0), "d"):
        with pytest.raises(ValueError):
            allowed.square(wrong, 8)
    assert str(allowed.WHITE) == str(WHITE) and allowed.BLACK.opponent is allowed.WHITE
    with pytest.raises(ValueError, match="not a legal move"):
        allowed.Board().play("a1", allowed.BLACK)
    error = allowed.MapFileError("width is missing", line=3)
    assert (error.line, str(error)) == (3, "line 3: width is missing")


def test_a_board_lends_only_what_its_case_allows(allowed: types.ModuleType) -> None:
    view = allowed.make_board(4, ["....", ".WB.", ".BW.", "...."], ("count",), False)
    assert view.count(allowed.BLACK) == 2
    with pytest.raises(AttributeError, match="board.flips is not allowed here"):
        view.flips("a1", allowed.BLACK)
    with pytest.raises(TypeError, match="read-only"):
        view["a1"] = allowed.BLACK


def test_partial_credit_is_what_the_table_says() -> None:
    assert earned(Partial.NONE, 3, (4, 4), (9, 10)) == 0.0
    assert earned(Partial.CASES, 3, (4, 4), (8, 10)) == round(3 * 12 / 14, 2)
    assert earned(Partial.CASES, 3, (4, 4), (1, 10)) == 0.0  # right only on the shown cases
    assert earned(Partial.NONE, 3, (4, 4), (10, 10)) == 3.0
    assert Question("flips", "flips", 2).tag == "check:flips"
    assert all(q.points >= 1 for entry in TABLE for q in entry.questions)
