"""What a person can set on a notebook board: the rules of the next game and how it is shown.

This module owns the :class:`Settings` record and its defaults; it imports no widget
and never changes a game (the controller applies the settings).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from reversi.board import Board
from reversi.clock import check_time_per_move
from reversi.errors import ArgumentError, shown
from reversi.game import MAX_UNDO_LIMIT
from reversi.outcome import NoMovePolicy

#: How long a computer waits before moving when ``Settings.computer_waits`` is on so people can follow it.
COMPUTER_WAIT = 2.0

#: Settings that shape a game: changing them mid-game takes effect at the next New game.
GAME_SETTINGS = ("size", "no_move_policy", "time_per_move", "undo_limit")

#: The settings that are switched on or off.
SWITCHES = (
    "computer_waits", "computer_accepts_undo", "animate", "slow_captures",
    "show_legal_moves", "show_last_move", "sound",
)  # fmt: skip


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
        """Check every setting where it is given, so a bad one never reaches a game.

        A setting the board cannot take raises :class:`~reversi.errors.ArgumentError`
        (or :class:`~reversi.errors.BoardSizeError` for the size) naming it.
        """
        Board(self.size)  # an even whole number from 4 to 16, or BoardSizeError naming it
        self.no_move_policy = NoMovePolicy.read(self.no_move_policy)
        self.time_per_move = check_time_per_move(self.time_per_move)
        if self.undo_limit is not None and (
            isinstance(self.undo_limit, bool)
            or not isinstance(self.undo_limit, int)
            or not 0 <= self.undo_limit <= MAX_UNDO_LIMIT
        ):
            raise ArgumentError(
                f"undo_limit must be a whole number from 0 to {MAX_UNDO_LIMIT} or None, "
                f"not {shown(self.undo_limit)}"
            )
        for key in SWITCHES:
            if not isinstance(getattr(self, key), bool):
                raise ArgumentError(f"{key} must be True or False, not {shown(getattr(self, key))}")
        for key in ("black_image", "white_image"):  # a pathlib.Path is welcome too
            path = getattr(self, key)
            if path is not None and not isinstance(path, str | os.PathLike):
                raise ArgumentError(f"{key} must be the path of a PNG file or None, not {shown(path)}")
            try:
                setattr(self, key, None if path is None else os.fspath(path))
            except TypeError as error:  # a PathLike whose __fspath__ gives no text
                raise ArgumentError(f"{key} is not a file path: {error}") from None

    @classmethod
    def build(cls, **settings: object) -> Settings:
        """Settings from keywords; an unknown one is refused naming it (and the known ones)."""
        unknown = sorted(set(settings) - {field.name for field in fields(cls)})
        if unknown:
            known = ", ".join(field.name for field in fields(cls))
            raise ArgumentError(f"there is no setting {', '.join(map(repr, unknown))} "
                                f"(the settings: {known})")
        return cls(**settings)  # type: ignore[arg-type]
