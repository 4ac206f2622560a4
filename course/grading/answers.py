"""Read what a student's function returned as plain values, or say why it is not an answer.

Each function here builds a *new* plain value (ints, strs, tuples, lists, Squares,
Colors), so an object that pretends to equal everything cannot slip through, and it
accepts the reasonable spellings: a square as ``(row, col)``, a ``Square`` or ``'d3'``.

>>> squares([(2, 3), "e4"], size=8)
[d3, e4]
>>> squares(5, size=8)
Traceback (most recent call last):
...
course.grading.answers.AnswerError: expected a list of squares

Each refusal is an :class:`AnswerError`: a :class:`~course.grading.runner.NotAnAnswer`,
which the runner reports as the case's failure, and the kit's own error at once.
"""

from __future__ import annotations

import operator
from typing import Any

from course.grading.records import NotAnAnswer
from course.i18n import gettext as _
from reversi import BLACK, WHITE, Color, NotationError, Square, square
from reversi.errors import ArgumentError, ReversiError, shown
from reversi.notation import Pass

#: The board sizes a square may be read for (the kit's boards are 4x4 to 16x16).
_SIZES = range(1, 17)


class AnswerError(NotAnAnswer, ReversiError):
    """A returned value that is no answer of the kind expected, with the reason."""


def _size(size: Any) -> int:
    """``size`` checked: a whole number of squares along a side, from 1 to 16."""
    if type(size) is not int or size not in _SIZES:
        raise ArgumentError(f"size must be a whole number from 1 to 16, not {shown(size)}")
    return size


def integer(value: Any) -> int:
    """A whole number (``True`` and ``False`` are not numbers here)."""
    if isinstance(value, bool):
        raise AnswerError(_("expected a whole number, not True or False"))
    try:
        return int(operator.index(value))
    except TypeError:
        raise AnswerError(_("expected a whole number")) from None


def number(value: Any) -> float:
    """An int or a float (an int stays an int, so ``6 == 6.0`` compares as expected)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AnswerError(_("expected a number"))
    return int.__int__(value) if isinstance(value, int) else float.__float__(value)


def boolean(value: Any) -> bool:
    """``True`` or ``False`` exactly."""
    if value is True or value is False:
        return bool(value)
    raise AnswerError(_("expected True or False"))


def text(value: Any) -> str:
    """A str."""
    if not isinstance(value, str):
        raise AnswerError(_("expected text (a str)"))
    return str.__str__(value)


def one_square(value: Any, size: int = 16) -> Square:
    """A square given as ``(row, col)``, a ``Square`` or ``'d3'``."""
    _size(size)
    if isinstance(value, str):
        try:
            return square(str.__str__(value), size)
        except NotationError as error:
            raise AnswerError(str(error)) from None
    if isinstance(value, (tuple, list)) and len(value) == 2:
        row, col = integer(value[0]), integer(value[1])
        if not (0 <= row < size and 0 <= col < size):
            raise AnswerError(_("({row}, {col}) is off the board").format(row=row, col=col))
        return Square(row, col)
    raise AnswerError(_("expected a square: (row, col) or text like 'd3'"))


def squares(value: Any, size: int = 16) -> list[Square]:
    """A list (or tuple, or set) of squares, returned sorted in reading order."""
    _size(size)
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise AnswerError(_("expected a list of squares"))
    return sorted(one_square(item, size) for item in value)


def square_list(value: Any, size: int = 16) -> list[Square]:
    """A list of squares whose order matters (a walk along a line)."""
    _size(size)
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise AnswerError(_("expected a list of squares"))
    return [one_square(item, size) for item in value]


def move(value: Any, size: int = 16) -> Square | Pass:
    """A square, or ``PASS``."""
    _size(size)
    if isinstance(value, Pass):
        return value
    return one_square(value, size)


def color_or_none(value: Any) -> Color | None:
    """``BLACK``, ``WHITE`` or ``None``."""
    if value is None or value is BLACK or value is WHITE:
        return value
    raise AnswerError(_("expected BLACK, WHITE or None"))


def strings(value: Any) -> list[str]:
    """A list of str."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise AnswerError(_("expected a list of strings"))
    return [text(item) for item in value]


def definitions(value: Any) -> dict[str, Any]:
    """A dict of str keys to int or str values (a map file's definitions)."""
    if not isinstance(value, dict):
        raise AnswerError(_("expected a dict"))
    plain: dict[str, Any] = {}
    for key, item in dict.items(value):
        if isinstance(item, str):
            plain[text(key)] = text(item)
        else:
            plain[text(key)] = integer(item)
    return plain
