"""Computer moves and the game clock, run on the asyncio loop so the notebook never freezes.

In a notebook the kernel runs an asyncio loop: clicks arrive on it, and so do
the tasks started here.  A computer player's search runs in a worker thread
(``run_in_executor``) on a copy of the board; the move it returns is played back
on the loop, where the widgets are updated (ipykernel does not reliably send
widget updates made from other threads).  Without a running loop (a script, a
doctest) nothing starts: call ``controller.tick()`` or play the moves by hand.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from course.board.settings import COMPUTER_WAIT

if TYPE_CHECKING:
    from course.board.controller import GameController

#: How often the clock is checked in a timed game, in seconds.
CLOCK_TICK = 0.2


class Background:
    """The computer-move and clock tasks of one controller.

    ``started`` stays false until the board is shown (or a person acts), so a
    computer-vs-computer game does not finish before anyone can watch it.
    """

    def __init__(self, controller: GameController, started: bool = True) -> None:
        self.controller = controller
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
        controller = self.controller
        if controller.computer_should_move and not _running(self._computer):
            self._computer = loop.create_task(self._computer_turns())
        game = controller.game
        if game.time_per_move is not None and not game.is_over and not _running(self._clock):
            self._clock = loop.create_task(self._run_clock())

    async def idle(self) -> None:
        """Wait until no computer move is being worked out or waited for."""
        while _running(self._computer):
            await asyncio.shield(self._computer)  # type: ignore[arg-type]

    def close(self) -> None:
        """Cancel both tasks."""
        for task in (self._computer, self._clock):
            if task is not None:
                task.cancel()

    async def _computer_turns(self) -> None:
        controller = self.controller
        loop = asyncio.get_running_loop()
        while controller.computer_should_move:
            version, game = controller.version, controller.game
            color, player = game.turn, game.current_player
            try:
                controller.set_thinking(color)
                delay = max(0.0, self._busy_until - time.monotonic())
                if controller.settings.computer_waits:
                    delay += COMPUTER_WAIT
                await asyncio.sleep(delay)  # at least sleep(0): clicks and Stop get their turn
                if version != controller.version:
                    continue
                board = game.board.copy()
                move = await loop.run_in_executor(None, player.choose_move, board, color)
                controller.set_thinking(None)
                controller.play_computer_move(move, version)  # dropped if the game moved on
            except asyncio.CancelledError:
                raise
            except Exception as error:  # shown in the status line, never lost in a task
                controller.report_error(error)
            finally:
                controller.thinking = None

    async def _run_clock(self) -> None:
        controller = self.controller
        shown = controller.countdown_text()
        while controller.game.time_per_move is not None and not controller.game.is_over:
            await asyncio.sleep(CLOCK_TICK)
            try:
                if not controller.tick():
                    text = controller.countdown_text()
                    if text != shown:
                        controller.notify_tick()
                    shown = text
            except Exception as error:
                controller.report_error(error)
                return


def _running(task: asyncio.Task[None] | None) -> bool:
    return task is not None and not task.done()
