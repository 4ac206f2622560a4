"""What a person can set on a notebook board: the rules of the next game and how it is shown.

This module owns the :class:`Settings` record and its defaults; it imports no widget
and never changes a game (the controller applies the settings).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Annotated

from reversi.board import Board
from reversi.clock import MAX_TIME_PER_MOVE
from reversi.errors import ArgumentError, ReversiError
from reversi.game import MAX_UNDO_LIMIT
from reversi.outcome import NoMovePolicy
from reversi.surface import student
from reversi.typecheck import Between

#: How long a computer waits before moving when ``Settings.computer_waits`` is on so people can follow it.
COMPUTER_WAIT = 2.0

#: Settings that shape a game: changing them mid-game takes effect at the next New game.
GAME_SETTINGS = ("size", "no_move_policy", "time_per_move", "undo_limit")

#: A pawn picture: the path of a PNG file (64x64 is best), or ``None`` for plain discs.
Picture = str | os.PathLike[str] | None


@student
@dataclass
class Settings:
    """Everything a user can set; the view reads the display ones.

    The annotations are the checks of a value given in a notebook (:func:`reversi.surface.student`);
    a size must also be one the board is played on, and a pawn picture a PNG file that can be read.
    """

    size: int = 8
    no_move_policy: NoMovePolicy = NoMovePolicy.CHANGE_TURN
    time_per_move: Annotated[float, Between(0.001, MAX_TIME_PER_MOVE)] | None = None
    undo_limit: Annotated[int, Between(0, MAX_UNDO_LIMIT)] | None = 1
    computer_waits: bool = False
    computer_accepts_undo: bool = True
    animate: bool = True
    slow_captures: bool = False
    show_legal_moves: bool = True
    show_last_move: bool = True
    sound: bool = False
    black_image: Picture = None
    white_image: Picture = None

    def __post_init__(self) -> None:
        Board(self.size)  # an even whole number from 4 to 16, or BoardSizeError naming it
        self.no_move_policy = NoMovePolicy(self.no_move_policy)
        for key in ("black_image", "white_image"):
            path = getattr(self, key)
            if path is not None:
                setattr(self, key, readable_picture(key, path))


def readable_picture(key: str, path: str | os.PathLike[str]) -> str:
    """``path`` as text if it names a PNG file that can be read, else the kit's error naming ``key``."""
    from course.pictures.pawns import check_pawn_image  # widgets load only when a picture is set

    try:
        text = os.fspath(path)
        check_pawn_image(text)
    except (ReversiError, TypeError) as error:
        raise ArgumentError(f"Settings(): {key} {error}") from None
    return text
