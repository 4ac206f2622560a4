"""The strong search: alpha-beta with a transposition table, iterative deepening and an exact end.

:mod:`reversi.search` shows the plain methods; this module adds what makes a
program strong, each idea a few lines:

**Iterative deepening.**  Search depth 1, then 2, then 3, ... until the time is
up, and play the best move of the deepest search that finished.  The shallow
searches cost little and teach the deeper ones which moves to try first: at the
root, the moves are tried in the order of the previous depth's values.

**A transposition table** keyed on the two bit masks of a position remembers,
for each position searched, the depth, the bounds proved on its value and the
best move.  The best move is tried first when the position comes back (in the
next, deeper iteration or by another order of moves).  A remembered bound ends
the search of a position only if it was found at the *same* depth, so the value
is exactly the minimax value of that depth, as :func:`reversi.search.minimax`
would find (only faster).

**Principal variation search.**  After the first move (probably the best), each
other move is only asked "are you better?" with a null window, which is
cheaper; the few that say yes are searched again for their value.

**The exact end.**  With at most ``solve_empties`` squares empty, the solver
of :mod:`reversi.endgame` takes over and plays perfectly to the last disc.

**Win, draw or loss before the exact end.**  A few squares earlier (at most
``wld_empties`` empty) the solver can still answer the cheaper question "does
this move win?" (a window around a draw cuts far more lines than the exact
disc count needs).  There the search spends :data:`MIDGAME_SHARE` of its time
on the usual deepening, then tries the moves in the order it found, asking the
solver of each whether it wins; the first that wins is played, else the first
that draws.  If every move loses against perfect play, or the time runs out
before the proof, the deepening's move is played: an opponent who is not
perfect may still go wrong.  Games between strong programs are mostly decided
in their last twenty moves, so this is where extra time counts most.

The search keeps its time limit and stops at once when asked (:mod:`reversi.watch`).
After every finished depth it passes a :class:`Thought` (depth, best move, value,
principal variation, nodes) to a callback.

**One search in slices.**  Without threads (Pyodide in a browser) :func:`thinking` runs the
same search as a generator that pauses after a slice of time (or sooner, when asked) and goes
on where it was, with its table, move order and depth: it finds what one search finds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Annotated

from reversi import bitboard
from reversi.board import Board
from reversi.callables import guarded_callback, guarded_clock, guarded_flag, guarded_score
from reversi.endgame import Seconds, Solver
from reversi.errors import SearchStopped
from reversi.evaluation import FINAL_DISC_VALUE, final_score, strong_score, weight_masks
from reversi.notation import PASS, Color, Move
from reversi.surface import Between, student
from reversi.watch import Steps, run_to_end

#: Read the clock and the stop flag once per this many positions.
POLL_EVERY = 64

#: The deepest search :func:`think` tries (it normally runs out of time long before).
MAX_DEPTH = 60

#: Before a win/draw/loss proof, the share of the time limit given to the ordinary deepening.
MIDGAME_SHARE = 0.3

#: With at most this many plies to go a position is searched without pauses (a few milliseconds).
PLAIN_DEPTH = 2

#: More than any score a position can have.
INFINITY = 10**15

Score = Callable[[int, int, bitboard.Geometry], int]

#: How many squares from the end the exact solver (or the win/draw/loss proof) takes over.
Empties = Annotated[int, Between(0, 256)]


@dataclass(frozen=True)
class Thought:
    """What the search thinks after a finished depth: its best move and why.

    ``value`` is for the side to move, in evaluation points; when ``exact`` it is
    the final disc difference with perfect play times
    :data:`~reversi.evaluation.FINAL_DISC_VALUE`.  ``line`` is the principal
    variation: the moves both sides are expected to play, best move first
    (``PASS`` where a side must pass).  ``nodes`` counts every position looked at
    so far, ``seconds`` the time spent.  ``outcome`` is ``1``, ``0`` or ``-1``
    when the solver proved that ``move`` wins, draws or (like every move) loses
    with perfect play; ``value`` then stays the deepening's evaluation.
    """

    depth: int
    move: Move
    value: int
    line: tuple[Move, ...]
    nodes: int
    seconds: float
    exact: bool = False
    outcome: int | None = None

    @property
    def discs(self) -> int | None:
        """The disc difference the value promises, if it is a finished game's score."""
        if abs(self.value) >= FINAL_DISC_VALUE:
            return round(self.value / FINAL_DISC_VALUE)
        return 0 if self.exact else None

    def summary(self) -> str:
        """One line for people: ``depth 6: d3 c5 f6 ..., +34`` or ``exact: wins by 12``."""
        shown = " ".join("pass" if move is PASS else str(move) for move in self.line[:8])
        discs = self.discs
        if discs is None:
            proved = {None: "", 1: ", a sure win", 0: ", a sure draw", -1: ", lost with perfect play"}
            return f"depth {self.depth}: {shown}, {self.value:+d}{proved[self.outcome]}"
        verdict = f"wins by {discs}" if discs > 0 else f"loses by {-discs}" if discs else "draws"
        return f"{'exact' if self.exact else f'depth {self.depth}'}: {shown}, {verdict}"


class Engine(Solver):
    """One strong search: the exact solver's tools plus a depth-limited search and its table."""

    def __init__(
        self,
        size: int,
        clock: Callable[[], float] = time.perf_counter,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        slice_seconds: float | None = None,
        score: Score = strong_score,
    ) -> None:
        super().__init__(size, clock, deadline, should_stop, slice_seconds)
        self.poll_every = POLL_EVERY  # the evaluation makes a position slower than in the solver
        self.score = score
        self.order = weight_masks(size)
        self.depth_table: dict[tuple[int, int], tuple[int, int, int, int]] = {}

    def ordered(self, moves: int, first: int) -> Iterator[int]:
        """The move bits of ``moves``: ``first`` (if legal), then heaviest square weight first."""
        if moves & first:
            yield first
            moves ^= first
        for _, mask in self.order:
            yield from bitboard.bits_of(moves & mask)

    def alphabeta(self, player: int, opponent: int, depth: int, alpha: int, beta: int) -> int:
        """The ``depth``-ply minimax value for ``player`` (to move), if inside ``(alpha, beta)``."""
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        if depth == 0:
            return self.score(player, opponent, self.geo)
        found = self.look_up(player, opponent, depth, alpha, beta)
        if isinstance(found, int):
            return found
        moves, first = found
        if not moves:
            return -self.alphabeta(opponent, player, depth - 1, -beta, -alpha)  # a pass
        start_alpha, best, best_move = alpha, -INFINITY, 0
        for move in self.ordered(moves, first):
            flipped = self.flips(move.bit_length() - 1, player, opponent)
            child = (opponent & ~flipped, player | move | flipped)
            if best_move and beta - alpha > 1:  # principal variation search
                value = -self.alphabeta(*child, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.alphabeta(*child, depth - 1, -beta, -value)
            else:
                value = -self.alphabeta(*child, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.store((player, opponent), depth, start_alpha, beta, best, best_move)
        return best

    def alphabeta_steps(self, player: int, opponent: int, depth: int, alpha: int, beta: int) -> Steps[int]:
        """:meth:`alphabeta`, pausing before a move when the slice is over (the same search)."""
        if depth <= PLAIN_DEPTH:
            return self.alphabeta(player, opponent, depth, alpha, beta)
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self.poll()
        found = self.look_up(player, opponent, depth, alpha, beta)
        if isinstance(found, int):
            return found
        moves, first = found
        if not moves:
            return -(yield from self.alphabeta_steps(opponent, player, depth - 1, -beta, -alpha))
        start_alpha, best, best_move = alpha, -INFINITY, 0
        for move in self.ordered(moves, first):
            yield from self.pause()
            flipped = self.flips(move.bit_length() - 1, player, opponent)
            child = (opponent & ~flipped, player | move | flipped)
            if best_move and beta - alpha > 1:
                value = -(yield from self.alphabeta_steps(*child, depth - 1, -alpha - 1, -alpha))
                if alpha < value < beta:
                    value = -(yield from self.alphabeta_steps(*child, depth - 1, -beta, -value))
            else:
                value = -(yield from self.alphabeta_steps(*child, depth - 1, -beta, -alpha))
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.store((player, opponent), depth, start_alpha, beta, best, best_move)
        return best

    def look_up(self, player: int, opponent: int, depth: int, alpha: int, beta: int) -> int | tuple[int, int]:
        """The value the table (at this depth) or the game's end tells, else the moves and the best known."""
        entry = self.depth_table.get((player, opponent))
        first = 0
        if entry is not None:
            searched, low, high, first = entry
            if searched == depth:
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
        moves = bitboard.legal_moves(player, opponent, self.geo)
        if not moves and not bitboard.legal_moves(opponent, player, self.geo):
            return final_score(player, opponent)
        return moves, first

    def store(self, key: tuple[int, int], depth: int, alpha: int, beta: int, best: int, move: int) -> None:
        """Remember what a ``depth``-ply search in ``(alpha, beta)`` proved: bounds and best move."""
        low = best if best > alpha else -INFINITY
        high = best if best < beta else INFINITY
        self.depth_table[key] = (depth, low, high, move)

    def deepen(self, player: int, opponent: int, depth: int, moves: list[int]) -> Steps[dict[int, int]]:
        """Search each root move ``depth`` plies deep, in the given order; the values by move.

        Only the best move's value is exact; the others are bounds (enough to sort them by).
        """
        values: dict[int, int] = {}
        alpha = -INFINITY
        for move in moves:
            yield from self.pause()
            child = self.after(move, player, opponent)
            if values:
                value = -(yield from self.alphabeta_steps(*child, depth - 1, -alpha - 1, -alpha))
                if value > alpha:
                    value = -(yield from self.alphabeta_steps(*child, depth - 1, -INFINITY, -value))
            else:
                value = -(yield from self.alphabeta_steps(*child, depth - 1, -INFINITY, INFINITY))
            values[move] = value
            alpha = max(alpha, value)
        return values

    def best_searched(self, player: int, opponent: int) -> int:
        """The best move the depth table remembers for a position (0: none)."""
        entry = self.depth_table.get((player, opponent))
        return entry[3] if entry is not None else 0

    def thought(self, depth: int, line: list[int] | tuple[int, ...], value: int, start: float,
                exact: bool = False) -> Thought:
        """A :class:`Thought` of this search: ``line`` (bits) leads, ``start`` is when it began."""
        moves = tuple(self.move_of(bit) for bit in line)
        return Thought(depth, moves[0], value, moves, self.nodes, self.clock() - start, exact)


@student
def think(
    board: Board,
    color: Color,
    *,
    time_limit: Seconds | None = None,
    max_depth: Annotated[int, Between(1, MAX_DEPTH)] = MAX_DEPTH,
    solve_empties: Empties = 14,
    wld_empties: Empties = 0,
    clock: Callable[[], float] = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
    on_thought: Callable[[Thought], object] | None = None,
    score: Score = strong_score,
) -> Thought:
    """The best move for ``color`` found in ``time_limit`` seconds (or by ``max_depth``).

    Depth 1, 2, ... are searched until the clock passes ``time_limit``, the depth
    reaches ``max_depth`` or the game's end, or ``should_stop()`` returns true;
    the answer is the last finished depth's.  With at most ``solve_empties``
    empty squares the exact solver takes over; with at most ``wld_empties`` (and
    more than ``solve_empties``) the deepening is followed by a win/draw/loss
    proof (see the module's docstring).  ``on_thought`` is called with
    each finished depth's :class:`Thought`.  Without a legal move the answer is
    ``PASS``; if not even depth 1 finishes, the first move in search order.
    Every option is given by name.  A function handed in that misbehaves raises
    :class:`~reversi.errors.ArgumentError` naming it (see :mod:`reversi.callables`).

    >>> from reversi.notation import BLACK
    >>> thought = think(Board(), BLACK, max_depth=4)
    >>> thought.depth, Board().is_legal(thought.move, BLACK), len(thought.line)
    (4, True, 4)
    """
    return run_to_end(thinking(
        board, color, time_limit=time_limit, max_depth=max_depth, solve_empties=solve_empties,
        wld_empties=wld_empties, clock=clock, should_stop=should_stop, on_thought=on_thought,
        score=score))


@student
def thinking(
    board: Board,
    color: Color,
    *,
    time_limit: Seconds | None = None,
    max_depth: Annotated[int, Between(1, MAX_DEPTH)] = MAX_DEPTH,
    solve_empties: Empties = 14,
    wld_empties: Empties = 0,
    clock: Callable[[], float] = time.perf_counter,
    should_stop: Callable[[], bool] | None = None,
    on_thought: Callable[[Thought], object] | None = None,
    score: Score = strong_score,
    slice_seconds: Annotated[float, Between(0, 60)] | None = None,
    should_pause: Callable[[], bool] | None = None,
) -> Steps[Thought]:
    """:func:`think` as a generator that pauses (yields ``None``) after each slice of ``slice_seconds``
    (sooner if ``should_pause()`` returns true).  Resumed with ``next()``, it goes on where it stopped;
    its return value (``StopIteration.value``) is :func:`think`'s answer.  The time limit counts the
    time between slices too.
    """
    clock = guarded_clock(clock)
    report = guarded_callback(on_thought, "on_thought") or (lambda thought: None)
    start = clock()
    deadline = None if time_limit is None else start + time_limit
    engine = Engine(board.size, clock, deadline, guarded_flag(should_stop), slice_seconds,
                    score if score is strong_score else guarded_score(score, INFINITY))
    engine.should_pause = guarded_flag(should_pause, "should_pause")
    player, opponent = board.bits(color), board.bits(color.opponent)
    moves = list(engine.ordered(bitboard.legal_moves(player, opponent, engine.geo), 0))
    if not moves:
        return Thought(0, PASS, 0, (), 0, 0.0)
    thought = Thought(0, engine.move_of(moves[0]), 0, (engine.move_of(moves[0]),), 0, 0.0)  # no depth done
    empties = board.count(None)
    prove = solve_empties < empties <= wld_empties
    if prove and time_limit is not None:
        engine.deadline = start + MIDGAME_SHARE * time_limit
    for depth in range(1, max_depth + 1):
        try:
            # Solve once a few depths have given a fallback answer (the solve may run out of time).
            if empties <= solve_empties and (depth > 4 or (empties <= 10 and depth > 2)):
                thought = yield from solved(engine, player, opponent, start)
            else:
                values = yield from engine.deepen(player, opponent, depth, moves)
                moves.sort(key=lambda move: -values[move])  # stable: ties keep their order
                best = moves[0]
                line = [best, *engine.line(*engine.after(best, player, opponent), depth - 1,
                                           engine.best_searched)]
                thought = engine.thought(depth, line, values[best], start)
        except SearchStopped:
            break
        report(thought)
        if thought.exact or depth > 2 * empties:
            break  # every line already reaches the end (a move per square, a pass between)
    if prove and thought.depth:
        engine.deadline = deadline
        try:
            thought = yield from proved(engine, player, opponent, moves, thought)
        except SearchStopped:
            pass
        else:
            report(thought)
    return replace(thought, nodes=engine.nodes, seconds=clock() - start)


def solved(engine: Engine, player: int, opponent: int, start: float) -> Steps[Thought]:
    """The exact solution as a :class:`Thought` (the table gives its line)."""
    limit = engine.squares + 1
    move, discs = yield from engine.root(player, opponent, -limit, limit)
    line = (move, *engine.line(*engine.after(move, player, opponent)))
    return engine.thought(engine.squares - (player | opponent).bit_count(), line, discs * FINAL_DISC_VALUE,
                          start, exact=True)


def proved(engine: Engine, player: int, opponent: int, moves: list[int], thought: Thought) -> Steps[Thought]:
    """``thought`` with a move proved to win (else draw) if there is one, and the outcome.

    ``moves`` are tried in the deepening's order, each by a root search for the opponent in a
    window asking if it beats the best so far: "win, draw or loss?", after a draw "does it win?".
    """
    best, best_move = -2, moves[0]
    for move in moves:
        alpha = max(best, -1)
        _, reply = yield from engine.root(*engine.after(move, player, opponent), -1, -alpha)
        if -reply > best:
            best, best_move = -reply, move
            if best > 0:
                break
    outcome = (best > 0) - (best < 0)
    if outcome < 0:
        return replace(thought, outcome=-1)
    line = tuple(engine.move_of(bit) for bit in (best_move, *engine.line(*engine.after(best_move, player, opponent))))
    return replace(thought, move=line[0], line=line, nodes=engine.nodes, exact=False, outcome=outcome)
