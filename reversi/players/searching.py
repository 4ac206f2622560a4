"""Computer players that look several moves ahead with :mod:`reversi.search`."""

from __future__ import annotations

import math
import time
from typing import Any

from reversi.board import Board
from reversi.errors import PlayerError, shown
from reversi.notation import PASS, Color, Move
from reversi.players.base import Player
from reversi.search import MAX_DEPTH, Clock, SearchResult, alphabeta, iterative_deepening, minimax


class MinimaxPlayer(Player):
    """Tries every line of play ``depth`` moves deep and plays the best (plain minimax).

    ``last_result`` holds the last :class:`~reversi.search.SearchResult`, to show
    how many positions the search visited.
    """

    kind = "minimax"
    label = "Minimax"

    def __init__(self, name: str | None = None, depth: int = 3) -> None:
        super().__init__(name)
        self.depth = _checked_depth(depth)
        self.last_result: SearchResult | None = None

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
        depth: int = 4,
        time_limit: float | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(name)
        self.depth = _checked_depth(depth)
        self.time_limit = _checked_time_limit(time_limit)
        self.clock = clock
        self.last_result: SearchResult | None = None

    def choose_move(self, board: Board, color: Color) -> Move:
        if not board.has_legal_move(color):
            return PASS
        if self.time_limit is None:
            self.last_result = alphabeta(board, color, self.depth)
        else:
            self.last_result = iterative_deepening(
                board, color, self.depth, self.time_limit, self.clock
            )
        return self.last_result.move

    def options(self) -> dict[str, Any]:
        return {"depth": self.depth, "time_limit": self.time_limit}


def _checked_depth(depth: object) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise PlayerError(f"depth {shown(depth)} is not a whole number from 1 to {MAX_DEPTH}")
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
        raise PlayerError(f"time limit {shown(limit)} is not a number of seconds")
    if limit <= 0:
        raise PlayerError(f"time limit {shown(limit)} is not positive: give seconds per move, or None")
    return limit


def _float_or_nan(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (OverflowError, TypeError, ValueError):
        return math.nan
