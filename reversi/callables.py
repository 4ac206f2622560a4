"""Functions handed in from outside (clocks, stop flags, scores, callbacks): checked and guarded.

A search or a game takes a few functions from its caller: ``clock`` (seconds),
``should_stop`` (a stop button), ``score`` (an evaluation), ``on_thought`` (a
progress callback).  They are checked where they come in (a value that cannot be
called is refused at once, naming the argument) and guarded where they are called:
a clock that returns NaN, a string or an earlier time than before, a stop flag
that answers something other than yes or no, a score that is not a whole number,
or any of them raising, gives the kit's :class:`~reversi.errors.ArgumentError`
naming the function and what it did, never a search that runs for ever or an
error from deep inside.

>>> readings = iter([1.0, 2.0, 1.5])
>>> clock = guarded_clock(lambda: next(readings))
>>> clock(), clock()
(1.0, 2.0)
>>> clock()
Traceback (most recent call last):
...
reversi.errors.ArgumentError: the clock went backwards: it returned 1.5 after 2.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from reversi.errors import ArgumentError, ReversiError, shown

T = TypeVar("T")

#: Clocks of the standard library, trusted as they are (checking each reading costs time).
TRUSTED_CLOCKS: tuple[Callable[[], float], ...] = (time.perf_counter, time.monotonic, time.time)


def require_callable(value: object, name: str, what: str) -> None:
    """Refuse ``value`` unless it can be called (``name`` is the argument, ``what`` its job)."""
    if not callable(value):
        raise ArgumentError(f"{name} must be a function {what}, not {shown(value)}")


def _call(function: Callable[..., T], name: str, *args: Any) -> T:
    """``function(*args)``, any error it raises turned into the kit's, naming it."""
    try:
        return function(*args)
    except ReversiError:
        raise
    except Exception as error:  # the caller's function can raise anything
        raise ArgumentError(
            f"the {name} function raised {type(error).__name__}: {shown(str(error))}"
        ) from error


def reading(value: object, name: str = "clock") -> float:
    """A clock reading as seconds: a finite number (not a bool), or the kit's error."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentError(f"the {name} returned {shown(value)}, not a number of seconds")
    try:
        seconds = float(value)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds) or abs(seconds) > 1e15:
        raise ArgumentError(f"the {name} returned {shown(value)}, not a finite number of seconds")
    return seconds


def guarded_clock(clock: object, name: str = "clock") -> Callable[[], float]:
    """``clock`` checked: each reading a finite number of seconds, never earlier than the last."""
    require_callable(clock, name, "returning seconds")
    if clock in TRUSTED_CLOCKS:
        return clock
    last = -math.inf

    def read() -> float:
        nonlocal last
        now = reading(_call(clock, name), name)  # type: ignore[arg-type]
        if now < last:
            raise ArgumentError(f"the {name} went backwards: it returned {now!r} after {last!r}")
        last = now
        return now

    return read


def guarded_flag(flag: object, name: str = "should_stop") -> Callable[[], bool] | None:
    """``flag`` (or ``None``) checked: each answer ``True`` or ``False``."""
    if flag is None:
        return None
    require_callable(flag, name, "answering True or False")

    def ask() -> bool:
        answer: object = _call(flag, name)  # type: ignore[arg-type]
        if not isinstance(answer, bool):
            raise ArgumentError(f"the {name} function returned {shown(answer)}, not True or False")
        return answer

    return ask


def guarded_callback(
    callback: object, name: str, takes: str = "taking one argument"
) -> Callable[..., object] | None:
    """``callback`` (or ``None``) checked: callable, and whatever it raises is the kit's error.

    ``takes`` says what it is called with, for the message when it cannot be called.
    """
    if callback is None:
        return None
    require_callable(callback, name, takes)

    def call(*args: Any) -> object:
        return _call(callback, name, *args)  # type: ignore[arg-type]

    return call


def guarded_score(score: object, limit: int, name: str = "score") -> Callable[..., int]:
    """``score`` checked: each value a whole number (not a bool) of size below ``limit``."""
    require_callable(score, name, "returning a whole number")

    def value(*args: Any) -> int:
        result: object = _call(score, name, *args)  # type: ignore[arg-type]
        if isinstance(result, bool) or not isinstance(result, int) or abs(result) >= limit:
            raise ArgumentError(
                f"the {name} function returned {shown(result)}, "
                f"not a whole number below {limit} in size"
            )
        return result

    return value
