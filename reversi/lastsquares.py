"""The exact solver's tools: flips along rays, the order of moves, and the plain last squares.

The machinery under :mod:`reversi.endgame` (read its docstring first): the ray
tables that make a flip a few integer operations, the order in which moves are
worth trying, and the search of the last five squares or fewer, which needs no
table and no move counting.

>>> up, down = rays(4)[0]  # from a1: right, down-right and down (all towards higher bits)
>>> sorted((bin(next_to), bin(ray)) for next_to, ray in up), down
([('0b10', '0b1110'), ('0b10000', '0b1000100010000'), ('0b100000', '0b1000010000100000')], ())
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from reversi import bitboard
from reversi.notation import PASS, Move, Square
from reversi.watch import Watch

#: With at least this many empties, try first the moves that leave the opponent fewest replies.
FASTEST_FIRST_EMPTIES = 8

#: A square's rays: pairs of the bit next to it and the bit mask of the whole ray.
Rays = tuple[tuple[int, int], ...]


@cache
def rays(size: int) -> tuple[tuple[Rays, Rays], ...]:
    """For each square, its rays towards higher bits and towards lower bits.

    A ray is a pair: the bit of the square next to the start (a disc can turn
    along the ray only if an opponent disc stands there) and the bit mask of the
    whole ray.  Rays shorter than two squares are left out: nothing can be
    flipped along them.
    """
    table = []
    for square in range(size * size):
        row, col = divmod(square, size)
        higher: list[tuple[int, int]] = []
        lower: list[tuple[int, int]] = []
        for dr, dc in ((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc):
            mask, r, c = 0, row + dr, col + dc
            while 0 <= r < size and 0 <= c < size:
                mask |= 1 << (r * size + c)
                r, c = r + dr, c + dc
            if mask.bit_count() >= 2:
                next_to = 1 << ((row + dr) * size + col + dc)
                (higher if (dr, dc) > (0, 0) else lower).append((next_to, mask))
        table.append((tuple(higher), tuple(lower)))
    return tuple(table)


@cache
def quarters(size: int) -> tuple[int, ...]:
    """The four quarters of the board as bit masks (for parity ordering)."""
    half = size // 2
    return tuple(sum(1 << ((top + r) * size + left + c) for r in range(half) for c in range(half))
                 for top in (0, half) for left in (0, half))


@cache
def neighbours(size: int) -> tuple[int, ...]:
    """For each square, the bit mask of the squares next to it (a move needs an opponent there)."""
    masks = []
    for square in range(size * size):
        row, col = divmod(square, size)
        masks.append(sum(1 << (r * size + c)
                         for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                         if 0 <= r < size and 0 <= c < size and (r, c) != (row, col)))
    return tuple(masks)


def indices(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class LastSquares(Watch):
    """The tables of one board size, the move order and the plain last squares."""

    def __init__(self, size: int, clock: Callable[[], float], deadline: float | None,
                 should_stop: Callable[[], bool] | None, slice_seconds: float | None) -> None:
        super().__init__(clock, deadline, should_stop, slice_seconds)
        self.size = size
        self.geo = bitboard.geometry(size)
        self.rays = rays(size)
        self.quarters = quarters(size)
        self.neighbours = neighbours(size)
        self.squares = size * size
        self.corners = 1 | 1 << (size - 1) | 1 << (size * size - size) | 1 << (size * size - 1)
        self.orders: dict[int, tuple[tuple[int, int], ...]] = {}

    def flips(self, square: int, player: int, opponent: int) -> int:
        """The opponent discs that turn when ``player`` plays on ``square`` (an index).

        Along a ray the discs that turn are the opponent's before the first square
        that is not theirs, if that square holds a disc of the player.  "The first"
        is the lowest set bit (``x & -x``) towards higher bits, the highest
        (``x.bit_length()``) towards lower bits: no loop.
        """
        flipped = 0
        higher, lower = self.rays[square]
        for next_to, ray in higher:
            if next_to & opponent:
                beyond = ray & ~opponent
                first = beyond & -beyond
                if first & player:
                    flipped |= ray & (first - 1)
        for next_to, ray in lower:
            if next_to & opponent:
                beyond = ray & ~opponent
                if beyond:
                    first = 1 << (beyond.bit_length() - 1)
                    if first & player:
                        flipped |= ray & -(first << 1)
        return flipped

    def parity_order(self, empty: int) -> tuple[tuple[int, int], ...]:
        """The empty squares as ``(index, bit)`` pairs, those in odd quarters first (remembered)."""
        order = self.orders.get(empty)
        if order is None:
            odd = 0
            for quarter in self.quarters:
                if (empty & quarter).bit_count() & 1:
                    odd |= quarter
            order = tuple((square, 1 << square)
                          for region in (empty & odd, empty & ~odd) for square in indices(region))
            self.orders[empty] = order
        return order

    def moves(self, player: int, opponent: int, empty: int) -> list[tuple[int, int]]:
        """The legal moves as ``(bit, flipped)`` pairs, in the order worth trying first.

        With :data:`FASTEST_FIRST_EMPTIES` or more empty squares: fewest replies
        for the opponent first (a reply on a corner counts twice), then moves in
        quiet places (few empty squares around), and a corner of our own sooner.
        Closer to the end, the parity order alone: counting replies costs more
        than it saves there.
        """
        neighbours, flips = self.neighbours, self.flips
        found = []
        for square, bit in self.parity_order(empty):
            if neighbours[square] & opponent:
                flipped = flips(square, player, opponent)
                if flipped:
                    found.append((square, bit, flipped))
        if empty.bit_count() < FASTEST_FIRST_EMPTIES:
            return [(bit, flipped) for _, bit, flipped in found]
        geo, corners = self.geo, self.corners
        ranked = []
        for square, bit, flipped in found:
            replies = bitboard.legal_moves(opponent & ~flipped, player | bit | flipped, geo)
            key = (4 * (replies.bit_count() + (replies & corners).bit_count())
                   + (neighbours[square] & empty).bit_count() - (6 if bit & corners else 0))
            ranked.append((key, bit, flipped))
        ranked.sort()
        return [(bit, flipped) for _, bit, flipped in ranked]

    def after(self, bit: int, player: int, opponent: int) -> tuple[int, int]:
        """The position (side to move first) after ``player`` plays ``bit`` (0: a pass)."""
        if not bit:
            return opponent, player
        flipped = self.flips(bit.bit_length() - 1, player, opponent)
        return opponent & ~flipped, player | bit | flipped

    def move_of(self, bit: int) -> Move:
        """The move a bit stands for (0: a pass)."""
        return Square(*divmod(bit.bit_length() - 1, self.size)) if bit else PASS

    def small(self, player: int, opponent: int, alpha: int, beta: int, empty: int) -> int:
        """The exact final difference (fail-soft in ``(alpha, beta)``) with 3 to 5 empty squares.

        So close to the end a table costs more than it saves; the moves are simply
        tried in parity order, down to :meth:`two`.
        """
        self.nodes += 1
        neighbours, flips = self.neighbours, self.flips
        best = -self.squares - 1
        for square, bit in self.parity_order(empty):
            if neighbours[square] & opponent:
                flipped = flips(square, player, opponent)
                if flipped:
                    rest = empty ^ bit
                    rest_minus_one = rest & (rest - 1)
                    if rest_minus_one & (rest_minus_one - 1):  # three or more squares left
                        value = -self.small(opponent & ~flipped, player | bit | flipped,
                                            -beta, -alpha, rest)
                    else:
                        value = -self.two(opponent & ~flipped, player | bit | flipped,
                                          -beta, -alpha, rest)
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                return best
        if best > -self.squares - 1:
            return best
        for square, _ in self.parity_order(empty):  # no move: can the opponent move?
            if neighbours[square] & player and flips(square, opponent, player):
                return -self.small(opponent, player, -beta, -alpha, empty)  # a pass
        return player.bit_count() - opponent.bit_count()  # neither can: the game is over

    def two(self, player: int, opponent: int, alpha: int, beta: int, empty: int) -> int:
        """The same with two empty squares: each move is followed by the last square's score."""
        flips, last, neighbours = self.flips, self.last, self.neighbours
        low = empty & -empty
        first, second = low.bit_length() - 1, empty.bit_length() - 1
        best = -self.squares - 1
        self.nodes += 1
        flipped = neighbours[first] & opponent and flips(first, player, opponent)
        if flipped:
            self.nodes += 1
            best = -last(opponent & ~flipped, player | low | flipped, second)
            if best >= beta:
                return best
        flipped = neighbours[second] & opponent and flips(second, player, opponent)
        if flipped:
            self.nodes += 1
            value = -last(opponent & ~flipped, player | (empty ^ low) | flipped, first)
            return value if value > best else best
        if best > -self.squares - 1:
            return best
        if (neighbours[first] & player and flips(first, opponent, player)) or (
                neighbours[second] & player and flips(second, opponent, player)):
            return -self.two(opponent, player, -beta, -alpha, empty)  # a pass
        return player.bit_count() - opponent.bit_count()  # neither can: the game is over

    def last(self, player: int, opponent: int, square: int) -> int:
        """The final difference with one empty square (an index): whoever can move there does."""
        near = self.neighbours[square]
        flipped = near & opponent and self.flips(square, player, opponent)
        if flipped:
            return 2 * (player.bit_count() + flipped.bit_count()) + 2 - self.squares
        flipped = near & player and self.flips(square, opponent, player)
        if flipped:
            return 2 * (player.bit_count() - flipped.bit_count()) - self.squares
        return player.bit_count() - opponent.bit_count()
