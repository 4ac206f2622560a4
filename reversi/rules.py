"""The rules of Reversi written out plainly: a grid, a walk in eight directions, and loops.

This is the module to open when you want to read how the game works. A board here is a
*grid*: a list of rows, each a list of squares holding ``BLACK``, ``WHITE`` or ``None``
(empty). Squares are ``(row, col)`` pairs counted from 0, row 0 at the top.

The :class:`reversi.Board` the rest of the kit uses gets the same answers much faster with
bit masks (:mod:`reversi.bitboard`), which are hard to read. This module is the
*reference* the fast board is tested against: it shares no code with it, so when both agree
on thousands of random positions, and on the perft counts from the start (the number of
move sequences of each length: 4, 12, 56, 244, ...), the fast rules are right
(``tests/reversi/test_rules.py``). It follows the Othello chapter of Peter Norvig's
*Paradigms of Artificial Intelligence Programming*.

The functions stay plain: the list at the end of the module puts them on the student surface
(:mod:`reversi.surface`), so a call from outside gets a clear error for a value it cannot read.

>>> grid = start()
>>> legal_moves(grid, BLACK)
[(2, 3), (3, 2), (4, 5), (5, 4)]
>>> flips(grid, (2, 3), BLACK)
[(3, 3)]
>>> print(to_text(play(grid, (2, 3), BLACK)))
. . . . . . . .
. . . . . . . .
. . . B . . . .
. . . B B . . .
. . . B W . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Protocol

from reversi.errors import IllegalMoveError, NotationError, shown
from reversi.i18n import N_
from reversi.notation import BLACK, MAX_SIZE, WHITE, Color
from reversi.surface import Between, Length, Satisfies, student_module
from reversi.typecheck import words

#: A square's content: a colour, or None when it is empty.
Disc = Color | None
#: A board as rows of squares.
Grid = list[list[Disc]]
#: The eight steps from a square to its neighbours, as (row step, column step).
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Readable(Protocol):
    """Anything that has a ``size`` and answers ``board[row, col]`` (a ``reversi.Board`` does)."""

    @property
    def size(self) -> int: ...

    def __getitem__(self, key: tuple[int, int]) -> Disc: ...


def start(size: int = 8) -> Grid:
    """The starting grid: White on the top-left and bottom-right centre squares, Black on the others."""
    grid: Grid = [[None] * size for _ in range(size)]
    half = size // 2
    grid[half - 1][half - 1] = grid[half][half] = WHITE
    grid[half - 1][half] = grid[half][half - 1] = BLACK
    return grid


def from_board(board: Readable) -> Grid:
    """A grid holding the same discs as ``board``, read one square at a time."""
    return [[board[row, col] for col in range(board.size)] for row in range(board.size)]


def on_grid(grid: Sequence[Sequence[Disc]], row: int, col: int) -> bool:
    """Whether ``(row, col)`` lies on the grid (a walk stops at the edge)."""
    return 0 <= row < len(grid) and 0 <= col < len(grid)


def walk(
    grid: Grid, square: tuple[int, int], step: tuple[int, int], color: Color
) -> list[tuple[int, int]]:
    """The opponent discs that ``color`` on ``square`` traps in the direction ``step``.

    Walk away from the square over opponent discs; they are trapped only when the walk
    then stops on one of ``color``'s own discs (an empty square or the edge saves them).

    >>> grid = from_text('''
    ... B W W .
    ... . . . .
    ... . . . .
    ... . . . .
    ... ''')
    >>> walk(grid, (0, 3), (0, -1), BLACK)
    [(0, 2), (0, 1)]
    >>> walk(grid, (0, 3), (1, 0), BLACK)
    []
    """
    (row, col), (dr, dc) = square, step
    line = []
    r, c = row + dr, col + dc
    while on_grid(grid, r, c) and grid[r][c] == color.opponent:
        line.append((r, c))
        r, c = r + dr, c + dc
    if line and on_grid(grid, r, c) and grid[r][c] == color:
        return line
    return []


def flips(grid: Grid, square: tuple[int, int], color: Color) -> list[tuple[int, int]]:
    """Every disc that turns over when ``color`` plays on ``square``; empty if the move is illegal."""
    row, col = square
    if not on_grid(grid, row, col) or grid[row][col] is not None:
        return []
    turned = []
    for step in DIRECTIONS:
        turned += walk(grid, square, step, color)
    return turned


def legal_moves(grid: Grid, color: Color) -> list[tuple[int, int]]:
    """The squares where ``color`` may play, in reading order (row by row from the top)."""
    moves = []
    for row in range(len(grid)):
        for col in range(len(grid)):
            if flips(grid, (row, col), color):
                moves.append((row, col))
    return moves


def play(grid: Grid, square: tuple[int, int], color: Color) -> Grid:
    """A new grid after ``color`` plays the legal move ``square`` (the old grid is unchanged)."""
    turned = flips(grid, square, color)
    if not turned:
        raise IllegalMoveError(f"{square} is not a legal move for {color}")
    new = [line[:] for line in grid]
    row, col = square
    new[row][col] = color
    for r, c in turned:
        new[r][c] = color
    return new


def next_player(grid: Grid, color: Color) -> Color | None:
    """Who moves after ``color`` has moved: the opponent, or ``color`` again when the opponent
    has no move and must pass, or ``None`` when neither can move and the game is over."""
    if legal_moves(grid, color.opponent):
        return color.opponent
    if legal_moves(grid, color):
        return color
    return None


def score(grid: Grid) -> tuple[int, int]:
    """The discs of each side, ``(black, white)``: at the end, the side with more wins.

    >>> score(start())
    (2, 2)
    """
    black = sum(line.count(BLACK) for line in grid)
    white = sum(line.count(WHITE) for line in grid)
    return black, white


def perft(grid: Grid, color: Color, depth: int) -> int:
    """The move sequences of length ``depth`` from ``grid`` with ``color`` to move.

    A forced pass counts as a move; a finished game is one sequence.

    >>> [perft(start(), BLACK, depth) for depth in range(1, 5)]
    [4, 12, 56, 244]
    """
    if depth == 0:
        return 1
    moves = legal_moves(grid, color)
    if not moves:
        if not legal_moves(grid, color.opponent):
            return 1
        return perft(grid, color.opponent, depth - 1)
    return sum(perft(play(grid, move, color), color.opponent, depth - 1) for move in moves)


def from_text(text: str) -> Grid:
    """A grid from rows of ``B``, ``W`` and ``.`` separated by spaces (blank lines ignored)."""
    letters: dict[str, Disc] = {"B": BLACK, "W": WHITE, ".": None}
    rows = [line.split() for line in text.splitlines() if line.strip()]
    if not rows or any(len(row) != len(rows) or not set(row) <= set(letters) for row in rows):
        raise NotationError(f"a grid's text is n rows of n letters B, W or ., not {shown(text)}")
    return [[letters[letter] for letter in row] for row in rows]


def to_text(grid: Grid) -> str:
    """The grid as rows of ``B``, ``W`` and ``.``: the inverse of :func:`from_text`."""
    letters = {BLACK: "B", WHITE: "W", None: "."}
    return "\n".join(" ".join(letters[disc] for disc in line) for line in grid)


# --- the student surface --------------------------------------------------------------
# Lessons call these functions, so a wrong argument gets a clear error naming it
# (reversi/surface.py). A grid must be square, a step one of the eight DIRECTIONS, and the
# slow rules count perft no deeper than 6 (Board.perft goes deeper, fast).


def is_square_grid(grid: Grid) -> bool:
    return 1 <= len(grid) <= MAX_SIZE and all(len(line) == len(grid) for line in grid)


STRICTER: dict[str, object] = {
    "grid": Annotated[Grid, Satisfies(is_square_grid, words(N_("a grid: a list of n rows of n squares, n from 1 to {high}"), high=MAX_SIZE))],
    "step": Annotated[tuple[int, int], Satisfies(DIRECTIONS.__contains__, N_("one of the eight DIRECTIONS"))],
    "size": Annotated[int, Between(1, MAX_SIZE)],
    "depth": Annotated[int, Between(0, 6)],
    "text": Annotated[str, Length(0, 4 * MAX_SIZE * (MAX_SIZE + 1))],
    "board": Annotated[Readable, Satisfies(lambda board: board.size in range(1, MAX_SIZE + 1), words(N_("a board of size 1 to {high}"), high=MAX_SIZE))],
}
student_module(
    __name__,
    [start, from_board, on_grid, walk, flips, legal_moves, play, next_player, score, perft, from_text, to_text],
    **STRICTER,
)
