"""Grading does not depend on the language: a French exercise notebook grades as the English.

The French notebooks are the English ones with their markdown cells translated by
course.languages (the same code cells, ids and grading metadata, ``metadata.course.language``
set); ``python -m course grade`` runs in the bubblewrap sandbox as a teacher runs it.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from course.grading.table import ENTRIES
from course.languages.build import translated_exercise
from course.languages.notebooks import cell_text

from .helpers import course, source, with_answers, write

pytestmark = pytest.mark.slow
CHOSEN = ("01_squares",)  # three notebooks: grading one takes seconds in the sandbox
WRONG = {"answer:from_notation": "def from_notation(text):\n    return (0, 0)"}


def test_a_french_notebook_grades_the_same_points_as_the_english_one(tmp_path: Path) -> None:
    folder = tmp_path / "hand-ins"
    for name in CHOSEN:
        english = source(name)
        french = translated_exercise(english, name, "fr")
        changed = [c["id"] for c, e in zip(french["cells"], english["cells"], strict=True)
                   if cell_text(c) != cell_text(e)]  # fmt: skip
        assert changed, f"{name}: no cell of the French notebook is in French"
        assert all(c["cell_type"] == "markdown" for c in french["cells"] if c["id"] in changed)
        write(french, folder / "fr_full" / f"{name}.ipynb")
        for who, notebook in (("en", english), ("fr", french)):
            write(with_answers(notebook, WRONG), folder / f"{who}_partial" / f"{name}.ipynb")
    out = tmp_path / "grades.csv"
    result = course("grade", str(folder), "--out", str(out), "--jobs", "2", "--timeout", "60",
                    "--seed", "7")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with out.open(newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    full = {f"{name}:{q.check}": str(q.points) for name in CHOSEN for q in ENTRIES[name].questions}
    points = {who: {column: rows[who][column] for column in full} for who in rows}
    assert points["fr_full"] == full  # the teacher's solution, in French: full marks
    assert points["fr_partial"] == points["en_partial"] != full
