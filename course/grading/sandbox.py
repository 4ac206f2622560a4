"""Start the sandboxed process for a student's notebook, read its answers, and leave nothing behind.

The grader's side of :mod:`course.grading.harness`.  Each run is a fresh Python
(``-I -S``: no user site, no environment paths) in a temporary folder, in a session and
process group of its own, with limits set in the child before any student code runs
(CPU seconds, address space, file size, open files, no core dumps), an audit hook, and a
wall clock per cell and per question kept here.  Answers come back on a pipe of their
own, one JSON line each, carrying a secret made for this run: the student's output goes
to /dev/null, and a line without the secret is ignored.

Where Linux allows it (``unshare``), the process also runs in namespaces of its own: no
network, its own process numbers (when it ends, the kernel ends everything it started)
and its own view of the files, where the kit's folder is read-only, the teacher's,
submissions' and output folders are hidden under empty mounts, and ``/tmp`` is private.
Run by root, it also gives up root for the ``nobody`` user.  Without ``unshare`` the
audit hook and the limits stand alone (:attr:`Sandbox.isolated` says which).

When the run ends, however it ends, its process group is killed, then every process the
run left behind: the grader is made a *child subreaper* (Linux), so a process that
escaped its group by ``setsid`` and a double fork is re-parented here and killed too, as
is any process whose environment still carries the run's marker.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MARKER = "COURSE_GRADING_RUN"
_BOOT = """
import resource, sys
cpu, memory = {cpu}, {memory}
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
sys.path.insert(0, {root!r})
from course.grading.harness import main
main()
"""


@dataclass(frozen=True)
class Limits:
    """How much one run may take: wall seconds per cell and per question, memory, startup."""

    timeout: float = 20.0
    memory_mb: int = 512
    startup: float = 30.0


@dataclass
class Outcome:
    """What came back from one run."""

    cells: dict[int, str | None] = field(default_factory=dict)  # cell index: its problem
    replies: dict[str, list[dict[str, Any]] | None] = field(default_factory=dict)
    setup_problem: str | None = None
    stopped: str | None = None  # why the run ended before its end, if it did
    stopped_in: tuple[str, Any] | None = None  # ("cell", index) or ("question", tag)


class Sandbox:
    """Runs jobs in sandboxed processes; one per grading, shared by its worker threads."""

    def __init__(self, refused: Sequence[Path], limits: Limits = Limits()) -> None:
        # a folder holding the kit itself (a notebook checked in the kit's folder) cannot
        # be hidden: the sandbox runs the kit's code
        paths = [Path(p).resolve() for p in refused]
        self.refused = [str(p) for p in paths if not (p == ROOT or p in ROOT.parents)]
        self.limits = limits
        self._lock = threading.Lock()
        self._ours: set[int] = children()  # not ours to kill: they were here before
        self._subreaper = _become_subreaper()
        self._prefix = _isolation(self.refused)
        self.isolated = self._prefix is not None

    def run(
        self,
        setup: Sequence[str],
        cells: Sequence[dict[str, Any]],
        questions: Sequence[dict[str, Any]],
    ) -> Outcome:
        """Run the setup code, the answer ``cells`` and the ``questions``; all processes gone after."""
        secret = secrets.token_hex(16)
        read_end, write_end = os.pipe()
        cpu = int(self.limits.timeout * (len(cells) + len(questions) + 1) + self.limits.startup)
        boot = _BOOT.format(cpu=cpu, memory=self.limits.memory_mb << 20, root=str(ROOT))
        job = {
            "fd": write_end,
            "secret": secret,
            "refused": self.refused,
            "setup": list(setup),
            "cells": list(cells),
            "questions": list(questions),
        }
        with tempfile.TemporaryDirectory(prefix="course-sandbox-") as home:
            env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", MARKER: secret}
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            command = [sys.executable, "-I", "-S", "-c", boot]
            if self._prefix is not None:
                command, env["HOME"] = self._prefix + command, "/tmp"
            with self._lock:
                process = subprocess.Popen(
                    command,
                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    cwd="/" if self._prefix else home, env=env, pass_fds=(write_end,),
                    start_new_session=True,
                )  # fmt: skip
                self._ours.add(process.pid)
            os.close(write_end)
            try:
                _feed(process, json.dumps(job).encode())
                return self._read(process, read_end, secret)
            finally:
                os.close(read_end)
                self._finish(process, secret)

    def _read(self, process: subprocess.Popen[bytes], fd: int, secret: str) -> Outcome:
        outcome, buffer, ended = Outcome(), b"", False
        where: tuple[str, Any] | None = ("setup", None)
        deadline = time.monotonic() + self.limits.startup
        while not ended:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0.0, left))
            if not ready:
                outcome.stopped = f"timed out after {self._allowed(where):g} s"
                outcome.stopped_in = where
                return outcome
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = _message(line, secret)
                if message is None:
                    continue
                event = message.get("event")
                if event == "setup":
                    outcome.setup_problem = str(message.get("problem"))
                elif event == "cell" and type(message.get("index")) is int:
                    where = ("cell", message["index"])
                    deadline = time.monotonic() + self.limits.timeout
                elif event == "ran" and type(message.get("index")) is int:
                    problem = message.get("problem")
                    outcome.cells[message["index"]] = None if problem is None else str(problem)
                elif event == "start" and type(message.get("tag")) is str:
                    where = ("question", message["tag"])
                    deadline = time.monotonic() + self.limits.timeout
                elif event == "done" and type(message.get("tag")) is str:
                    replies = message.get("replies")
                    outcome.replies[message["tag"]] = replies if type(replies) is list else None
                    where = None
                elif event == "end":
                    ended = True
        if not ended and outcome.setup_problem is None:
            process.wait()
            outcome.stopped = _exit_reason(process.returncode)
            outcome.stopped_in = where
        return outcome

    def _allowed(self, where: tuple[str, Any] | None) -> float:
        return self.limits.startup if where and where[0] == "setup" else self.limits.timeout

    def _finish(self, process: subprocess.Popen[bytes], secret: str) -> None:
        """Kill the run's process group, reap it, then every process it left behind."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if process.stdin:
            process.stdin.close()
        with self._lock:
            self._ours.discard(process.pid)
            for pid in _left_behind(secret, self._ours if self._subreaper else None):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)


def _isolation(refused: Sequence[str]) -> list[str] | None:
    """The command prefix that runs a program in the sandbox's namespaces, if this system can."""
    if not (shutil.which("unshare") and shutil.which("sh") and shutil.which("mount")):
        return None
    root = shlex.quote(str(ROOT))
    hidden = [*refused, "/tmp", "/var/tmp", "/dev/shm"]  # /tmp last: it hides the rest
    # A kit that lives inside a folder to hide (a clone in /tmp) is parked under a private
    # /run first, then put back at its own path inside the empty folder that hides the rest.
    parked = any(Path(path) in ROOT.parents for path in hidden) and Path("/run").is_dir()
    mounts = [f"mount --bind {root} {root}"]
    if parked:
        mounts += ["mount -t tmpfs -o size=64k,mode=0755 none /run", "mkdir /run/kit",
                   f"mount --bind {root} /run/kit"]  # fmt: skip
    for path in hidden:
        if Path(path).is_dir():
            mounts.append(f"mount -t tmpfs -o size=64k,mode=0755 none {shlex.quote(path)}")
        elif Path(path).is_file():
            mounts.append(f"mount --bind /dev/null {shlex.quote(path)}")
    if parked:
        mounts += [f"mkdir -p {root}", f"mount --move /run/kit {root}"]
    mounts.append(f"mount -o remount,bind,ro {root}")
    private = ["--mount", "--net", "--pid", "--fork", "--mount-proc", "--kill-child"]
    # a user namespace; the inner one locks the mounts (they cannot be undone)
    ways = [(["unshare", "--user", "--map-root-user", *private], ["unshare", "--user"])]
    if os.geteuid() == 0 and shutil.which("setpriv"):
        # Root gives up root for nobody; if nobody cannot reach the kit (a clone in a
        # private folder), the user namespace above is the next best.
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--no-new-privs"]
        ways.insert(0, (["unshare", *private], drop))
    load = f"import sys; sys.path.insert(0, {str(ROOT)!r}); import course.grading.harness"
    for outer, drop in ways:
        # sh stays as process 1 of the namespace (Linux spares process 1 from many signals);
        # when it ends, the kernel ends every process left in the namespace
        prefix = [*outer, "sh", "-c", " && ".join(mounts) + ' && "$@"', "sandbox", *drop]
        try:
            probe = subprocess.run([*prefix, sys.executable, "-I", "-S", "-c", load],
                                   capture_output=True, timeout=30, cwd="/")  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            continue
        if probe.returncode == 0:
            return prefix
    return None


def _feed(process: subprocess.Popen[bytes], job: bytes) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(job)
        process.stdin.close()
    except (BrokenPipeError, OSError):
        pass  # it died at once; the read below says so


def _message(line: bytes, secret: str) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if type(message) is not dict or message.get("secret") != secret:
        return None
    return message


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "it did not finish"
    if code > 128 and code - 128 in signal.Signals._value2member_map_:
        code = 128 - code  # the shell of the namespaces reports a signal as 128 + its number
    if code < 0:
        name = (
            signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        )
        if name == "SIGXCPU":
            return "it used up its CPU time (an endless loop?)"
        if name == "SIGKILL":
            return "Python was killed (out of memory or time?)"
        return f"Python was stopped by {name}"
    if code == 0:
        return "Python stopped before the end (os._exit or exit?)"
    return f"Python stopped with exit code {code} (out of memory, os._exit or a crash?)"


def _become_subreaper() -> bool:
    """Ask Linux to re-parent orphaned descendants to this process (so they can be killed)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(36, 1, 0, 0, 0) == 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _left_behind(secret: str, keep: set[int] | None) -> list[int]:
    """Processes a run left: its marker in their environment, or (``keep`` given) our
    children not in ``keep``, which can only be orphans re-parented to us."""
    found = []
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or entry.name == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            environ = b""
        marked = f"{MARKER}={secret}".encode() in environ.split(b"\0")
        orphan = keep is not None and _parent(entry) == me and int(entry.name) not in keep
        if marked or orphan:
            found.append(int(entry.name))
    return found


def _parent(entry: Path) -> str:
    try:
        status = (entry / "status").read_text()
    except OSError:
        return ""
    return next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")


def children() -> set[int]:
    """The processes whose parent is this one."""
    me = str(os.getpid())
    return {int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit() and _parent(e) == me}
