"""The grader's first line (reading answers) and its border (plain JSON), without a sandbox."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from course.grading import scan, similarity, wire
from course.grading.checker import SOURCE_DIR
from course.grading.exercise import load
from course.grading.views import BoardView, position
from reversi import BLACK, PASS, WHITE, Board, Square

from .helpers import NAMES


@pytest.mark.parametrize("name", NAMES)
def test_teacher_solutions_and_starting_code_pass_the_reading(name: str) -> None:
    exercise = load(SOURCE_DIR / f"{name}.ipynb", seed=1)
    for tag in exercise.answers:
        assert scan.flags(exercise.solutions[tag], name) == [], tag
        assert scan.flags(exercise.starters[tag], name) == [], tag


@pytest.mark.parametrize(
    "code, exercise, reason",
    [
        ("import os", "01_squares", "may not import os"),
        ("from reversi.board import Board", "04_flips", "may not import reversi.board"),
        ("from . import x", "04_flips", "may not import ."),
        ("x = board.flips(s, c)", "04_flips", "board.flips is the kit's own answer"),
        ("v = search.minimax(b, c, 3)", "09_minimax", "search.minimax is the kit's own answer"),
        ("x = eval('1')", "01_squares", "eval() is not needed"),
        ("f = getattr(board, 'flips')", "04_flips", "getattr() is not needed"),
        ("x = ().__class__", "01_squares", "'.__class__' reaches inside"),
        ("x = board._discs", "02_counting", "'._discs' reaches inside"),
        ("x = __builtins__", "01_squares", "__builtins__ reaches inside"),
        ("m = typing.sys.modules", "01_squares", "'.modules' is not needed"),
        ("checks.flips = print", "04_flips", "checks() is not needed"),
        ("o = open('/etc/passwd')", "01_squares", "open() is not needed"),
    ],
)  # fmt: skip
def test_escapes_are_flagged(code: str, exercise: str, reason: str) -> None:
    found = scan.flags(code, exercise)
    assert found and reason in found[0], found


def test_a_cell_that_does_not_parse_is_left_to_fail_when_run() -> None:
    assert scan.flags("def f(:\n", "01_squares") == []


class Liar(list):
    def __eq__(self, other: object) -> bool:
        return True

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("reading me runs my code")


class Sneaky(int):
    def __index__(self) -> int:
        raise RuntimeError("reading me runs my code")


@pytest.mark.parametrize("value", [Liar([1]), Sneaky(3), object(), {1, Sneaky(2)}, [Liar()], print])
def test_reading_an_answer_runs_none_of_its_code(value: object) -> None:
    data = wire.dump_answer(value)
    assert "object" in str(data)
    assert isinstance(wire.load_answer(data), (wire.Opaque, list, set))


def test_a_huge_or_deep_answer_is_no_answer() -> None:
    deep: list[object] = []
    for _ in range(50):
        deep = [deep]
    assert wire.dump_answer(deep) == {"object": "answer too big"}
    assert wire.dump_answer(list(range(wire.MAX_ITEMS + 1))) == {"object": "answer too big"}


@pytest.mark.parametrize(
    "data",
    [{"square": ["a", 1]}, {"color": "green"}, {"board": 5, "rows": []}, {"x": 1}, [{"tuple": 3}],
     {"dict": [[[1], 2]]}, {"set": [[1]]}, {"board": 4, "rows": ["BBBB", "WWWW", "....", "..X."]}],
)  # fmt: skip
def test_malformed_data_from_the_sandbox_is_opaque(data: object) -> None:
    loaded = wire.load_answer(data)
    assert isinstance(loaded, wire.Opaque) or (
        isinstance(loaded, list) and isinstance(loaded[0], wire.Opaque)
    )


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5)
    | st.sampled_from([BLACK, WHITE, PASS])
    | st.builds(Square, st.integers(0, 15), st.integers(0, 15)),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)  # fmt: skip


@given(plain)
def test_plain_answers_cross_the_border_unchanged(value: object) -> None:
    assert wire.load_answer(wire.dump_answer(value)) == value


def test_a_view_crosses_as_discs_and_leads_to_no_board() -> None:
    board = Board()
    board.play("d3", BLACK)
    view = BoardView(board, allow=("flips",), writable=True)
    sent = wire.dump_argument(view)
    received = wire.load_argument(sent, counter=object)
    assert position(received) == board and received.flips("c3", WHITE) == board.flips("c3", WHITE)
    assert not any(isinstance(getattr(received, name, None), Board) for name in dir(received))
    with pytest.raises(AttributeError, match="board.play is not allowed"):
        received.play("c3", WHITE)


def test_similarity_sees_through_renaming_but_not_through_rewriting() -> None:
    first = "def walk(start, d, n):\n    r, c = start\n    out = []\n    while 0 <= r < n:\n        out.append((r, c))\n        r += d[0]\n    return out\n"
    renamed = (
        first.replace("out", "found").replace("r,", "y,").replace("r ", "y ").replace("= r", "= y")
    )
    other = "def walk(start, d, n):\n    return [(start[0] + k * d[0], start[1]) for k in range(1, n)]\n"
    assert similarity.score(first, renamed) == 1.0
    assert similarity.score(first, other) < 0.6
