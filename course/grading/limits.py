"""Time and memory bounds for a student's function while a self-check calls it.

A ``walk`` that forgets to step appends forever: in a plain kernel it grows until the
computer swaps, and in the browser it freezes the tab.  :func:`bounded` stops it with
:class:`Overrun`, whose text says what ran away and what to look at::

    with bounded("walk"):
        answer = walk(board, square, step)

In a kernel with threads (CPython on Windows, macOS and Linux) one watchdog thread reads
the clock and the process's memory every 50 ms and raises :class:`Overrun` inside the call;
a call only arms and disarms it, so the student's code runs at full speed.  In the browser
(Pyodide has no threads) the check is made from inside: :mod:`sys.monitoring` counts the
loops' jumps and the calls in the student's own code (the kit's code is switched off after
its first event), and every 1024 of them the clock and the page's memory are read.  Where
Python is older than 3.12 (no :mod:`sys.monitoring`), a trace hook does the same.
``python benchmarks/self_check_bounds.py`` prints what each way costs a correct answer.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import sys
import sysconfig
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from course.i18n import gettext as _

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
        return _(
            "your {function} used more than {megabytes:.0f} MB and was stopped: "
            "does a loop keep adding to a list without ever ending?"
        ).format(function=what, megabytes=megabytes)
    return _("your {function} ran for {seconds:g} s and was stopped: does the loop step, and does "
             "it end?").format(function=what, seconds=seconds)  # fmt: skip


def resident_bytes() -> int | None:
    """This process's memory in bytes now (None where the system gives no reading)."""
    if sys.platform == "emscripten":  # the page's WebAssembly memory, which only grows
        try:
            import pyodide_js  # type: ignore[import-not-found]
        except ImportError:  # another Python that calls itself emscripten
            return None
        return int(pyodide_js._module.HEAPU8.buffer.byteLength)
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


def bounded(what: str, seconds: float | None = None, megabytes: int | None = None) -> Bounds:
    """Run the block, stopping it with :class:`Overrun` after ``seconds`` or ``megabytes`` more
    (by default :data:`SECONDS` and :data:`MEGABYTES`)."""
    seconds = SECONDS if seconds is None else seconds
    megabytes = MEGABYTES if megabytes is None else megabytes
    if has_threads():
        return Watched(what, seconds, megabytes)
    return (Monitored if hasattr(sys, "monitoring") else Traced)(what, seconds, megabytes)


class Bounds:
    """One bounded call: what it is (for the message) and its two bounds."""

    def __init__(self, what: str, seconds: float, megabytes: int) -> None:
        self.what, self.seconds, self.megabytes = what, seconds, megabytes
        self.reason: str | None = None

    def __enter__(self) -> None:
        self.start = time.monotonic()
        self.memory = resident_bytes()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        return None

    def overrun(self) -> str | None:
        """Why the call must stop now, or None."""
        memory = resident_bytes()
        if self.memory is not None and memory is not None and memory - self.memory > self.megabytes * 2**20:
            return _reason(self.what, self.seconds, self.megabytes)
        if time.monotonic() - self.start > self.seconds:
            return _reason(self.what, self.seconds, None)
        return None


class Watched(Bounds):
    """Watched by the one watchdog thread, which raises :class:`Overrun` in the calling thread."""

    def __enter__(self) -> None:
        super().__enter__()
        self.target = threading.get_ident()
        _watchdog().arm(self)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        _watchdog().disarm(self, withdraw=not isinstance(error, Overrun))
        if self.reason is not None:  # keep the student's line, where it was stopped
            raise Overrun(self.reason).with_traceback(getattr(error, "__traceback__", None)) from None


class _Watchdog:
    """One thread for the whole kernel, watching every armed call (calls may nest: a
    student's function may run a self-check of its own)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.armed: dict[int, Watched] = {}
        self.thread = threading.Thread(target=self._watch, name="self-check bounds", daemon=True)
        self.thread.start()

    def arm(self, watched: Watched) -> None:
        with self.lock:
            self.armed[id(watched)] = watched

    def disarm(self, watched: Watched, withdraw: bool) -> None:
        with self.lock:
            self.armed.pop(id(watched), None)
            if watched.reason is not None and withdraw:
                _raise_in(watched.target, None)  # withdraw an exception not yet delivered

    def _watch(self) -> None:
        while True:
            time.sleep(TICK)
            for watched in list(self.armed.values()):
                try:
                    reason = watched.overrun()
                except Exception:  # a reading that failed: the clock still counts next time
                    reason = None if time.monotonic() - watched.start <= watched.seconds else (
                        _reason(watched.what, watched.seconds, None))
                if reason is None:
                    continue
                with self.lock:
                    if self.armed.pop(id(watched), None) is watched:
                        watched.reason = reason
                        _raise_in(watched.target, Overrun)


_WATCHDOG: list[_Watchdog] = []


def _watchdog() -> _Watchdog:
    """The kernel's watchdog, started again if its thread is gone (a fork keeps no threads)."""
    if not _WATCHDOG or not _WATCHDOG[0].thread.is_alive():
        _WATCHDOG[:] = [_Watchdog()]
    return _WATCHDOG[0]


@functools.cache
def _untraced() -> tuple[str, ...]:
    """Where the kit, the libraries and the standard library live: their code is not counted."""
    import course
    import reversi

    folders = [Path(course.__file__).parent, Path(reversi.__file__).parent]
    folders += [Path(sysconfig.get_paths()[name]) for name in ("stdlib", "purelib", "platlib")]
    texts = (str(folder.resolve()) for folder in folders)
    return tuple(text[1:] if text.startswith("//") else text for text in texts)  # Pyodide: "//lib/..."


def _raise_in(thread: int, kind: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(kind) if kind else None)


EVERY = 1023  # a reading after every 1024 events of the student's code (a mask)


class Monitored(Bounds):
    """Without threads, on Python 3.12 and later: :mod:`sys.monitoring` counts the student's
    loop jumps and calls, and the kit's code is switched off at its first event."""

    def __enter__(self) -> None:
        self.start = time.monotonic()
        self.count = 0
        monitor = _monitor()
        self.memory = monitor.memory if monitor.session else resident_bytes()
        self.installed_here = not monitor.session
        if self.installed_here:
            monitor.install()
        monitor.current = self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        monitor = _monitor()
        monitor.current = None
        if self.installed_here:
            monitor.uninstall()


class _Monitor:
    """The one :mod:`sys.monitoring` tool of the kit (switching it on costs about 50 us in
    Pyodide, so a whole check switches it on once: :func:`checking`)."""

    TOOL = 4  # a tool id the debugger (0), coverage (1), profiler (2) and optimizer (5) leave free

    def __init__(self) -> None:
        self.monitoring: Any = vars(sys)["monitoring"]  # Python 3.12 and later
        self.untraced = _untraced()
        self.current: Monitored | None = None
        self.session = False
        self.memory: int | None = None
        self.disable = self.monitoring.DISABLE
        if self.monitoring.get_tool(self.TOOL) is None:
            self.monitoring.use_tool_id(self.TOOL, "self-check bounds")
        events = self.monitoring.events
        self.events = events.JUMP | events.PY_START
        for event in (events.JUMP, events.PY_START):
            self.monitoring.register_callback(self.TOOL, event, self._event)

    def install(self) -> None:
        self.monitoring.set_events(self.TOOL, self.events)

    def uninstall(self) -> None:
        self.monitoring.set_events(self.TOOL, 0)

    def _event(self, code: CodeType, *where: Any) -> Any:
        if code.co_filename.startswith(self.untraced):
            return self.disable  # the kit's own code: never again at this place
        current = self.current
        if current is not None:
            current.count += 1
            if not current.count & EVERY:
                reason = current.overrun()
                if reason is not None:
                    raise Overrun(reason)
        return None


@functools.cache
def _monitor() -> _Monitor:
    return _Monitor()


@contextlib.contextmanager
def checking() -> Iterator[None]:
    """Around a whole check's calls: where the bounds are counted from inside (the browser),
    the counting is switched on once for all of them, and memory is measured from here."""
    if has_threads() or not hasattr(sys, "monitoring") or _monitor().session:
        yield
        return
    monitor = _monitor()
    monitor.session, monitor.memory = True, resident_bytes()
    monitor.install()
    try:
        yield
    finally:
        monitor.session = False
        monitor.uninstall()


class Traced(Bounds):
    """Without threads, before Python 3.12: a trace hook on the lines of the student's code."""

    def __enter__(self) -> None:
        super().__enter__()
        self.count = 0
        self.untraced = _untraced()
        self.previous = sys.gettrace()
        sys.settrace(self._call)

    def _call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith(self.untraced):
            return None  # the kit's own frames, the libraries and the standard library run untraced
        return self._line

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        self.count += 1
        if not self.count & EVERY:
            reason = self.overrun()
            if reason is not None:
                raise Overrun(reason)
        return self._line

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        sys.settrace(self.previous)
