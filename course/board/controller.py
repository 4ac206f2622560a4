"""The actions a person takes on a notebook board: clicks, buttons, settings, saves; no widget.

This module owns *what happens* when a person acts.  It may call the game
(:mod:`reversi.game`), the scores, the saves and the players; it may not word a
message (:mod:`.messages` does), draw, or import a widget.  What a board holds
and how its changes reach the view is :mod:`.state`; the clock and the computer
players are :mod:`.computer`.  A :class:`GameController` holds the
:class:`~reversi.game.Game`, the :class:`~reversi.scores.Scoreboard` and the
:class:`~.settings.Settings`.  The view turns clicks and button presses into
calls (``click(square)``, ``request_undo()``, ``save("lunch")``...) and listens
for :class:`~.events.Event` objects to know what to redraw.  Each call answers in
:attr:`~.state.BoardState.message`, the status line; a refused action says why in
the :attr:`~.messages.Tone.REFUSAL` tone and changes nothing.

>>> controller = GameController()
>>> controller.click("d3")
True
>>> controller.game.counts()[:2], controller.message
((4, 1), 'Black played d3 and turned 1 disc. White to move.')
>>> controller.click("a1"), controller.tone
(False, <Tone.REFUSAL: 'refusal'>)
>>> controller.message
"'a1' is not a legal move for White: no Black disc is next to a1"
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any

from course.board import messages as say
from course.board.computer import ComputerAndClock
from course.board.events import Event, EventKind
from course.board.seats import seat_player
from course.board.settings import GAME_SETTINGS, Settings
from course.i18n import gettext as _
from reversi.clock import Clock
from reversi.errors import NotationError, ReversiError
from reversi.notation import BLACK, WHITE, Color, Square, SquareLike
from reversi.players import Player


class GameController(ComputerAndClock):
    """One board's game, scores and settings, driven by calls and observed through events.

    ``black`` and ``white`` are player kinds from :data:`~reversi.players.PLAYER_KINDS`
    (``"human"``, ``"random"``, ``"greedy"``...) or ready-made
    :class:`~reversi.players.Player` objects.  ``clock`` is the time source of the
    game clock (tests pass a fake one).  ``autostart=False`` keeps computer players
    still until :meth:`start` (the widget starts when the board first shows).
    """

    def __init__(
        self,
        black: str | Player = "human",
        white: str | Player = "human",
        black_name: str | None = None,
        white_name: str | None = None,
        settings: Settings | None = None,
        saves_folder: str | os.PathLike[str] = "saves",
        clock: Clock = time.monotonic,
        autostart: bool = True,
    ) -> None:
        players = {
            BLACK: seat_player(BLACK, black, black_name),
            WHITE: seat_player(WHITE, white, white_name),
        }
        super().__init__(players, settings or Settings(), saves_folder, clock, autostart)
        self.message = say.new_game(self.game)
        self.background.schedule()

    # -- a person's actions ---------------------------------------------------------

    def click(self, where: SquareLike) -> bool:
        """A person clicked a square: play it if legal, else say why; returns whether it played.

        The view passes a :class:`~reversi.notation.Square`; a name (``"d3"``) or a
        ``(row, col)`` pair is read here, once.
        """
        if self._refuse_human_action():
            return False
        game = self.game
        try:
            at = where if isinstance(where, Square) else game.board.square(where)
        except NotationError as error:
            return self._refuse(str(error))
        if game.must_pass:
            return self._refuse(say.must_pass_first(game.turn))
        color = game.turn
        flipped = self._on_the_clock(color, lambda: game.play(at))
        if flipped is None:
            return False
        self._moved(color, at, flipped)
        return True

    def pass_turn(self) -> bool:
        """A person passes (allowed only without a legal move)."""
        if self._refuse_human_action():
            return False
        color = self.game.turn
        if self._on_the_clock(color, self.game.pass_turn) is None:
            return False
        self._changed(Event(EventKind.PASS, say.passed(self.game, color, False), color))
        return True

    def request_undo(self, color: Color | None = None) -> bool:
        """A person asks to take back their last move; the opponent must agree.

        ``color`` defaults to the person who moved most recently.  A computer
        opponent answers at once, as :attr:`Settings.computer_accepts_undo` says;
        a person answers with :meth:`answer_undo`.
        """
        if self.game.is_over:
            return self._refuse(_(say.GAME_IS_OVER))
        asker = color if color is not None else self._undo_asker()
        if asker is None:
            return self._refuse(_(say.NO_UNDO_YET))
        if self.is_computer(asker):
            return self._refuse(say.computer_never_asks(asker))
        try:
            self.game.request_undo(asker)
        except ReversiError as error:
            return self._refuse(_("No undo: {reason}.").format(reason=error))
        if self.is_computer(asker.opponent):
            return self._answer_undo(self.settings.computer_accepts_undo)
        self._changed(Event(EventKind.UNDO_REQUESTED, say.undo_asked(self.game, asker), asker))
        return True

    def answer_undo(self, accept: bool) -> bool:
        """The person asked answers the waiting undo request."""
        if self.undo_answerer is None:
            return self._refuse(_(say.NO_UNDO_WAITING))
        return self._answer_undo(accept)

    def resign(self, color: Color | None = None) -> bool:
        """A side gives up: by default the person to move (or the person playing a computer)."""
        game = self.game
        if game.is_over:
            return self._refuse(_(say.GAME_IS_OVER))
        if color is None:
            humans = [c for c in (game.turn, game.turn.opponent) if not self.is_computer(c)]
            color = humans[0] if humans else game.turn
        try:
            game.resign(color)
        except ReversiError as error:
            return self._refuse(str(error))
        self._changed(Event(EventKind.RESIGNED, say.resigned(game, color), color))
        return True

    def new_game(self) -> None:
        """Start again with the current players and settings; the scores stay."""
        self.game = self._fresh_game()
        self.stopped = self.failed = False
        self._changed(Event(EventKind.NEW_GAME, say.new_game(self.game)))

    # -- settings and players ------------------------------------------------------------

    def set_player(self, color: Color, kind: str | Player, name: str | None = None) -> bool:
        """Choose who plays ``color`` (a kind such as ``"greedy"``, or a Player) and their name.

        A bad kind or name is refused with a message.  The change applies now if
        the game has not started, else from the next New game.
        """
        try:
            player = seat_player(color, kind, name)
        except ReversiError as error:
            return self._refuse(str(error))
        self.players[color] = player
        self._apply_or_postpone(say.player_changed(color, player), EventKind.PLAYERS)
        return True

    def update_settings(self, **changes: Any) -> bool:
        """Change settings by name (``update_settings(animate=False)``); bad values are refused."""
        try:
            new = dataclasses.replace(self.settings, **changes)  # checked as Settings() checks
        except (TypeError, ValueError, ReversiError) as error:
            return self._refuse(_("Setting not changed: {reason}").format(reason=error))
        if new == self.settings:
            return True
        self.settings = new
        if any(key in GAME_SETTINGS for key in changes):
            self._apply_or_postpone(_(say.SETTINGS_CHANGED), EventKind.SETTINGS)
        else:
            self._tell(EventKind.SETTINGS, f"{_(say.SETTINGS_CHANGED)}.")
        self.background.schedule()
        return True

    # -- saving and loading ---------------------------------------------------------

    def save(self, name: str) -> bool:
        """Save the game under ``name`` in the saves folder."""
        try:
            path = self.saves.save(name, self.game)
        except (ReversiError, OSError) as error:
            return self._refuse(_("Not saved: {reason}").format(reason=error))
        self._tell(EventKind.SAVED, say.saved(name, path))
        return True

    def load(self, name: str) -> bool:
        """Replace the game by the save called ``name``; a bad save leaves the game as it was."""
        try:
            game = self.saves.load(name, clock=self.clock)
        except (ReversiError, OSError) as error:
            return self._refuse(_("Not loaded: {reason}").format(reason=error))
        self.game = game
        self.players = {BLACK: game.player(BLACK), WHITE: game.player(WHITE)}
        self.settings = dataclasses.replace(
            self.settings,
            size=game.board.size,
            no_move_policy=game.no_move_policy,
            time_per_move=game.time_per_move,
            undo_limit=game.undo_limit,
        )
        self.stopped = self.failed = False
        self._changed(Event(EventKind.LOADED, say.loaded(game, name)))
        return True

    def say(self, message: str) -> None:
        """Show ``message`` in the status line (nothing else changes)."""
        self._tell(EventKind.MESSAGE, message)

    # -- inside -----------------------------------------------------------------------

    def _apply_or_postpone(self, what: str, kind: EventKind) -> None:
        if not self.game.plies and not self.game.is_over:
            self.game = self._fresh_game()
            self._changed(Event(EventKind.NEW_GAME, say.sentences(f"{what}.", say.to_move(self.game))))
            self._emit(Event(kind, self.message))
        else:
            self._tell(kind, say.takes_effect_later(what))

    def _refuse_human_action(self) -> bool:
        """Refuse (with a message) an action a person cannot take now; returns whether refused."""
        game = self.game
        if game.is_over:
            message = _(say.GAME_IS_OVER)
        elif game.pending_undo is not None:
            message = say.to_move(game)
        elif self.is_computer(game.turn):
            message = say.please_wait(game, self.thinking is game.turn, self.stopped)
        else:
            return False
        self._refuse(message)
        return True

    def _answer_undo(self, accept: bool) -> bool:
        game = self.game
        asker = game.pending_undo
        assert asker is not None
        try:
            game.answer_undo(accept)
        except ReversiError as error:
            return self._refuse(str(error))
        message = say.undo_answered(game, asker, accept)
        self._changed(Event(EventKind.UNDO_ANSWERED, message, asker))
        return True
