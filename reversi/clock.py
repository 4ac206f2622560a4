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

import time
from collections.abc import Callable
from typing import Annotated

from reversi.callables import guarded_clock
from reversi.errors import ArgumentError, shown
from reversi.i18n import N_, _
from reversi.surface import Satisfies
from reversi.typecheck import words

Clock = Callable[[], float]

#: The longest time per move (about 31 years): long enough for "no hurry", short enough to save.
MAX_TIME_PER_MOVE = 1e9

#: Seconds per move, as the student surface checks them.
TimePerMove = Annotated[
    float,
    Satisfies(lambda seconds: 0 < seconds <= MAX_TIME_PER_MOVE, words(N_("a positive number of seconds (at most {high:g})"), high=MAX_TIME_PER_MOVE)),
]


class MoveClock:
    """The time of the turn being played, against a limit of ``time_per_move`` seconds (or none)."""

    def __init__(self, time_per_move: float | None = None, clock: Clock = time.monotonic) -> None:
        if time_per_move is not None and not 0 < time_per_move <= MAX_TIME_PER_MOVE:  # a saved game's too
            raise ArgumentError(
                _("time_per_move must be a positive number of seconds (at most {high:g}) or None, "
                  "not {value}").format(high=MAX_TIME_PER_MOVE, value=shown(time_per_move))
            )  # fmt: skip
        self._read = guarded_clock(clock)
        self.time_per_move = time_per_move
        self.clock = clock
        self._started = self._now()

    def start(self, elapsed: float = 0.0) -> None:
        """Start a turn now, as if ``elapsed`` seconds of it had already gone by."""
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

