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
in one direction, as one bit mask), and finds the discs a move turns along a ray
with a few integer operations and no loop.

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
The rays, the move order and this plain end are :mod:`reversi.lastsquares`.

**Pauses.**  Where there are no threads (Pyodide in a browser), the search must
hand the event loop a turn every few hundredths of a second and then go on where
it was.  The positions with many empty squares are therefore also searched by
generators (:meth:`Solver.search_steps`) that pause between two moves once the
slice of time is over; below :data:`PLAIN_EMPTIES` the plain recursion runs.

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
from typing import Annotated

from reversi import bitboard
from reversi.board import Board
from reversi.callables import guarded_clock, guarded_flag
from reversi.i18n import N_
from reversi.lastsquares import LastSquares
from reversi.notation import Color, Move
from reversi.surface import Between, student
from reversi.watch import Steps, run_to_end

#: With at most this many empties, search without the table, in parity order (:meth:`~reversi.lastsquares.LastSquares.small`).
SMALL_EMPTIES = 5

#: With at most this many empties a position is searched without pauses (in a few milliseconds).
PLAIN_EMPTIES = 8

#: The most positions the table holds (about 200 bytes each) before it forgets the cheapest.
TABLE_LIMIT = 4_000_000

#: A time limit in seconds, as a search takes it.
Seconds = Annotated[float, Between(1e-9, 1e9), N_("a positive number of seconds")]

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


class Solver(LastSquares):
    """One exact search: the tools of :class:`LastSquares` and a transposition table.

    ``clock``, ``deadline``, ``should_stop`` and ``slice_seconds`` say when it stops
    or pauses (see :class:`~reversi.watch.Watch`).
    """

    def __init__(
        self,
        size: int,
        clock: Callable[[], float] = time.perf_counter,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        slice_seconds: float | None = None,
    ) -> None:
        super().__init__(size, clock, deadline, should_stop, slice_seconds)
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.table_limit = TABLE_LIMIT
        # Below this alpha not even four full edges of stable discs could cut.
        self.stability_from = self.squares - 2 * 4 * (size - 1)

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
        found = self.enter(player, opponent, alpha, beta, empty)
        if isinstance(found, int):
            return found
        if not found:
            return -self.search(opponent, player, -beta, -alpha)  # a pass
        return self.best_of((player, opponent), found, alpha, beta)[0]

    def search_steps(self, player: int, opponent: int, alpha: int, beta: int) -> Steps[int]:
        """:meth:`search`, pausing between two moves when the slice is over (see :meth:`pause`)."""
        empty = self.geo.full & ~(player | opponent)
        if empty.bit_count() <= PLAIN_EMPTIES:
            return self.search(player, opponent, alpha, beta)
        found = self.enter(player, opponent, alpha, beta, empty)
        if isinstance(found, int):
            return found
        if not found:
            return -(yield from self.search_steps(opponent, player, -beta, -alpha))  # a pass
        return (yield from self.best_of_steps((player, opponent), found, alpha, beta))[0]

    def enter(self, player: int, opponent: int, alpha: int, beta: int,
              empty: int) -> int | list[tuple[int, int]]:
        """What a position with more than :data:`SMALL_EMPTIES` empties needs searched.

        Its value, if the table, the stable discs or the end of the game already
        tell it; else its moves in the order to try them (none: a pass).
        """
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        remembered = 0
        table = self.table
        entry = table.get((player, opponent))
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
        if not moves and not bitboard.legal_moves(opponent, player, self.geo):
            return player.bit_count() - opponent.bit_count()
        # Enhanced transposition cut-off: a reply already known to be good enough ends it.
        for bit, flipped in moves:
            entry = table.get((opponent & ~flipped, player | bit | flipped))
            if entry is not None and -entry[1] >= beta:
                return -entry[1]
        if remembered:
            moves.sort(key=lambda pair: pair[0] != remembered)
        return moves

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
        self.remember(key, start_alpha, beta, best, best_move)
        return best, best_move

    def best_of_steps(self, key: tuple[int, int], moves: list[tuple[int, int]], alpha: int,
                      beta: int) -> Steps[tuple[int, int]]:
        """:meth:`best_of`, pausing before a move when the slice is over (the same search)."""
        player, opponent = key
        start_alpha, best, best_move = alpha, -self.squares - 1, 0
        for bit, flipped in moves:
            yield from self.pause()
            child = (opponent & ~flipped, player | bit | flipped)
            if best_move:
                value = -(yield from self.search_steps(*child, -alpha - 1, -alpha))
                if alpha < value < beta:
                    value = -(yield from self.search_steps(*child, -beta, -value))
            else:
                value = -(yield from self.search_steps(*child, -beta, -alpha))
            if value > best:
                best, best_move = value, bit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.remember(key, start_alpha, beta, best, best_move)
        return best, best_move

    def remember(self, key: tuple[int, int], alpha: int, beta: int, best: int, move: int) -> None:
        """Store what a search in ``(alpha, beta)`` proved of a position: its bounds and best move."""
        low = best if best > alpha else -self.squares
        high = best if best < beta else self.squares
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

    def line(self, player: int, opponent: int, length: int = 60,
             pick: Callable[[int, int], int] | None = None) -> tuple[int, ...]:
        """The best moves remembered from a position (bits; 0 for a pass).

        ``pick`` gives the best move of a position (0: not known), by default :meth:`best_known`.
        """
        pick = pick or self.best_known
        out: list[int] = []
        while len(out) < length:
            if not bitboard.legal_moves(player, opponent, self.geo):
                if not bitboard.legal_moves(opponent, player, self.geo):
                    break  # the game is over
                out.append(0)  # the side to move must pass
                player, opponent = opponent, player
                continue
            bit = pick(player, opponent)
            if not bit:
                break
            out.append(bit)
            player, opponent = self.after(bit, player, opponent)
        return tuple(out)

    def best_known(self, player: int, opponent: int) -> int:
        """The best move the table remembers (a few squares from the end, solved again; else 0)."""
        entry = self.table.get((player, opponent))
        if entry is not None:
            return entry[2]
        if (self.geo.full & ~(player | opponent)).bit_count() > SMALL_EMPTIES:
            return 0  # too far from the end to solve again here
        limit = self.squares + 1
        with self.unpaused():  # a few squares: quick
            return run_to_end(self.root(player, opponent, -limit, limit))[0]

    def root(self, player: int, opponent: int, alpha: int, beta: int) -> Steps[tuple[int, int]]:
        """The best move (a bit, 0 to pass) and its value, searched in ``(alpha, beta)``."""
        self.nodes += 1
        empty = self.geo.full & ~(player | opponent)
        moves = self.moves(player, opponent, empty)
        if not moves:
            return 0, (yield from self.search_steps(player, opponent, alpha, beta))
        entry = self.table.get((player, opponent))
        if entry is not None:
            moves.sort(key=lambda pair: pair[0] != entry[2])
        best, best_move = yield from self.best_of_steps((player, opponent), moves, alpha, beta)
        return best_move, best


@student
def solve(
    board: Board,
    color: Color,
    *,
    wld: bool = False,
    time_limit: Seconds | None = None,
    clock: Callable[[], float] = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
) -> Solution:
    """Solve ``board`` exactly for ``color`` to move: the best move and the final disc difference.

    With ``wld`` only win, draw or loss is asked (``value`` is 1, 0 or -1).
    ``time_limit`` (seconds of ``clock``) and ``should_stop`` can cut the search
    short; it then raises :class:`SearchStopped` (there is no half answer to an
    exact question).
    """
    clock = guarded_clock(clock)
    deadline = None if time_limit is None else clock() + time_limit
    solver = Solver(board.size, clock, deadline, guarded_flag(should_stop))
    player, opponent = board.bits(color), board.bits(color.opponent)
    limit = board.size * board.size
    low, high = (-1, 1) if wld else (-limit - 1, limit + 1)
    bit, value = run_to_end(solver.root(player, opponent, low, high))
    if wld:
        value = (value > 0) - (value < 0)
    line = (bit, *solver.line(*solver.after(bit, player, opponent)))
    moves = tuple(solver.move_of(b) for b in line)
    return Solution(moves[0], value, solver.nodes, moves, wld)
