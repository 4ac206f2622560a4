"""The fast inside of the board: discs as bits of Python integers.

A board of ``size`` x ``size`` squares is two integers, one per colour.  Square
``(row, col)`` is bit ``row * size + col``, so bit 0 is a1 (top left) and the
bits run in reading order: row-major order is simply increasing bit order.

Moving every disc one step in a direction is one shift of the whole integer:
one step right is ``<< 1``, one step down is ``<< size``, one step down-right is
``<< (size + 1)``, and the opposite directions shift the other way.  A shift
that crosses the left or right edge would wrap around into the next row, so each
direction has a *mask* that clears the column the wrapped bits would land in
(and, for left shifts, the bits that fall off the bottom of the board).

With that, "all the discs that flip in one direction" becomes a short loop of
shifts and ands, done for every disc at once.  :mod:`reversi.board` wraps these
functions in a readable :class:`~reversi.board.Board`; the search in
:mod:`reversi.search` calls them directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reversi.errors import ArgumentError, shown

#: The largest board side a geometry is made for (the kit's boards run up to 16).
MAX_SIDE = 16

#: The deepest perft count taken (depth 10 from the start is about 25 million leaves).
MAX_PERFT_DEPTH = 10


def _size_of(geo: Geometry) -> int:
    size = geo.size
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIDE:
        return 2  # not a size geometry() makes: compared with a real one, it differs
    return size


@dataclass(frozen=True)
class Geometry:
    """The masks and shifts of one board size.

    ``forward`` holds ``(shift, mask)`` pairs for the four directions that move
    towards higher bits (right, down-left, down, down-right), ``backward`` the
    four that move towards lower bits.  ``x`` stepped one square in a direction
    is ``(x << shift) & mask`` or ``(x >> shift) & mask``.
    """

    size: int
    full: int
    forward: tuple[tuple[int, int], ...]
    backward: tuple[tuple[int, int], ...]


def geometry(size: int) -> Geometry:
    """The :class:`Geometry` of a ``size`` x ``size`` board (computed once per size)."""
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIDE:
        raise ArgumentError(f"a bitboard's size must be a whole number 1 to {MAX_SIDE}, not {shown(size)}")
    return _geometry(size)


@cache
def _geometry(size: int) -> Geometry:
    full = (1 << (size * size)) - 1
    first_column = sum(1 << (row * size) for row in range(size))
    last_column = first_column << (size - 1)
    not_first = full & ~first_column  # where a step to the right may land
    not_last = full & ~last_column  # where a step to the left may land
    forward = ((1, not_first), (size - 1, not_last), (size, full), (size + 1, not_first))
    backward = ((1, not_last), (size - 1, not_first), (size, full), (size + 1, not_last))
    return Geometry(size, full, forward, backward)


def legal_moves(player: int, opponent: int, geo: Geometry) -> int:
    """The bits of every empty square where ``player`` may move.

    In each direction, follow runs of opponent discs starting next to a player
    disc; an empty square just past such a run is a legal move.
    """
    empty = geo.full & ~(player | opponent)
    moves = 0
    for shift, mask in geo.forward:
        run_mask = opponent & mask
        landing = empty & mask
        run = (player << shift) & run_mask
        while run:
            run <<= shift
            moves |= run & landing
            run &= run_mask
    for shift, mask in geo.backward:
        run_mask = opponent & mask
        landing = empty & mask
        run = (player >> shift) & run_mask
        while run:
            run >>= shift
            moves |= run & landing
            run &= run_mask
    return moves


def flips(move: int, player: int, opponent: int, geo: Geometry) -> int:
    """The bits of the opponent discs that turn when ``player`` plays the single bit ``move``.

    In each direction, walk over opponent discs from the move; the run flips only
    if the walk then meets a player disc.  Zero means the move is not legal
    (assuming the square is empty).
    """
    flipped = 0
    for shift, mask in geo.forward:
        step = (move << shift) & mask
        run = 0
        while step & opponent:
            run |= step
            step = (step << shift) & mask
        if step & player:
            flipped |= run
    for shift, mask in geo.backward:
        step = (move >> shift) & mask
        run = 0
        while step & opponent:
            run |= step
            step = (step >> shift) & mask
        if step & player:
            flipped |= run
    return flipped


def bits_of(mask: int) -> list[int]:
    """The set bits of ``mask`` as single-bit integers, lowest (first in reading order) first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def perft(player: int, opponent: int, depth: int, geo: Geometry) -> int:
    """Count the move sequences of length ``depth`` from a position (``player`` to move).

    A forced pass counts as one move; a finished game counts as one leaf.  The
    last ply is counted, not played: the number of legal moves is a bit count.

    >>> perft(0b0110, 0b1001, 99, geometry(2))
    Traceback (most recent call last):
    ...
    reversi.errors.ArgumentError: perft depth 99 is out of range: it counts 1 to 10 plies
    """
    if not isinstance(geo, Geometry) or geo != geometry(_size_of(geo)):
        raise ArgumentError(f"perft needs a Geometry made by geometry(size), not {shown(geo)}")
    for name, mask in (("player", player), ("opponent", opponent)):
        if not isinstance(mask, int) or isinstance(mask, bool) or mask < 0 or mask & ~geo.full:
            raise ArgumentError(
                f"perft's {name} must be a bit mask of the {geo.size}x{geo.size} board, not {shown(mask)}"
            )
    if player & opponent:
        raise ArgumentError("perft's player and opponent share a square: a square holds one disc")
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_PERFT_DEPTH:
        raise ArgumentError(
            f"perft depth {shown(depth)} is out of range: it counts 1 to {MAX_PERFT_DEPTH} plies"
        )
    return _perft(player, opponent, depth, geo)


def _perft(player: int, opponent: int, depth: int, geo: Geometry) -> int:
    moves = legal_moves(player, opponent, geo)
    if depth == 1:
        if moves:
            return moves.bit_count()
        return 1
    if not moves:
        if legal_moves(opponent, player, geo):
            return _perft(opponent, player, depth - 1, geo)
        return 1
    total = 0
    while moves:
        move = moves & -moves
        moves ^= move
        flipped = flips(move, player, opponent, geo)
        total += _perft(opponent & ~flipped, player | move | flipped, depth - 1, geo)
    return total


@cache
def lines(size: int) -> tuple[tuple[int, ...], ...]:
    """The board's lines as bit masks, by axis: rows, columns, and the two kinds of diagonal."""
    def line(cells: list[tuple[int, int]]) -> int:
        return sum(1 << (r * size + c) for r, c in cells)
    rows = tuple(line([(r, c) for c in range(size)]) for r in range(size))
    columns = tuple(line([(r, c) for r in range(size)]) for c in range(size))
    down_right = tuple(line([(r, r - k) for r in range(size) if 0 <= r - k < size])
                       for k in range(-size + 1, size))
    down_left = tuple(line([(r, k - r) for r in range(size) if 0 <= k - r < size])
                      for k in range(2 * size - 1))
    return rows, columns, down_right, down_left


def stable(discs: int, filled: int, geo: Geometry) -> int:
    """The discs of one colour that can never be turned again (most of them: a safe estimate).

    A disc is turned only by a move on one of its four lines (row, column,
    diagonals) that encloses it.  So it is safe along a line that is full (no
    move can be made there any more), or next to the board's edge or to a safe
    disc of its own colour on that line (the enclosing run would have to turn
    that one too).  A disc safe along all four lines is stable.  Starting from
    none, the rule is applied until no disc is added: corners first, then what
    leans on them.

    >>> geo = geometry(4)
    >>> top_row = 0b1111
    >>> stable(top_row, top_row, geo) == top_row  # a full edge row with its corners
    True
    >>> stable(0b0110, 0b0110, geo)  # b1 and c1 without the corners: either could still turn
    0
    """
    size, full = geo.size, geo.full
    (_, not_first), _, _, _ = geo.forward  # may land a step right: not in the first column
    (_, not_last), _, _, _ = geo.backward  # may land a step left: not in the last column
    first_column = full & ~not_first
    last_column = full & ~not_last
    first_row, last_row = (1 << size) - 1, ((1 << size) - 1) << (size * (size - 1))
    border = first_column | last_column | first_row | last_row
    full_lines = []
    for axis in lines(size):
        done = 0
        for line in axis:
            if filled & line == line:
                done |= line
        full_lines.append(done)
    rows, columns, down_right, down_left = full_lines
    rows |= first_column | last_column
    columns |= first_row | last_row
    down_right |= border
    down_left |= border
    safe = discs & rows & columns & down_right & down_left
    result = 0
    while safe != result:
        result = safe
        safe = discs & (
            (rows | (result << 1 & not_first) | (result >> 1 & not_last))
            & (columns | (result << size & full) | (result >> size))
            & (down_right | (result << (size + 1) & not_first) | (result >> (size + 1) & not_last))
            & (down_left | (result << (size - 1) & not_last) | (result >> (size - 1) & not_first))
        )
    return result
