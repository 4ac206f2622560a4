"""Computer players that look several moves ahead: with :mod:`reversi.search` or :mod:`reversi.engine`."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from reversi.board import Board
from reversi.engine import Thought, think
from reversi.errors import PlayerError, shown
from reversi.i18n import _
from reversi.notation import PASS, Color, Move
from reversi.players.base import Player
from reversi.search import MAX_DEPTH, Clock, SearchResult, alphabeta, iterative_deepening, minimax
from reversi.surface import student


class MinimaxPlayer(Player):
    """Tries every line of play ``depth`` moves deep and plays the best (plain minimax).

    Of equally good moves it plays the last in reading order, as every player of the
    kit's lessons does (see :mod:`reversi.search`).

    ``last_result`` holds the last :class:`~reversi.search.SearchResult`, to show
    how many positions the search visited.
    """

    kind = "minimax"
    label = "Minimax"

    def __init__(self, name: str | None = None, *, depth: int = 3) -> None:
        super().__init__(name)
        self.depth = _checked_depth(depth)
        self.last_result: SearchResult | None = None

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        if not board.has_legal_move(color):
            return PASS
        self.last_result = minimax(board, color, self.depth)
        return self.last_result.move

    def options(self) -> dict[str, Any]:
        return {"depth": self.depth}


class AlphaBetaPlayer(Player):
    """Minimax with alpha-beta pruning: the same choice, found visiting far fewer positions.

    With ``time_limit`` (seconds per move) it searches depth 1, 2, ... up to
    ``depth`` and plays the move of the deepest search finished in time.
    ``clock`` (seconds, :func:`time.perf_counter` by default) can be replaced
    by a fake clock in tests.
    """

    kind = "alphabeta"
    label = "Alpha-beta"

    def __init__(
        self,
        name: str | None = None,
        *,
        depth: int = 4,
        time_limit: float | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(name)
        self.depth = _checked_depth(depth)
        self.time_limit = _checked_time_limit(time_limit)
        self.clock = _checked_clock(clock)
        self.last_result: SearchResult | None = None

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        if not board.has_legal_move(color):
            return PASS
        if self.time_limit is None:
            self.last_result = alphabeta(board, color, self.depth)
        else:
            self.last_result = iterative_deepening(
                board, color, max_depth=self.depth, time_limit=self.time_limit, clock=self.clock
            )
        return self.last_result.move

    def options(self) -> dict[str, Any]:
        return {"depth": self.depth, "time_limit": self.time_limit}


class StrongPlayer(Player):
    """The strong search of :mod:`reversi.engine`, thinking ``time_limit`` seconds per move.

    It deepens its search until the time is up (stopping early rather than
    late), and with at most ``solve_empties`` empty squares it plays perfectly
    to the end if the exact solve fits in the time.  With at most ``wld_empties``
    (0: never) it first looks for a move proved to win or draw (see
    :func:`~reversi.engine.think`).  ``max_depth`` caps the depth (the time limit
    usually stops it first).

    While it thinks, :meth:`stop` makes it answer at once with the best move
    found so far, and :attr:`on_thought` (if set) is called from the thinking
    thread after every finished depth with a :class:`~reversi.engine.Thought`.
    :attr:`last_thought` keeps the final one.

    It is the one computer player without the kit's tie rule: to save time its
    search learns the exact value of its best move only (the others are bounds),
    so of equally good moves it keeps the one it tried first, and which depth it
    reaches depends on the clock anyway.
    """

    kind = "strong"
    label = "Strong"

    def __init__(
        self,
        name: str | None = None,
        *,
        time_limit: float = 1.0,
        max_depth: int = 60,
        solve_empties: int = 14,
        wld_empties: int = 0,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(name)
        limit = _checked_time_limit(time_limit)
        if limit is None:
            raise PlayerError(_("time limit None is not allowed: a strong player needs seconds per move"))
        self.time_limit: float = limit
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or not 1 <= max_depth <= 60:
            raise PlayerError(_("depth {depth} is not a whole number from 1 to {high}").format(depth=shown(max_depth), high=60))
        self.max_depth = max_depth
        if not isinstance(solve_empties, int) or isinstance(solve_empties, bool) or not (
            0 <= solve_empties <= 20
        ):
            raise PlayerError(_("{setting} {value} is not a whole number from 0 to {high}").format(
                setting="solve_empties", value=shown(solve_empties), high=20))
        self.solve_empties = solve_empties
        if not isinstance(wld_empties, int) or isinstance(wld_empties, bool) or not (
            0 <= wld_empties <= 24
        ):
            raise PlayerError(_("{setting} {value} is not a whole number from 0 to {high}").format(
                setting="wld_empties", value=shown(wld_empties), high=24))
        self.wld_empties = wld_empties
        self.clock = _checked_clock(clock)
        self.on_thought: Callable[[Thought], object] | None = None
        self.last_thought: Thought | None = None
        self._stop = threading.Event()

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        self._stop.clear()
        if not board.has_legal_move(color):
            return PASS
        self.last_thought = think(
            board, color, time_limit=self.time_limit, max_depth=self.max_depth,
            solve_empties=self.solve_empties, wld_empties=self.wld_empties, clock=self.clock,
            should_stop=self._stop.is_set, on_thought=self.on_thought,
        )
        return self.last_thought.move

    def stop(self) -> None:
        """Ask a search under way (in another thread) to answer now with what it has."""
        self._stop.set()

    def options(self) -> dict[str, Any]:
        return {
            "time_limit": self.time_limit,
            "max_depth": self.max_depth,
            "solve_empties": self.solve_empties,
            "wld_empties": self.wld_empties,
        }


def _checked_clock(clock: object) -> Clock:
    if not callable(clock):
        raise PlayerError(_("clock must be a function returning seconds, not {value}").format(value=shown(clock)))
    return clock


def _checked_depth(depth: object) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise PlayerError(_("depth {depth} is not a whole number from 1 to {high}").format(depth=shown(depth), high=MAX_DEPTH))
    return depth


def _checked_time_limit(limit: object) -> float | None:
    if limit is None:
        return None
    # float() also refuses a whole number too large for any clock (OverflowError).
    if (
        isinstance(limit, bool)
        or not isinstance(limit, (int, float))
        or not math.isfinite(_float_or_nan(limit))
    ):
        raise PlayerError(_("time limit {limit} is not a number of seconds").format(limit=shown(limit)))
    if limit <= 0:
        raise PlayerError(_("time limit {limit} is not positive: give seconds per move, or None").format(limit=shown(limit)))
    return limit


def _float_or_nan(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (OverflowError, TypeError, ValueError):
        return math.nan
