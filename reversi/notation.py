"""Colours, squares and the pass move: the small value types everything else uses.

A square is named by a column letter then a row number, rows counted from the
top: ``d3`` is column d (the fourth) in row 3.  Squares show themselves by that name.

>>> square("d3")
d3
>>> square("d3").row, square("d3").col
(2, 3)
>>> square("C 4") == (3, 2)
True

Only ASCII text is read: a full-width digit or a non-breaking space is refused
rather than guessed at.
"""

from __future__ import annotations

import re
from typing import Annotated, NamedTuple, TypeAlias

from reversi.errors import BoardSizeError, NotationError, shown
from reversi.i18n import N_, _
from reversi.surface import Choice, student

MIN_SIZE = 4
MAX_SIZE = 16
COLUMN_LETTERS = "abcdefghijklmnop"  # enough for the largest board, 16x16


class Color(Choice):
    """The colour of a disc, and of the player who owns it (``Color("black")`` reads its name)."""

    @classmethod
    def refusal(cls, value: object) -> Exception:
        return NotationError(_("a colour is 'black' or 'white', not {value}").format(value=shown(value)))

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
        """The square in notation, for example ``'d3'``; :class:`NotationError` if it has none."""
        if not self._on_a_board():
            raise NotationError(_("{square} has no name: row and column must be whole numbers from 0 to {last}")
                                .format(square=repr(self), last=MAX_SIZE - 1))  # fmt: skip
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    def _on_a_board(self) -> bool:
        return all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n < MAX_SIZE
            for n in (self.row, self.col)
        )

    def __str__(self) -> str:
        return self.name if self._on_a_board() else repr(self)

    def __repr__(self) -> str:
        # Reads like the square's name, as a chess library shows its moves: [d3, c4].
        if self._on_a_board():
            return self.name
        return f"Square(row={shown(self.row)}, col={shown(self.col)})"


class Pass:
    """The explicit move of a player who has no legal move (typed as ``0`` or ``pass``).

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

#: A square as a function of the kit takes it: ``Square(2, 3)``, ``(2, 3)`` or ``'d3'``.
SquareLike: TypeAlias = Annotated[Square | tuple[int, int] | str, N_("a square such as 'd3' or a Square")]
Move: TypeAlias = Square | Pass

_SQUARE_TEXT = re.compile(r"^\s*([a-zA-Z])\s*(\d{1,2})\s*\Z", re.ASCII)
_PASS_WORDS = {"0", "pass"}


@student
def square(value: SquareLike, size: int = MAX_SIZE) -> Square:
    """Read a square from notation (``'d3'``, ``'D3'``, ``'d 3'``) or a ``(row, col)`` tuple.

    Raises :class:`NotationError` naming the input when it is not a square of a
    ``size`` x ``size`` board.

    >>> square("h8", size=8)
    h8
    >>> square("i1", size=8)
    Traceback (most recent call last):
    ...
    reversi.errors.NotationError: 'i1' is not a square of an 8x8 board: columns run from a to h
    """
    _check_size(size)
    if isinstance(value, str):
        _check_ascii(value, "square")
        match = _SQUARE_TEXT.match(value)
        if not match:
            raise NotationError(
                _("{value} is not a square: write a column letter then a row number, like 'd3'").format(value=shown(value))
            )
        letter, digits = match.groups()
        col = COLUMN_LETTERS.find(letter.lower())
        row = int(digits) - 1
        named = {"value": shown(value), "board": _board_name(size), "size": size}
        if col < 0 or col >= size:
            raise NotationError(_("{value} is not a square of {board}: columns run from a to {last}").format(
                last=COLUMN_LETTERS[size - 1], **named))  # fmt: skip
        if not 0 <= row < size:
            raise NotationError(_("{value} is not a square of {board}: rows run from 1 to {size}").format(**named))
        return Square(row, col)
    if isinstance(value, tuple) and len(value) == 2 and all(_is_int(v) for v in value):
        row, col = value
        if not (0 <= row < size and 0 <= col < size):
            raise NotationError(_("{value} is not a square of {board}: row and column run from 0 to {last}")
                                .format(value=shown(tuple(value)), board=_board_name(size), size=size,
                                        last=size - 1))  # fmt: skip
        return Square(row, col)
    raise NotationError(_("{value} is not a square: give text like 'd3' or a (row, col) pair").format(value=shown(value)))


@student
def parse_move(text: SquareLike | Pass, size: int = MAX_SIZE) -> Move:
    """Read a move as a player types it: a square, or ``0`` / ``pass`` to pass.

    Anything :func:`square` reads is a move too, and so is :data:`PASS` itself.

    >>> parse_move("C 4")
    c4
    >>> parse_move("0")
    PASS
    >>> parse_move("\u3000pass")
    Traceback (most recent call last):
    ...
    reversi.errors.NotationError: '\u3000pass' is not a move: it contains the non-ASCII character '\u3000'
    """
    if text is PASS:
        _check_size(size)
        return PASS
    if isinstance(text, str):
        _check_ascii(text, "move")
        if text.strip().lower() in _PASS_WORDS:
            _check_size(size)
            return PASS
    return square(text, size)  # type: ignore[arg-type]  # square() names anything else


def _check_size(size: object) -> None:
    if not _is_int(size) or not 1 <= size <= MAX_SIZE:  # type: ignore[operator]
        raise BoardSizeError(
            _("{value} is not a board size for reading squares: give a whole number from 1 to {high}").format(
                value=shown(size), high=MAX_SIZE)
        )


_NOT_ASCII = {
    "square": N_("{text} is not a square: it contains the non-ASCII character {char}"),
    "move": N_("{text} is not a move: it contains the non-ASCII character {char}"),
}


def _check_ascii(text: str, what: str) -> None:
    for char in text:
        if not char.isascii():
            raise NotationError(_(_NOT_ASCII[what]).format(text=shown(text), char=shown(char)))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _board_name(size: int) -> str:
    """``'an 8x8 board'``: a sentence that names it may say the size its own way (``{size}``)."""
    return (_("an {size}x{size} board") if size in (8, 11) else _("a {size}x{size} board")).format(size=size)
