"""What a person can set on a notebook board: the rules of the next game and how it is shown.

This module owns the :class:`Settings` record and its defaults; it imports no widget
and never changes a game (the controller applies the settings).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from reversi.outcome import NoMovePolicy

#: How long a computer waits before moving when ``Settings.computer_waits`` is on so people can follow it.
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
