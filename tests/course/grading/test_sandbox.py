"""The sandbox API (isolation, limits, clean-up) and the grader's reading of what comes back."""

from __future__ import annotations

import json
import os
import shutil
import time
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


@pytest.fixture(scope="module")
def box() -> Sandbox:
    return Sandbox()


def test_isolated_code_sees_only_its_own_files(box: Sandbox, tmp_path: Path) -> None:
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
    started = time.monotonic()
    with box.start({"main.py": chatty}, "main.py", Limits(wall=1.5)) as run:
        read = run.lines()
    assert read.stopped == "timed out after 1.5 s" and time.monotonic() - started < 5
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
    with box.start({"main.py": sleeper}, "main.py", Limits(wall=2)) as run:
        assert run.next_line() == b"up"
        started = time.monotonic()
        assert run.send(b"x" * (8 << 20)) is False
        assert time.monotonic() - started < 4


def test_limits_hold_inside(box: Sandbox) -> None:
    hog = "x = bytearray(10**9)\nprint('got it')"
    with box.start({"main.py": hog}, "main.py", Limits(memory_mb=256)) as run:
        assert run.lines().lines == [] and "exit code" in run.exit_reason()
    spin = "while True:\n    pass"
    with box.start({"main.py": spin}, "main.py", Limits(cpu=1, wall=20)) as run:
        run.lines()
        assert "CPU" in run.exit_reason() or "killed" in run.exit_reason()


def test_nothing_a_run_started_outlives_it(box: Sandbox, tmp_path: Path) -> None:
    """Only this test's own processes are counted (other tests may run beside it)."""
    before = descendants(os.getpid())
    daemon = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n    os.setsid()\n    time.sleep(30)\n    os._exit(0)\n"
        "print('started', flush=True)\ntime.sleep(30)\n"
    )
    with box.start({"main.py": daemon}, "main.py", Limits(wall=2)) as run:
        assert run.next_line() == b"started"
    time.sleep(0.5)
    assert descendants(os.getpid()) == before


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


def test_without_bubblewrap_the_grader_refuses_or_says_so(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(IsolationError, match="apt-get install bubblewrap.*--no-isolation"):
        Sandbox()
    notebook = tmp_path / "01_squares.ipynb"
    shutil.copy(checker.SOURCE_DIR / "01_squares.ipynb", notebook)
    assert main(["check", str(notebook)]) == 2
    assert "cannot isolate students' code here" in capsys.readouterr().err
    assert main(["check", str(notebook), "--no-isolation"]) == 0
    assert checker.NOT_ISOLATED in capsys.readouterr().out
    plain = Sandbox(isolate=False)
    assert not plain.isolated
    report = checker.grade_notebook(build("01_squares", None), notebook, plain, 10)
    assert not report.isolated and checker.NOT_ISOLATED in report.notes
    assert report.passed == report.total


class Scripted:
    """A run that sends the given lines, then ends (for the grader's reading of messages)."""

    def __init__(self, lines: list[bytes], stopped: str = "ended") -> None:
        self._lines, self.stopped = list(lines), stopped

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
    replies, problems, stopped = checker._read(Scripted(lines), exercise, lambda: sent.append(1))
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
    replies, _, _ = checker._read(Scripted(lines), exercise)
    assert replies == {
        "check:to_notation": "it stopped Python",
        "check:from_notation": "it used up its CPU time (an endless loop?)",
    }


def test_a_run_that_stops_costs_only_what_had_no_answer() -> None:
    exercise = build("01_squares", None)
    lines = [_line(event="ready"), _line(event="cell", index=0, problem=None)]
    replies, problems, stopped = checker._read(Scripted(lines), exercise)
    assert replies == {} and "os._exit" in stopped
    assert problems == {1: f"it stopped Python: {stopped}"}
    timed = Scripted([_line(event="ready")], stopped="timed out after 9 s")
    assert checker._read(timed, exercise)[2] == "timed out after 9 s"


@pytest.mark.parametrize("depth", [1, 5, 19, 20, 21, 100, 10_000])
def test_nesting_is_measured_without_recursion(depth: int) -> None:
    text = b'{"a": ' * depth + b'"[{x"' + b"}" * depth
    assert wire.nesting_within(text, 20) == (depth <= 20)
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
                         (deep, "nested deeper"), (big, "bigger than")):  # fmt: skip
        started = time.monotonic()
        with pytest.raises(nbfile.NotebookError, match=reason):
            checker.read_submission(path)
        assert time.monotonic() - started < 5
