"""Computer moves and the game clock, run on the asyncio loop so the notebook never freezes.

This module owns the two background tasks of a board and the narrow :class:`Host`
interface they need; it knows nothing of the controller, the widgets or the rules.
In a notebook the kernel runs an asyncio loop: clicks arrive on it, and so do the
tasks started here.  A computer player's search runs in a worker thread
(``run_in_executor``) on a copy of the board; the move it returns is handed back on
the loop, where the widgets are updated (ipykernel does not reliably send widget
updates made from other threads).  Without a running loop (a script, a doctest)
nothing starts: the host calls ``tick()`` or plays the moves itself.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

from reversi.board import Board
from reversi.notation import Color, Move
from reversi.players import Player

#: How often the clock is checked in a timed game, in seconds.
CLOCK_TICK = 0.2


@dataclass(frozen=True)
class ComputerTurn:
    """A computer player's turn to work out: the position (a copy) as of ``version``."""

    version: int
    color: Color
    player: Player
    board: Board
    wait: float = 0.0  # seconds to wait before thinking, so people can follow


class Host(Protocol):
    """What the background tasks need from the game they run for, and nothing more."""

    @property
    def version(self) -> int: ...

    @property
    def clock_running(self) -> bool: ...

    def computer_turn(self) -> ComputerTurn | None:
        """The computer player's turn to work out now, or ``None``."""

    def set_thinking(self, color: Color | None) -> None:
        """``color``'s computer player starts (or, with ``None``, stops) working out a move."""

    def play_computer_move(self, move: Move, version: int) -> bool:
        """Play ``move``, chosen for the position of ``version`` (dropped if the game moved on)."""

    def tick(self) -> bool:
        """Check the clock; returns whether a side lost its turn."""

    def report_error(self, error: BaseException) -> None:
        """Show an unexpected error; computer players rest afterwards."""


class Background:
    """The computer-move and clock tasks of one host.

    ``started`` stays false until the board is shown (or a person acts), so a
    computer-vs-computer game does not finish before anyone can watch it.
    """

    def __init__(self, host: Host, started: bool = True) -> None:
        self.host = host
        self.started = started
        self._computer: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        self._busy_until = 0.0  # time.monotonic() when the view's last animation ends

    def hold(self, seconds: float) -> None:
        """The view needs ``seconds`` to show the last change: the next computer move waits."""
        if seconds > 0:
            self._busy_until = max(self._busy_until, time.monotonic() + seconds)

    def schedule(self) -> None:
        """Start whichever task is needed now, if a loop is running."""
        if not self.started:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self.host.computer_turn() is not None and not _running(self._computer):
            self._computer = loop.create_task(self._computer_turns())
        if self.host.clock_running and not _running(self._clock):
            self._clock = loop.create_task(self._run_clock())

    async def idle(self) -> None:
        """Wait until no computer move is being worked out or waited for."""
        while self._computer is not None and not self._computer.done():
            await asyncio.shield(self._computer)

    def close(self) -> None:
        """Cancel both tasks."""
        for task in (self._computer, self._clock):
            if task is not None:
                task.cancel()

    async def _computer_turns(self) -> None:
        host = self.host
        loop = asyncio.get_running_loop()
        while (turn := host.computer_turn()) is not None:
            try:
                host.set_thinking(turn.color)
                delay = max(0.0, self._busy_until - time.monotonic()) + turn.wait
                await asyncio.sleep(delay)  # at least sleep(0): clicks and Stop get their turn
                if turn.version != host.version:
                    continue
                move = await loop.run_in_executor(
                    None, turn.player.choose_move, turn.board, turn.color
                )
                host.set_thinking(None)
                host.play_computer_move(move, turn.version)  # dropped if the game moved on
            except asyncio.CancelledError:
                raise
            except Exception as error:  # shown in the status line, never lost in a task
                host.report_error(error)
            finally:
                host.set_thinking(None)

    async def _run_clock(self) -> None:
        host = self.host
        while host.clock_running:
            await asyncio.sleep(CLOCK_TICK)
            try:
                host.tick()
            except Exception as error:
                host.report_error(error)
                return


def _running(task: asyncio.Task[None] | None) -> bool:
    return task is not None and not task.done()
