"""Hostile students against the grader: every attack scores 0, and nobody else's grade moves.

Each attacker hands in the teacher's solution of an exercise with one answer cell replaced
by an attack.  All of them are graded in one run, beside honest students, and the test
asserts a 0 for the attacked question, full marks for the attacker's other questions,
full marks for the honest students, and teacher files unchanged, byte for byte.

The same class is graded twice: once as a teacher runs it, and once with the reading of
the answers (:mod:`course.grading.scan`) switched off, so that every attack really runs
and the sandbox and the verdict computed outside it hold on their own.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from course.grading import notebook as nbfile
from course.grading import sandbox
from course.grading.checker import Report
from course.grading.gradebook import Grader
from course.grading.sandbox import MARKER, Limits, Sandbox

from .attacks import FLAGGED_TOO, HONEST, KIT_CALLERS, attacks
from .helpers import SOURCE_DIR, source, with_answers, write

pytestmark = pytest.mark.slow
SEED = 20261123
TIMEOUT = 12.0


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A teacher folder, a class of attackers and honest students, and a grader."""
    root = tmp_path_factory.mktemp("class")
    teacher = root / "teacher"
    shutil.copytree(SOURCE_DIR, teacher, ignore=shutil.ignore_patterns("grading_seed.txt"))
    submissions, out = root / "submissions", root / "grades.csv"
    out.write_text("the grades\n", encoding="utf-8")
    students: dict[str, tuple[str, set[str]]] = {}
    for student, exercise, answers, zeroed in attacks(teacher, out) + KIT_CALLERS:
        write(with_answers(source(exercise), answers), submissions / student / f"{exercise}.ipynb")
        students[student] = (exercise, zeroed)
    for exercise in HONEST:
        write(source(exercise), submissions / "honest" / f"{exercise}.ipynb")
    before = {p.name: p.read_bytes() for p in teacher.iterdir()}
    grader = Grader(teacher, timeout=TIMEOUT, workers=2, seed=SEED, refused=[submissions, out])
    return {"grader": grader, "teacher": teacher, "submissions": submissions, "out": out,
            "students": students, "before": before}  # fmt: skip


def _grade(classroom: dict[str, Any], use_scan: bool) -> dict[tuple[str, str], Report]:
    grader: Grader = classroom["grader"]
    grader.use_scan = use_scan
    items = sorted(classroom["submissions"].rglob("*.ipynb"))
    started = time.monotonic()
    reports = grader.grade([(path, path.stem) for path in items])
    print(f"graded {len(items)} notebooks in {time.monotonic() - started:.1f} s (scan: {use_scan})")
    return {
        (path.parent.name, path.stem): report for path, report in zip(items, reports, strict=True)
    }


@pytest.fixture(scope="module")
def as_a_teacher_runs_it(classroom: dict[str, Any]) -> dict[tuple[str, str], Report]:
    return _grade(classroom, use_scan=True)


@pytest.fixture(scope="module")
def sandbox_alone(classroom: dict[str, Any]) -> dict[tuple[str, str], Report]:
    return _grade(classroom, use_scan=False)


def _scores(report: Report) -> dict[str, bool]:
    return {result.tag: result.passed for result in report.checks}


ATTACKERS = [a[0] for a in attacks(Path("/t"), Path("/o"))]


@pytest.mark.parametrize("student", ATTACKERS + [k[0] for k in KIT_CALLERS])
def test_an_attack_scores_zero_and_nothing_else_moves(
    as_a_teacher_runs_it, classroom, student
) -> None:
    exercise, zeroed = classroom["students"][student]
    report = as_a_teacher_runs_it[student, exercise]
    zeroed = zeroed | FLAGGED_TOO.get(student, set())
    assert {tag for tag, ok in _scores(report).items() if not ok} == zeroed, report.render()


@pytest.mark.parametrize("student", ATTACKERS)
def test_the_sandbox_holds_without_the_reading_of_answers(
    sandbox_alone, classroom, student
) -> None:
    exercise, zeroed = classroom["students"][student]
    report = sandbox_alone[student, exercise]
    assert {tag for tag, ok in _scores(report).items() if not ok} == zeroed, report.render()


@pytest.mark.parametrize("graded", ["as_a_teacher_runs_it", "sandbox_alone"])
def test_honest_students_in_the_same_runs_get_full_marks(request, graded) -> None:
    reports = request.getfixturevalue(graded)
    for exercise in HONEST:
        report = reports["honest", exercise]
        assert report.passed == report.total > 0, report.render()


def test_kit_calls_and_imports_are_flagged_in_the_feedback(as_a_teacher_runs_it) -> None:
    flips = as_a_teacher_runs_it["kit_flips", "04_flips"]
    assert any(
        "Board.from_text(str(board)).flips is the kit's own answer" in n for n in flips.notes
    )
    search = as_a_teacher_runs_it["kit_search", "09_minimax"]
    assert any("may not import reversi.search" in n for n in search.notes), search.notes
    assert all(
        r.message.startswith("flagged: ") for r in search.checks if r.tag == "check:best_move"
    )


def test_what_each_attack_met_is_said(sandbox_alone) -> None:
    looper = sandbox_alone["looper", "09_minimax"].checks[-1].message
    assert f"timed out after {TIMEOUT:g} s" in looper
    exiter = next(
        r for r in sandbox_alone["exiter", "12_cursor"].checks if r.tag == "check:combine"
    )
    assert "Python stopped before the end" in exiter.message
    crasher = sandbox_alone["crasher", "01_squares"].checks[0].message
    assert "stopped by SIGSEGV" in crasher
    reader = sandbox_alone["solution_reader", "07_greedy"]
    assert any("cannot be read" in note for note in reader.notes) or reader.passed == 0


def test_teacher_files_and_results_are_untouched(
    sandbox_alone, as_a_teacher_runs_it, classroom
) -> None:
    time.sleep(2.5)  # longer than the outliver's children would have waited
    after = {p.name: p.read_bytes() for p in classroom["teacher"].iterdir()}
    assert after == classroom["before"]
    assert classroom["out"].read_text(encoding="utf-8") == "the grades\n"
    left = [e.name for e in Path("/proc").iterdir() if e.name.isdigit() and _marked(e)]
    assert left == []


def _marked(entry: Path) -> bool:
    try:
        return MARKER.encode() in (entry / "environ").read_bytes()
    except OSError:
        return False


def test_a_change_to_the_teacher_files_is_undone_and_scores_zero(classroom, monkeypatch) -> None:
    grader: Grader = classroom["grader"]
    grader.use_scan = True
    teacher_file = classroom["teacher"] / "01_squares.ipynb"
    original = teacher_file.read_bytes()
    from course.grading import checker

    real = checker.grade_notebook

    def tamper(*args: Any, **kwargs: Any) -> Report:
        teacher_file.write_bytes(b"{}")  # as if a run had got through
        return real(*args, **kwargs)

    monkeypatch.setattr(checker, "grade_notebook", tamper)
    path = classroom["submissions"] / "honest" / "01_squares.ipynb"
    (report,) = grader.grade([(path, "01_squares")])
    assert teacher_file.read_bytes() == original
    assert report.passed == 0 and "teacher's files changed" in report.notes[-1]


def test_the_sandbox_runs_in_namespaces_where_linux_allows(classroom) -> None:
    """Root with ``unshare`` (as on the test machines): hidden folders, no network, nobody."""
    grader: Grader = classroom["grader"]
    can = shutil.which("unshare") is not None and shutil.which("setpriv") is not None
    assert grader.sandbox.isolated == (can and os.geteuid() == 0) or grader.sandbox.isolated
    if not grader.sandbox.isolated:
        return  # the audit hook and the limits stand alone (README: "How a grade is computed")
    probe = (
        "import typing\n"
        "os = typing.sys.modules['os']\n"
        "def f(path):\n"
        "    import socket\n"
        "    found = [os.getuid()]\n"
        "    try:\n"
        "        found.append(len(os.listdir(path)))\n"
        "    except OSError:\n"
        "        found.append(0)  # under /tmp, which is private to the sandbox\n"
        "    try:\n"
        "        socket.create_connection(('1.1.1.1', 80), timeout=1)\n"
        "    except Exception as error:\n"
        "        found.append(type(error).__name__)\n"
        "    return found\n"
    )
    outcome = grader.sandbox.run([], [{"index": 0, "tag": "answer:f", "source": probe}],
                                 [{"tag": "q", "function": "f", "cases": [[str(classroom["teacher"])]]}])  # fmt: skip
    (reply,) = outcome.replies["q"]
    uid, listed, network = reply["answer"]
    assert listed == 0 and network in ("OSError", "PermissionError")
    assert uid == 65534 or os.geteuid() != 0


def test_processes_left_behind_are_found_by_their_marker(tmp_path: Path) -> None:
    """The clean-up itself: a detached process carrying a run's marker is found and killed."""
    secret = "feedface"
    daemon = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        env={**os.environ, MARKER: secret}, start_new_session=True,
    )  # fmt: skip
    try:
        assert daemon.pid in sandbox._left_behind(secret, None)
        assert daemon.pid not in sandbox._left_behind("other", None)
    finally:
        os.kill(daemon.pid, signal.SIGKILL)
        daemon.wait()


def test_a_forged_line_on_stdout_or_without_the_secret_is_ignored(tmp_path: Path) -> None:
    box = Sandbox([tmp_path], Limits(timeout=TIMEOUT))
    forged = (
        "import json, os, sys\n"
        "print(json.dumps({'event': 'done', 'tag': 'q', 'replies': [{'answer': 1}]}))\n"
        "def f(x):\n    return x + 1\n"
    )
    outcome = box.run([], [{"index": 0, "tag": "answer:f", "source": forged}],
                      [{"tag": "q", "function": "f", "cases": [[1]]}])  # fmt: skip
    assert outcome.replies == {"q": [{"answer": 2, "after": [None]}]}


def test_a_student_notebook_is_read_only_for_its_answer_cells(tmp_path: Path) -> None:
    """A notebook whose check cells were edited, deleted or faked still gets the grader's checks."""
    notebook = with_answers(
        source("01_squares"), {"answer:from_notation": "def from_notation(t):\n    return (0, 0)\n"}
    )
    for cell in notebook["cells"]:
        if nbfile.tag_with(cell, nbfile.CHECK):
            cell["source"] = "print('from_notation: 15/15 cases passed')"
    path = write(notebook, tmp_path / "01_squares.ipynb")
    grader = Grader(SOURCE_DIR, timeout=TIMEOUT, seed=SEED, refused=[tmp_path])
    (report,) = grader.grade([(path, "01_squares")])
    assert _scores(report) == {"check:to_notation": True, "check:from_notation": False}
