"""Grading through nbval, as a teacher runs it: ``python -m course grade`` and ``check``.

One grade run covers the starting notebooks, the teacher's solutions and students who
tamper with their check cells; a few ``check`` runs cover time-outs and a kernel that exits.
"""

from __future__ import annotations

import copy
import csv
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from course.grading import notebook as nbfile

from .helpers import NAMES, SOURCE_DIR, course, source, student, with_answers, write

pytestmark = pytest.mark.slow

EMPTY_FLIPS = "def flips(board, square, color):\n    return []"
WRONG_LEGAL = "def is_legal(board, square, color):\n    return False"
WRONG = {"answer:flips": EMPTY_FLIPS, "answer:is_legal": WRONG_LEGAL}
TEACHER = ["01_squares", "07_greedy", "12_cursor"]


def _checks(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in notebook["cells"] if nbfile.tag_with(cell, nbfile.CHECK)]


def edited() -> dict[str, Any]:
    """Wrong answers, and check cells that just print the passing line (outputs kept)."""
    notebook = with_answers(student("04_flips"), WRONG)
    for cell in _checks(notebook):
        line = "".join(cell["outputs"][0]["text"]).strip()
        cell["source"] = f"# NBVAL_CHECK_OUTPUT\nprint({line!r})"
    return notebook


def skipped() -> dict[str, Any]:
    notebook = with_answers(student("04_flips"), WRONG)
    for cell in _checks(notebook):
        cell["source"] = "# NBVAL_SKIP\n" + nbfile.source(cell)
    return notebook


def raising() -> dict[str, Any]:
    notebook = with_answers(student("04_flips"), WRONG)
    for cell in _checks(notebook):
        cell["metadata"]["tags"].append("raises-exception")
    return notebook


def deleted() -> dict[str, Any]:
    notebook = with_answers(student("04_flips"), WRONG)
    notebook["cells"] = [
        cell for cell in notebook["cells"] if not nbfile.tag_with(cell, nbfile.CHECK)
    ]
    return notebook


def shadowing() -> dict[str, Any]:
    fake = (
        EMPTY_FLIPS + "\n\nclass checks:  # a fake of the check module\n"
        "    @staticmethod\n    def figure2(f):\n        print('figure2: 7/7 cases passed')\n"
        "    flips = is_legal = figure2\n"
    )
    return with_answers(student("04_flips"), {"answer:flips": fake, "answer:is_legal": WRONG_LEGAL})


def patching() -> dict[str, Any]:
    patch = (
        "import reversi\n\nreversi.Board.flips = lambda self, square, color: []\n"
        "reversi.Board.is_legal = lambda self, square, color: False\n\n" + EMPTY_FLIPS
    )
    return with_answers(
        student("04_flips"), {"answer:flips": patch, "answer:is_legal": WRONG_LEGAL}
    )


def exiting() -> dict[str, Any]:
    exits = "import sys\n\ndef flips(board, square, color):\n    sys.exit(0)"
    return with_answers(
        student("04_flips"), {"answer:flips": exits, "answer:is_legal": WRONG_LEGAL}
    )


def shuffled() -> dict[str, Any]:
    """The teacher's answers, cells in another order, extra cells, checks deleted: all pass."""
    teacher = source("04_flips")
    answers = [cell for cell in teacher["cells"] if nbfile.tag_with(cell, nbfile.ANSWER)]
    notebook = copy.deepcopy(student("04_flips"))
    others = [
        c
        for c in notebook["cells"]
        if not nbfile.tag_with(c, nbfile.CHECK) and not nbfile.tag_with(c, nbfile.ANSWER)
    ]
    scratch = {"cell_type": "code", "id": "mine", "metadata": {}, "outputs": [], "execution_count": None,
               "source": "print('my own experiment')\nflips = None"}  # fmt: skip
    notebook["cells"] = [answers[1], scratch, *others, answers[0]]
    return notebook


def partial() -> dict[str, Any]:
    wrong = "def from_notation(text):\n    return (0, 0)"
    return with_answers(source("01_squares"), {"answer:from_notation": wrong})


@pytest.fixture(scope="module")
def graded(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], dict[str, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("submissions")
    for name in NAMES:
        write(student(name), folder / "starter" / f"{name}.ipynb")
    for name in TEACHER:  # every source is also run by the release test; three are enough here
        write(source(name), folder / f"teacher__{name}.ipynb")
    for make in (edited, skipped, raising, deleted, shadowing, patching, exiting, shuffled):
        write(make(), folder / make.__name__ / "04_flips (1).ipynb")
    write(partial(), folder / "partial" / "my_copy_01_squares.ipynb")
    write({"nbformat": 4, "cells": [], "metadata": {}}, folder / "partial" / "notes.ipynb")
    write(student("02_counting"), folder / "stray.ipynb")
    out = folder.parent / "grades.csv"
    started = time.monotonic()
    result = course("grade", str(folder), "--out", str(out), "--jobs", "2", "--timeout", "60")
    print(f"grade run: {time.monotonic() - started:.1f} s")
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student"]: row for row in csv.DictReader(file)}
    return result, rows


def _columns(row: dict[str, str], exercise: str) -> dict[str, str]:
    return {key: value for key, value in row.items() if key.startswith(exercise + ":")}


def test_grade_sheet_has_a_row_per_student_and_a_column_per_check(graded) -> None:
    result, rows = graded
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(rows) == sorted(
        ["starter", "teacher", "edited", "skipped", "raising", "deleted", "shadowing",
         "patching", "exiting", "shuffled", "partial"]
    )  # fmt: skip
    every_check = [
        f"{name}:{tag.removeprefix('check:')}"
        for name in NAMES
        for tag in nbfile.check_tags(source(name))
    ]
    assert list(rows["teacher"]) == ["student", *every_check, "passed", "total", "missing"]
    assert "warning: skipped stray.ipynb" in result.stdout
    assert "warning: skipped partial/notes.ipynb: not one of the exercises" in result.stdout


def test_teacher_solutions_pass_every_check(graded) -> None:
    row = graded[1]["teacher"]
    for name in TEACHER:
        assert set(_columns(row, name).values()) == {"1"}, row
    assert row["passed"] == str(sum(len(nbfile.check_tags(source(n))) for n in TEACHER))


def test_starting_notebooks_fail_every_check(graded) -> None:
    row = graded[1]["starter"]
    assert row["passed"] == "0" and row["total"] == graded[1]["teacher"]["total"]


@pytest.mark.parametrize(
    "who", ["edited", "skipped", "raising", "deleted", "shadowing", "patching", "exiting"]
)
def test_tampering_is_graded_by_the_teachers_checks(graded, who: str) -> None:
    row = graded[1][who]
    assert set(_columns(row, "04_flips").values()) == {"0"}, row
    assert row["passed"] == "0"
    assert f"{who}: 0/" in graded[0].stdout


def test_answers_are_matched_by_tag_not_by_position(graded) -> None:
    row = graded[1]["shuffled"]
    assert set(_columns(row, "04_flips").values()) == {"1"}, row
    assert row["passed"] == "3" and "01_squares" in row["missing"]


def test_one_right_and_one_wrong_answer(graded) -> None:
    row = graded[1]["partial"]
    assert _columns(row, "01_squares") == {
        "01_squares:to_notation": "1",
        "01_squares:from_notation": "0",
    }


def test_edited_checks_pass_plain_nbval_but_not_the_grader(tmp_path: Path) -> None:
    """Why grading needs the teacher's copy: plain nbval believes the edited check cells."""
    path = write(edited(), tmp_path / "04_flips.ipynb")
    plain = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "nbval.plugin", "--nbval-lax", "--nbval-current-env",
         "-p", "no:cacheprovider", "-q", "-c", str(write_ini(tmp_path)), str(path)],
        capture_output=True, text=True, timeout=300, env={**_env(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )  # fmt: skip
    assert plain.returncode == 0, plain.stdout
    graded = course("check", str(path))
    assert graded.returncode == 1
    assert "Score: 0/3" in graded.stdout
    assert (
        "note: check:figure2 was changed in your notebook: the teacher's check was used"
        in graded.stdout
    )
    assert (
        "check:figure2   FAILED  figure2: 4 of 7 cases failed; first: Figure 2, Black on d1"
        in graded.stdout
    )


def test_teacher_source_checks_out(tmp_path: Path) -> None:
    result = course("check", str(SOURCE_DIR / "04_flips.ipynb"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-4:] == [
        "  check:figure2   passed", "  check:flips     passed", "  check:is_legal  passed", "Score: 3/3",
    ]  # fmt: skip


def test_an_endless_loop_times_out(tmp_path: Path) -> None:
    loop = "def flips(board, square, color):\n    while True:\n        pass"
    path = write(
        with_answers(student("04_flips"), {"answer:flips": loop}), tmp_path / "04_flips.ipynb"
    )
    started = time.monotonic()
    result = course("check", str(path), "--timeout", "5", timeout=120)
    assert time.monotonic() - started < 90
    assert result.returncode == 1
    assert "check:figure2   FAILED  timed out after 5 s (an endless loop?)" in result.stdout
    assert "Score: 0/3" in result.stdout


def test_an_answer_that_kills_the_kernel_fails(tmp_path: Path) -> None:
    kill = "import os\n\nos._exit(0)"
    path = write(
        with_answers(source("04_flips"), {"answer:flips": kill}), tmp_path / "04_flips.ipynb"
    )
    result = course("check", str(path), "--timeout", "5", timeout=120)
    assert result.returncode == 1
    assert "Score: 0/3" in result.stdout
    assert "the Python kernel stopped" in result.stdout


def test_unknown_notebook_is_refused(tmp_path: Path) -> None:
    path = write({"nbformat": 4, "cells": [], "metadata": {}}, tmp_path / "holiday.ipynb")
    result = course("check", str(path))
    assert result.returncode == 2
    assert "cannot tell which exercise this is" in result.stderr


def write_ini(folder: Path) -> Path:
    ini = folder / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    return ini


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
