"""Hostile students against the grader: every attack scores 0, and nobody else's grade moves.

Each attacker hands in the teacher's solution of an exercise with answer cells replaced
by an attack (:mod:`.attacks`, one per family the examiners found).  All of them are
graded in one run, beside honest students, with the teacher's folder and the class's
notebooks where a student would look for them.  The tests assert a 0 for the attacked
questions, full marks for the attacker's other questions and for the honest students,
a bounded time, the teacher's files and the results file unchanged byte for byte, and
no process left behind (counting only this test's own).

Then the kit itself is cloned under ``/tmp`` and run through a symbolic link, as root
and as a normal user (``nobody``): the attacks still score 0 and the solution full marks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from course.grading.checker import budget
from course.grading.exercise import build
from course.grading.grader import Grader
from course.grading.records import Report

from .attacks import HONEST, Attack, attacks
from .helpers import REPOSITORY, SOURCE_DIR, source, with_answers, write
from .test_sandbox import descendants

pytestmark = pytest.mark.slow
SEED = 20261123
TIMEOUT = 12.0


@pytest.fixture(scope="module", params=["bubblewrap", "pyodide"])
def classroom(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
              ) -> dict[str, Any]:  # fmt: skip
    """A teacher folder, a class of attackers and honest students, graded once per sandbox."""
    root = tmp_path_factory.mktemp("class")
    teacher = root / "teacher"
    shutil.copytree(SOURCE_DIR, teacher)
    (teacher / "grading_seed.txt").write_text(f"{SEED}\n", encoding="utf-8")
    submissions, out = root / "submissions", root / "grades.csv"
    out.write_text("the grades\n", encoding="utf-8")
    found = attacks(teacher, out, submissions)
    for attack in found:
        notebook = with_answers(source(attack.exercise), attack.answers)
        write(notebook, submissions / attack.student / f"{attack.exercise}.ipynb")
    for exercise in HONEST:
        write(source(exercise), submissions / "honest" / f"{exercise}.ipynb")
    linked = submissions / "linker" / "04_flips.ipynb"
    linked.parent.mkdir()
    linked.symlink_to(teacher / "04_flips.ipynb")
    before = {p.name: p.read_bytes() for p in teacher.iterdir()}
    processes = descendants(os.getpid())
    grader = Grader(teacher, timeout=TIMEOUT, workers=2, sandbox=request.param)
    items = sorted(submissions.rglob("*.ipynb"))
    started = time.monotonic()
    reports = grader.grade([(path, path.stem) for path in items])
    took = time.monotonic() - started
    print(f"graded {len(items)} notebooks in {took:.1f} s")
    graded = {(p.parent.name, p.stem): r for p, r in zip(items, reports, strict=True)}
    return {"teacher": teacher, "out": out, "attacks": found, "graded": graded, "took": took,
            "before": before, "processes": processes, "count": len(items),
            "sandbox": grader.sandbox}  # fmt: skip


def _failed(report: Report) -> set[str]:
    return {result.tag for result in report.checks if not result.passed}


ATTACKERS = [a.student for a in attacks(Path("/t"), Path("/o"), Path("/c"))]


@pytest.mark.parametrize("student", ATTACKERS)
def test_an_attack_scores_zero_and_nothing_else_moves(classroom, student: str) -> None:
    attack: Attack = next(a for a in classroom["attacks"] if a.student == student)
    report = classroom["graded"][student, attack.exercise]
    assert _failed(report) == attack.zeroed, report.render()
    for result in report.checks:
        assert result.earned == (0 if result.tag in attack.zeroed else result.points)


def test_honest_students_in_the_same_run_get_full_marks(classroom) -> None:
    for exercise in HONEST:
        report = classroom["graded"]["honest", exercise]
        assert report.passed == report.total > 0 and report.earned == report.points, report.render()


def test_a_symlinked_submission_is_not_read(classroom) -> None:
    report = classroom["graded"]["linker", "04_flips"]
    assert report.passed == 0 and "symbolic link" in " ".join(report.notes), report.render()


def test_what_each_attack_met_is_said(classroom) -> None:
    graded = classroom["graded"]
    looper = graded["looper", "09_minimax"].checks[-1].message
    assert f"timed out after {TIMEOUT:g} s" in looper
    minimax = graded["looper", "09_minimax"].checks[0]
    assert minimax.passed  # its cell ran once; the time-out cost only best_move
    exiter = graded["exiter", "12_cursor"].checks[0].message
    assert "Python stopped before the end" in exiter
    crash = graded["crasher", "01_squares"].checks[0].message
    if classroom["sandbox"].kind == "bubblewrap":
        assert "signal 11" in crash, crash
    else:  # WebAssembly has no segmentation fault: Python raises, or its process ends
        assert "raised" in crash or "stopped" in crash, crash
    bomb = graded["memory_bomber", "02_counting"].checks[1].message
    assert "MemoryError at line 5 of your code" in bomb or "stopped" in bomb, bomb
    cell = " ".join(graded["cell_looper", "08_positional"].notes)
    assert f"the answer cells ran longer than {TIMEOUT:g} s" in cell
    assert "too much" in graded["flooder", "06_legal_moves"].checks[-1].message


def test_no_notebook_outran_its_wall_clock(classroom) -> None:
    start = classroom["sandbox"].startup
    longest = max(budget(build(name, None), TIMEOUT) + start for name in HONEST + ["09_minimax"])
    # two workers: the whole class takes at most its notebooks' clocks, shared
    assert classroom["took"] < classroom["count"] * longest / 2 + 30


def test_teacher_files_results_and_processes_are_untouched(classroom) -> None:
    time.sleep(2.5)  # longer than the outliver's children would have waited
    after = {p.name: p.read_bytes() for p in classroom["teacher"].iterdir()}
    assert after == classroom["before"]
    assert classroom["out"].read_text(encoding="utf-8") == "the grades\n"
    assert descendants(os.getpid()) == classroom["processes"]


# -- the kit from a clone under /tmp, through a symbolic link, as root and as nobody ---------


@pytest.fixture(scope="module")
def clone() -> Any:
    """The kit's tracked files copied under /tmp, readable by everyone, and a link to it."""
    files = subprocess.run(["git", "ls-files", "-z", "course", "reversi", "exercises"],
                           cwd=REPOSITORY, capture_output=True, check=True).stdout  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="kit-clone-", dir="/tmp"))
    for name in files.decode().split("\0"):
        if name and (REPOSITORY / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(REPOSITORY / name, folder / name)
    found = {a.student: a for a in attacks(folder / "exercises" / "source", folder, folder)}
    hand_ins = {
        "kit_flips__04_flips": ("04_flips", found["kit_flips"].answers),
        "solution_thief__07_greedy": ("07_greedy", found["solution_thief"].answers),
        "secrets__01_squares": ("01_squares",
                                {**found["seed_thief"].answers, **found["root_reader"].answers}),
    }  # fmt: skip
    for name, (exercise, answers) in hand_ins.items():
        write(with_answers(source(exercise), answers), folder / "hand-ins" / f"{name}.ipynb")
    (folder / "exercises" / "source" / "grading_seed.txt").write_text(f"{SEED}\n")
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    link = Path(tempfile.mkdtemp(prefix="kit-link-", dir="/tmp")) / "kit"
    link.parent.chmod(0o755)
    folder.chmod(0o755)
    link.symlink_to(folder)
    yield link
    shutil.rmtree(link.parent)
    shutil.rmtree(folder)


def _check(link: Path, notebook: str, as_nobody: bool) -> subprocess.CompletedProcess[str]:
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    command = [python, "-m", "course", "check", str(link / notebook), "--timeout", str(TIMEOUT)]
    if as_nobody:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", *command]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(link), "HOME": "/tmp", "LANG": "C.UTF-8"}
    return subprocess.run(command, cwd=link, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("as_nobody", [False, True], ids=["as root", "as nobody"])
def test_a_clone_under_tmp_through_a_link_holds(clone: Path, as_nobody: bool) -> None:
    if as_nobody and os.geteuid() != 0:
        as_nobody = False  # already a normal user
    expected = {"exercises/source/07_greedy.ipynb": "Score: 2/2 questions, 3/3 points",
                "hand-ins/kit_flips__04_flips.ipynb": "Score: 0/3",
                "hand-ins/solution_thief__07_greedy.ipynb": "Score: 0/2",
                "hand-ins/secrets__01_squares.ipynb": "Score: 0/2"}  # fmt: skip
    with ThreadPoolExecutor(max_workers=len(expected)) as pool:
        results = dict(
            zip(expected, pool.map(lambda n: _check(clone, n, as_nobody), expected), strict=True)
        )
    for name, score in expected.items():
        assert score in results[name].stdout, results[name].stdout + results[name].stderr
