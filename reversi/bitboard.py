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


@cache
def geometry(size: int) -> Geometry:
    """The :class:`Geometry` of a ``size`` x ``size`` board (computed once per size)."""
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
    """
    moves = legal_moves(player, opponent, geo)
    if depth == 1:
        if moves:
            return moves.bit_count()
        return 1
    if not moves:
        if legal_moves(opponent, player, geo):
            return perft(opponent, player, depth - 1, geo)
        return 1
    total = 0
    while moves:
        move = moves & -moves
        moves ^= move
        flipped = flips(move, player, opponent, geo)
        total += perft(opponent & ~flipped, player | move | flipped, depth - 1, geo)
    return total
