"""Colours, squares and the pass move: the small value types everything else uses.

Squares are named like the ZX-81 article names them: a column letter then a row
number, rows counted from the top.  ``d3`` is column d (the fourth) in row 3.

>>> square("d3")
Square(row=2, col=3)
>>> str(square((2, 3)))
'd3'
>>> square("C 4") == (3, 2)
True
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple, TypeAlias

from reversi.errors import NotationError

MIN_SIZE = 4
MAX_SIZE = 16
COLUMN_LETTERS = "abcdefghijklmnop"  # enough for the largest board, 16x16


class Color(enum.Enum):
    """The colour of a disc, and of the player who owns it."""

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other colour.

        >>> Color.BLACK.opponent
        <Color.WHITE: 'white'>
        """
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``'B'`` or ``'W'``, as in text diagrams."""
        return "B" if self is Color.BLACK else "W"

    def __str__(self) -> str:
        return self.value.capitalize()


BLACK = Color.BLACK
WHITE = Color.WHITE


class Square(NamedTuple):
    """A square of the board as a 0-based ``(row, col)`` pair that prints as ``d3``.

    Because it is a tuple, ``Square(2, 3) == (2, 3)``, and either form can be
    used wherever the package takes a square.
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        """The square in notation, for example ``'d3'``."""
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name


class Pass:
    """The explicit move of a player who has no legal move (the ZX-81 player typed 0).

    There is one instance, :data:`PASS`.
    """

    _instance: Pass | None = None

    def __new__(cls) -> Pass:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

SquareLike: TypeAlias = "Square | tuple[int, int] | str"
Move: TypeAlias = "Square | Pass"

_SQUARE_TEXT = re.compile(r"^\s*([a-zA-Z])\s*(\d{1,2})\s*$")
_PASS_WORDS = {"0", "pass"}


def square(value: SquareLike, size: int = MAX_SIZE) -> Square:
    """Read a square from notation (``'d3'``, ``'D3'``, ``'d 3'``) or a ``(row, col)`` tuple.

    Raises :class:`NotationError` naming the input when it is not a square of a
    ``size`` x ``size`` board.

    >>> square("h8", size=8)
    Square(row=7, col=7)
    >>> square("i1", size=8)
    Traceback (most recent call last):
    ...
    reversi.errors.NotationError: 'i1' is not a square of an 8x8 board: columns run from a to h
    """
    if isinstance(value, str):
        match = _SQUARE_TEXT.match(value)
        if not match:
            raise NotationError(
                f"{value!r} is not a square: write a column letter then a row number, like 'd3'"
            )
        letter, digits = match.groups()
        col = COLUMN_LETTERS.find(letter.lower())
        row = int(digits) - 1
        if col < 0 or col >= size:
            raise NotationError(
                f"{value!r} is not a square of {_board_name(size)}: "
                f"columns run from a to {COLUMN_LETTERS[size - 1]}"
            )
        if not 0 <= row < size:
            raise NotationError(
                f"{value!r} is not a square of {_board_name(size)}: rows run from 1 to {size}"
            )
        return Square(row, col)
    if isinstance(value, tuple) and len(value) == 2 and all(_is_int(v) for v in value):
        row, col = value
        if not (0 <= row < size and 0 <= col < size):
            raise NotationError(
                f"{tuple(value)!r} is not a square of {_board_name(size)}: "
                f"row and column run from 0 to {size - 1}"
            )
        return Square(row, col)
    raise NotationError(f"{value!r} is not a square: give text like 'd3' or a (row, col) pair")


def parse_move(text: str, size: int = MAX_SIZE) -> Move:
    """Read a move as a player types it: a square, or ``0`` / ``pass`` to pass.

    >>> parse_move("C 4")
    Square(row=3, col=2)
    >>> parse_move("0")
    PASS
    """
    if text.strip().lower() in _PASS_WORDS:
        return PASS
    return square(text, size)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _board_name(size: int) -> str:
    article = "an" if size in (8, 11) else "a"
    return f"{article} {size}x{size} board"
