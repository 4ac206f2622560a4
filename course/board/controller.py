"""The game behind the notebook board: every rule-driven action, and no widget at all.

A :class:`GameController` holds the :class:`~reversi.game.Game`, the
:class:`~reversi.scores.Scoreboard` and the :class:`Settings`.  The view turns
clicks and button presses into calls (``click("d3")``, ``request_undo()``,
``save("lunch")``...) and listens for :class:`Event` objects to know what to
redraw.  Each call answers in :attr:`GameController.message`, the status line:
a refused click says why and changes nothing.

Computer players move on the asyncio loop (the notebook kernel's loop), their
search running in a worker thread, so the notebook never freezes.  A counter,
:attr:`GameController.version`, goes up with every change to the game, so a
computer move worked out for a position that has since been undone, reloaded or
replaced is dropped instead of played.

>>> controller = GameController()
>>> controller.click("d3")
True
>>> controller.game.counts()[:2], controller.message
((4, 1), 'Black played d3 and turned 1 disc. White to move.')
>>> controller.click("a1")
False
>>> controller.message
"'a1' is not a legal move for White: no Black disc is next to a1"
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
import traceback
from typing import Any

from course.board.background import Background
from course.board.settings import GAME_SETTINGS, Event, Listener, Settings
from course.pictures.svg import last_square
from reversi.errors import NotationError, PlayerError, ReversiError, TimeExpiredError
from reversi.game import Clock, Game
from reversi.notation import BLACK, PASS, WHITE, Color, Move, Square, SquareLike
from reversi.players import PLAYER_KINDS, Player, make_player, validate_name
from reversi.saves import SaveFolder
from reversi.scores import Scoreboard

__all__ = ["Event", "GameController", "Settings"]


class GameController:
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
        self.settings = settings if settings is not None else Settings()
        self.clock = clock
        self.saves = SaveFolder(saves_folder)
        self.scoreboard = Scoreboard()
        self.message = ""
        self.error: str | None = None  # the traceback of the last unexpected error
        self.thinking: Color | None = None
        self.stopped = False
        self.version = 0
        self.failed = False  # a computer player raised: it rests until New game or Continue
        self._listeners: list[Listener] = []
        self.background = Background(self, started=autostart)
        self.players: dict[Color, Player] = {}
        for color, who, name in ((BLACK, black, black_name), (WHITE, white, white_name)):
            self.players[color] = self._make_player(color, who, name)
        self._check_names_differ(self.players[BLACK].name, self.players[WHITE].name)
        self.game = self._fresh_game()
        self.message = _join("New game.", self._to_move_text())
        self.background.schedule()

    # -- listening --------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(event)`` after every change."""
        self._listeners.append(listener)

    def _emit(self, kind: str, **fields: Any) -> Event:
        event = Event(kind, message=self.message, **fields)
        waits = [listener(event) for listener in list(self._listeners)]
        self.background.hold(max((w for w in waits if w), default=0.0))
        return event

    def _changed(self, kind: str, **fields: Any) -> Event:
        """Record that the game changed: bump the version, score a finished game, tell the view."""
        self.version += 1
        self.background.started = True  # a person acted: computer players may answer
        # A loaded game that had already ended was scored in its own session.
        if kind != "loaded" and self.game.is_over and self.scoreboard.record(self.game):
            self.message = _join(self.message, f"Game over: {self.game.outcome}.")
        event = self._emit(kind, **fields)
        self.background.schedule()
        return event

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
        return last_square(self.game)

    def turn_text(self) -> str:
        """One line saying whose turn it is, or how the game ended."""
        if self.game.is_over:
            return f"Game over: {self.game.outcome}"
        return self._to_move_text()

    def who(self, color: Color) -> str:
        """``'White (Greedy)'``, or just ``'White'`` when the player is named after the colour."""
        name = self.game.player(color).name
        return str(color) if name == str(color) else f"{color} ({name})"

    def countdown_text(self) -> str:
        """``'Black (Ann): 12 s left'`` in a timed game, else an empty string."""
        left = self.game.time_left()
        if left is None:
            return ""
        return f"{self.who(self.game.turn)}: {math.ceil(left)} s left"

    def save_names(self) -> list[str]:
        """The saves in the saves folder."""
        return self.saves.names()

    # -- a person's actions ---------------------------------------------------------

    def click(self, where: SquareLike) -> bool:
        """A person clicked a square: play it if legal, else say why; returns whether it played."""
        game = self.game
        if self._refuse_human_action():
            return False
        try:
            at = game.board.square(where)
        except NotationError as error:
            return self._refuse(str(error))
        if game.must_pass:
            return self._refuse(f"{game.turn} has no legal move: press Pass to hand the turn over.")
        color = game.turn
        try:
            flipped = game.play(at)
        except TimeExpiredError as error:
            self.message = f"Too late: {error}."
            self._changed("timeout", color=color)
            return False
        except ReversiError as error:  # illegal (with the reason), game over, undo pending
            return self._refuse(str(error))
        self._moved(color, at, flipped)
        return True

    def pass_turn(self) -> bool:
        """A person passes (allowed only without a legal move)."""
        if self._refuse_human_action():
            return False
        color = self.game.turn
        try:
            self.game.pass_turn()
        except TimeExpiredError as error:
            self.message = f"Too late: {error}."
            self._changed("timeout", color=color)
            return False
        except ReversiError as error:
            return self._refuse(str(error))
        self.message = _join(f"{color} passed.", self._to_move_text())
        self._changed("pass", color=color)
        return True

    def request_undo(self, color: Color | None = None) -> bool:
        """A person asks to take back their last move; the opponent must agree.

        ``color`` defaults to the person who moved most recently.  A computer
        opponent answers at once, as :attr:`Settings.computer_accepts_undo` says;
        a person answers with :meth:`answer_undo`.
        """
        asker = color if color is not None else self._undo_asker()
        if asker is None:
            return self._refuse("There is no move by a person to take back yet.")
        if self.is_computer(asker):
            return self._refuse(f"{asker} is played by the computer, which never asks to undo.")
        try:
            self.game.request_undo(asker)
        except ReversiError as error:
            return self._refuse(f"No undo: {error}.")
        answerer = asker.opponent
        if self.is_computer(answerer):
            return self._answer_undo(self.settings.computer_accepts_undo)
        self.message = (
            f"{asker} asks to take back their last move. {self.who(answerer)}: accept or decline?"
        )
        self._changed("undo-requested", color=asker)
        return True

    def answer_undo(self, accept: bool) -> bool:
        """The person asked answers the waiting undo request."""
        if self.undo_answerer is None:
            return self._refuse("There is no undo request waiting for a person's answer.")
        return self._answer_undo(accept)

    def resign(self, color: Color | None = None) -> bool:
        """A side gives up: by default the person to move (or the person playing a computer)."""
        game = self.game
        if color is None:
            humans = [c for c in (game.turn, game.turn.opponent) if not self.is_computer(c)]
            color = humans[0] if humans else game.turn
        try:
            game.resign(color)
        except ReversiError as error:
            return self._refuse(str(error))
        self.message = f"{self.who(color)} resigned."
        self._changed("resigned", color=color)
        return True

    def new_game(self) -> None:
        """Start again with the current players and settings; the scores stay."""
        self.game = self._fresh_game()
        self.stopped = self.failed = False
        self.message = _join("New game.", self._to_move_text())
        self._changed("new-game")

    # -- settings and players ------------------------------------------------------------

    def set_player(self, color: Color, kind: str | Player, name: str | None = None) -> bool:
        """Choose who plays ``color`` (a kind such as ``"greedy"``, or a Player) and their name.

        A bad kind or name is refused with a message.  The change applies now if
        the game has not started, else from the next New game.
        """
        try:
            player = self._make_player(color, kind, name)
            self._check_names_differ(player.name, self.players[color.opponent].name)
        except ReversiError as error:
            return self._refuse(str(error))
        self.players[color] = player
        self._apply_or_postpone(f"{color} is now {player.name} ({player.label})")
        self._emit("players")
        return True

    def update_settings(self, **changes: Any) -> bool:
        """Change settings by name (``update_settings(animate=False)``); bad values are refused."""
        try:
            new = dataclasses.replace(self.settings, **changes)
            if "size" in changes:
                Game(size=new.size)  # the game checks the size and says what is wrong
        except (TypeError, ValueError, ReversiError) as error:
            return self._refuse(f"Setting not changed: {error}")
        if new.time_per_move is not None and not new.time_per_move > 0:
            return self._refuse(
                "Setting not changed: the time per move must be positive (or None)."
            )
        if new == self.settings:
            return True
        self.settings = new
        if any(key in GAME_SETTINGS for key in changes):
            self._apply_or_postpone("Settings changed")
        else:
            self.message = "Settings changed."
        self._emit("settings")
        self.background.schedule()
        return True

    # -- saving and loading ---------------------------------------------------------

    def save(self, name: str) -> bool:
        """Save the game under ``name`` in the saves folder."""
        try:
            path = self.saves.save(name, self.game)
        except (ReversiError, OSError) as error:
            return self._refuse(f"Not saved: {error}")
        self.message = f"Saved as {name!r} ({path})."
        self._emit("saved")
        return True

    def load(self, name: str) -> bool:
        """Replace the game by the save called ``name``; a bad save leaves the game as it was."""
        try:
            game = self.saves.load(name, clock=self.clock)
        except (ReversiError, OSError) as error:
            return self._refuse(f"Not loaded: {error}")
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
        self.message = _join(f"Loaded {name!r}.", self.turn_text())
        self._changed("loaded")
        return True

    # -- time and the computer ------------------------------------------------------

    def tick(self) -> bool:
        """Check the clock: a side out of time loses its turn; returns whether one did."""
        game = self.game
        late = game.turn
        if game.is_over or not game.check_time():
            return False
        self.message = _join(f"{late} ran out of time and lost the turn.", self._to_move_text())
        self._changed("timeout", color=late)
        return True

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
        self.message = "Stopped: press Continue to let the computer play on."
        self._emit("stopped")

    def resume(self) -> None:
        """Let computer players move again after :meth:`stop`."""
        self.stopped = self.failed = False
        self.message = self._to_move_text()
        self._emit("settings")
        self.background.schedule()

    async def idle(self) -> None:
        """Wait until no computer move is being worked out or waited for."""
        await self.background.idle()

    def close(self) -> None:
        """Stop the background tasks (the board is going away)."""
        self.stopped = True
        self.version += 1
        self.background.close()

    # -- inside -----------------------------------------------------------------------

    def _make_player(self, color: Color, who: str | Player, name: str | None) -> Player:
        if isinstance(who, Player):
            return who
        if name is not None:
            name = validate_name(name)
        cls = PLAYER_KINDS.get(who) if isinstance(who, str) else None
        if name is None:
            # People default to their colour, so the scores tell two of them apart.
            name = str(color) if cls is not None and cls.is_human else None
            if cls is not None and not cls.is_human and cls.label == self._other_name(color):
                name = f"{cls.label} {color}"
        return make_player(who, name=name)  # type: ignore[arg-type]

    def _other_name(self, color: Color) -> str | None:
        other = self.players.get(color.opponent)
        return other.name if other is not None else None

    @staticmethod
    def _check_names_differ(first: str, second: str) -> None:
        if first == second:
            raise PlayerError(
                f"both players are called {first!r}: give them different names "
                "so the scores can tell them apart"
            )

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

    def _apply_or_postpone(self, what: str) -> None:
        if not self.game.plies and not self.game.is_over:
            self.game = self._fresh_game()
            self.message = _join(f"{what}.", self._to_move_text())
            self._changed("new-game")
        else:
            self.message = f"{what}: this takes effect when you press New game."

    def _to_move_text(self) -> str:
        game = self.game
        if game.is_over:
            return ""
        who = self.who(game.turn)
        if game.pending_undo is not None:
            return f"{game.pending_undo.opponent} must answer {game.pending_undo}'s undo request."
        if game.must_pass:
            return f"{who} has no legal move and must pass."
        return f"{who} to move."

    def say(self, message: str) -> None:
        """Show ``message`` in the status line (nothing else changes)."""
        self.message = message
        self._emit("message")

    def _refuse(self, message: str) -> bool:
        self.message = message
        self._emit("refused")
        return False

    def _refuse_human_action(self) -> bool:
        """Refuse (with a message) an action a person cannot take now; returns whether refused."""
        game = self.game
        if game.is_over:
            return self._refused(
                f"The game is over ({game.outcome}). Press New game to play again."
            )
        if game.pending_undo is not None:
            return self._refused(self._to_move_text())
        if self.is_computer(game.turn):
            doing = "is thinking" if self.thinking is game.turn else "moves next"
            extra = " (stopped: press Continue)" if self.stopped else ""
            return self._refused(
                f"Please wait: {self.who(game.turn)}, the computer, {doing}{extra}."
            )
        return False

    def _refused(self, message: str) -> bool:
        self._refuse(message)
        return True

    def _moved(self, color: Color, at: Square, flipped: list[Square]) -> None:
        count = len(flipped)
        plural = "s" if count != 1 else ""
        self.message = _join(
            f"{color} played {at} and turned {count} disc{plural}.", self._to_move_text()
        )
        self._changed("move", color=color, square=at, flipped=tuple(flipped))

    def _answer_undo(self, accept: bool) -> bool:
        game = self.game
        asker = game.pending_undo
        assert asker is not None
        try:
            game.answer_undo(accept)
        except ReversiError as error:
            return self._refuse(str(error))
        who = self.who(asker.opponent)
        verdict = "accepted" if accept else "declined"
        self.message = _join(f"{who} {verdict} {asker}'s undo request.", self._to_move_text())
        self._changed("undo-answered", color=asker)
        return True

    def _undo_asker(self) -> Color | None:
        for ply in reversed(self.game.plies):
            if isinstance(ply.move, Square) and not self.is_computer(ply.color):
                return ply.color
        return None

    # -- what the background runner calls -------------------------------------------

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

    def notify_tick(self) -> None:
        """Tell the view the countdown changed (the clock task calls this)."""
        self._emit("tick")

    def set_thinking(self, color: Color | None) -> None:
        """Mark ``color``'s computer player as working out a move (``None``: done)."""
        self.thinking = color
        if color is not None:
            self._emit("thinking", color=color)

    def play_computer_move(self, move: Move, version: int) -> bool:
        """Play the move a computer player chose for the position of ``version``.

        A move worked out for an older position (undone, reloaded, replaced by a
        new game, or a turn lost to the clock) is dropped: returns ``False``.
        """
        if version != self.version or not self.computer_should_move:
            return False
        game = self.game
        color = game.turn
        try:
            played = game.play_choice(move)  # a bad move is a PlayerError naming the player
        except TimeExpiredError as error:
            self.message = f"Too late: {error}."
            self._changed("timeout", color=color)
            return False
        if played is PASS:
            self.message = _join(
                f"{self.who(color)} has no legal move and passes.", self._to_move_text()
            )
            self._changed("pass", color=color)
        else:
            self._moved(color, played, list(game.plies[-1].flipped))
        return True

    def report_error(self, error: BaseException) -> None:
        """Show an unexpected error in the status line and keep its traceback in :attr:`error`.

        Computer players stop until New game, Continue or Load, so a failing player
        does not fail again and again.
        """
        self.failed = True
        self.error = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        self.message = f"Error: {type(error).__name__}: {error}"
        self._emit("error")


def _join(*sentences: str) -> str:
    """Sentences for the status line, skipping empty ones."""
    return " ".join(s.strip() for s in sentences if s.strip())
