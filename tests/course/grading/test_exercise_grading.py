"""Grading as a teacher runs it: ``python -m course grade`` and ``check`` on the command line.

One grade run covers every starting notebook (0 everywhere), every teacher solution (full
marks everywhere), students who tamper with their check cells (the grader never runs
them), a renamed copy of the solution (flagged as similar) and files that are not
exercises; it writes the CSV sheet and the feedback pages.  A few ``check`` runs cover a
time-out and an answer that stops Python.
"""

from __future__ import annotations

import copy
import csv
import time
from pathlib import Path
from typing import Any

import pytest

from course.grading import notebook as nbfile

from .helpers import NAMES, SOURCE_DIR, course, source, student, with_answers, write

pytestmark = pytest.mark.slow
SEED = "7"

EMPTY_FLIPS = "def flips(board, square, color):\n    return []"
WRONG_LEGAL = "def is_legal(board, square, color):\n    return False"
WRONG = {"answer:flips": EMPTY_FLIPS, "answer:is_legal": WRONG_LEGAL}


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


def renamed() -> dict[str, Any]:
    """The teacher's flips with other names and comments: a near copy."""
    text = nbfile.source(next(c for c in source("04_flips")["cells"]
                              if nbfile.tag_with(c, nbfile.ANSWER) == "answer:flips"))  # fmt: skip
    for old, new in (("taken", "result"), ("line", "run"), ("row", "y"), ("col", "x")):
        text = text.replace(old, new)
    return with_answers(student("04_flips"), {"answer:flips": "# my own work\n" + text})


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("submissions")
    for name in NAMES:
        write(student(name), folder / "starter" / f"{name}.ipynb")
        write(source(name), folder / f"teacher__{name}.ipynb")
    for make in (
        edited,
        skipped,
        raising,
        deleted,
        shadowing,
        patching,
        exiting,
        shuffled,
        renamed,
    ):
        write(make(), folder / make.__name__ / "04_flips (1).ipynb")
    write(partial(), folder / "partial" / "my_copy_01_squares.ipynb")
    write({"nbformat": 4, "cells": [], "metadata": {}}, folder / "partial" / "notes.ipynb")
    write(student("02_counting"), folder / "stray.ipynb")
    out = folder.parent / "grades.csv"
    started = time.monotonic()
    result = course("grade", str(folder), "--out", str(out), "--jobs", "2", "--timeout", "60",
                    "--seed", SEED)  # fmt: skip
    print(f"grade run: {time.monotonic() - started:.1f} s")
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    return {"result": result, "rows": rows, "feedback": folder.parent / "grades-feedback"}


def _full_marks(exercise: str) -> dict[str, str]:
    """Each question column of ``exercise`` with its full points, as the sheet writes them."""
    from course.grading.table import ENTRIES

    return {f"{exercise}:{q.check}": str(q.points) for q in ENTRIES[exercise].questions}


def _columns(row: dict[str, str], exercise: str) -> dict[str, str]:
    """The question columns of ``exercise`` (points earned)."""
    return {
        key: value
        for key, value in row.items()
        if key.startswith(exercise + ":") and not key.endswith((":handed_in", ":late"))
    }


def test_grade_sheet_has_a_row_per_student_and_a_column_per_question(graded) -> None:
    result, rows = graded["result"], graded["rows"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(rows) == sorted(
        ["starter", "teacher", "edited", "skipped", "raising", "deleted", "shadowing",
         "patching", "exiting", "shuffled", "renamed", "partial"]
    )  # fmt: skip
    every_check = [
        column
        for name in NAMES
        for column in [
            *(f"{name}:{tag.removeprefix('check:')}" for tag in nbfile.check_tags(source(name))),
            f"{name}:handed_in",
            f"{name}:late",
        ]
    ]
    assert list(rows["teacher"]) == [
        "student_id", "name", *every_check, "points", "max_points", "passed", "total",
        "missing", "late", "errors", "comments", "similar", "isolated",
    ]  # fmt: skip
    assert "warning: skipped stray.ipynb" in result.stdout
    assert "warning: skipped partial/notes.ipynb: not one of the exercises" in result.stdout


def test_teacher_solutions_pass_every_question_of_every_exercise(graded) -> None:
    row = graded["rows"]["teacher"]
    for name in NAMES:
        assert _columns(row, name) == _full_marks(name), row
    assert (
        row["passed"] == row["total"] == str(sum(len(nbfile.check_tags(source(n))) for n in NAMES))
    )


def test_starting_notebooks_fail_every_question_of_every_exercise(graded) -> None:
    row = graded["rows"]["starter"]
    assert row["passed"] == "0" and row["total"] == graded["rows"]["teacher"]["total"]
    assert row["missing"] == ""


@pytest.mark.parametrize(
    "who", ["edited", "skipped", "raising", "deleted", "shadowing", "patching", "exiting"]
)
def test_tampering_scores_nothing(graded, who: str) -> None:
    row = graded["rows"][who]
    assert all(float(points) < 1 for points in _columns(row, "04_flips").values()), row
    assert row["passed"] == "0"


def test_answers_are_matched_by_tag_not_by_position(graded) -> None:
    row = graded["rows"]["shuffled"]
    assert _columns(row, "04_flips") == _full_marks("04_flips"), row
    assert row["passed"] == "3" and "01_squares" in row["missing"]


def test_one_right_and_one_wrong_answer(graded) -> None:
    row = graded["rows"]["partial"]
    columns = _columns(row, "01_squares")
    assert columns["01_squares:to_notation"] == "1"
    assert 0 <= float(columns["01_squares:from_notation"]) < 1


def test_near_copies_are_flagged_for_the_teacher(graded) -> None:
    rows = graded["rows"]
    assert "04_flips answer:flips 1.00 like the teacher's solution" in rows["renamed"]["similar"]
    assert "like renamed" in rows["shuffled"]["similar"]  # both copied the same solution
    assert rows["starter"]["similar"] == ""


def test_summary_and_progress_are_printed(graded) -> None:
    result = graded["result"]
    assert "04_flips: figure2 3/11, flips 3/11, is_legal 2/11" in result.stdout
    assert "12_cursor: combine 1/2, apply_cursor 1/2" in result.stdout
    assert "[" + "#" * 30 + "] 34/34" in result.stderr


def test_feedback_pages_show_each_failed_case_with_its_board(graded) -> None:
    pages = sorted(p.name for p in graded["feedback"].glob("*.html"))
    assert pages == sorted(f"{who}.html" for who in graded["rows"])
    page = (graded["feedback"] / "partial.html").read_text(encoding="utf-8")
    assert "check:from_notation" in page and "expected:" in page and "actual:" in page
    assert "(0, 0)" in page and "<svg" in page
    edited_page = (graded["feedback"] / "edited.html").read_text(encoding="utf-8")
    assert "[grade-time case]" in edited_page or "Figure 2" in edited_page
    assert "<script" not in edited_page


def test_teacher_source_checks_out(tmp_path: Path) -> None:
    result = course("check", str(SOURCE_DIR / "04_flips.ipynb"), "--seed", SEED)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "Score: 3/3 questions, 4/4 points"
    assert all(" passed  " in line for line in lines[1:-1]), lines


def test_a_student_copy_checks_without_the_teacher_folder(tmp_path: Path) -> None:
    """In a student's copy there is no teacher folder and no seed: the notebook's cases count."""
    answered = write(source("01_squares"), tmp_path / "copy" / "01_squares.ipynb")
    result = course("check", str(answered), "--source", str(tmp_path / "no-teacher"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Score: 2/2 questions, 2/2 points" in result.stdout
    assert "only the notebook's own cases were checked" in result.stdout
    for line in result.stdout.splitlines()[1:3]:
        assert "[grade-time case]" not in line


def test_an_endless_loop_times_out(tmp_path: Path) -> None:
    loop = "def flips(board, square, color):\n    while True:\n        pass"
    path = write(
        with_answers(student("04_flips"), {"answer:flips": loop}), tmp_path / "04_flips.ipynb"
    )
    started = time.monotonic()
    result = course("check", str(path), "--timeout", "5", "--seed", SEED, timeout=120)
    assert time.monotonic() - started < 90
    assert result.returncode == 1
    figure2 = next(line for line in result.stdout.splitlines() if "check:figure2" in line)
    assert " ".join(figure2.split()) == "check:figure2 0/1 pt FAILED stopped: timed out after 5 s"
    assert "Score: 0/3" in result.stdout


def test_an_answer_that_stops_python_fails(tmp_path: Path) -> None:
    kill = "import os\n\nos._exit(0)\n\ndef flips(board, square, color):\n    return []"
    path = write(
        with_answers(source("04_flips"), {"answer:flips": kill}), tmp_path / "04_flips.ipynb"
    )
    result = course("check", str(path), "--timeout", "5", "--seed", SEED, timeout=120)
    assert result.returncode == 1
    assert "Score: 0/3" in result.stdout
    assert (
        "your answer:flips cell failed: it stopped Python: Python stopped before" in result.stdout
    )
    assert "not run: it stopped Python" in result.stdout


def test_unknown_notebook_is_refused(tmp_path: Path) -> None:
    path = write({"nbformat": 4, "cells": [], "metadata": {}}, tmp_path / "holiday.ipynb")
    result = course("check", str(path), "--seed", SEED)
    assert result.returncode == 2
    assert "cannot tell which exercise this is" in result.stderr


def test_grading_leaves_python_s_collector_as_it_found_it(tmp_path: Path, monkeypatch) -> None:
    """Python's cycle collector is called less often while a notebook is graded
    (course.grading.grader), and put back as it was once the last of overlapping gradings
    ends, also when grading stops with an error."""
    import gc

    from course.grading import checker
    from course.grading.grader import Grader
    from course.grading.records import Report

    before = gc.get_threshold()
    grader = Grader(SOURCE_DIR, sandbox="bubblewrap")
    seen = []

    def graded(exercise: Any, path: Path, *rest: Any) -> Any:
        seen.append((path.name, gc.get_threshold()))
        if path.name == "first.ipynb":  # another grading starts and ends inside this one
            grader.grade_one(tmp_path / "second.ipynb", "04_flips")
            seen.append(("first, after", gc.get_threshold()))
        if path.name == "broken.ipynb":
            raise OSError("the disk went away")
        return Report(path, exercise.name)

    monkeypatch.setattr(checker, "grade_notebook", graded)
    grader.grade([(tmp_path / "first.ipynb", "04_flips")])
    assert [name for name, _ in seen] == ["first.ipynb", "second.ipynb", "first, after"]
    assert all(threshold[0] >= 10_000 for _, threshold in seen)
    assert gc.get_threshold() == before
    with pytest.raises(OSError, match="went away"):  # one notebook, as the gradebook grades
        grader.grade_one(tmp_path / "broken.ipynb", "04_flips")
    assert seen[-1][0] == "broken.ipynb" and seen[-1][1][0] >= 10_000
    assert gc.get_threshold() == before
