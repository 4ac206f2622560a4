"""When a search stops or pauses: its node counter, the clock, a deadline, a stop flag, slices of time.

A search reads the clock and asks ``should_stop`` every :attr:`Watch.poll_every`
positions (a few milliseconds) and stops (raises :class:`SearchStopped`) when the
next reading would come after the deadline, so a time limit is kept and a Stop
button works at once.

Where there are no threads (Pyodide in a browser) a search must also hand the
event loop a turn every few hundredths of a second and then go on where it was.
The positions near the root are therefore searched by generators (``Steps``)
that, between two moves, :meth:`Watch.pause` (yield) once a slice of
``slice_seconds`` is over; the rest of the tree is the plain recursion.
:func:`run_to_end` runs such a search without pausing.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import TypeVar

from reversi.errors import SearchStopped

#: Check the clock and the stop flag once per this many positions.
POLL_EVERY = 256
#: Between two slices' ends, ask ``should_pause`` at most this often (seconds): it may be a
#: call to the page.
ASK_EVERY = 0.002

T = TypeVar("T")

#: A search that pauses (yields ``None``) when its slice of time is over, and returns a ``T``.
Steps = Generator[None, None, T]


def run_to_end(steps: Steps[T]) -> T:
    """Run a search that may pause to its end, without pausing: its answer."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value  # type: ignore[no-any-return]


class Watch:
    """A search's node counter and the ways it stops or pauses.

    ``deadline`` is a reading of ``clock`` after which the search gives up;
    ``should_stop`` is asked at the same moments and stops the search when it
    returns true.  With ``slice_seconds`` set, :meth:`pause` yields once a slice
    of that many seconds is over.
    """

    def __init__(self, clock: Callable[[], float], deadline: float | None,
                 should_stop: Callable[[], bool] | None, slice_seconds: float | None) -> None:
        self.nodes = 0
        self.clock, self.deadline, self.should_stop = clock, deadline, should_stop
        self.poll_every = POLL_EVERY
        self.next_poll = 0  # the first position polls: a search out of time stops at once
        self.last_poll: float | None = None
        self.gap = 0.0  # the longest time between two polls so far
        self.away = 0.0  # the longest pause so far (the loop's turn, between two slices)
        self.slice_seconds = slice_seconds
        self.slice_end = None if slice_seconds is None else clock() + slice_seconds
        #: With slices, ``should_pause()`` true ends one early (the page has a message for the loop).
        self.should_pause: Callable[[], bool] | None = None
        self.next_ask = 0.0

    def poll(self) -> None:
        """Stop the search (raise :class:`SearchStopped`) if time is (nearly) up or a stop was asked.

        "Nearly": if the next poll, as far apart as the longest gap between two
        polls so far, would come after the deadline, the search stops now (the
        gap grows when other programs share the processor).  A search in slices
        may pause before that poll, so the longest pause so far counts too: the
        answer comes in time even when the loop's turn is long (a click handled).
        """
        self.next_poll = self.nodes + self.poll_every
        if self.deadline is not None:
            now = self.clock()
            if self.last_poll is not None:
                self.gap = max(self.gap, now - self.last_poll)
            self.last_poll = now
            if now + self.gap + self.away >= self.deadline:
                raise SearchStopped
        if self.should_stop is not None and self.should_stop():
            raise SearchStopped

    def pause(self) -> Iterator[None]:
        """Pause once (yield) if the slice of time is over, or ``should_pause()`` asks for the
        loop's turn now; the next slice starts on return."""
        if self.slice_seconds is not None and self.slice_end is not None:
            paused = self.clock()
            if paused < self.slice_end and not self._asked(paused):
                return
            yield
            resumed = self.clock()
            self.away = max(self.away, resumed - paused)
            self.slice_end = resumed + self.slice_seconds
            self.last_poll = None  # the pause is not a gap between two polls

    @contextmanager
    def unpaused(self) -> Iterator[None]:
        """No pause inside: for a quick search run to its end at once (:func:`run_to_end`), where
        a pause would be no turn for the loop, and would start the next slice anew."""
        slice_end, self.slice_end = self.slice_end, None
        try:
            yield
        finally:
            self.slice_end = slice_end

    def _asked(self, now: float) -> bool:
        """Whether ``should_pause()`` asks for a pause (asked every :data:`ASK_EVERY` at most)."""
        if self.should_pause is None or now < self.next_ask:
            return False
        self.next_ask = now + ASK_EVERY
        return self.should_pause()
