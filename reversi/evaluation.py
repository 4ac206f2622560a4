"""How good a position looks: square weights, mobility and, at the end, the final score.

The weights follow the ZX-81 article's advice: corners are best (a disc there can
never be taken back), edges are good, and the second row and column in from each
edge are best avoided.  Worst of all are the squares that hand the opponent a
corner: the *X-squares* (diagonally next to a corner) and the *C-squares* (next to
a corner along an edge).

>>> for row in weights(8):
...     print(" ".join(f"{w:4}" for w in row))
 100  -20   10   10   10   10  -20  100
 -20  -50   -5   -5   -5   -5  -50  -20
  10   -5    1    1    1    1   -5   10
  10   -5    1    1    1    1   -5   10
  10   -5    1    1    1    1   -5   10
  10   -5    1    1    1    1   -5   10
 -20  -50   -5   -5   -5   -5  -50  -20
 100  -20   10   10   10   10  -20  100

Scores are always seen from the side to move: positive is good for the player
whose turn it is.  A finished game is scored by its disc margin times
:data:`FINAL_DISC_VALUE`, far more than any unfinished position can score, so a
search always prefers a sure win, however narrow, to a promising position.
"""

from __future__ import annotations

from functools import cache

from reversi import bitboard
from reversi.board import Board
from reversi.errors import BoardSizeError
from reversi.notation import MAX_SIZE, MIN_SIZE, Color

CORNER = 100
C_SQUARE = -20
X_SQUARE = -50
EDGE = 10
SECOND_LINE = -5  # rows 2 and 7, columns B and G on 8x8 ("avoid them", says the ZX-81 article)
INSIDE = 1

#: Points per legal move more than the opponent has: freedom to move is worth having.
MOBILITY_WEIGHT = 5

#: Points per disc of margin in a finished game; larger than any unfinished score can be.
FINAL_DISC_VALUE = 1_000_000


def square_weight(row: int, col: int, size: int) -> int:
    """The weight of square ``(row, col)`` on a ``size`` x ``size`` board.

    >>> square_weight(0, 0, 8), square_weight(1, 1, 8), square_weight(0, 1, 8)
    (100, -50, -20)
    """
    last = size - 1
    on_edge_row, on_edge_col = row in (0, last), col in (0, last)
    near_row, near_col = row in (1, last - 1), col in (1, last - 1)
    if on_edge_row and on_edge_col:
        return CORNER
    if near_row and near_col:
        return X_SQUARE
    if (on_edge_row and near_col) or (on_edge_col and near_row):
        return C_SQUARE
    if on_edge_row or on_edge_col:
        return EDGE
    if near_row or near_col:
        return SECOND_LINE
    return INSIDE


@cache
def weights(size: int) -> tuple[tuple[int, ...], ...]:
    """The weight table of a ``size`` x ``size`` board, one tuple per row (any even size 4..16).

    On 4x4 every square touches a corner, so there are only corners, C- and X-squares:

    >>> weights(4)
    ((100, -20, -20, 100), (-20, -50, -50, -20), (-20, -50, -50, -20), (100, -20, -20, 100))
    """
    if not isinstance(size, int) or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        raise BoardSizeError(f"board size {size!r} is not an even number from 4 to 16")
    return tuple(tuple(square_weight(row, col, size) for col in range(size)) for row in range(size))


@cache
def weight_masks(size: int) -> tuple[tuple[int, int], ...]:
    """The weight table as ``(weight, bit mask)`` pairs, heaviest weight first.

    This is the fast form: the positional score of a colour is a handful of bit
    counts, one per distinct weight, instead of a loop over every square.  Search
    also uses the order to try promising squares (corners) first.
    """
    masks: dict[int, int] = {}
    for row, line in enumerate(weights(size)):
        for col, weight in enumerate(line):
            masks[weight] = masks.get(weight, 0) | 1 << (row * size + col)
    return tuple(sorted(masks.items(), reverse=True))


def positional(player: int, opponent: int, size: int) -> int:
    """The weights of ``player``'s discs minus the weights of ``opponent``'s discs."""
    return sum(
        weight * ((player & mask).bit_count() - (opponent & mask).bit_count())
        for weight, mask in weight_masks(size)
    )


def final_score(player: int, opponent: int) -> int:
    """The score of a finished game: ``player``'s disc margin times :data:`FINAL_DISC_VALUE`."""
    return (player.bit_count() - opponent.bit_count()) * FINAL_DISC_VALUE


def score(player: int, opponent: int, geo: bitboard.Geometry) -> int:
    """How good the position is for ``player``, who is to move (bit masks; the fast form).

    Finished games get :func:`final_score`; other positions get the positional
    weights plus :data:`MOBILITY_WEIGHT` per legal move more than the opponent has.
    """
    mine = bitboard.legal_moves(player, opponent, geo)
    theirs = bitboard.legal_moves(opponent, player, geo)
    if not mine and not theirs:
        return final_score(player, opponent)
    mobility = mine.bit_count() - theirs.bit_count()
    return positional(player, opponent, geo.size) + MOBILITY_WEIGHT * mobility


def evaluate(board: Board, color: Color) -> int:
    """How good ``board`` looks for ``color``, taken as the side to move.

    >>> from reversi.notation import BLACK
    >>> evaluate(Board(), BLACK)  # the start is symmetric
    0
    >>> board = Board.from_text('''
    ... B B B B
    ... B B B B
    ... B B W W
    ... W W W W
    ... ''')
    >>> evaluate(board, BLACK) == 4 * FINAL_DISC_VALUE  # a full board: 10 discs to 6
    True
    """
    return score(board.bits(color), board.bits(color.opponent), bitboard.geometry(board.size))


def largest_heuristic(size: int) -> int:
    """An upper bound on the score of any unfinished position, to check against a final score.

    >>> largest_heuristic(16) < FINAL_DISC_VALUE
    True
    """
    table = weights(size)
    return sum(abs(w) for row in table for w in row) + MOBILITY_WEIGHT * size * size
