"""What the board's controller tells its view: a small enum of event kinds and frozen events.

This module owns the vocabulary between :mod:`.controller` and :mod:`.widget`; it
imports only :mod:`reversi.notation` and :mod:`reversi.errors` and may not import a widget, the controller or
anything that changes a game.  An :class:`Event` names its kind, the status line
at that moment and, when it matters, the colour concerned; a :class:`MoveEvent`
also carries the square played and the discs it turned, so the view can animate
them.

>>> from reversi.notation import BLACK
>>> event = MoveEvent(EventKind.MOVE, "Black played d3.", BLACK, square=Square(2, 3))
>>> event.kind.redraws_board, EventKind.REFUSED.redraws_board
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reversi.notation import Color, Square
from reversi.surface import Choice


class EventKind(str, Choice):
    """Why the view is being told something."""

    MOVE = "move"
    PASS = "pass"
    TIMEOUT = "timeout"
    REFUSED = "refused"
    MESSAGE = "message"
    UNDO_REQUESTED = "undo-requested"
    UNDO_ANSWERED = "undo-answered"
    RESIGNED = "resigned"
    NEW_GAME = "new-game"
    LOADED = "loaded"
    SAVED = "saved"
    PLAYERS = "players"
    SETTINGS = "settings"
    THINKING = "thinking"
    TICK = "tick"
    STOPPED = "stopped"
    ERROR = "error"

    @property
    def redraws_board(self) -> bool:
        """Whether the discs or markers on the board may have changed."""
        return self not in _BOARD_UNCHANGED

    @property
    def changes_settings(self) -> bool:
        """Whether the players or settings may have changed (the settings controls follow)."""
        return self in (EventKind.LOADED, EventKind.PLAYERS, EventKind.SETTINGS)


_BOARD_UNCHANGED = frozenset(
    {
        EventKind.REFUSED,
        EventKind.MESSAGE,
        EventKind.THINKING,
        EventKind.SAVED,
        EventKind.STOPPED,
        EventKind.TICK,
    }
)


@dataclass(frozen=True)
class Event:
    """Something the view may need to show: its kind, the status line, the colour concerned."""

    kind: EventKind
    message: str = ""
    color: Color | None = None


@dataclass(frozen=True, kw_only=True)
class MoveEvent(Event):
    """A disc was placed on ``square`` by ``color`` and turned the ``flipped`` discs."""

    square: Square
    flipped: tuple[Square, ...] = ()


#: A listener gets each event; it may return how many seconds it needs to show it
#: (an animation), and computer players wait that long before their next move.
Listener = Callable[[Event], "float | None"]
