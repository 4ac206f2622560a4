"""The turns a game has played, the actions it accepted, and what undo needs to take turns back.

A :class:`History` keeps its lists in step: each turn (a :class:`~reversi.actions.Ply`)
with the position before it, and every action in order (an undo request or a
resignation is an action but not a turn).  It never decides a rule: the game asks
it for the last move of a colour and tells it which turns to take back.

>>> from reversi.actions import MoveAction
>>> from reversi.board import Board
>>> from reversi.notation import BLACK, WHITE, square
>>> history = History()
>>> board = Board()
>>> before = Snapshot(board.copy(), BLACK, 0)
>>> flipped = board.play("d3", BLACK)
>>> history.add_turn(before, Ply(BLACK, square("d3"), tuple(flipped)), MoveAction(square("d3")))
>>> history.last_move, history.last_move_index(BLACK), history.last_move_index(WHITE)
(d3, 0, None)
>>> snapshot, taken = history.take_back(0)
>>> snapshot.board == Board(), [ply.move for ply in taken], history.plies
(True, [d3], [])
"""

from __future__ import annotations

from dataclasses import dataclass

from reversi.actions import Action, Ply
from reversi.board import Board
from reversi.notation import Color, Square


@dataclass(frozen=True)
class Snapshot:
    """What undo puts back: the position, the side to move and the run of lost turns before a turn."""

    board: Board
    turn: Color
    consecutive_timeouts: int



class History:
    """The turns and actions of one game, oldest first."""

    def __init__(self) -> None:
        self.plies: list[Ply] = []
        self.actions: list[Action] = []
        self._before: list[Snapshot] = []

    @property
    def last_move(self) -> Square | None:
        """The square of the last disc put down (passes and lost turns skipped), or ``None``."""
        for ply in reversed(self.plies):
            if isinstance(ply.move, Square):
                return ply.move
        return None

    def add_turn(self, before: Snapshot, ply: Ply, action: Action) -> None:
        """Record a turn (a move, a pass or a lost turn) and the position before it."""
        self._before.append(before)
        self.plies.append(ply)
        self.actions.append(action)

    def add_action(self, action: Action) -> None:
        """Record an action that is not a turn (an undo request or answer, a resignation)."""
        self.actions.append(action)

    def last_move_index(self, color: Color) -> int | None:
        """The index of ``color``'s last turn that put a disc down (``None``: there is none)."""
        for index in range(len(self.plies) - 1, -1, -1):
            ply = self.plies[index]
            if ply.color is color and isinstance(ply.move, Square):
                return index
        return None

    def take_back(self, index: int) -> tuple[Snapshot, list[Ply]]:
        """Forget the turns from ``index`` on; returns the position before them and the turns."""
        snapshot, taken = self._before[index], self.plies[index:]
        del self.plies[index:], self._before[index:]
        return snapshot, taken
