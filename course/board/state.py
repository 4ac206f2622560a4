"""The state of a notebook board and how its changes reach the view; no action, no widget.

This module owns what a board holds (the game, scores, settings, players, the
status line and its :class:`~.messages.Tone`) and the one path by which a change
is announced: :meth:`BoardState._changed` bumps the version, scores a finished
game and tells the listeners.  It reads the game to answer the view's questions
(hints, the last move, whether Undo or Pass apply); it may not word a message
(:mod:`.messages` does), change the game (the actions in :mod:`.controller` and
:mod:`.computer` do) or import a widget.
"""

from __future__ import annotations

import dataclasses
import os

from course.board import messages as say
from course.board.background import Background
from course.board.events import Event, EventKind, Listener, MoveEvent
from course.board.messages import Tone
from course.board.settings import Settings
from reversi.clock import Clock
from reversi.game import Game
from reversi.notation import BLACK, WHITE, Color, Square
from reversi.players import Player
from reversi.saves import SaveFolder
from reversi.scores import Scoreboard


class BoardState:
    """A board's game, scores, settings and status line, and its listeners.

    ``players`` maps each colour to its player; ``clock`` is the time source of
    the game clock.  Subclasses set :attr:`background` before anything changes.
    """

    background: Background

    def __init__(
        self,
        players: dict[Color, Player],
        settings: Settings,
        saves_folder: str | os.PathLike[str],
        clock: Clock,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.saves = SaveFolder(saves_folder)
        self.scoreboard = Scoreboard()
        self.message = ""
        self.tone = Tone.NORMAL
        self.error: str | None = None  # the traceback of the last unexpected error
        self.thinking: Color | None = None
        self.stopped = False
        self.version = 0
        self.failed = False  # a computer player raised: it rests until New game or Continue
        self.players = players
        self._listeners: list[Listener] = []
        self.game = self._fresh_game()

    # -- listening --------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(event)`` after every change."""
        self._listeners.append(listener)

    def _emit(self, event: Event) -> None:
        waits = [listener(event) for listener in list(self._listeners)]
        self.background.hold(max((w for w in waits if w), default=0.0))

    def _tell(self, kind: EventKind, message: str, color: Color | None = None) -> None:
        """Set the status line and tell the view (the game itself did not change)."""
        self.message, self.tone = message, Tone.NORMAL
        self._emit(Event(kind, message, color))

    def _changed(self, event: Event) -> None:
        """The game changed: bump the version, score a finished game, tell the view."""
        self.version += 1
        self.background.started = True  # a person acted: computer players may answer
        message = event.message
        # A loaded game that had already ended was scored in its own session.
        scored = event.kind is not EventKind.LOADED and self.game.is_over
        if scored and self.scoreboard.record(self.game):
            message = say.game_over(self.game, message)
        self.message, self.tone = message, Tone.NORMAL
        self._emit(dataclasses.replace(event, message=message))
        self.background.schedule()

    def _refuse(self, message: str) -> bool:
        """Say why an action was refused; returns ``False`` (nothing happened)."""
        self.message, self.tone = message, Tone.REFUSAL
        self._emit(Event(EventKind.REFUSED, message))
        return False

    # -- reading the state ------------------------------------------------------------

    def is_computer(self, color: Color) -> bool:
        """Whether ``color`` is played by the computer in the current game."""
        return not self.game.player(color).is_human

    @property
    def human_to_move(self) -> bool:
        """Whether the board waits for a click (or a pass) from a person."""
        game = self.game
        return not game.is_over and game.pending_undo is None and not self.is_computer(game.turn)

    @property
    def can_pass(self) -> bool:
        """Whether the Pass button applies: a person to move who has no legal move."""
        return self.human_to_move and self.game.must_pass

    @property
    def can_undo(self) -> bool:
        """Whether the Undo button applies: a person has a move to take back, nothing waits."""
        game = self.game
        return not game.is_over and game.pending_undo is None and self._undo_asker() is not None

    @property
    def undo_answerer(self) -> Color | None:
        """The colour asked to accept or decline an undo, when that is a person."""
        asker = self.game.pending_undo
        if asker is None or self.is_computer(asker.opponent):
            return None
        return asker.opponent

    def hints(self) -> list[Square]:
        """The legal moves to dot on the board (only for a person to move)."""
        return self.game.legal_moves() if self.human_to_move else []

    def last_move(self) -> Square | None:
        """The square of the last disc placed, for the last-move marker."""
        return self.game.last_move

    def turn_text(self) -> str:
        """One line saying how the game ended, who is thinking, or who is to move."""
        return say.turn_line(self.game, self.thinking)

    def who(self, color: Color) -> str:
        """``'White (Greedy)'``, or just ``'White'`` when the player is named after the colour."""
        return say.who(self.game, color)

    def countdown_text(self) -> str:
        """``'Black (Ann): 12 s left'`` in a timed game, else an empty string."""
        return say.countdown(self.game)

    def save_names(self) -> list[str]:
        """The saves in the saves folder."""
        return self.saves.names()

    # -- inside -----------------------------------------------------------------------

    def _fresh_game(self) -> Game:
        s = self.settings
        return Game(
            self.players[BLACK],
            self.players[WHITE],
            size=s.size,
            no_move_policy=s.no_move_policy,
            time_per_move=s.time_per_move,
            undo_limit=s.undo_limit,
            clock=self.clock,
        )

    def _moved(self, color: Color, at: Square, flipped: list[Square]) -> None:
        message = say.moved(self.game, color, at, len(flipped))
        self._changed(MoveEvent(EventKind.MOVE, message, color, square=at, flipped=tuple(flipped)))

    def _undo_asker(self) -> Color | None:
        for ply in reversed(self.game.plies):
            if isinstance(ply.move, Square) and not self.is_computer(ply.color):
                return ply.color
        return None
