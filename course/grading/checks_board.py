"""Checks for exercises 01-04: squares, counting discs, walking lines, flips and legality.

Every expected answer comes from :mod:`reversi` (``square``, ``Board.count``,
``Board.flips``, ``Board.is_legal``).  Each check takes the
student's function, prints ``NAME: n/n cases passed`` and raises AssertionError when a
case fails (see :mod:`course.grading.runner`).
"""

from __future__ import annotations

from typing import Any

from course.grading import answers
from course.grading.cases import (
    FIGURE_2,
    FIGURE_2_MOVES,
    a_game,
    blocked_position,
    color_name,
    colour,
    flip_positions,
    full_draw,
    names,
    random_game,
    sample_positions,
    seeded,
    symmetries,
    teacher_seed,
)
from course.grading.records import Case, NotAnAnswer
from course.grading.runner import run
from course.grading.views import BoardView
from course.i18n import gettext as _
from reversi import BLACK, WHITE, Board, Color, Square, square
from reversi.board import DIRECTIONS

# -- 01 squares and notation ----------------------------------------------------------------

_NOTATION = ["a1", "d3", "c4", "h8", "h1", "a8", "e5", "a10", "p16", "l5", "j2"]


def _board_for(sq: Square) -> Board:
    """An empty board just big enough to show ``sq``."""
    size = max(8, sq.row + 1 + (sq.row + 1) % 2, sq.col + 1 + (sq.col + 1) % 2)
    return Board.empty(size)


def _pair(value: Any) -> tuple[int, int]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise NotAnAnswer(_("expected a (row, col) pair of numbers"))
    return answers.integer(value[0]), answers.integer(value[1])


def _unseen_squares() -> list[str]:
    """At grade time, a dozen squares drawn from the teacher's seed (none in a notebook)."""
    if teacher_seed() is None:
        return []
    rng = seeded(1)
    found = []
    for _round in range(12):
        size = rng.choice((4, 6, 8, 10, 12, 14, 16))
        found.append(Square(rng.randrange(size), rng.randrange(size)).name)
    return found


def to_notation(function: Any) -> None:
    """``to_notation(row, col)`` gives ``'d3'`` for row 2, column 3 (0-based)."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for name in _NOTATION + _unseen_squares():
        sq = square(name)
        cases.append(
            Case(_("row {row}, column {col}").format(row=sq.row, col=sq.col), (sq.row, sq.col),
                 sq.name, _board_for(sq), (sq,))  # fmt: skip
        )
    run("to_notation", function, cases, answers.text, call="to_notation({0}, {1})")


def from_notation(function: Any) -> None:
    """``from_notation('d3')`` gives ``(2, 3)``; capital letters and two-digit rows work too."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    unseen = [name.upper() if n % 2 else name for n, name in enumerate(_unseen_squares())]
    for name in _NOTATION + ["D3", "C4", "A10", "H1"] + unseen:
        sq = square(name)
        cases.append(Case(repr(name), (name,), (sq.row, sq.col), _board_for(sq), (sq,)))
    run("from_notation", function, cases, _pair, call="from_notation({0!r})")


# -- 02 counting discs ----------------------------------------------------------------------


def _counting_boards() -> list[tuple[str, Board]]:
    boards = [
        (_("the start"), Board()),
        (_("Figure 2"), FIGURE_2),
        (_("an empty 4x4 board"), Board.empty(4)),
    ]
    boards += [(_("a full 4x4 board"), full_draw()), (_("only Black discs"), blocked_position())]
    for seed, size, stop in ((1, 8, 20), (2, 8, 41), (3, 6, 15), (4, 10, 30), (5, 8, 200)):
        game = list(random_game(seed, size, stop=stop))
        moves = len(game) - 1  # a game that ends sooner stops there
        label = _("{game} (seed {seed}) after {moves} moves")
        boards.append((label.format(game=a_game(size), seed=seed, moves=moves), game[-1][0]))
    return boards


def count_discs(function: Any) -> None:
    """``count_discs(board, color)`` counts the discs of one colour."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(_("{color} on {board}").format(color=colour(color), board=label),
             (BoardView(board), color), board.count(color), board)  # fmt: skip
        for label, board in _counting_boards()
        for color in (BLACK, WHITE)
    ]
    run("count_discs", function, cases, answers.integer)


def leader(function: Any) -> None:
    """``leader(board)`` is the colour with more discs, or None when they have as many."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board in _counting_boards():
        black, white = board.count(BLACK), board.count(WHITE)
        expected = None if black == white else BLACK if black > white else WHITE
        cases.append(
            Case(_("{board} ({black} Black, {white} White)").format(board=label, black=black,
                 white=white), (BoardView(board),), expected, board)  # fmt: skip
        )
    run("leader", function, cases, answers.color_or_none, show=color_name)


# -- 03 walking a line ----------------------------------------------------------------------

_WALKS = [
    ("d4", (0, 1), 8),
    ("d4", (-1, -1), 8),
    ("a1", (-1, 0), 8),
    ("a1", (1, 1), 8),
    ("h8", (-1, -1), 8),
    ("c5", (1, -1), 8),
    ("h1", (1, 0), 8),
    ("e8", (1, 0), 8),
    ("b2", (0, -1), 4),
    ("e5", (-1, 1), 10),
    ("a10", (0, 1), 10),
    ("f3", (1, 1), 6),
]


def _line(start: Square, step: tuple[int, int], size: int) -> list[Square]:
    board, found = Board.empty(size), []
    row, col = start.row + step[0], start.col + step[1]
    while 0 <= row < size and 0 <= col < size:
        found.append(board.square((row, col)))
        row, col = row + step[0], col + step[1]
    return found


def _unseen_walks() -> list[tuple[str, tuple[int, int], int]]:
    """At grade time, walks drawn from the teacher's seed (none in a notebook)."""
    if teacher_seed() is None:
        return []
    rng, found = seeded(3), []
    for _round in range(12):
        size = rng.choice((4, 6, 8, 10, 12, 16))
        start = Square(rng.randrange(size), rng.randrange(size))
        found.append((start.name, rng.choice(DIRECTIONS), size))
    return found


def walk(function: Any) -> None:
    """``walk(start, direction, size)``: the squares after ``start`` in one direction, to the edge."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for name, step, size in _WALKS + _unseen_walks():
        start = square(name, size)
        line = _line(start, step, size)
        label = _("from {start} stepping {step} on {size}x{size}").format(
            start=start, step=step, size=size)  # fmt: skip
        cases.append(Case(label, (start, step, size), line, Board.empty(size), (start, *line)))
    run("walk", function, cases, answers.square_list, show=names, call="walk({0!r}, {1}, {2})")


def neighbours(function: Any) -> None:
    """``neighbours(square, size)``: the squares next to ``square``, diagonals included."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    chosen = [
        ("d4", 8),
        ("a1", 8),
        ("h5", 8),
        ("e8", 8),
        ("b2", 4),
        ("d4", 4),
        ("j10", 10),
        ("a6", 6),
    ]
    for name, _step, size in _unseen_walks():
        chosen.append((name, size))
    for name, size in chosen:
        sq = square(name, size)
        around = sorted(_line(sq, step, size)[0] for step in DIRECTIONS if _line(sq, step, size))
        cases.append(
            Case(_("{square} on {size}x{size}").format(square=sq, size=size), (sq, size), around,
                 Board.empty(size), (sq, *around))  # fmt: skip
        )
    run("neighbours", function, cases, answers.squares, show=names, call="neighbours({0!r}, {1})")


# -- 04 flips and legality ----------------------------------------------------------------


def _flip_case(board: Board, at: Square, color: Color, label: str) -> Case:
    expected = board.flips(at, color)
    return Case(label, (BoardView(board), at, color), expected, board, (at, *expected))


def _on(position: str, color: Color, at: Square) -> str:
    """``'the start, Black on d3'``: a case of a move, in the reader's language."""
    return _("{position}, {color} on {square}").format(position=position, color=colour(color), square=at)


def figure2(function: Any) -> None:
    """``flips`` on the moves the ZX-81 article lists for its Figure 2 (Black to move)."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for at in FIGURE_2_MOVES:
        expected = FIGURE_2.flips(at, BLACK)
        verdict = _("valid, takes {squares}").format(squares=names(expected)) if expected else _("invalid")
        label = _("Figure 2, Black on {square} ({verdict})").format(square=at, verdict=verdict)
        cases.append(_flip_case(FIGURE_2, at, BLACK, label))
    if teacher_seed() is not None:  # the same position turned and mirrored, other squares too
        rng = seeded(4)
        for label, board, where in symmetries(FIGURE_2):
            moves = [where(at) for at in FIGURE_2_MOVES]
            moves += rng.sample([sq for sq in board.squares() if sq not in moves], 3)
            for at in moves:
                said = _("Figure 2 {symmetry}, Black on {square}").format(symmetry=_(label), square=at)
                cases.append(_flip_case(board, at, BLACK, said))
    run("figure2", function, cases, answers.squares, show=names)


def flips(function: Any) -> None:
    """``flips(board, square, color)`` on every square of many positions, taken squares too,
    then on every legal move of more positions.

    Most squares turn nothing; the legal moves of the further positions make the captures
    the larger part of the cases, so an answer that always returns ``[]`` passes fewer than
    half of them and earns no partial credit (:func:`course.grading.table.earned`).
    """
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        _flip_case(board, at, color, _on(label, color, at))
        for label, board, color in flip_positions()
        for at in board.squares()
        if board[at] is None or at.row == at.col
    ]
    for size, seeds in ((6, range(40, 44)), (8, range(44, 52)), (10, range(52, 56))):
        for number, (board, color) in enumerate(sample_positions(seeds, every=7, size=size)):
            label = _("{game}, position {number} (random games)").format(game=a_game(size), number=number + 1)
            cases += [_flip_case(board, at, color, _on(label, color, at))
                      for at in board.legal_moves(color)]  # fmt: skip
    run("flips", function, cases, answers.squares, show=names)


def is_legal(function: Any) -> None:
    """``is_legal(board, square, color)`` on every square of many positions."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(
            _on(label, color, at),
            (BoardView(board), at, color),
            board.is_legal(at, color),
            board,
            (at,),
        )
        for label, board, color in flip_positions()
        for at in board.squares()
    ]
    run("is_legal", function, cases, answers.boolean)
