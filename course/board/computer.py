"""What runs by itself on a notebook board: the move clock and the computer players.

This module owns the clock (the one place where a turn lost to time is handled,
whether the person was clicking or the clock ran out by itself) and the answers
the :class:`~.background.Background` tasks need (the narrow
:class:`~.background.Host` interface).  It may not word a message (see
:mod:`.messages`) or import a widget.  A computer move is worked out for one
:attr:`~.state.BoardState.version` of the game; a move for a position that has
since been undone, reloaded or replaced is dropped instead of played.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from typing import Any

from course.board import messages as say
from course.board.background import Background, ComputerTurn
from course.board.events import Event, EventKind
from course.board.messages import Tone
from course.board.settings import COMPUTER_WAIT, Settings
from course.board.state import BoardState
from course.i18n import gettext as _
from reversi.clock import Clock
from reversi.errors import ReversiError, TimeExpiredError
from reversi.notation import PASS, Color, Move, Square
from reversi.players import Player


class ComputerAndClock(BoardState):
    """A board state whose clock runs and whose computer players move by themselves.

    ``autostart=False`` keeps computer players still until :meth:`start`.
    """

    def __init__(
        self,
        players: dict[Color, Player],
        settings: Settings,
        saves_folder: str | os.PathLike[str],
        clock: Clock,
        autostart: bool,
    ) -> None:
        self.background = Background(self, started=autostart)
        self._countdown_shown = ""
        super().__init__(players, settings, saves_folder, clock)

    # -- the clock ------------------------------------------------------------------

    @property
    def clock_running(self) -> bool:
        """Whether a timed game is going on (the background checks its clock)."""
        return self.game.time_per_move is not None and not self.game.is_over

    def tick(self) -> bool:
        """Check the clock: a side out of time loses its turn; returns whether one did.

        Otherwise the view hears a ``tick`` when the countdown it shows changed.
        """
        game = self.game
        late = game.turn
        if not game.is_over and game.check_time():
            self._lost_on_time(late)
            return True
        shown = self.countdown_text()
        if shown != self._countdown_shown:
            self._countdown_shown = shown
            self._emit(Event(EventKind.TICK, self.message))
        return False

    def _on_the_clock(self, color: Color, action: Callable[[], Any]) -> Any:
        """Run a move or pass of ``color``; too late, the turn is lost: returns ``None``.

        The one place where running out of time during an action is handled; a
        refusal by the rules is said here too.
        """
        try:
            done = action()
        except TimeExpiredError:
            self._lost_on_time(color)
            return None
        except ReversiError as error:  # illegal (with the reason), game over, undo pending
            self._refuse(str(error))
            return None
        return True if done is None else done

    def _lost_on_time(self, color: Color) -> None:
        message = say.out_of_time(self.game, color, self.game.time_per_move)
        self._changed(Event(EventKind.TIMEOUT, message, color))

    # -- the computer ------------------------------------------------------------------

    def start(self) -> None:
        """Let computer players move and the clock run (see ``autostart``)."""
        if not self.background.started:
            self.background.started = True
            if not self.game.plies:
                self.game.restart_clock()
        self.background.schedule()

    def stop(self) -> None:
        """Stop computer players (a computer-vs-computer game pauses); :meth:`resume` goes on."""
        self.stopped = True
        self.version += 1  # a move being worked out now is dropped
        self._tell(EventKind.STOPPED, _(say.STOPPED))

    def resume(self) -> None:
        """Let computer players move again after :meth:`stop`."""
        self.stopped = self.failed = False
        self._tell(EventKind.SETTINGS, say.to_move(self.game))
        self.background.schedule()

    async def idle(self) -> None:
        """Wait until no computer move is being worked out or waited for."""
        await self.background.idle()

    def close(self) -> None:
        """Stop the background tasks (the board is going away)."""
        self.stopped = True
        self.version += 1
        self.background.close()

    @property
    def computer_should_move(self) -> bool:
        """Whether a computer player is to move now (and is allowed to)."""
        game = self.game
        return (
            not self.stopped
            and not self.failed
            and not game.is_over
            and game.pending_undo is None
            and self.is_computer(game.turn)
        )

    def computer_turn(self) -> ComputerTurn | None:
        """The computer player's turn to work out now (on a copy of the board), or ``None``."""
        if not self.computer_should_move:
            return None
        game = self.game
        wait = COMPUTER_WAIT if self.settings.computer_waits else 0.0
        return ComputerTurn(self.version, game.turn, game.current_player, game.board.copy(), wait)

    def set_thinking(self, color: Color | None) -> None:
        """Mark ``color``'s computer player as working out a move (``None``: done)."""
        self.thinking = color
        if color is not None:
            self._emit(Event(EventKind.THINKING, self.message, color))

    def play_computer_move(self, move: Move, version: int) -> bool:
        """Play the move a computer player chose for the position of ``version``.

        A move worked out for an older position (undone, reloaded, replaced by a
        new game, or a turn lost to the clock) is dropped: returns ``False``.
        A move the rules refuse is a :class:`~reversi.errors.PlayerError` naming the player.
        """
        if version != self.version or not self.computer_should_move:
            return False
        game = self.game
        color = game.turn
        try:
            played = game.play_choice(move)
        except TimeExpiredError:
            self._lost_on_time(color)
            return False
        if played is PASS:
            self._changed(Event(EventKind.PASS, say.passed(game, color, True), color))
        else:
            assert isinstance(played, Square)
            self._moved(color, played, list(game.plies[-1].flipped))
        return True

    def report_error(self, error: BaseException) -> None:
        """Show an unexpected error in the status line and keep its traceback in :attr:`error`.

        Computer players stop until New game, Continue or Load, so a failing player
        does not fail again and again.
        """
        self.failed = True
        self.error = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        self.message, self.tone = say.error(error), Tone.ERROR
        self._emit(Event(EventKind.ERROR, self.message))
