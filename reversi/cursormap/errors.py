"""The errors the cursor-map game raises, and how its student surface refuses.

All of them are :class:`CursorMapError`, itself a :class:`reversi.errors.ReversiError`,
so a front end can catch every refusal of the package in one place.  Each message names
what was refused and why.  That holds for a wrong argument too: the package's functions
are checked by :func:`student` and its choices are :class:`CursorChoice`, which refuse
with :class:`CursorArgumentError`, a :class:`CursorGameError` and an
:class:`reversi.errors.ArgumentError` at once.
"""

from __future__ import annotations

from reversi.errors import ArgumentError, GameOverError, ReversiError
from reversi.i18n import _
from reversi.surface import Choice, student_raising


class CursorMapError(ReversiError):
    """Base class of every error the cursor-map game raises."""


class MapError(CursorMapError, ValueError):
    """A map that breaks a rule of the game: a bad size or shape, a character given two
    roles, a player who owns no field that can be switched."""


class MapFileError(MapError):
    """Map-file text that cannot be read, located by 1-based line and column.

    ``line`` and ``column`` are 0 when the problem has no place in the text (the file
    is missing, say).  ``problem`` is the reason in words; ``source`` names the file.

    >>> error = MapFileError("width must be a positive integer, got 'abc'", line=3, column=7)
    >>> str(error)
    "line 3, column 7: width must be a positive integer, got 'abc'"
    >>> str(MapFileError("the file does not exist", source="maps/x.map"))
    'maps/x.map: the file does not exist'
    """

    def __init__(
        self, problem: str, line: int = 0, column: int = 0, source: str | None = None
    ) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        self.source = source
        where = _("line {line}, column {column}: ").format(line=line, column=column) if line > 0 else ""
        prefix = _("{source}: ").format(source=source) if source else ""
        super().__init__(f"{prefix}{where}{problem}")

    def __reduce__(self) -> tuple[type[MapFileError], tuple[str, int, int, str | None]]:
        return type(self), (self.problem, self.line, self.column, self.source)


class CursorGameError(CursorMapError, ValueError):
    """A request the game cannot accept: a cursor off the map, an unknown direction,
    a malformed cursor, a bad setting."""


class CursorGameOverError(CursorMapError, GameOverError):
    """An action asked of a cursor-map game that has already ended."""


class CursorArgumentError(CursorGameError, ArgumentError):
    """An argument the game cannot take: a direction ``'sideways'``, a row ``0.5``, a map
    that is not a CursorMap.  Code that catches the game's refusals catches it, and so does
    code that catches any wrong argument given to the kit."""


student = student_raising(CursorArgumentError)
"""The package's :func:`reversi.surface.student`: a refused argument is a :class:`CursorArgumentError`."""


class CursorChoice(Choice):
    """A choice of the package (owner, value, operator, direction): text that names no
    member is refused with a :class:`CursorArgumentError`."""

    @classmethod
    def refusal(cls, value: object) -> Exception:
        return CursorArgumentError(*super().refusal(value).args)
