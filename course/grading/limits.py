"""Time and memory bounds for a student's function while a self-check calls it.

A ``walk`` that forgets to step appends forever: in a plain kernel it grows until the
computer swaps, and in the browser it freezes the tab.  :func:`bounded` stops it with
:class:`Overrun`, whose text says what ran away and what to look at::

    with bounded("walk"):
        answer = walk(board, square, step)

In a kernel with threads (CPython on Windows, macOS and Linux) a watchdog thread reads the
clock and the process's memory every 50 ms and raises :class:`Overrun` inside the call:
the student's code runs at full speed.  In the browser (Pyodide has no threads) a trace
hook does the same from inside, on the lines of the student's own code only (the kit's
frames are not traced), reading memory with :mod:`tracemalloc`, so a correct answer, which
runs for milliseconds, is not slowed in any way a student notices.
"""

from __future__ import annotations

import ctypes
import sys
import sysconfig
import threading
import time
import tracemalloc
from pathlib import Path
from types import FrameType
from typing import Any

#: A self-check's call that runs longer than this is stopped (a correct answer takes milliseconds).
SECONDS = 5.0
#: ... or that makes the kernel grow by more than this many megabytes.
MEGABYTES = 500
#: How often the watchdog looks, in seconds.
TICK = 0.05


class Overrun(Exception):
    """A student's function ran too long or grew too big, and was stopped."""


def _reason(what: str, seconds: float, megabytes: float | None) -> str:
    if megabytes is not None:
        return (
            f"your {what} used more than {megabytes:.0f} MB and was stopped: "
            "does a loop keep adding to a list without ever ending?"
        )
    return f"your {what} ran for {seconds:g} s and was stopped: does the loop step, and does it end?"


def resident_bytes() -> int | None:
    """This process's memory in bytes now (None where the system gives no reading)."""
    statm = Path("/proc/self/statm")
    if statm.exists():
        import os

        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    if sys.platform == "win32":
        return _windows_working_set()
    try:
        import resource
    except ImportError:
        return None
    # macOS: the peak so far, in bytes; growth of the peak is growth of the process.
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _windows_working_set() -> int | None:
    class Counters(ctypes.Structure):
        _fields_ = [
            ("cb", ctypes.c_ulong),
            ("PageFaultCount", ctypes.c_ulong),
            ("PeakWorkingSetSize", ctypes.c_size_t),
            ("WorkingSetSize", ctypes.c_size_t),
            ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
            ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
            ("PagefileUsage", ctypes.c_size_t),
            ("PeakPagefileUsage", ctypes.c_size_t),
        ]

    counters = Counters()
    counters.cb = ctypes.sizeof(Counters)
    windll: Any = vars(ctypes)["windll"]  # only on Windows
    process = windll.kernel32.GetCurrentProcess()
    if not windll.psapi.GetProcessMemoryInfo(process, ctypes.byref(counters), counters.cb):
        return None
    return int(counters.WorkingSetSize)


def has_threads() -> bool:
    return sys.platform != "emscripten"


def bounded(what: str, seconds: float | None = None, megabytes: int | None = None) -> _Watchdog | _Tracer:
    """Run the block, stopping it with :class:`Overrun` after ``seconds`` or ``megabytes`` more
    (by default :data:`SECONDS` and :data:`MEGABYTES`)."""
    watch = _Watchdog if has_threads() else _Tracer
    return watch(what, SECONDS if seconds is None else seconds, MEGABYTES if megabytes is None else megabytes)


class _Watchdog:
    """A thread that raises :class:`Overrun` in the calling thread when a bound passes."""

    def __init__(self, what: str, seconds: float, megabytes: int) -> None:
        self.what, self.seconds, self.limit = what, seconds, megabytes * 2**20
        self.target = threading.get_ident()
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.reason: str | None = None

    def __enter__(self) -> None:
        self.start = time.monotonic()
        self.memory = resident_bytes()
        threading.Thread(target=self._watch, name=f"bounds of {self.what}", daemon=True).start()

    def _watch(self) -> None:
        while not self.done.wait(TICK):
            now = resident_bytes()
            if self.memory is not None and now is not None and now - self.memory > self.limit:
                reason = _reason(self.what, self.seconds, self.limit / 2**20)
            elif time.monotonic() - self.start > self.seconds:
                reason = _reason(self.what, self.seconds, None)
            else:
                continue
            with self.lock:
                if not self.done.is_set():
                    self.reason = reason
                    _raise_in(self.target, Overrun)
            return

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        with self.lock:
            self.done.set()
            if self.reason is not None and not isinstance(error, Overrun):
                _raise_in(self.target, None)  # withdraw an exception not yet delivered
        if self.reason is not None:  # keep the student's line, where it was stopped
            raise Overrun(self.reason).with_traceback(getattr(error, "__traceback__", None)) from None


def _untraced() -> tuple[str, ...]:
    import course
    import reversi

    folders = [Path(course.__file__).parent, Path(reversi.__file__).parent]
    folders += [Path(sysconfig.get_paths()[name]) for name in ("stdlib", "purelib", "platlib")]
    texts = (str(folder.resolve()) for folder in folders)
    return tuple(text[1:] if text.startswith("//") else text for text in texts)  # Pyodide: "//lib/..."


def _raise_in(thread: int, kind: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(kind) if kind else None)


class _Tracer:
    """Without threads: a trace hook on the student's own lines reads the clock and memory."""

    EVERY = 1000  # lines between two readings

    def __init__(self, what: str, seconds: float, megabytes: int) -> None:
        self.what, self.seconds, self.megabytes = what, seconds, megabytes
        self.count = 0

    def __enter__(self) -> None:
        self.start = time.monotonic()
        self.tracing = not tracemalloc.is_tracing()  # Pyodide's allocator counts no blocks
        if self.tracing:
            tracemalloc.start()
        self.first = tracemalloc.get_traced_memory()[0]
        self.untraced = _untraced()
        self.previous = sys.gettrace()
        sys.settrace(self._call)

    def _call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith(self.untraced):
            return None  # the kit's own frames, the libraries and the standard library run untraced
        return self._line

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        self.count += 1
        if self.count % self.EVERY == 0:
            if tracemalloc.get_traced_memory()[0] - self.first > self.megabytes * 2**20:
                raise Overrun(_reason(self.what, self.seconds, self.megabytes))
            if time.monotonic() - self.start > self.seconds:
                raise Overrun(_reason(self.what, self.seconds, None))
        return self._line

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        sys.settrace(self.previous)
        if self.tracing:
            tracemalloc.stop()
