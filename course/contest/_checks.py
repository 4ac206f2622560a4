"""The checks the tournament's modules make where a value comes in: cheap, and the kit's errors."""

from __future__ import annotations

import math

from reversi.errors import ArgumentError, BoardSizeError, shown
from reversi.notation import MAX_SIZE, MIN_SIZE

#: The longest name a tournament takes (a student's folder, a level's label).
MAX_NAME = 1000


def whole(value: object, name: str, lowest: int, highest: int) -> int:
    """``value`` if it is a whole number (not a bool) from ``lowest`` to ``highest``."""
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= highest:
        raise ArgumentError(
            f"{name} must be a whole number from {lowest} to {highest}, not {shown(value)}"
        )
    return value


def seconds(value: object, name: str, highest: float = 24 * 3600.0) -> float:
    """``value`` if it is a number of seconds above 0 and at most ``highest``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentError(f"{name} must be a number of seconds, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not 0 < number <= highest:  # NaN fails too
        raise ArgumentError(
            f"{name} must be a number of seconds above 0 and at most {highest:g}, "
            f"not {shown(value)}"
        )
    return value


def text(value: object, name: str, longest: int = MAX_NAME, empty: bool = False) -> str:
    """``value`` if it is text (not empty unless ``empty``) of at most ``longest`` characters."""
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be text, not {shown(value)}")
    if not value and not empty:
        raise ArgumentError(f"{name} must not be empty")
    if len(value) > longest:
        raise ArgumentError(f"{name} must be at most {longest} characters, not {shown(value)}")
    return value


def board_size(value: object, name: str = "size") -> int:
    """``value`` if it is a board size the game plays on (even, from 4 to 16)."""
    if isinstance(value, bool) or not isinstance(value, int) or value % 2:
        raise BoardSizeError(f"{name} must be an even whole number, not {shown(value)}")
    if not MIN_SIZE <= value <= MAX_SIZE:
        raise BoardSizeError(
            f"{name} {shown(value)} is out of range: it runs from {MIN_SIZE} to {MAX_SIZE}"
        )
    return value


def texts(value: object, name: str, longest: int = 10_000) -> tuple[str, ...]:
    """``value`` (a tuple or list of text) as a tuple."""
    if not isinstance(value, tuple | list) or len(value) > longest:
        raise ArgumentError(f"{name} must be a tuple of text, not {shown(value)}")
    if not all(isinstance(item, str) for item in value):
        raise ArgumentError(f"{name} must hold only text, not {shown(value)}")
    return tuple(value)
