"""The sample files in docs/ are what the kit writes today (regenerated here and compared)."""

from __future__ import annotations

import datetime
from pathlib import Path

from course.grading import sheet
from course.grading.overrides import load

from ..grading.helpers import REPOSITORY

DOCS = REPOSITORY / "docs"
COLUMNS = {
    "01_squares": {"01_squares:to_notation": 1.0, "01_squares:from_notation": 1.0},
    "04_flips": {"04_flips:figure2": 1.0, "04_flips:flips": 1.0, "04_flips:is_legal": 1.0},
}
UTC = datetime.timezone.utc


def sample_rows() -> list[sheet.Row]:
    """A class of three: full marks on time, partial credit and late, a broken notebook."""
    on_time = datetime.datetime(2026, 11, 30, 16, 12, 5, tzinfo=UTC)
    late = datetime.datetime(2026, 12, 1, 8, 3, 44, tzinfo=UTC)
    Q = sheet.Question
    ann = sheet.Student("ann-lee", "Ann Lee", {
        "01_squares": sheet.ExerciseResult({"01_squares:to_notation": Q(True, 1, 1),
                                            "01_squares:from_notation": Q(True, 1, 1)}, on_time),
        "04_flips": sheet.ExerciseResult({"04_flips:figure2": Q(True, 1, 1),
                                          "04_flips:flips": Q(False, 0.75, 1),
                                          "04_flips:is_legal": Q(True, 1, 1)}, on_time),
    })  # fmt: skip
    bob = sheet.Student("bob", "Bob", {
        "01_squares": sheet.ExerciseResult({"01_squares:to_notation": Q(True, 1, 1),
                                            "01_squares:from_notation": Q(False, 0.5, 1)},
                                           late, late=True),
    })  # fmt: skip
    cid = sheet.Student("cid", "=Cid", {
        "04_flips": sheet.ExerciseResult({}, on_time, error="not a notebook (not valid JSON)"),
    })  # fmt: skip
    overrides = load(DOCS / "overrides-sample.csv")
    return sheet.rows([ann, bob, cid], COLUMNS, overrides)


def test_the_samples_are_what_the_kit_writes(tmp_path: Path) -> None:
    rows = sample_rows()
    canvas = sheet.canvas_rows(rows, COLUMNS)
    moodle = sheet.moodle_rows(rows, COLUMNS)
    made = {
        "grades-sample.csv": (rows, sheet.header(COLUMNS)),
        "grades-canvas-sample.csv": (canvas, list(canvas[0])),
        "grades-moodle-sample.csv": (moodle, list(moodle[0])),
    }
    for name, (table, names) in made.items():
        sheet.write(table, tmp_path / name, names)
        assert (tmp_path / name).read_text() == (DOCS / name).read_text(), name


def test_both_override_formats_in_docs_say_the_same() -> None:
    as_csv = [(s, q, o.points, o.comment) for s, q, o in load(DOCS / "overrides-sample.csv")]
    as_json = [(s, q, o.points, o.comment) for s, q, o in load(DOCS / "overrides-sample.json")]
    assert as_csv == as_json and len(as_csv) == 2
