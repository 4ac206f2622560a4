"""The errors the reversi package raises.

Every error is a :class:`ReversiError`, so a front end can catch them all in one
place; each message names the input that was refused and the reason.
"""

from __future__ import annotations


class ReversiError(Exception):
    """Base class of every error the reversi package raises."""


class NotationError(ReversiError, ValueError):
    """Text that does not name a square (``'z9'``, ``'d'``, ``'44'``)."""


class BoardSizeError(ReversiError, ValueError):
    """A board size the game does not support (it must be even, from 4 to 16)."""


class IllegalMoveError(ReversiError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class GameOverError(ReversiError):
    """An action asked of a game that has already ended."""


class UndoError(ReversiError):
    """An undo that cannot be asked for or answered right now."""


class PlayerError(ReversiError, ValueError):
    """A bad player setting (name, kind) or a computer player that misbehaved."""


class TimeExpiredError(ReversiError):
    """A move that came after the side to move had run out of time."""


class SaveFileError(ReversiError, ValueError):
    """A save file that is missing, corrupt, truncated, or describes an impossible game."""


class ArgumentError(ReversiError, ValueError):
    """A value a function of the game cannot take: an unknown no-move policy, a move time
    that is not a positive number of seconds, a colour that is neither Black nor White,
    a recorded action with missing or wrong parts."""
