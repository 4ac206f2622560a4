"""Run untrusted Python in isolation: given files, given limits, talking over a pipe.

This is the one place the kit starts code it does not trust (students' answers, students'
tournament players).  The API is small::

    sandbox = Sandbox()                      # IsolationError if nothing can isolate here
    files = {"main.py": "import sys; print(sys.stdin.readline().upper())"}
    with sandbox.start(files, "main.py", Limits(wall=5)) as run:
        run.send(b"hello\n")
        run.close_input()
        read = run.lines()                   # Read(lines=[b'HELLO', b''], stopped='ended')

Three kinds of sandbox, chosen by ``Sandbox(kind)``:

* ``"pyodide"`` (every system): the program runs in Pyodide, the CPython 3.14 of the
  students' browsers, inside Deno (both fetched by the kit: :mod:`course.pyodide`), in a
  Worker of a warm host process (:mod:`course.grading.pyodide_host`): its own V8 isolate
  and Pyodide, started from a snapshot of Pyodide's memory just after start-up (made and
  checked once beside the core), with no permission but reading Pyodide's files
  (``--no-prompt``, no network, environment, subprocess, FFI or writing).  Its files are
  copied into Pyodide's in-memory ``/sandbox``; the host's files do not exist for it.  Its
  standard streams are the host's messages, never the process's.  Memory is bounded by V8's
  flags (the WebAssembly heap and the JavaScript heap), time by the wall clock, which ends
  the worker.  Pyodide cannot fork: whoever needs a question to stop on its own (the
  grader) starts the run again without it (:mod:`course.grading.checker`).  Runs share
  only the host's read-only compiled code for Python's interpreter, which V8 makes faster
  as programs run; no Python, isolate, memory or file is shared between runs, and a host
  whose run did not end when told is killed.
* ``"bubblewrap"`` (Linux with bubblewrap): ``python3 -I -S /sandbox/MAIN`` in fresh
  namespaces: ``/usr`` read-only, an empty private ``/tmp``, its own ``/proc``, no network,
  no other process, no ``/etc``, no home, no kit, no teacher folder, no other submission.
  Started by root, it first gives up root (``setpriv`` to ``nobody``).  Process limits
  (CPU seconds, memory, file size, open files, processes) are set before the code starts.
  Starting costs about 7 ms.
* ``"none"``: no isolation (every report must say so), refused as root or Administrator;
  the process limits that exist on this system are set, never one that counts the
  teacher's own processes.

``"auto"`` (the default) is bubblewrap where it works, else Pyodide: both give the same
grades (tests/test_portable.py).  Bubblewrap starts a run in milliseconds; a warm host's
next Pyodide is already started when a run comes, and costs about half a second of
processor time (benchmarks/grading.py prints both).

:class:`~course.grading.runs.Run` is the pipe, the same for every kind and every system
(:mod:`course.grading.runs`); the program's standard error is discarded.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path

from course import pyodide
from course.grading.pyodide_host import Host, HostError, Hosts
from course.grading.runs import MARKER
from course.grading.runs import Limits as Limits
from course.grading.runs import Read as Read
from course.grading.runs import Run as Run
from course.grading.runs import exit_reason as exit_reason
from reversi.errors import ReversiError

NOBODY = 65534
INSIDE = "/sandbox"
#: Seconds a run of each kind may take to start (Pyodide loads in under a second on an idle
#: machine; a class graded on two cores at once takes longer).
STARTUP = {"pyodide": 10.0, "bubblewrap": 0.0, "none": 0.0}
#: The kinds of sandbox :class:`Sandbox` takes (``auto``: bubblewrap where it works, else pyodide).
KINDS = ("auto", "pyodide", "bubblewrap", "none")
_BOOT = """\
import runpy, sys
try:
    import resource as r
except ImportError:
    r = None
for limit, value in ({limits!r} if r else []):
    r.setrlimit(getattr(r, limit), (value, value))
sys.argv = [{main!r}]
sys.path[:0] = [{inside!r}]
del r
runpy.run_path({main!r}, run_name="__main__")
"""
_HOST = Path(__file__).with_name("runtime") / "pyodide_host.mjs"
_WORKER = _HOST.with_name("pyodide_worker.mjs")
#: The JavaScript heap of a Pyodide run, in MB (Pyodide itself needs about 100).
_JS_HEAP_MB = 256
HOW_TO_INSTALL = (
    "the portable sandbox needs Deno and Pyodide: install the kit's environment again "
    "(python3 kit.py lab, or pip install deno); on Linux, bubblewrap also works "
    "(apt-get install bubblewrap). --no-isolation runs students' code without isolation "
    "(refused as root or Administrator; every result then says so)"
)


def sandbox_options(parser: argparse.ArgumentParser, whose: str) -> None:
    """The flags that choose the sandbox (``args.sandbox``: one of :data:`KINDS`)."""
    parser.add_argument(
        "--sandbox", choices=KINDS[:3], default="auto",
        help=f"what isolates {whose}: pyodide (every system), bubblewrap (Linux) or auto "
        "(bubblewrap where it works, else pyodide; the default)",
    )  # fmt: skip
    parser.add_argument(
        "--no-isolation", dest="sandbox", action="store_const", const="none",
        help=f"run {whose} without isolation (refused as root or Administrator; every "
        "result then says it was not isolated)",
    )  # fmt: skip


#: The temporary folders of runs and hosts, named with the process that made them.
LEFT = "course-sandbox-"
_LEFT_BY = re.compile(rf"{LEFT}(?:deno-|warm-)?(\d+)-")


def _sweep_left_behind() -> None:
    """Remove this user's sandbox folders whose process is gone (a grading killed with
    SIGKILL cleans nothing up); POSIX only, where asking whether a process lives is harmless."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            made_by = _LEFT_BY.match(entry.name)
            if not made_by or not entry.is_dir(follow_symlinks=False):
                continue
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            try:
                os.kill(int(made_by[1]), 0)
            except ProcessLookupError:
                shutil.rmtree(entry.path, ignore_errors=True)
            except (OSError, OverflowError):
                pass  # alive (another user's), or not a process number


def _weakly(method: Callable[[int], Host]) -> Callable[[int], Host]:
    """``method``, holding its sandbox weakly: the hosts' finalizer must not keep it alive."""
    held = weakref.WeakMethod(method)

    def call(memory_mb: int) -> Host:
        bound = held()
        assert bound is not None, "a sandbox starts runs only while it is alive"
        return bound(memory_mb)

    return call


class IsolationError(ReversiError, RuntimeError):
    """This machine cannot isolate untrusted code (and the caller did not accept that)."""


class Sandbox:
    """Starts isolated runs of one kind (see the module's text); ``"none"`` isolates nothing."""

    def __init__(self, kind: str = "auto") -> None:
        self._python, self._binds = _python()
        self._drop = _drop_root()
        if kind == "none" and _is_administrator():
            raise IsolationError(
                "--no-isolation is refused when run as root or Administrator: students' "
                "code would run with those rights. Run it as a normal user, or leave the "
                "sandbox on (the portable one works on every system)"
            )
        self._deno, self._core, self._warm = "", Path(), ""
        _sweep_left_behind()
        self._hosts = Hosts(_weakly(self._host))
        weakref.finalize(self, self._hosts.close)  # a sandbox never closed ends its hosts too
        self.kind = "bubblewrap" if kind == "auto" else kind
        problems: dict[str, Callable[[], str | None]] = {
            "bubblewrap": self._bubblewrap_problem, "pyodide": self._pyodide_problem,
            "none": lambda: None,
        }  # fmt: skip
        problem = problems[self.kind]()
        if problem and kind == "auto":
            self.kind = "pyodide"
            problem = self._pyodide_problem()
        self.isolated = self.kind != "none"
        #: Seconds a run may take to start before its program's own time begins.
        self.startup = STARTUP[self.kind]
        if problem:
            raise IsolationError(
                f"cannot isolate students' code here ({problem}): {HOW_TO_INSTALL}"
            )

    def __repr__(self) -> str:
        return f"Sandbox({self.kind!r})"

    def close(self) -> None:
        """End the idle Pyodide hosts (the next run starts a new one)."""
        self._hosts.close()

    def start(self, files: Mapping[str, str], main: str, limits: Limits | None = None) -> Run:
        """Start ``MAIN`` of ``files`` (in ``/sandbox``, read-only) in this kind of sandbox."""
        limits = limits or Limits()
        if self.kind == "pyodide":
            output = limits.total_bytes + limits.line_bytes + 1
            return Run(self._hosts.start(dict(files), main, limits.memory_mb, output), [], limits)
        folder = tempfile.mkdtemp(prefix=f"{LEFT}{os.getpid()}-")
        folders = [folder]
        os.chmod(folder, 0o755)
        for name, text in files.items():
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8")
            path.chmod(0o644)
        inside = INSIDE if self.kind == "bubblewrap" else folder
        processes = (
            NOBODY_PROCESSES if self._drop and self.kind == "bubblewrap" else _process_limit()
        )
        boot = _BOOT.format(limits=limits.rlimits(processes), main=f"{inside}/{main}",
                            inside=inside)  # fmt: skip
        python = self._python if self.kind == "bubblewrap" else sys.executable
        command = [python, "-I", "-S", "-c", boot]
        if self.kind == "bubblewrap":
            command = [*self._drop, *self._bwrap(folder), *command]
            env = {"PATH": "/usr/bin:/bin"}
        else:
            env = _plain_env(folder)
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=folder, env=env, start_new_session=os.name == "posix", close_fds=True,
        )  # fmt: skip
        return Run(process, folders, limits)

    # -- pyodide --------------------------------------------------------------------------

    def _pyodide(self, port: int, memory_mb: int) -> list[str]:
        """The command of a host whose runs may use ``memory_mb`` of WebAssembly memory."""
        readable = ",".join(_escaped(str(path)) for path in (self._core, _HOST, _WORKER))
        pages = max(1, memory_mb) * 16  # WebAssembly pages of 64 KiB
        return [
            self._deno, "run", "--quiet", "--no-prompt", "--no-remote", "--no-npm",
            "--no-config", "--no-lock", "--unstable-worker-options", f"--allow-read={readable}",
            f"--allow-net=127.0.0.1:{port}",
            f"--v8-flags=--max-old-space-size={_JS_HEAP_MB},--wasm-max-mem-pages={pages}",
            str(_HOST), self._core.as_uri() + "/", str(self._core) + os.sep, str(port),
        ]  # fmt: skip

    def _host(self, memory_mb: int) -> Host:
        """A new host with its own copy of the warm Deno cache."""
        deno_dir = tempfile.mkdtemp(prefix=f"{LEFT}deno-{os.getpid()}-")
        shutil.copytree(self._warm, deno_dir, dirs_exist_ok=True)
        return Host(functools.partial(self._pyodide, memory_mb=memory_mb), _deno_env(deno_dir),
                    (deno_dir,))  # fmt: skip

    def _pyodide_problem(self) -> str | None:
        """None if a Pyodide run works here (and its warm cache is made), else what went wrong."""
        try:
            self._deno = pyodide.deno_program()
            self._core = pyodide.core(say=lambda text: print(text, file=sys.stderr))
        except pyodide.PyodideError as error:
            return str(error)
        warm = pyodide.cache_folder() / f"deno-cache-{pyodide.VERSION}"
        if not os.access(warm if warm.exists() else warm.parent, os.W_OK):
            warm = Path(tempfile.mkdtemp(prefix=f"{LEFT}warm-{os.getpid()}-"))  # another user's cache
            weakref.finalize(self, shutil.rmtree, warm, True)  # this sandbox's own: it goes with it
        self._warm = str(warm)
        probe = (
            "import js, sys\n"
            "try:\n"
            "    js.eval('Deno.env.get(\"PATH\")')\n"
            "    print('env read')\n"
            "except Exception:\n"
            "    print('refused', sys.platform)\n"
        )
        warm.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile() as errors:
            try:
                host = Host(functools.partial(self._pyodide, memory_mb=Limits().memory_mb),
                            _deno_env(str(warm)), stderr=errors)  # fmt: skip
                run = host.start({"probe.py": probe}, "probe.py", 1 << 16, host.close)
                with Run(run, [], Limits(wall=120)) as reading:
                    said = b" ".join(reading.lines().lines).decode(errors="replace").strip()
            except (OSError, HostError) as error:
                errors.seek(0)
                detail = errors.read().decode(errors="replace").strip()[-300:]
                return f"Deno could not run Pyodide ({error}{': ' + detail if detail else ''})"
        if said != "refused emscripten":
            return f"Deno did not run a test program in Pyodide ({said or 'no output'})"
        return None

    # -- bubblewrap ------------------------------------------------------------------------

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

    def _bubblewrap_problem(self) -> str | None:
        """None if a bubblewrap run works here, else what went wrong."""
        if not sys.platform.startswith("linux"):
            return "bubblewrap exists only on Linux"
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
    if os.name != "posix" or os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]


#: The process limit of a run that gave up root: it counts only nobody's processes.
NOBODY_PROCESSES = 64


def _process_limit() -> int | None:
    """A process limit for a run as the teacher's own user: the user's processes now and 64
    more (the limit counts them all), or None where they cannot be counted (not Linux)."""
    proc = Path("/proc")
    if not (proc / "self").is_dir():
        return None
    uid, count = os.getuid(), 0
    for entry in proc.iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and entry.stat().st_uid == uid:
                count += 1
    return count + 64


def _is_administrator() -> bool:
    """Whether this process runs as root (POSIX) or as an elevated Administrator (Windows)."""
    if os.name == "posix":
        return os.geteuid() == 0
    try:
        import ctypes

        return bool(ctypes.windll.shell32.IsUserAnAdmin())  # type: ignore[attr-defined]
    except (ImportError, AttributeError, OSError):
        return False


def _escaped(path: str) -> str:
    """A path in a Deno permission list, where a comma is written twice."""
    return path.replace(",", ",,")


def _deno_env(deno_dir: str) -> dict[str, str]:
    """The whole environment of a Deno run: its own cache, no colours, no update check."""
    env = {"DENO_DIR": deno_dir, "NO_COLOR": "1", "DENO_NO_UPDATE_CHECK": "1",
           "DENO_NO_PROMPT": "1", "PATH": ""}  # fmt: skip
    for name in ("SYSTEMROOT", "TEMP", "TMP"):  # Windows cannot start a program without them
        if name in os.environ and os.name == "nt":
            env[name] = os.environ[name]
    return env


def _plain_env(folder: str) -> dict[str, str]:
    """The environment of an unisolated run: its folder as home, marked so its processes
    can be found and ended."""
    env = {"PATH": os.defpath, "HOME": folder, "LANG": "C.UTF-8", MARKER: folder}
    if os.name == "nt" and "SYSTEMROOT" in os.environ:
        env["SYSTEMROOT"] = os.environ["SYSTEMROOT"]
    return env
