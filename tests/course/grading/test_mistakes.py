"""The table of mistake kinds, per exercise: a real wrong answer for each (exercise, kind), run
through the real self-check, must name exactly that kind's sentence as the likely cause.

The kinds come from :data:`course.grading.mistakes.MISTAKES`; every kind has a wrong answer
here (a kind no answer produces is a kind nobody has seen work).  The grader's side of the
same answers is in ``test_mistakes_graded.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from course.grading.mistakes import LIST_END, MISTAKES, sentence
from course.grading.precheck import kit_import
from course.grading.runner import CheckFailed

from .helpers import check_calls, namespace, run_check

LETTERS = '"abcdefghijklmnop"'


class Mistaken(NamedTuple):
    exercise: str
    kind: str  # a name in MISTAKES
    tag: str  # the answer cell it replaces
    check: str  # the check that must name the kind
    code: str
    says: str = ""  # the cause in full, where the kind has more than one sentence

    @property
    def id(self) -> str:
        return f"{self.exercise}-{self.kind.replace(' ', '-')}-{self.check}-{len(self.code)}"

    @property
    def cause(self) -> str:
        return self.says or sentence(self.kind)


_CURSOR = (
    "def apply_cursor(rows, bits, operator, row, col):\n    offsets = {}\n"
    "    grid = [list(text) for text in rows]\n    for bit, (dr, dc) in zip(bits, offsets):\n"
    "        r, c = row + dr, col + dc\n"
    "        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != '.':\n"
    "            grid[r][c] = str(combine(operator, int(grid[r][c]), bit))\n"
    "    return [''.join(cells) for cells in grid]"
)
#: The guide's first minimax mistake: the child's value taken without the minus sign.
NO_MINUS = (
    "def minimax(board, color, depth, counter):\n    counter.visit()\n"
    "    if depth == 0:\n        return evaluate(board, color)\n"
    "    moves = board.legal_moves(color)\n"
    "    if not moves:\n        if not board.legal_moves(color.opponent):\n"
    "            return evaluate(board, color)\n"
    "        return minimax(board, color.opponent, depth - 1, counter)\n"
    "    best = -math.inf\n    for move in moves:\n        child = board.copy()\n"
    "        child.play(move, color)\n"
    "        best = max(best, minimax(child, color.opponent, depth - 1, counter))\n"
    "    return best"
)
_FIRST_OF_EQUALS = (
    "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n"
    "    if not moves:\n        return PASS\n    last = board.size - 1\n"
    "    for corner in [(0, 0), (0, last), (last, last), (last, 0)]:\n"
    "        if corner in moves:\n            return corner\n"
    "    best, most = None, -1\n    for move in moves:\n"
    "        count = len(board.flips(move, color))\n"
    "        if count > most:\n            best, most = move, count\n    return best"
)
_POSITIONAL = (
    "def positional_move(board, color):\n    best, top = PASS, None\n"
    "    for move in board.legal_moves(color):\n{play}"
    "        score = positional_score({board}, color)\n"
    "        if top is None or score {better} top:\n            best, top = move, score\n"
    "    return best"
)

_WALK = (
    "def walk(start, direction, size):\n    row, col = start\n    dr, dc = direction\n"
    "    squares = []\n{first}    while 0 <= row < {stop} and 0 <= col < {stop}:\n"
    "        squares.append((row, col))\n        row, col = row + dr, col + dc\n"
    "    return squares"
)

KINDS = [
    Mistaken("01_squares", "swapped", "answer:to_notation", "to_notation",
             f"def to_notation(row, col):\n    return {LETTERS}[row] + str(col + 1)"),
    Mistaken("01_squares", "swapped", "answer:from_notation", "from_notation",
             f"def from_notation(text):\n    return {LETTERS}.index(text[0].lower()), int(text[1:]) - 1"),
    Mistaken("01_squares", "off by one", "answer:to_notation", "to_notation",  # 'a0' for 'a1'
             f"def to_notation(row, col):\n    return {LETTERS}[col] + str(row)"),
    Mistaken("01_squares", "off by one", "answer:from_notation", "from_notation",
             f"def from_notation(text):\n    return int(text[1:]), {LETTERS}.index(text[0].lower())"),
    Mistaken("03_lines", "off by one", "answer:walk", "walk",  # stops before the last square
             _WALK.format(first="    row, col = row + dr, col + dc\n", stop="size - 1"),
             f"off by one: one too few at the end: {LIST_END}"),
    Mistaken("03_lines", "off by one", "answer:walk", "walk",  # the start square included
             _WALK.format(first="", stop="size"),
             f"off by one: one too many at the start: {LIST_END}"),
    Mistaken("02_counting", "printed", "answer:count_discs", "count_discs",
             "def count_discs(board, color):\n"
             "    print(sum(board[r, c] == color for r, c in board.squares()))"),
    Mistaken("06_legal_moves", "swapped", "answer:legal_moves", "legal_moves",
             "def legal_moves(board, color):\n"
             "    return [(c, r) for r, c in board.squares() if board.is_legal((r, c), color)]"),
    Mistaken("07_greedy", "tie rule", "answer:greedy_move", "greedy_move", _FIRST_OF_EQUALS),
    Mistaken("07_greedy", "board changed", "answer:greedy_move", "greedy_move",  # counts by playing
             _FIRST_OF_EQUALS.replace("len(board.flips(move, color))", "len(board.play(move, color))")),
    Mistaken("08_positional", "board changed", "answer:positional_move", "positional_move",
             _POSITIONAL.format(play="        board.play(move, color)\n", board="board",
                                better=">")),
    Mistaken("08_positional", "tie rule", "answer:positional_move", "positional_move",
             _POSITIONAL.format(play="        after = board.copy()\n        after.play(move, color)\n",
                                board="after", better=">")),
    Mistaken("09_minimax", "wrong sign", "answer:minimax", "minimax_value", NO_MINUS),
    Mistaken("09_minimax", "wrong sign", "answer:minimax", "minimax_nodes", NO_MINUS),
    Mistaken("10_alphabeta", "wrong sign", "answer:alphabeta", "alphabeta_value",
             "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n"
             "    if depth == 0:\n        return evaluate(board, color)\n"
             "    moves = board.legal_moves(color)\n"
             "    if not moves:\n        if not board.legal_moves(color.opponent):\n"
             "            return evaluate(board, color)\n"
             "        return alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter)\n"
             "    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n"
             "        value = alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter)\n"
             "        if value >= beta:\n            return value\n"
             "        alpha = max(alpha, value)\n    return alpha"),
    Mistaken("09_minimax", "tie rule", "answer:best_move", "best_move",
             "def best_move(board, color, depth):\n    best, top = PASS, -math.inf\n"
             "    for move in board.legal_moves(color):\n        child = board.copy()\n"
             "        child.play(move, color)\n"
             "        value = -minimax(child, color.opponent, depth - 1, NodeCounter())\n"
             "        if best == PASS or value > top:\n            best, top = move, value\n"
             "    return best"),
    Mistaken("12_cursor", "bit order", "answer:apply_cursor", "apply_cursor",  # reading order
             _CURSOR.format("[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]")),
    Mistaken("12_cursor", "bit order", "answer:apply_cursor", "apply_cursor",  # clockwise from the top
             _CURSOR.format("[(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]")),
    Mistaken("12_cursor", "bit order", "answer:apply_cursor", "apply_cursor",  # counter-clockwise
             _CURSOR.format("[(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]")),
]  # fmt: skip


def self_check(exercise: str, check: str, answers: dict[str, str]) -> CheckFailed:
    """Run the check cell of ``check`` on the notebook with ``answers``: the error it ends in."""
    names = namespace(exercise, answers)
    function = {c: f for _, c, f in check_calls(exercise)}[check]
    with pytest.raises(CheckFailed) as failed:
        run_check(exercise, check, function, names)
    return failed.value


@pytest.mark.parametrize("wrong", KINDS, ids=[w.id for w in KINDS])
def test_the_self_check_names_the_kind(wrong: Mistaken, capsys) -> None:
    failed = self_check(wrong.exercise, wrong.check, {wrong.tag: wrong.code})
    out = capsys.readouterr().out
    assert f"\n  likely cause: {wrong.cause}\n" in out, out
    assert out.count("likely cause:") == 1, out
    assert failed.cause == wrong.cause
    assert "Traceback" not in out and "File \"" not in out


def test_every_kind_of_mistake_has_a_wrong_answer_that_names_it() -> None:
    assert {kind.name for kind in MISTAKES} == {wrong.kind for wrong in KINDS}


def test_a_swap_of_diagonal_neighbours_is_a_swap_not_off_by_one(capsys) -> None:
    """The issue's sample: 'c4' for 'd3' (also diagonal neighbours)."""
    self_check("01_squares", "to_notation", {"answer:to_notation": KINDS[0].code})
    out = capsys.readouterr().out
    assert "  expected: 'd3'\n  actual:   'c4'\n" in out
    assert "off by one" not in out


def test_minimax_nodes_does_not_pass_a_search_without_its_minus_sign(capsys) -> None:
    self_check("09_minimax", "minimax_nodes", {"answer:minimax": NO_MINUS})
    out = capsys.readouterr().out
    assert "minimax_nodes: 11/11" not in out
    assert "value 3\n" in out and "value -3\n" in out


def test_an_earlier_function_that_fails_is_named_first(capsys) -> None:
    """A wrong legal_moves makes must_pass fail: the report says to check legal_moves first."""
    answers = {"answer:legal_moves": "def legal_moves(board, color):\n    return []"}
    self_check("06_legal_moves", "must_pass", answers)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Check your legal_moves first: it fails "), first


#: A flips that calls the kit's own, importing it in the cell or when it is called.
KIT_FLIPS = {
    "in the cell": "from reversi.rules import flips as kit_flips\n\n"
    "def flips(board, square, color):\n    return kit_flips(board, square, color)",
    "when called": "def flips(board, square, color):\n    import reversi.rules\n"
    "    return reversi.rules.flips(board, square, color)",
}


@pytest.mark.parametrize("code", KIT_FLIPS.values(), ids=list(KIT_FLIPS))
def test_an_answer_that_calls_the_kit_is_refused_in_the_graders_words(code: str, capsys) -> None:
    failed = self_check("04_flips", "flips", {"answer:flips": code})
    assert kit_import("flips", "reversi") in capsys.readouterr().out
    assert kit_import("flips", "reversi") in str(failed)


_PLAY = (
    "def play(board, square, color):\n    captured = board.flips(square, color)\n{refuse}"
    "    board[square] = color\n    for taken in captured:\n        board[taken] = color\n"
    "    return captured"
)
#: Answers that should have raised, and the words that say what they did instead.
NOT_RAISING = {
    "no refusal at all": (_PLAY.format(refuse=""), "    e8 should be empty; yours is Black\n"),
    "returns nothing": (_PLAY.format(refuse="    if not captured:\n        return []\n"),
                        "  actual:   returns none; the board after it, unchanged\n"),
}


@pytest.mark.parametrize("why", NOT_RAISING)
def test_an_illegal_move_played_reads_as_words_and_one_square(why: str, capsys) -> None:
    code, shown = NOT_RAISING[why]
    failed = self_check("05_play", "play", {"answer:play": code})
    out = capsys.readouterr().out
    out = out[out.index("First failing case"):]  # not the notebook's own demo cells
    assert "  expected: should raise ValueError and leave the board as it was\n" in out
    assert shown in out, out
    assert "Raises(" not in out + str(failed)
    assert out.count("a b c d e f g h") == 1, out  # the case's own board, drawn once
    assert "a b c d e f g h" not in str(failed)
