"""The checks :mod:`reversi.rules` makes on what it is given, kept out of the module people read.

:func:`checked` wraps each public function of the readable rules: on a call from outside the
module it checks every argument by its name (a grid, a square, a step, a colour, a depth, a
size, a text, a board) and refuses a value it cannot read with :class:`ArgumentError`; the
calls the rules make to each other (thousands in a perft) are not checked again.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from reversi.errors import ArgumentError, shown
from reversi.notation import BLACK, MAX_SIZE, MIN_SIZE, WHITE, Color

F = TypeVar("F", bound=Callable[..., Any])

#: The deepest perft the slow rules count (depth 6 from the start reads 8,200 games in about
#: a second; ``Board.perft`` goes deeper, fast).
MAX_PERFT_DEPTH = 6

_inside = threading.local()


def _grid(value: object) -> None:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_SIZE:
        raise ArgumentError(f"a grid is a list of 1 to {MAX_SIZE} rows, not {shown(value)}")
    for row in value:
        if not isinstance(row, list) or len(row) != len(value):
            raise ArgumentError(f"a grid's rows are lists as long as the grid is tall, not {shown(row)}")
        if not all(disc is None or disc is BLACK or disc is WHITE for disc in row):
            raise ArgumentError(f"a grid's squares hold BLACK, WHITE or None, not {shown(row)}")


def _pair(value: object, what: str) -> tuple[int, int]:
    if not isinstance(value, tuple) or len(value) != 2 or not all(type(v) is int for v in value):
        raise ArgumentError(f"a {what} is a (row, col) pair of whole numbers, not {shown(value)}")
    return (value[0], value[1])


def _color(value: object) -> None:
    if not isinstance(value, Color):
        raise ArgumentError(f"the colour is BLACK or WHITE, not {shown(value)}")


def _step(value: object) -> None:
    row, col = _pair(value, "step")
    if not (-1 <= row <= 1 and -1 <= col <= 1) or (row, col) == (0, 0):
        raise ArgumentError(f"a step is one of the eight directions such as (0, 1), not {shown(value)}")


def _depth(value: object) -> None:
    if type(value) is not int or not 0 <= value <= MAX_PERFT_DEPTH:
        raise ArgumentError(
            f"the slow rules count to depth {MAX_PERFT_DEPTH} (Board.perft goes deeper), not {shown(value)}"
        )


def _size(value: object) -> None:
    if type(value) is not int or value % 2 or not MIN_SIZE <= value <= MAX_SIZE:
        raise ArgumentError(f"a board size is an even whole number from {MIN_SIZE} to {MAX_SIZE}, not {shown(value)}")


def _text(value: object) -> None:
    if not isinstance(value, str) or len(value) > 4 * MAX_SIZE * (MAX_SIZE + 1):
        raise ArgumentError(f"a grid's text is rows of B, W and . (at most {MAX_SIZE} of each), not {shown(value)}")


def _board(value: object) -> None:
    size = getattr(value, "size", None)
    if type(size) is not int or not 1 <= size <= MAX_SIZE or not hasattr(value, "__getitem__"):
        raise ArgumentError(f"a board has a size and answers board[row, col], not {shown(value)}")


def _whole(value: object) -> None:
    if type(value) is not int:
        raise ArgumentError(f"a row or column is a whole number, not {shown(value)}")


_CHECKS: dict[str, Callable[[object], object]] = {
    "grid": _grid, "color": _color, "step": _step, "depth": _depth, "size": _size,
    "text": _text, "board": _board, "square": lambda value: _pair(value, "square"),
    "row": _whole, "col": _whole,
}  # fmt: skip



def _on_the_grid(arguments: dict[str, Any]) -> None:
    """A square must lie on the grid it is played on (Python would read ``grid[-1]`` as the last row)."""
    grid, square = arguments.get("grid"), arguments.get("square")
    if grid is not None and square is not None:
        row, col = square
        if not (0 <= row < len(grid) and 0 <= col < len(grid)):
            raise ArgumentError(f"the square {square} is off the {len(grid)}x{len(grid)} grid")


def checked(function: F) -> F:
    """``function`` with its arguments checked on calls from outside the rules."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def check_then_call(*args: Any, **kwargs: Any) -> Any:
        if getattr(_inside, "depth", 0):
            return function(*args, **kwargs)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise ArgumentError(f"{function.__name__}: {error}") from None
        for name, value in bound.arguments.items():
            _CHECKS[name](value)
        _on_the_grid(bound.arguments)
        _inside.depth = 1
        try:
            return function(*args, **kwargs)
        finally:
            _inside.depth = 0

    return check_then_call  # type: ignore[return-value]
