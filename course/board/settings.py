"""The settings of a notebook board and the events its controller sends to the view."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from reversi.notation import Color, Square
from reversi.outcome import NoMovePolicy

#: How long a computer waits before moving when ``Settings.computer_waits`` is on (seed 000).
COMPUTER_WAIT = 2.0

#: Settings that shape a game: changing them mid-game takes effect at the next New game.
GAME_SETTINGS = ("size", "no_move_policy", "time_per_move", "undo_limit")


@dataclass
class Settings:
    """Everything a user can set; the view reads the display ones."""

    size: int = 8
    no_move_policy: NoMovePolicy = NoMovePolicy.CHANGE_TURN
    time_per_move: float | None = None
    undo_limit: int | None = 1
    computer_waits: bool = False
    computer_accepts_undo: bool = True
    animate: bool = True
    slow_captures: bool = False
    show_legal_moves: bool = True
    show_last_move: bool = True
    sound: bool = False
    black_image: str | os.PathLike[str] | None = None  # a 64x64 PNG for the pawns; None draws discs
    white_image: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        self.no_move_policy = NoMovePolicy(self.no_move_policy)
        for key in ("black_image", "white_image"):  # a pathlib.Path is welcome too
            path = getattr(self, key)
            setattr(self, key, None if path is None else os.fspath(path))


@dataclass(frozen=True)
class Event:
    """Something the view may need to show.

    ``kind`` is one of ``move``, ``pass``, ``timeout``, ``refused``, ``message``, ``undo-requested``,
    ``undo-answered``, ``resigned``, ``new-game``, ``loaded``, ``saved``, ``players``,
    ``settings``, ``thinking``, ``tick``, ``stopped`` and ``error``.  A move carries its
    colour, square and the discs it flipped, so the view can animate them.
    """

    kind: str
    color: Color | None = None
    square: Square | None = None
    flipped: tuple[Square, ...] = ()
    message: str = ""


#: A listener gets each event; it may return how many seconds it needs to show it
#: (an animation), and computer players wait that long before their next move.
Listener = Callable[[Event], "float | None"]
