"""The move clock: how long the side to move has had, and when its time is up.

A :class:`MoveClock` reads the time from a function (``time.monotonic`` by default;
tests pass a fake one so they never sleep).  It knows nothing about whose turn it
is: the game starts it at each turn and asks it whether the time is up.

>>> now = [100.0]
>>> clock = MoveClock(10, lambda: now[0])
>>> now[0] += 4
>>> clock.elapsed(), clock.time_left(), clock.is_up()
(4.0, 6.0, False)
>>> now[0] += 7
>>> clock.is_up()
True
>>> clock.forfeit()   # the next turn started when this one ran out, 1 s ago
>>> clock.elapsed()
1.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from reversi.callables import guarded_clock
from reversi.errors import ArgumentError, shown

__all__ = [
    "Clock",
    "MAX_TIME_PER_MOVE",
    "check_time_per_move",
    "MoveClock",
]

Clock = Callable[[], float]

#: The longest time per move (about 31 years): long enough for "no hurry", short enough to save.
MAX_TIME_PER_MOVE = 1e9


def check_time_per_move(value: object) -> float | None:
    """``value`` as seconds per move (``None``: no limit), or :class:`ArgumentError` saying why not."""
    if value is None:
        return None
    if not _is_number(value) or not 0 < value <= MAX_TIME_PER_MOVE:  # type: ignore[operator]
        raise ArgumentError(
            f"time_per_move must be a positive number of seconds (at most {MAX_TIME_PER_MOVE:g}) "
            f"or None, not {shown(value)}"
        )
    return value  # type: ignore[return-value]


class MoveClock:
    """The time of the turn being played, against a limit of ``time_per_move`` seconds (or none)."""

    def __init__(self, time_per_move: float | None = None, clock: Clock = time.monotonic) -> None:
        self._read = guarded_clock(clock)
        self.time_per_move = check_time_per_move(time_per_move)
        self.clock = clock
        self._started = self._now()

    def start(self, elapsed: float = 0.0) -> None:
        """Start a turn now, as if ``elapsed`` seconds of it had already gone by."""
        if not _is_number(elapsed) or elapsed < 0:
            raise ArgumentError(f"elapsed must be a number of seconds >= 0, not {shown(elapsed)}")
        self._started = self._now() - elapsed

    def elapsed(self) -> float:
        """Seconds spent on this turn so far (never below 0, even just after a forfeit)."""
        return max(0.0, self._now() - self._started)

    def time_left(self) -> float | None:
        """Seconds left of this turn (``None`` without a limit)."""
        if self.time_per_move is None:
            return None
        return max(0.0, self.time_per_move - self.elapsed())

    def is_up(self) -> bool:
        """Whether the turn has lasted longer than the limit."""
        return self.time_per_move is not None and self.elapsed() > self.time_per_move

    def forfeit(self) -> None:
        """Start the next turn at the moment this one ran out, so an unattended game stays exact."""
        if self.time_per_move is not None:
            self._started += self.time_per_move

    def _now(self) -> float:
        return self._read()


def _is_number(value: object) -> bool:
    """A finite int or float that is not a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # a whole number too large for any clock
        return False
