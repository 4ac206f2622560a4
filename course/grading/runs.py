"""One sandboxed run as the host sees it: its limits, its pipe, and why it ended.

:class:`Run` is the pipe, the same for every kind of sandbox and every system (threads, no
``select`` or signals): :meth:`Run.send` writes to the program's standard input,
:meth:`Run.lines` reads its standard output as lines, bounded in bytes per line, bytes in
all, number of lines (:class:`Limits`), and by one wall-clock deadline fixed when the run
started, which nothing the code sends can extend.  Leaving the ``with`` block kills the
run and everything it started.  :mod:`course.grading.sandbox` starts runs.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from course.grading.pyodide_host import Hosted

#: The environment variable that marks an unisolated run's processes (to find and end them).
MARKER = "COURSE_SANDBOX_RUN"


@dataclass(frozen=True)
class Limits:
    """What one run may use: one wall clock for the whole run, CPU seconds, memory, output.

    ``wall`` is fixed when the run starts.  ``line_bytes``, ``total_bytes`` and
    ``lines`` bound what :meth:`Run.lines` reads back.
    """

    wall: float = 60.0
    cpu: int = 60
    memory_mb: int = 512
    file_mb: int = 1
    open_files: int = 64
    line_bytes: int = 8 << 20
    total_bytes: int = 32 << 20
    lines: int = 10_000

    def rlimits(self, processes: int | None) -> list[tuple[str, int]]:
        """The ``(RLIMIT_*, value)`` pairs set in a bubblewrap or unisolated run before its
        code starts; ``processes`` is the process limit to set (None: none)."""
        pairs = [
            ("RLIMIT_CPU", max(1, int(self.cpu))),
            ("RLIMIT_AS", self.memory_mb << 20),
            ("RLIMIT_FSIZE", self.file_mb << 20),
            ("RLIMIT_CORE", 0),
            ("RLIMIT_NOFILE", self.open_files),
        ]
        return pairs + ([("RLIMIT_NPROC", processes)] if processes is not None else [])


@dataclass
class Read:
    """What :meth:`Run.lines` read, and why it stopped: ``ended``, ``timed out``, ``too much``."""

    lines: list[bytes] = field(default_factory=list)
    stopped: str = "ended"


_OVER = b"<over>"  # put by the reading thread once more arrived than a run may read


class Run:
    """One running sandboxed program; use it as a context manager (it is killed on exit).

    A thread reads the program's output into a queue (at most the limit's bytes, so a
    program that writes without end fills its pipe and waits for its end); the reading
    side takes lines from the queue against the run's one wall clock.
    """

    def __init__(
        self, process: subprocess.Popen[bytes] | Hosted, folders: list[str], limits: Limits
    ) -> None:
        self.process, self.limits, self._folders = process, limits, folders
        self.deadline = time.monotonic() + limits.wall
        self._buffer, self._total, self._count = b"", 0, 0
        self._ended = False
        self.stopped = "ended"  # why next_line last returned None
        self._chunks: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def _read(self) -> None:
        stream, taken = self.process.stdout, 0
        assert stream is not None
        while True:
            try:
                chunk = stream.read1(1 << 16)  # type: ignore[union-attr]
            except (OSError, ValueError):
                chunk = b""
            taken += len(chunk)
            if taken > self.limits.total_bytes + self.limits.line_bytes:
                self._chunks.put(_OVER)
                return
            self._chunks.put(chunk)
            if not chunk:
                return

    def send(self, data: bytes) -> bool:
        """Write ``data`` to the program's standard input before the deadline; False if the
        program is gone, or does not read it in time (a write never waits past the clock)."""
        stdin = self.process.stdin
        assert stdin is not None
        written = threading.Event()

        def write() -> None:
            with contextlib.suppress(OSError, ValueError):
                stdin.write(data)
                stdin.flush()
                written.set()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(max(0.0, self.left()))
        return written.is_set()

    def close_input(self) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.close()

    def left(self) -> float:
        """Seconds left on the run's wall clock."""
        return self.deadline - time.monotonic()

    def next_line(self) -> bytes | None:
        """The next line of output (without its newline); None at the end of the output, at
        the deadline, or past a bound (``stopped`` says which)."""
        while b"\n" not in self._buffer:
            if self._ended:
                return None
            if len(self._buffer) > self.limits.line_bytes:
                return self._stop("too much: a line longer than the limit")
            left = self.left()
            if left <= 0:
                self.stopped = f"timed out after {self.limits.wall:g} s"
                return None
            try:
                chunk = self._chunks.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            if chunk is _OVER:
                return self._stop("too much: more output than the limit")
            if not chunk:
                return self._stop("ended")
            self._total += len(chunk)
            if self._total > self.limits.total_bytes:
                return self._stop("too much: more output than the limit")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        self._count += 1
        if self._count > self.limits.lines:
            return self._stop("too much: more lines than the limit")
        if len(line) > self.limits.line_bytes:
            return self._stop("too much: a line longer than the limit")
        return line

    def _stop(self, why: str) -> bytes | None:
        """Stop reading for good (the output ended, or went past a bound): None, and why."""
        self.stopped, self._ended = why, True
        return None

    def lines(self) -> Read:
        """Every line until the end of the output, the deadline or a bound."""
        read = Read()
        while (line := self.next_line()) is not None:
            read.lines.append(line)
        read.stopped = self.stopped
        return read

    def exit_reason(self) -> str:
        """Why the program ended, in words (after the output ended)."""
        try:
            code = self.process.wait(timeout=max(0.0, min(self.left(), 2.0)))
        except subprocess.TimeoutExpired:
            return "it did not finish"
        return exit_reason(code)

    def kill(self) -> None:
        """End the program and everything it started; remove its folders."""
        if os.name == "posix" and self.process.pid is not None:  # a hosted run has no process
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream:
                with contextlib.suppress(OSError):
                    stream.close()
        for folder in self._folders:
            _kill_marked(folder)
            shutil.rmtree(folder, ignore_errors=True)


def _kill_marked(folder: str) -> None:
    """Kill processes an unisolated run left behind (their environment names its folder)."""
    mark = f"{MARKER}={folder}".encode()
    if not Path("/proc/self").is_dir():
        return
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            marked = mark in (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if marked:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry.name), signal.SIGKILL)


def exit_reason(code: int | None) -> str:
    """Why a Python ended, from its exit code, in words."""
    if code is None:
        return "it did not finish"
    if code > 128 and code - 128 in signal.Signals._value2member_map_:
        code = 128 - code  # bwrap reports its child's signal as 128 + its number
    if code < 0:
        number = -code
        name = (
            signal.Signals(number).name
            if number in signal.Signals._value2member_map_
            else str(number)
        )
        if name == "SIGXCPU":
            return "it used up its CPU time (an endless loop?)"
        if name == "SIGKILL":
            return "Python was killed (out of memory or time?)"
        return f"Python was stopped by {name}"
    if code == 0:
        return "Python stopped before the end (os._exit or exit?)"
    return f"Python stopped with exit code {code} (out of memory, os._exit or a crash?)"
