"""The exact endgame solver: perfect play to the last disc, and the final disc difference.

Near the end of a game there are so few empty squares that a computer can try
*every* way the game can finish.  Then no evaluation is needed: the value of a
position is the disc difference the side to move reaches when both sides play
perfectly (``+6`` means "I win by six discs").  A finished game is scored by its
discs alone, as :func:`reversi.evaluation.final_score` does (empty squares left
at a stalemate count for nobody).

Two questions can be asked:

* **exact**: by how many discs does the side to move win or lose?  The search
  window is the whole range ``-size*size .. size*size``.
* **win/draw/loss** (``wld``): only the sign.  The window ``(-1, 1)`` lets
  alpha-beta cut far more lines, so this answer comes much faster.

Five things make the solver quick enough in pure Python:

**Flips along rays.**  For each square the solver keeps its *rays* (the squares
in one direction, as one bit mask, with the square next to the start).  A ray is
looked at only if an opponent disc stands next to the start.  Along it, the
discs that turn are the opponent discs before the first square that is not the
opponent's, provided that square holds one of the player's discs.  "The first
square" is the lowest set bit (``x & -x``) for rays running to higher bits and
the highest (``x.bit_length()``) for the others, so a ray costs a few integer
operations and no loop.

**Move order.**  With many empties the solver tries first the moves that leave
the opponent the fewest replies (*fastest-first*): a cramped opponent has few
moves to search and often must give up a lot.  With few empties it uses
*parity*: it plays first in the board's quarters holding an odd number of
empty squares, since the side that fills a region last keeps what it takes.

**A transposition table.**  The same position is often reached by moves in a
different order.  The table remembers, for the two bit masks of a position, the
bounds already proved on its value and the best move found, which is tried first
next time.  Before searching its moves, a position looks each reply up: one
already known to be good enough ends the search at once (*enhanced
transposition cut-off*).

**Stable discs.**  Discs that can never turn again (see
:func:`reversi.bitboard.stable`) are sure to count at the end.  When the
opponent's stable discs alone keep the result below what the player is already
sure of, the position needs no search.

**A plain end.**  With five empty squares or fewer, the table and the move
counting cost more than they save: the last squares are tried in parity order,
and the last one is scored without playing it (the discs it turns, counted).

>>> from reversi.board import Board
>>> from reversi.notation import BLACK
>>> board = Board.from_text('''
... B B B B
... B W W .
... B B W .
... B B B .
... ''')
>>> result = solve(board, BLACK)
>>> str(result.move), result.value
('d4', 15)
>>> [str(move) for move in result.line]  # d4, White has no reply, d2 takes the last White disc
['d4', 'pass', 'd2']
>>> solve(board, BLACK, wld=True).value  # only the sign: a win
1
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from reversi import bitboard
from reversi.board import Board, check_position
from reversi.callables import guarded_clock, guarded_flag
from reversi.errors import ArgumentError, SearchStopped, shown
from reversi.notation import PASS, Color, Move, Square

#: Solver and its tables are solve()'s machinery, on raw bit masks; they check nothing.
__all__ = [
    "Solution",
    "solve",
    "check_search",
]

#: Check the clock and the stop flag once per this many positions.
POLL_EVERY = 256

#: With at most this many empties, search without the table, in parity order (:meth:`Solver.small`).
SMALL_EMPTIES = 5

#: The most positions the table holds (about 200 bytes each) before it forgets the cheapest.
TABLE_LIMIT = 4_000_000

#: With at least this many empties, try first the moves that leave the opponent fewest replies.
FASTEST_FIRST_EMPTIES = 8


@dataclass(frozen=True)
class Solution:
    """The result of an exact solve: the best move, its value and the effort.

    ``value`` is the final disc difference for the side to move with perfect play
    (with ``wld``, only its sign: ``1``, ``0`` or ``-1``).  ``line`` is the
    expected continuation, best move first, as far as the table remembers it.
    """

    move: Move
    value: int
    nodes: int
    line: tuple[Move, ...]
    wld: bool = False


@cache
def rays(size: int) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...]:
    """For each square, its rays towards higher bits and towards lower bits.

    A ray is a pair: the bit of the square next to the start (a disc can turn
    along the ray only if an opponent disc stands there) and the bit mask of the
    whole ray.  Rays shorter than two squares are left out: nothing can be
    flipped along them.

    >>> up, down = rays(4)[0]  # from a1: right, down-right and down (all towards higher bits)
    >>> sorted((bin(next_to), bin(ray)) for next_to, ray in up), down
    ([('0b10', '0b1110'), ('0b10000', '0b1000100010000'), ('0b100000', '0b1000010000100000')], ())
    """
    table = []
    for square in range(size * size):
        row, col = divmod(square, size)
        higher: list[tuple[int, int]] = []
        lower: list[tuple[int, int]] = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == dc == 0:
                    continue
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
    masks = []
    for top in (0, half):
        for left in (0, half):
            masks.append(sum(1 << ((top + r) * size + left + c)
                             for r in range(half) for c in range(half)))
    return tuple(masks)


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


class Solver:
    """One exact search: the board geometry, the table, a node counter and the ways to stop.

    ``deadline`` is a reading of ``clock`` after which the search gives up;
    ``should_stop`` is asked at the same moments and stops the search when it
    returns true.  Either raises :class:`SearchStopped`.
    """

    def __init__(
        self,
        size: int,
        clock: Callable[[], float] = time.perf_counter,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> None:
        self.size = size
        self.geo = bitboard.geometry(size)
        self.rays = rays(size)
        self.quarters = quarters(size)
        self.neighbours = neighbours(size)
        self.corners = 1 | 1 << (size - 1) | 1 << (size * size - size) | 1 << (size * size - 1)
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.table_limit = TABLE_LIMIT
        self.squares = size * size
        # Below this alpha not even four full edges of stable discs could cut.
        self.stability_from = self.squares - 2 * 4 * (size - 1)
        self.nodes = 0
        self.clock, self.deadline, self.should_stop = clock, deadline, should_stop
        self.poll_every = POLL_EVERY
        self._next_poll = 0  # the first position polls: a search out of time stops at once
        self._last_poll: float | None = None
        self._gap = 0.0  # the longest time between two polls so far
        self._orders: dict[int, tuple[tuple[int, int], ...]] = {}

    def flips(self, square: int, player: int, opponent: int) -> int:
        """The opponent discs that turn when ``player`` plays on ``square`` (an index)."""
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

    def poll(self) -> None:
        """Stop the search (raise :class:`SearchStopped`) if time is (nearly) up or a stop was asked.

        "Nearly": if the next poll, as far apart as the longest gap between two
        polls so far, would come after the deadline, the search stops now.
        """
        self._next_poll = self.nodes + self.poll_every
        if self.deadline is not None:
            # Stop if the next poll would come after the deadline: the time between
            # polls grows when other programs share the processor.
            now = self.clock()
            if self._last_poll is not None:
                self._gap = max(self._gap, now - self._last_poll)
            self._last_poll = now
            if now + self._gap >= self.deadline:
                raise SearchStopped
        if self.should_stop is not None and self.should_stop():
            raise SearchStopped

    def parity_order(self, empty: int) -> tuple[tuple[int, int], ...]:
        """The empty squares as ``(index, bit)`` pairs, those in odd quarters first (remembered)."""
        order = self._orders.get(empty)
        if order is None:
            odd = 0
            for quarter in self.quarters:
                if (empty & quarter).bit_count() & 1:
                    odd |= quarter
            order = tuple((square, 1 << square)
                          for region in (empty & odd, empty & ~odd) for square in _indices(region))
            self._orders[empty] = order
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

    def search(self, player: int, opponent: int, alpha: int, beta: int) -> int:
        """The exact final disc difference for ``player`` (to move), if it lies in ``(alpha, beta)``.

        Outside the window the answer is a bound (fail-soft): at most ``alpha``
        or at least ``beta``.
        """
        empty = self.geo.full & ~(player | opponent)
        count = empty.bit_count()
        if count <= SMALL_EMPTIES:
            if count > 2:
                return self.small(player, opponent, alpha, beta, empty)
            if count == 2:
                return self.two(player, opponent, alpha, beta, empty)
            self.nodes += 1
            if count == 1:
                return self.last(player, opponent, empty.bit_length() - 1)
            return player.bit_count() - opponent.bit_count()
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self.poll()
        key = (player, opponent)
        remembered = 0
        table = self.table
        entry = table.get(key)
        if entry is not None:
            low, high, remembered = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
        if alpha >= self.stability_from:
            # Stability cut-off: the opponent's discs that can never turn keep the
            # best possible result below what the player is already sure of.
            ceiling = self.squares - 2 * bitboard.stable(opponent, player | opponent, self.geo).bit_count()
            if ceiling <= alpha:
                return ceiling
        moves = self.moves(player, opponent, empty)
        if not moves:
            if not bitboard.legal_moves(opponent, player, self.geo):
                return player.bit_count() - opponent.bit_count()
            return -self.search(opponent, player, -beta, -alpha)  # a pass
        # Enhanced transposition cut-off: a reply already known to be good enough ends it.
        for bit, flipped in moves:
            entry = table.get((opponent & ~flipped, player | bit | flipped))
            if entry is not None and -entry[1] >= beta:
                return -entry[1]
        if remembered:
            moves.sort(key=lambda pair: pair[0] != remembered)
        return self.best_of(key, moves, alpha, beta)[0]

    def best_of(self, key: tuple[int, int], moves: list[tuple[int, int]], alpha: int,
                beta: int) -> tuple[int, int]:
        """Search ``moves`` of the position ``key`` in order; its value (fail-soft) and best move.

        Principal variation search: the first move is probably best, so a later
        one is only asked whether it beats it (a null window), and searched for
        how much only when it does.  What was proved goes into the table.
        """
        player, opponent = key
        start_alpha, best, best_move = alpha, -self.squares - 1, 0
        for bit, flipped in moves:
            child = (opponent & ~flipped, player | bit | flipped)
            if best_move:
                value = -self.search(*child, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.search(*child, -beta, -value)
            else:
                value = -self.search(*child, -beta, -alpha)
            if value > best:
                best, best_move = value, bit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        low = best if best > start_alpha else -self.squares
        high = best if best < beta else self.squares
        self.remember(key, low, high, best_move)
        return best, best_move

    def remember(self, key: tuple[int, int], low: int, high: int, move: int) -> None:
        """Store what a search proved of a position: bounds on its value and its best move."""
        self.table[key] = (low, high, move)
        if len(self.table) > self.table_limit:
            self.forget()

    def forget(self) -> None:
        """Keep the table within :data:`TABLE_LIMIT` positions: drop those closest to the end.

        They are the many and the cheap ones to find again; positions with more
        empty squares than half of those in the table are kept.
        """
        full = self.geo.full
        counts = sorted((full & ~(player | opponent)).bit_count() for player, opponent in self.table)
        keep_from = counts[len(counts) // 2] + 1
        kept = {key: entry for key, entry in self.table.items()
                if (full & ~(key[0] | key[1])).bit_count() >= keep_from}
        self.table.clear()
        self.table.update(kept)

    def small(self, player: int, opponent: int, alpha: int, beta: int, empty: int) -> int:
        """:meth:`search` with a few empty squares (3 to :data:`SMALL_EMPTIES`): no table, parity order.

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
        """:meth:`search` with two empty squares: each move is followed by the last square's score."""
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

    def line(self, player: int, opponent: int, length: int = 60) -> tuple[int, ...]:
        """The best moves the table remembers from a position (bits; 0 for a pass)."""
        out: list[int] = []
        while len(out) < length:
            if not bitboard.legal_moves(player, opponent, self.geo):
                if not bitboard.legal_moves(opponent, player, self.geo):
                    break  # the game is over
                out.append(0)  # the side to move must pass
                player, opponent = opponent, player
                continue
            entry = self.table.get((player, opponent))
            if entry is None:
                empties = (self.geo.full & ~(player | opponent)).bit_count()
                if empties > SMALL_EMPTIES:
                    break  # not remembered, and too far from the end to solve again here
                limit = self.squares + 1
                bit = self.root(player, opponent, -limit, limit)[0]  # a few squares: quick
            else:
                bit = entry[2]
            flipped = self.flips(bit.bit_length() - 1, player, opponent)
            out.append(bit)
            player, opponent = opponent & ~flipped, player | bit | flipped
        return tuple(out)

    def root(self, player: int, opponent: int, alpha: int, beta: int) -> tuple[int, int]:
        """The best move (a bit, 0 to pass) and its value, searched in ``(alpha, beta)``."""
        self.nodes += 1
        empty = self.geo.full & ~(player | opponent)
        moves = self.moves(player, opponent, empty)
        if not moves:
            return 0, self.search(player, opponent, alpha, beta)
        entry = self.table.get((player, opponent))
        if entry is not None:
            moves.sort(key=lambda pair: pair[0] != entry[2])
        best, best_move = self.best_of((player, opponent), moves, alpha, beta)
        return best_move, best


def solve(
    board: Board,
    color: Color,
    *,
    wld: bool = False,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
) -> Solution:
    """Solve ``board`` exactly for ``color`` to move: the best move and the final disc difference.

    With ``wld`` only win, draw or loss is asked (``value`` is 1, 0 or -1).
    ``time_limit`` (seconds of ``clock``) and ``should_stop`` can cut the search
    short; it then raises :class:`SearchStopped` (there is no half answer to an
    exact question).  Arguments it cannot take raise
    :class:`~reversi.errors.ArgumentError` naming them.
    """
    time_limit = check_search(board, color, time_limit)
    if not isinstance(wld, bool):
        raise ArgumentError(f"wld must be True or False, not {shown(wld)}")
    clock = guarded_clock(clock)
    deadline = None if time_limit is None else clock() + time_limit
    solver = Solver(board.size, clock, deadline, guarded_flag(should_stop))
    player, opponent = board.bits(color), board.bits(color.opponent)
    limit = board.size * board.size
    low, high = (-1, 1) if wld else (-limit - 1, limit + 1)
    bit, value = solver.root(player, opponent, low, high)
    if wld:
        value = (value > 0) - (value < 0)
    line = (bit, *solver.line(*_after(solver, bit, player, opponent)))
    moves = tuple(_move_of(b, board.size) for b in line)
    return Solution(moves[0], value, solver.nodes, moves, wld)


def check_search(board: object, color: object, time_limit: object) -> float | None:
    """The time limit as seconds (or ``None``) if a search can take these arguments.

    Otherwise an :class:`~reversi.errors.ArgumentError` names the one it cannot take.

    >>> check_search(Board(), "black", None)
    Traceback (most recent call last):
    ...
    reversi.errors.ArgumentError: the side to move must be BLACK or WHITE, not 'black'
    """
    check_position(board, color)
    if time_limit is None:
        return None
    if (isinstance(time_limit, bool) or not isinstance(time_limit, int | float)
            or not 0 < time_limit < 1e300):  # refuses nan and infinity too
        raise ArgumentError(f"time limit {shown(time_limit)} is not a positive number of seconds")
    return float(time_limit)


def _after(solver: Solver, bit: int, player: int, opponent: int) -> tuple[int, int]:
    """The position (side to move first) after ``player`` plays ``bit`` (0: a pass)."""
    if not bit:
        return opponent, player
    flipped = solver.flips(bit.bit_length() - 1, player, opponent)
    return opponent & ~flipped, player | bit | flipped


def _move_of(bit: int, size: int) -> Move:
    return Square(*divmod(bit.bit_length() - 1, size)) if bit else PASS


def _indices(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
