"""How good a position looks: square weights, mobility and, at the end, the final score.

There are two evaluations.  :func:`score` (square weights and mobility) is the
simple one the lessons and exercises build their searches on.  :func:`strong_score`
is the one the strong computer levels use; it adds the terms described in
:func:`terms`, and :func:`explain` shows them one by one for a board.

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
from reversi.errors import BoardSizeError, shown
from reversi.notation import MAX_SIZE, MIN_SIZE, Color
from reversi.surface import student

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


@student
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


@student
def weights(size: int) -> tuple[tuple[int, ...], ...]:
    """The weight table of a ``size`` x ``size`` board, one tuple per row (any even size 4..16).

    On 4x4 every square touches a corner, so there are only corners, C- and X-squares:

    >>> weights(4)
    ((100, -20, -20, 100), (-20, -50, -50, -20), (-20, -50, -50, -20), (100, -20, -20, 100))
    """
    if size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        raise BoardSizeError(f"board size {shown(size)} is not an even number from 4 to 16")
    return _weights(size)


@cache
def _weights(size: int) -> tuple[tuple[int, ...], ...]:
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


@student
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


@student
def largest_heuristic(size: int) -> int:
    """An upper bound on the score of any unfinished position, to check against a final score.

    >>> largest_heuristic(16) < FINAL_DISC_VALUE
    True
    """
    table = weights(size)
    return sum(abs(w) for row in table for w in row) + MOBILITY_WEIGHT * size * size


# -- the strong evaluation ------------------------------------------------------------------

#: Points per legal move more than the opponent has (the strong evaluation).
STRONG_MOBILITY = 10

#: Points per empty square next to the opponent's discs more than next to one's own.
FRONTIER = 4

#: Points per disc that can never be turned more than the opponent has.
STABLE = 25

#: Points for expecting to make the last move when few squares are left.
PARITY = 12

#: Parity counts once this few squares are empty.
PARITY_EMPTIES = 18


@cache
def corner_neighbours(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """For each corner: its bit, and the ``(weight, bit)`` of its X- and two C-squares."""
    last = size - 1
    table = weights(size)
    out = []
    for row, col in ((0, 0), (0, last), (last, 0), (last, last)):
        step_r, step_c = (1 if row == 0 else -1), (1 if col == 0 else -1)
        near = ((row, col + step_c), (row + step_r, col), (row + step_r, col + step_c))
        out.append((1 << (row * size + col),
                    tuple((table[r][c], 1 << (r * size + c)) for r, c in near)))
    return tuple(out)


@cache
def edge_walks(size: int) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """For each corner: its bit and the bits along its two edges, walking away from it."""
    last = size - 1
    walks = []
    for row, col in ((0, 0), (0, last), (last, 0), (last, last)):
        step_c, step_r = (1 if col == 0 else -1), (1 if row == 0 else -1)
        along_row = tuple(1 << (row * size + col + step_c * k) for k in range(1, size))
        along_col = tuple(1 << ((row + step_r * k) * size + col) for k in range(1, size))
        walks.append((1 << (row * size + col), along_row, along_col))
    return tuple(walks)


def anchored(discs: int, size: int) -> int:
    """How many of ``discs`` can never be turned because they hold on to a corner along an edge.

    A corner can never be taken back, and neither can an unbroken run of one
    colour along an edge starting from it: each disc of the run has a stable
    neighbour on one side along the edge and the board's edge across it.  Only
    these discs are counted (fewer than all stable discs), which is quick.

    >>> anchored(0b1111 | 1 << 4, 4)  # the whole top row and a2 below a1: 5 discs
    5
    """
    count, seen = 0, 0
    for corner, *edges in edge_walks(size):
        if not discs & corner:
            continue
        if not seen & corner:
            count += 1
            seen |= corner
        for edge in edges:
            for bit in edge:
                if not discs & bit:
                    break
                if not seen & bit:
                    count += 1
                    seen |= bit
    return count


def neighbours(discs: int, geo: bitboard.Geometry) -> int:
    """Every square next to one of ``discs`` (in any of the eight directions)."""
    out = 0
    for shift, mask in geo.forward:
        out |= (discs << shift) & mask
    for shift, mask in geo.backward:
        out |= (discs >> shift) & mask
    return out


#: The names of the strong evaluation's terms, in the order :func:`parts` gives them.
TERMS = ("squares", "mobility", "frontier", "stable", "parity")


def terms(player: int, opponent: int, geo: bitboard.Geometry) -> dict[str, int]:
    """The strong evaluation of an unfinished position, term by term, for ``player`` to move.

    * ``squares``: the square weights of :func:`weights`, except that an X- or
      C-square no longer counts once its corner is taken: the danger was giving
      the corner away, and that question is settled (the corner-edge pattern).
    * ``mobility``: legal moves more than the opponent has, times
      :data:`STRONG_MOBILITY`.  Having moves means having choices.
    * ``frontier``: empty squares next to the opponent's discs minus those next
      to one's own, times :data:`FRONTIER` (*potential mobility*).  Discs that
      touch empty squares give the opponent moves later; walls are a weakness.
    * ``stable``: discs that can never be turned (corners and unbroken edge runs
      from them, see :func:`anchored`) more than the opponent has, times
      :data:`STABLE`.  They are sure to count at the end.
    * ``parity``: with at most :data:`PARITY_EMPTIES` squares left, plus
      :data:`PARITY` if the number of empty squares is odd (the side to move can
      expect to make the last move of the game), minus it if even.
    """
    mine = bitboard.legal_moves(player, opponent, geo)
    theirs = bitboard.legal_moves(opponent, player, geo)
    return dict(zip(TERMS, parts(player, opponent, geo, mine, theirs), strict=True))


def parts(
    player: int, opponent: int, geo: bitboard.Geometry, mine: int, theirs: int
) -> tuple[int, int, int, int, int]:
    """The points of the :data:`TERMS`, given both sides' legal moves ``mine`` and ``theirs``.

    This is the search's form of :func:`terms`: a tuple instead of a dict, and
    the legal moves (which the search needs anyway to know if the game is over)
    are computed once by the caller instead of again here.
    """
    size = geo.size
    squares = positional(player, opponent, size)
    for corner, near in corner_neighbours(size):
        if (player | opponent) & corner:
            for weight, bit in near:
                squares -= weight * (bool(player & bit) - bool(opponent & bit))
    empty = geo.full & ~(player | opponent)
    frontier = (empty & neighbours(opponent, geo)).bit_count() - (
        empty & neighbours(player, geo)).bit_count()
    stable = anchored(player, size) - anchored(opponent, size)
    empties = empty.bit_count()
    parity = 0 if empties > PARITY_EMPTIES else PARITY if empties % 2 else -PARITY
    return (
        squares,
        STRONG_MOBILITY * (mine.bit_count() - theirs.bit_count()),
        FRONTIER * frontier,
        STABLE * stable,
        parity,
    )


def strong_score(player: int, opponent: int, geo: bitboard.Geometry) -> int:
    """The strong evaluation for ``player`` to move: the sum of :func:`terms`, or the final score.

    Each side's legal moves are found once: they tell whether the game is over
    and give the mobility term.

    >>> from reversi.notation import BLACK
    >>> board = Board()
    >>> _ = board.play(board.legal_moves(BLACK)[0], BLACK)
    >>> geo = bitboard.geometry(8)
    >>> white, black = board.bits(BLACK.opponent), board.bits(BLACK)
    >>> strong_score(white, black, geo) == sum(terms(white, black, geo).values())
    True
    """
    mine = bitboard.legal_moves(player, opponent, geo)
    theirs = bitboard.legal_moves(opponent, player, geo)
    if not mine and not theirs:
        return final_score(player, opponent)
    return sum(parts(player, opponent, geo, mine, theirs))


@student
def explain(board: Board, color: Color) -> dict[str, int]:
    """Why the strong evaluation likes ``board`` for ``color`` (to move): the points of each term.

    >>> from reversi.notation import BLACK
    >>> explain(Board(), BLACK)  # the start is symmetric: every term is zero
    {'squares': 0, 'mobility': 0, 'frontier': 0, 'stable': 0, 'parity': 0}
    """
    geo = bitboard.geometry(board.size)
    return terms(board.bits(color), board.bits(color.opponent), geo)
