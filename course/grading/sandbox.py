"""Run untrusted Python in isolation: given files, given limits, talking over a pipe.

This is the one place the kit starts code it does not trust (students' answers; later,
students' tournament players).  The API is small::

    sandbox = Sandbox()                      # IsolationError if bubblewrap cannot run here
    files = {"main.py": "import sys; print(sys.stdin.readline().upper())"}
    with sandbox.start(files, "main.py", Limits(wall=5)) as run:
        run.send(b"hello\n")
        run.close_input()
        read = run.lines()                   # Read(lines=[b'HELLO', b''], stopped='ended')

* :class:`Sandbox` checks once that isolation works here (``bubblewrap``); without it,
  ``Sandbox()`` raises :class:`IsolationError` saying what to install, and
  ``Sandbox(isolate=False)`` runs without namespaces (``sandbox.isolated`` is then False,
  and whoever reports results must say so).
* :meth:`Sandbox.start` copies ``files`` (name: text) into a fresh read-only folder,
  ``/sandbox`` inside, and runs ``python3 -I -S /sandbox/MAIN`` there, after setting the
  process limits of :class:`Limits` (CPU seconds, memory, file size, open files,
  processes).  Nothing else of the host is visible: ``/usr`` read-only (the standard
  library), an empty private ``/tmp``, its own ``/proc``, no network, no other process,
  no ``/etc``, no home, no kit, no teacher folder, no other submission.  Started by
  root, it first gives up root (``setpriv`` to ``nobody``), then ``bwrap`` maps that
  user to uid 65534 in a user namespace that cannot make another (``--disable-userns``),
  with an empty environment (``--clearenv``).
* :class:`Run` is the pipe: :meth:`Run.send` writes to its standard input,
  :meth:`Run.lines` reads its standard output as lines, bounded in bytes per line,
  bytes in all, number of lines, and by one wall-clock deadline fixed when the run
  started, which nothing the code sends can extend.  Its standard error is discarded.
  Leaving the ``with`` block kills the run and every process it started (in isolation
  they all live in its PID namespace, which ends with it).

bubblewrap adds about 7 ms to a start on a quiet machine (measured on the project's
machines); each run also writes its few files to a fresh folder.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reversi.errors import ArgumentError, ReversiError, shown

__all__ = [
    "NOBODY",
    "INSIDE",
    "MARKER",
    "HOW_TO_INSTALL",
    "IsolationError",
    "Limits",
    "Read",
    "Run",
    "Sandbox",
    "exit_reason",
]

NOBODY = 65534
INSIDE = "/sandbox"
MARKER = "COURSE_SANDBOX_RUN"
_BOOT = """\
import resource as r, runpy, sys
for limit, value in {limits!r}:
    r.setrlimit(limit, (value, value))
sys.argv = [{main!r}]
sys.path[:0] = [{inside!r}]
del r
runpy.run_path({main!r}, run_name="__main__")
"""
HOW_TO_INSTALL = (
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow user namespaces "
    "(sysctl kernel.unprivileged_userns_clone=1 on older kernels; on Ubuntu 24.04 "
    "kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap; "
    "in Docker, a seccomp profile that allows clone and unshare), or pass --no-isolation "
    "to run students' code without isolation (every result then says so)"
)


class IsolationError(ReversiError, RuntimeError):
    """This machine cannot isolate untrusted code (and the caller did not accept that)."""


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
    processes: int = 64
    line_bytes: int = 8 << 20
    total_bytes: int = 32 << 20
    lines: int = 10_000

    def __post_init__(self) -> None:
        for name in ("wall", "cpu"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (isinstance(value, int) or math.isfinite(value))
                or not 0 < value <= _MOST_SECONDS
            ):
                raise ArgumentError(
                    f"limits: {name} must be a number of seconds above 0 and at most "
                    f"{_MOST_SECONDS:g}, not {shown(value)}"
                )
        for name in ("memory_mb", "file_mb", "open_files", "processes", "line_bytes",
                     "total_bytes", "lines"):  # fmt: skip
            value = getattr(self, name)
            least = 0 if name == "file_mb" else 1
            if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= _MOST:
                raise ArgumentError(
                    f"limits: {name} must be a whole number from {least} to {_MOST}, "
                    f"not {shown(value)}"
                )

    def rlimits(self) -> list[tuple[int, int]]:
        """The ``(RLIMIT_*, value)`` pairs set in the run before its code starts."""
        import resource

        return [
            (resource.RLIMIT_CPU, max(1, int(self.cpu))),
            (resource.RLIMIT_AS, self.memory_mb << 20),
            (resource.RLIMIT_FSIZE, self.file_mb << 20),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_NPROC, self.processes),
        ]


#: The largest values :class:`Limits` takes (far beyond any real run, within what the OS takes).
_MOST_SECONDS = 1e7
_MOST = 1 << 40


@dataclass
class Read:
    """What :meth:`Run.lines` read, and why it stopped: ``ended``, ``timed out``, ``too much``."""

    lines: list[bytes] = field(default_factory=list)
    stopped: str = "ended"


class Run:
    """One running sandboxed program; use it as a context manager (it is killed on exit)."""

    def __init__(self, process: subprocess.Popen[bytes], folder: str, limits: Limits) -> None:
        if not isinstance(process, subprocess.Popen):
            raise ArgumentError(f"a run is made from a started process, not {shown(process)}")
        if not isinstance(folder, str):
            raise ArgumentError(f"a run's folder must be a folder name, not {shown(folder)}")
        if not isinstance(limits, Limits):
            raise ArgumentError(f"a run's limits must be Limits, not {shown(limits)}")
        self.process, self.limits, self._folder = process, limits, folder
        self.deadline = time.monotonic() + limits.wall
        self._buffer, self._total = b"", 0
        self._count = 0
        self.stopped = "ended"  # why next_line last returned None

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def send(self, data: bytes) -> bool:
        """Write ``data`` to the program's standard input before the deadline; False if the
        program is gone, or does not read it in time (a write never waits past the clock)."""
        if not isinstance(data, bytes | bytearray):
            raise ArgumentError(f"send takes bytes, not {shown(data)}")
        assert self.process.stdin is not None
        try:
            fd = self.process.stdin.fileno()
            os.set_blocking(fd, False)
            view = memoryview(data)
            while view:
                left = self.left()
                if left <= 0:
                    return False
                _, ready, _ = select.select([], [fd], [], left)
                if ready:
                    view = view[os.write(fd, view[: 1 << 16]) :]
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def close_input(self) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError, OSError):
            self.process.stdin.close()

    def left(self) -> float:
        """Seconds left on the run's wall clock."""
        return self.deadline - time.monotonic()

    def next_line(self) -> bytes | None:
        """The next line of output (without its newline); None at the end of the output, at
        the deadline, or past a bound (``stopped`` says which)."""
        fd = self.process.stdout.fileno() if self.process.stdout else -1
        while b"\n" not in self._buffer:
            if len(self._buffer) > self.limits.line_bytes:
                self.stopped = "too much: a line longer than the limit"
                return None
            left = self.left()
            if left <= 0:
                self.stopped = f"timed out after {self.limits.wall:g} s"
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.stopped = "ended"
                return None
            self._total += len(chunk)
            if self._total > self.limits.total_bytes:
                self.stopped = "too much: more output than the limit"
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        self._count += 1
        if self._count > self.limits.lines:
            self.stopped = "too much: more lines than the limit"
            return None
        if len(line) > self.limits.line_bytes:
            self.stopped = "too much: a line longer than the limit"
            return None
        return line

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
        """End the program and everything it started; remove its folder."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream:
                with contextlib.suppress(OSError):
                    stream.close()
        _kill_marked(self._folder)
        shutil.rmtree(self._folder, ignore_errors=True)


class Sandbox:
    """Starts isolated runs (see the module's text).  ``isolate=False`` accepts no isolation."""

    def __init__(self, isolate: bool = True) -> None:
        if not isinstance(isolate, bool):
            raise ArgumentError(f"isolate must be True or False, not {shown(isolate)}")
        self._python, self._binds = _python()
        self._drop = _drop_root()
        self.isolated = isolate
        if isolate:
            problem = self._probe()
            if problem:
                raise IsolationError(
                    f"cannot isolate students' code here ({problem}): {HOW_TO_INSTALL}"
                )

    def start(self, files: Mapping[str, str], main: str, limits: Limits = Limits()) -> Run:
        """Start ``python3 -I -S /sandbox/MAIN`` with ``files`` in ``/sandbox`` (read-only)."""
        if not isinstance(files, Mapping) or not all(
            isinstance(name, str) and isinstance(text, str) for name, text in files.items()
        ):
            raise ArgumentError(f"files must map file names to their text, not {shown(files)}")
        if any(not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name) for name in files):
            raise ArgumentError("sandbox file names are plain names (letters, digits, _ . -)")
        if not isinstance(main, str) or main not in files:
            raise ArgumentError(f"main must be the name of one of the files, not {shown(main)}")
        if not isinstance(limits, Limits):
            raise ArgumentError(f"limits must be Limits, not {shown(limits)}")
        folder = tempfile.mkdtemp(prefix="course-sandbox-")
        os.chmod(folder, 0o755)
        for name, text in files.items():
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8")
            path.chmod(0o644)
        inside = INSIDE if self.isolated else folder
        boot = _BOOT.format(limits=limits.rlimits(), main=f"{inside}/{main}", inside=inside)
        if self.isolated:
            command = [*self._drop, *self._bwrap(folder), self._python, "-I", "-S", "-c", boot]
            env = {"PATH": "/usr/bin:/bin"}
        else:
            command = [self._python, "-I", "-S", "-c", boot]
            env = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", MARKER: folder}
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=folder, env=env, start_new_session=True, close_fds=True,
        )  # fmt: skip
        return Run(process, folder, limits)

    def _bwrap(self, folder: str) -> list[str]:
        command = [
            "bwrap", "--clearenv", "--unshare-all", "--unshare-user", "--disable-userns",
            "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/sbin", "/sbin", "--proc", "/proc", "--dev", "/dev",
            "--tmpfs", "/tmp", "--dir", "/home/sandbox",
        ]  # fmt: skip
        if Path("/usr/lib64").is_dir():
            command += ["--symlink", "usr/lib64", "/lib64"]
        for path in self._binds:
            command += ["--ro-bind", path, path]
        command += [
            "--ro-bind", folder, INSIDE, "--chdir", "/home/sandbox",
            "--setenv", "HOME", "/home/sandbox", "--setenv", "PATH", "/usr/bin",
            "--setenv", "LANG", "C.UTF-8", "--uid", str(NOBODY), "--gid", str(NOBODY),
            "--hostname", "sandbox", "--",
        ]  # fmt: skip
        return command

    def _probe(self) -> str | None:
        """None if an isolated run works here, else what went wrong."""
        if shutil.which("bwrap") is None:
            return "bwrap is not installed"
        probe = "import os; print(os.getuid(), sorted(os.listdir('/')))"
        try:
            with self.start({"probe.py": probe}, "probe.py", Limits(wall=30)) as run:
                run.close_input()
                read = run.lines()
                reason = run.exit_reason()
        except OSError as error:
            return f"bwrap could not start: {error.strerror}"
        if not read.lines or not read.lines[0].startswith(f"{NOBODY} ".encode()):
            return f"bwrap did not run a test program ({reason})"
        if b"etc" in read.lines[0] or b"root" in read.lines[0]:
            return "bwrap showed the host's folders"
        return None


def _python() -> tuple[str, list[str]]:
    """The Python to run inside, and the folders it needs beyond ``/usr``."""
    system = Path("/usr/bin/python3")
    if system.exists() and Path(os.path.realpath(system)).is_relative_to("/usr"):
        return str(system), []
    prefix = os.path.realpath(sys.base_prefix)
    return os.path.join(prefix, "bin", "python3"), [] if prefix.startswith("/usr") else [prefix]


def _drop_root() -> list[str]:
    """Root gives up root before ``bwrap`` (uid 65534 inside would otherwise be host root)."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]


def _kill_marked(folder: str) -> None:
    """Kill processes an unisolated run left behind (their environment names its folder)."""
    mark = f"{MARKER}={folder}".encode()
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
    if code is not None and (isinstance(code, bool) or not isinstance(code, int)):
        raise ArgumentError(f"an exit code is a whole number or None, not {shown(code)}")
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
