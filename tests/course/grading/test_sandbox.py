"""The sandbox API (isolation, limits, clean-up) and the grader's reading of what comes back."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

from course.__main__ import main
from course.grading import checker, sandbox, wire
from course.grading.exercise import build
from course.grading.sandbox import NOBODY, IsolationError, Limits, Sandbox

PROBE = """
import json, os, socket, sys
found = {"uid": os.getuid(), "root": sorted(os.listdir("/")), "modules": sorted(sys.modules)}
found["teacher"] = os.path.exists(sys.argv[0] and TEACHER)
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
    found["network"] = "connected"
except OSError as error:
    found["network"] = type(error).__name__
kit = []
for top in ("/", ):
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = [s for s in subfolders if os.path.join(folder, s) not in ("/proc", "/sys")]
        kit += [os.path.join(folder, n) for n in subfolders + files
                if n in ("reversi", "course", "checks.py", "pieces.py", "grading_seed.txt")]
found["kit"] = kit
for path in ("/etc/shadow", "/etc/passwd", "/root"):
    found[path] = os.path.exists(path)
try:
    os.unshare(os.CLONE_NEWUSER)
    found["userns"] = "made"
except (OSError, AttributeError) as error:
    found["userns"] = type(error).__name__
print(json.dumps(found))
"""


#: Seconds a run takes to start, beyond its program's own time (Pyodide loads for about 1.7 s).
START = {"bubblewrap": 0.0, "pyodide": 6.0}


@pytest.fixture(scope="module", params=["bubblewrap", "pyodide"])
def box(request: pytest.FixtureRequest) -> Sandbox:
    """Each isolating sandbox (bubblewrap is installed by the test command; Pyodide by kit.py)."""
    return Sandbox(request.param)


@pytest.fixture(scope="module")
def bubblewrap() -> Sandbox:
    return Sandbox("bubblewrap")


@pytest.fixture(scope="module")
def portable() -> Sandbox:
    return Sandbox("pyodide")


#: Every capability of the host a program in Pyodide could reach through Deno, tried.
HOST = """
import js, json, os
tried = {}
for name, code in {
    "read": "Deno.readTextFileSync(PATH)",
    "list": "Array.from(Deno.readDirSync('/')).length",
    "env": "Deno.env.toObject()",
    "write": "Deno.writeTextFileSync(PATH + '.hacked', 'x')",
    "run": "new Deno.Command('id').outputSync()",
    "ffi": "Deno.dlopen('libc.so.6', {})",
    "net": "Deno.listen({port: 0})",
    "sys": "Deno.hostname()",
}.items():
    try:
        js.eval(code)
        tried[name] = "done"
    except Exception as error:
        tried[name] = type(error).__name__ + str(error)[:60]
states = {}
for name in ("read", "write", "env", "net", "run", "ffi", "sys", "import"):
    states[name] = js.eval(f"Deno.permissions.querySync({{name: '{name}'}}).state")
tried["files"] = sorted(os.listdir("/"))
tried["teacher"] = os.path.exists(PATH)
print(json.dumps({"tried": tried, "states": states}))
"""


def test_pyodide_reaches_nothing_of_the_host(portable: Sandbox, tmp_path: Path) -> None:
    secret = tmp_path / "grading_seed.txt"
    secret.write_text("42\n")
    code = HOST.replace("PATH", repr(str(secret)))
    with portable.start({"main.py": code}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        read = run.lines()
    found = json.loads(read.lines[-1])
    assert "done" not in found["tried"].values(), found
    assert all(state != "granted" for state in found["states"].values()), found
    assert not found["tried"]["teacher"] and "sandbox" in found["tried"]["files"]
    assert not (tmp_path / "grading_seed.txt.hacked").exists()


#: A program that tries to leave something behind for the next program of its Pyodide host:
#: JavaScript and Python state, a file, a forged frame on the process's output, forged messages
#: to the host, and a busy worker of its own (which would outlive its own worker).
LEAVE = r"""
import builtins, js
js.globalThis.left = 1
builtins.LEFT = 1
open("/home/sandbox/left.txt", "w").write("x")
js.eval("Deno.stdout.writeSync(new Uint8Array([69, 0, 0, 0, 1, 48]))")
js.postMessage("E")
js.postMessage(js.eval("({status: 0})"))
WORKER
print("left", flush=True)
"""
FIND = """
import builtins, js, os
print(hasattr(js, "left"), hasattr(builtins, "LEFT"), os.path.exists("/home/sandbox/left.txt"))
"""
BUSY_WORKER = "js.eval(\"new Worker('data:text/javascript,while (true) {}', {type: 'module'})\")"


@pytest.mark.parametrize("worker", [BUSY_WORKER, ""], ids=["with a worker", "without"])
def test_a_pyodide_program_leaves_nothing_for_the_next(portable: Sandbox, worker: str) -> None:
    """Programs of one host share only its compiled code: a program that started a worker of
    its own ends its host, and a clean one hands its host to the next program."""
    with portable.start({"main.py": LEAVE.replace("WORKER", worker)}, "main.py",
                        Limits(wall=60)) as run:  # fmt: skip
        run.close_input()
        read = run.lines()
        host = run.process.host  # type: ignore[union-attr]
    assert read.lines == [b"left"] and read.stopped == "ended"
    with portable.start({"main.py": FIND}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        assert run.lines().lines == [b"False False False"]
        assert (run.process.host is host) is not bool(worker)  # type: ignore[union-attr]
    assert host.alive() is not bool(worker)
    portable.close()
    assert not host.alive()


ECHO = "import sys\nprint(sys.stdin.read().strip(), flush=True)\n"


def test_a_run_ended_says_nothing_to_its_hosts_next_program(portable: Sandbox, monkeypatch) -> None:
    """A run's end closes its input after its host went back to the idle ones; by then another
    grading thread may have started its own program there.  That program keeps its input:
    before, the old run's "end of input" reached it first, it read nothing, and a right
    answer scored 0 ("no answer came back", about one notebook in 1,000)."""
    from course.grading import pyodide_host

    later: list[Any] = []
    give_back = pyodide_host.Hosts._give_back

    def and_start_the_next(self: Any, host: Any, memory_mb: int) -> None:
        give_back(self, host, memory_mb)
        if not later:  # the next program starts on this host before the old run closed its input
            later.append(portable.start({"main.py": ECHO}, "main.py", Limits(wall=60)))

    monkeypatch.setattr(pyodide_host.Hosts, "_give_back", and_start_the_next)
    with portable.start({"main.py": "print('first')"}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        assert run.lines().lines == [b"first"]
    monkeypatch.setattr(pyodide_host.Hosts, "_give_back", give_back)
    with later[0] as run:
        time.sleep(1.0)  # the next program is reading its input by now
        run.send(b"the next program's input\n")
        run.close_input()
        assert run.lines().lines == [b"the next program's input"]


def test_isolated_code_sees_only_its_own_files(bubblewrap: Sandbox, tmp_path: Path) -> None:
    box = bubblewrap
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    (teacher / "grading_seed.txt").write_text("42\n")
    code = PROBE.replace("TEACHER", repr(str(teacher)))
    with box.start({"main.py": code}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        read = run.lines()
    found = json.loads(read.lines[-1])
    assert found["uid"] == NOBODY and not found["teacher"]
    assert found["root"] == ["bin", "dev", "home", "lib", "lib64", "proc", "sandbox", "sbin",
                             "tmp", "usr"] or "lib64" not in found["root"]  # fmt: skip
    assert found["kit"] == [] and not any(
        m.startswith(("reversi", "course")) for m in found["modules"]
    )
    assert found["network"] in ("ConnectionRefusedError", "OSError", "PermissionError")
    assert not found["/etc/shadow"] and not found["/etc/passwd"] and not found["/root"]
    assert found["userns"] != "made"


def test_the_wall_clock_is_fixed_and_output_is_bounded(box: Sandbox) -> None:
    chatty = "import sys, time\nwhile True:\n    print('x', flush=True)\n    time.sleep(0.01)\n"
    wall = 1.5 + START[box.kind]
    started = time.monotonic()
    with box.start({"main.py": chatty}, "main.py", Limits(wall=wall)) as run:
        read = run.lines()
    assert read.stopped == f"timed out after {wall:g} s" and time.monotonic() - started < wall + 3
    assert len(read.lines) > 10
    for program, limits, reason in (
        ("print('x' * 5000, flush=True)", Limits(line_bytes=1000), "a line longer"),
        ("while True: print('y' * 900, flush=True)", Limits(total_bytes=100_000), "more output"),
        ("while True: print(1, flush=True)", Limits(lines=50), "more lines"),
    ):
        with box.start({"main.py": program}, "main.py", limits) as run:
            read = run.lines()
        assert read.stopped.startswith("too much") and reason in read.stopped, read.stopped
        assert len(read.lines) <= limits.lines


def test_a_program_that_does_not_read_cannot_hold_the_writer(box: Sandbox) -> None:
    sleeper = "import time\nprint('up', flush=True)\ntime.sleep(60)"
    with box.start({"main.py": sleeper}, "main.py", Limits(wall=2 + START[box.kind])) as run:
        assert run.next_line() == b"up"
        started = time.monotonic()
        assert run.send(b"x" * (8 << 20)) is False
        assert time.monotonic() - started < 2 + START[box.kind]


def test_limits_hold_inside(box: Sandbox) -> None:
    hog = "x = bytearray(10**9)\nprint('got it')"
    with box.start({"main.py": hog}, "main.py", Limits(memory_mb=256)) as run:
        assert run.lines().lines == [] and "exit code" in run.exit_reason()
    caught = "try:\n    x = bytearray(600 << 20)\nexcept MemoryError:\n    print('refused')"
    with box.start({"main.py": caught}, "main.py", Limits(memory_mb=256)) as run:
        assert run.lines().lines == [b"refused"]
    spin = "while True:\n    pass"
    started = time.monotonic()
    with box.start({"main.py": spin}, "main.py", Limits(cpu=1, wall=4 + START[box.kind])) as run:
        read = run.lines()
        reason = run.exit_reason()
    if box.kind == "bubblewrap":  # the CPU limit stops it inside, before the wall clock
        assert "CPU" in reason or "killed" in reason
    else:  # only the clock outside can stop Pyodide
        assert read.stopped.startswith("timed out") and time.monotonic() - started < 12


def test_nothing_a_run_started_outlives_it(box: Sandbox, tmp_path: Path) -> None:
    """Only this test's own processes are counted (other tests may run beside it)."""
    before = descendants(os.getpid())
    daemon = (
        "import os, sys, time\n"
        "try:\n    child = os.fork()\nexcept OSError:\n    child = 1  # Pyodide cannot fork\n"
        "if child == 0:\n    os.setsid()\n    time.sleep(30)\n    os._exit(0)\n"
        "print('started', flush=True)\ntime.sleep(30)\n"
    )
    with box.start({"main.py": daemon}, "main.py", Limits(wall=2 + START[box.kind])) as run:
        assert run.next_line() == b"started"
    time.sleep(0.5)
    assert descendants(os.getpid()) == before


def test_a_portable_sandbox_leaves_no_folder_or_host_behind(tmp_path: Path) -> None:
    """A program that never closes its sandbox, and a run that ends after ``close()``: each
    Pyodide host's process and its copy of Deno's cache are gone when the program ends."""
    program = (
        "import os, sys\n"
        "from course.grading import sandbox\n"
        "from course.grading.sandbox import Sandbox\n"
        "os_access = os.access\n"  # each sandbox finds Deno's cache another user's: its own
        "sandbox.os = type(os)('os'); sandbox.os.__dict__.update(os.__dict__)\n"
        "sandbox.os.access = lambda path, mode: 'deno-cache' not in str(path) and os_access(path, mode)\n"
        "box = Sandbox('pyodide')\n"
        "with box.start({'p.py': 'print(6 * 7)'}, 'p.py') as run:\n"
        "    print(b''.join(run.lines().lines).decode(), flush=True)\n"  # its host kept, idle
        "other = Sandbox('pyodide')\n"
        "with other.start({'p.py': 'import time; time.sleep(1); print(7)'}, 'p.py') as run:\n"
        "    other.close()\n"  # closed while the run is on its host
        "    print(b''.join(run.lines().lines).decode(), flush=True)\n"
        "    print(len(os.listdir(os.environ['TMPDIR'])), flush=True)\n"
    )  # fmt: skip
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=env, timeout=120, check=True)  # fmt: skip
    assert done.stdout.split() == ["42", "7", "4"]  # each host's folder and each one's own cache
    assert list(tmp_path.iterdir()) == []  # both gone with the program
    # and a sandbox let go of is collected (a server checking hand-ins makes one per check)
    gone = weakref.ref(Sandbox("pyodide"))
    gc.collect()
    assert gone() is None


def test_folders_left_by_a_killed_grading_are_removed_by_the_next() -> None:
    """A grading killed with SIGKILL leaves its run folders; the next sandbox removes those
    whose process is gone, and no other folder."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    temporary, mark = Path(tempfile.gettempdir()), os.urandom(4).hex()
    names = [f"course-sandbox-{gone.pid}-{mark}a", f"course-sandbox-deno-{gone.pid}-{mark}b",
             f"course-sandbox-warm-{gone.pid}-{mark}c", f"course-sandbox-{os.getpid()}-{mark}d",
             f"course-sandbox-{mark}e", f"other-{gone.pid}-{mark}f"]  # fmt: skip
    for name in names:
        (temporary / name).mkdir()
        (temporary / name / "harness.py").write_text("")
    try:
        Sandbox("bubblewrap")
        assert [(temporary / name).exists() for name in names] == [False] * 3 + [True] * 3
    finally:
        for name in names:
            shutil.rmtree(temporary / name, ignore_errors=True)


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            ppid = next(
                (ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")), "0"
            )
            parents[int(entry.name)] = int(ppid)
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child, its in parents.items():
            if its == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def test_without_bubblewrap_auto_takes_the_portable_sandbox(monkeypatch, capsys,
                                                            tmp_path: Path) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(IsolationError, match="bwrap is not installed.*pip install deno"):
        Sandbox("bubblewrap")
    assert Sandbox().kind == "pyodide"
    notebook = tmp_path / "01_squares.ipynb"
    shutil.copy(checker.SOURCE_DIR / "01_squares.ipynb", notebook)
    assert main(["check", str(notebook)]) == 0
    assert "Score: 2/2 questions" in capsys.readouterr().out
    assert main(["check", str(notebook), "--sandbox", "bubblewrap"]) == 2
    assert "cannot isolate students' code here" in capsys.readouterr().err


def test_without_deno_the_message_says_how_to_install_it(monkeypatch) -> None:
    from course import pyodide

    def missing() -> str:
        raise pyodide.PyodideError(f"Deno is not installed: {pyodide.INSTALL_DENO}")

    monkeypatch.setattr(pyodide, "deno_program", missing)
    with pytest.raises(IsolationError, match="Deno is not installed.*python3 kit.py lab"):
        Sandbox("pyodide")


def test_no_isolation_is_refused_as_root_and_said_everywhere_otherwise(capsys,
                                                                        tmp_path: Path) -> None:
    """Run as root in CI, and as a normal user by tests/test_normal_user.py."""
    notebook = tmp_path / "01_squares.ipynb"
    shutil.copy(checker.SOURCE_DIR / "01_squares.ipynb", notebook)
    if os.name == "posix" and os.geteuid() == 0:
        with pytest.raises(IsolationError, match="refused when run as root"):
            Sandbox("none")
        assert main(["check", str(notebook), "--no-isolation"]) == 2
        assert "refused when run as root" in capsys.readouterr().err
        return
    assert main(["check", str(notebook), "--no-isolation"]) == 0
    assert checker.NOT_ISOLATED in capsys.readouterr().out
    plain = Sandbox("none")
    assert not plain.isolated
    report = checker.grade_notebook(build("01_squares", None), notebook, plain, 10)
    assert not report.isolated and checker.NOT_ISOLATED in report.notes
    assert report.passed == report.total


def test_a_process_limit_never_counts_below_the_users_own_processes() -> None:
    """The old --no-isolation set RLIMIT_NPROC to 64 for the teacher's whole user: with a
    browser open, every question failed.  Now the limit is what runs now, plus 64."""
    limit = sandbox._process_limit()
    if limit is not None:
        own = sum(1 for entry in Path("/proc").iterdir()
                  if entry.name.isdigit() and entry.stat().st_uid == os.getuid())  # fmt: skip
        assert limit >= own + 60


def _read(run: Any, exercise: Any, cells_done: Any = lambda: None) -> tuple[Any, Any, str]:
    """What the grader reads of one run: replies, the cells' problems, why it stopped early."""
    reading = checker._Reading(run, list(range(len(exercise.answers))),
                               [q.tag for q in exercise.questions], 20.0, cells_done)  # fmt: skip
    reading.read()
    return reading.replies, reading.problems, "" if reading.ended else reading.stopped


class Scripted:
    """A run that sends the given lines, then ends (for the grader's reading of messages)."""

    def __init__(self, lines: list[bytes], stopped: str = "ended") -> None:
        self._lines, self.stopped = list(lines), stopped
        self.deadline = time.monotonic() + 60

    def next_line(self) -> bytes | None:
        return self._lines.pop(0) if self._lines else None

    def exit_reason(self) -> str:
        return "Python stopped before the end (os._exit or exit?)"


def _line(**message: Any) -> bytes:
    return json.dumps(message).encode()


def test_the_grader_keeps_only_expected_messages_in_order() -> None:
    """Every message kind, forged, repeated, early, unknown, too deep or too big, is dropped."""
    exercise = build("01_squares", None)
    good = [{"answer": "a1", "after": [None, None]}]
    lines = [
        _line(event="question", tag="check:to_notation", replies=good),  # before ready
        _line(event="ready"),
        _line(event="ready"),
        _line(event="cell", index=1, problem="early"),  # out of order
        _line(event="question", tag="check:to_notation", replies=good),  # before the cells
        _line(event="cell", index=0, problem=None),
        _line(event="cell", index=1, problem=None),
        _line(event="cell", index=1, problem="again"),
        _line(event="question", tag="check:made_up", replies=good),
        _line(event="start", tag="check:to_notation"),
        b"[" * 100_000 + b"]" * 100_000,
        b'{"event": "question", "tag": "check:to_notation", "replies": '
        + b"[" * 500
        + b"]" * 500
        + b"}",
        b"not json",
        _line(event="question", tag="check:from_notation", stopped="timed out after 1 s"),
        _line(event="question", tag="check:from_notation", replies=good),  # repeated
        _line(event="question", tag="check:to_notation", replies=None),
        _line(event="end"),
        _line(event="question", tag="check:to_notation", replies=good),  # after the end
    ]
    sent: list[int] = []
    replies, problems, stopped = _read(Scripted(lines), exercise, lambda: sent.append(1))
    assert replies == {"check:from_notation": "timed out after 1 s", "check:to_notation": None}
    assert problems == {} and stopped == "" and sent == [1]


def test_a_stopped_question_says_only_the_harness_own_reasons() -> None:
    """A forged reason could carry anything (a grade-time case's arguments): it is not shown."""
    exercise = build("01_squares", None)
    lines = [_line(event="ready"), _line(event="cell", index=0, problem=None),
             _line(event="cell", index=1, problem=None),
             _line(event="question", tag="check:to_notation", stopped="cases: [[3, 4], [5, 6]]"),
             _line(event="question", tag="check:from_notation",
                   stopped="it used up its CPU time (an endless loop?)")]  # fmt: skip
    replies, _, _ = _read(Scripted(lines), exercise)
    assert replies == {
        "check:to_notation": "it stopped Python",
        "check:from_notation": "it used up its CPU time (an endless loop?)",
    }


def test_a_run_that_stops_costs_only_what_had_no_answer() -> None:
    exercise = build("01_squares", None)
    lines = [_line(event="ready"), _line(event="cell", index=0, problem=None)]
    replies, problems, stopped = _read(Scripted(lines), exercise)
    assert replies == {} and "os._exit" in stopped
    assert problems == {1: f"it stopped Python: {stopped}"}
    timed = Scripted([_line(event="ready")], stopped="timed out after 9 s")
    assert _read(timed, exercise)[2] == "timed out after 9 s"


@pytest.mark.parametrize("depth", [1, 5, 19, 20, 21, 100, 10_000])
def test_nesting_is_measured_without_recursion(depth: int) -> None:
    text = b'{"a": ' * depth + b'"[{x"' + b"}" * depth
    assert (wire.parse(text, 20) is not None) == (depth <= 20)


def test_exit_reasons_are_said_in_words() -> None:
    assert "CPU" in sandbox.exit_reason(-24) and "killed" in sandbox.exit_reason(128 + 9)
    assert "os._exit" in sandbox.exit_reason(0) and "exit code 3" in sandbox.exit_reason(3)


def test_only_a_regular_notebook_file_is_read(tmp_path: Path) -> None:
    """A FIFO never blocks the reader; a device, a folder, a link (for hand-ins), a bomb of
    nesting or bytes is no notebook, with the reason."""
    from course.grading import notebook as nbfile

    real = tmp_path / "real.ipynb"
    shutil.copy(checker.SOURCE_DIR / "01_squares.ipynb", real)
    link = tmp_path / "link.ipynb"
    link.symlink_to(real)
    fifo = tmp_path / "fifo.ipynb"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.ipynb"
    deep.write_bytes(b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b', "nbformat": 4}')
    big = tmp_path / "big.ipynb"
    big.write_bytes(b" " * (nbfile.MAX_BYTES + 1))
    assert nbfile.read(link)["cells"] and checker.read_submission(real)["cells"]
    for path, reason in ((link, "symbolic link"), (fifo, "not a regular file"),
                         (Path("/dev/zero"), "not a regular file"), (tmp_path, "not a regular"),
                         (deep, "nests deeper"), (big, "at most")):  # fmt: skip
        started = time.monotonic()
        with pytest.raises(nbfile.NotebookError, match=reason):
            checker.read_submission(path)
        assert time.monotonic() - started < 5
