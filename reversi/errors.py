"""The errors the reversi package raises.

Every error is a :class:`ReversiError`, so a front end can catch them all in one
place; each message names the input that was refused and the reason.
"""

from __future__ import annotations

import reprlib

from reversi.i18n import _


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


class InputEnded(PlayerError):
    """A person's input that ended (end of file): no more moves can come from that seat."""


class TimeExpiredError(ReversiError):
    """A move that came after the side to move had run out of time."""


class SaveFileError(ReversiError, ValueError):
    """A save file that is missing, corrupt, truncated, or describes an impossible game."""


class ArgumentError(ReversiError, ValueError):
    """A value a function of the game cannot take: an unknown no-move policy, a move time
    that is not a positive number of seconds, a colour that is neither Black nor White,
    a recorded action with missing or wrong parts."""


class SearchStopped(ReversiError):
    """A search that stopped before it had an answer: its deadline passed or it was asked to stop.

    The searches raise it inside themselves and the ones that can answer anyway
    (:func:`reversi.engine.think`, :func:`reversi.search.iterative_deepening`) catch
    it and answer with the last depth they finished; :func:`reversi.endgame.solve`
    lets it out, since an exact question has no half answer.
    """

    def __str__(self) -> str:
        return _("the search stopped before it had an answer: out of time, or asked to stop")


class _Short(reprlib.Repr):
    """``repr`` for error messages: short, and safe for any value (a 5,000-digit number
    cannot even be printed by ``repr``)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = self.maxother = 80
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            digits = int(x.bit_length() * 0.30103) + 1
            return f"<a whole number of about {digits} digits>"
        return super().repr_int(x, level)


_SHORT = _Short()


def shown(value: object) -> str:
    """``value`` as an error message shows it: its ``repr``, shortened, and never failing.

    >>> shown("d3"), shown(10**5000)
    ("'d3'", '<a whole number of about 5001 digits>')
    """
    try:
        return _SHORT.repr(value)
    except Exception:  # a value whose repr fails still gets a name
        return f"<a {type(value).__name__}>"
