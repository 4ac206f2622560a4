"""The sheets: formula injection impossible by construction, in every column of every file."""

from __future__ import annotations

import csv
import datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from course.grading import sheet
from course.grading.overrides import Override, Overrides
from course.roster.model import Roster

DANGER = ("=", "+", "-", "@", "\t", "\r", "\n")
COLUMNS = {
    "01_squares": {"01_squares:to_notation": 1.0, "01_squares:from_notation": 1.0},
    "04_flips": {"04_flips:figure2": 1.0, "04_flips:flips": 2.0},
}
hostile = st.one_of(
    st.tuples(st.sampled_from((*DANGER, "'")), st.text(max_size=20)).map("".join),
    st.text(min_size=1, max_size=20),
)


def _read(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def _unescape(text: str) -> str:
    """The value before it was made safe: the quote the kit adds to a formula start or a quote."""
    return text[1:] if text.startswith("'") and text[1:].startswith((*DANGER, "'")) else text


@settings(max_examples=40, deadline=None)
@given(
    ids=st.lists(hostile, min_size=1, max_size=4, unique=True),
    name=hostile, error=hostile, comment=hostile, similar=hostile,
)  # fmt: skip
def test_no_cell_of_any_file_starts_a_formula(
    tmp_path_factory, ids: list[str], name: str, error: str, comment: str, similar: str
) -> None:
    folder = tmp_path_factory.mktemp("sheets")
    when = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
    students, book = [], Overrides()
    for student_id in ids:
        result = sheet.ExerciseResult(
            {"01_squares:to_notation": sheet.Question(True, 1.0, 1.0)}, when, True, error
        )
        students.append(sheet.Student(student_id, name, {"01_squares": result}, [similar]))
        book.entries[student_id, "04_flips:flips"] = Override(None, comment, "here")
    rows = sheet.rows(students, COLUMNS, book)
    files = {
        "grades.csv": (rows, sheet.header(COLUMNS)),
        "canvas.csv": (canvas := sheet.canvas_rows(rows, COLUMNS), list(canvas[0])),
        "moodle.csv": (sheet.moodle_rows(rows, COLUMNS), None),
    }
    for file_name, (table, names) in files.items():
        names = names or list(table[0])
        sheet.write(table, folder / file_name, names)
        lines = _read(folder / file_name)
        assert lines[0] == names and len(lines) == len(table) + 1
        for line, row in zip(lines[1:], table, strict=True):
            for column, text in zip(names, line, strict=True):
                assert not text.startswith(DANGER), (file_name, column, text)
                assert _unescape(text) == row[column], (file_name, column)  # nothing else changed
    by_id = {line[0]: dict(zip(lines_header := _read(folder / "grades.csv")[0], line, strict=True))
             for line in _read(folder / "grades.csv")[1:]}  # fmt: skip
    assert "comments" in lines_header and "errors" in lines_header
    for student_id in ids:
        row = by_id[sheet.cell(student_id)]
        assert _unescape(row["name"]) == name
        assert _unescape(row["errors"]) == f"01_squares: {error}"
        assert _unescape(row["similar"]) == similar


def test_every_formula_start_is_escaped() -> None:
    for start in DANGER:
        assert sheet.cell(start + "1") == "'" + start + "1"
    assert sheet.cell("a=b") == "a=b"


def test_a_value_that_starts_with_a_quote_reads_back_as_it_was() -> None:
    """A quote is quoted too, so the one the kit adds is never confused with the value's own."""
    for value in ("'=x", "''", "'a", "'", "'-1"):
        assert sheet.cell(value) == "'" + value
        assert sheet.uncell(sheet.cell(value)) == value


def test_points_per_question_and_the_exports_agree(tmp_path: Path) -> None:
    result = sheet.ExerciseResult(
        {"04_flips:figure2": sheet.Question(False, 0.5, 1.0),
         "04_flips:flips": sheet.Question(True, 2.0, 2.0)}, None)  # fmt: skip
    rows = sheet.rows([sheet.Student("ann", "Ann Lee", {"04_flips": result})], COLUMNS)
    row = rows[0]
    assert (row["04_flips:figure2"], row["04_flips:flips"], row["points"]) == ("0.5", "2", "2.5")
    assert (row["max_points"], row["passed"], row["total"], row["missing"]) == (
        "5",
        "1",
        "4",
        "01_squares",
    )
    canvas = sheet.canvas_rows(rows, COLUMNS)
    assert list(canvas[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                               "01_squares", "04_flips"]  # fmt: skip
    assert canvas[0]["Student"] == "Points Possible" and canvas[0]["04_flips"] == "3"
    assert canvas[1]["SIS Login ID"] == "ann" and canvas[1]["04_flips"] == "2.5"
    moodle = sheet.moodle_rows(rows, COLUMNS)
    assert moodle == [{"Username": "ann", "Full name": "Ann Lee", "01_squares": "0",
                       "04_flips": "2.5", "Total": "2.5", "Feedback": ""}]  # fmt: skip


def test_with_a_roster_the_exports_carry_its_ids_and_a_student_without_any_keeps_the_key() -> None:
    roster = (Roster().add("Zoë Martin", lms_id="77", sis_id="S77", login="zmartin", email="z@x.org")
              .add("Ann Lee").add("Bob Ray", email="bob@x.org"))  # fmt: skip
    students = [sheet.Student(s.key, s.name) for s in roster]
    rows = sheet.rows(students, COLUMNS, sort=False)
    assert [row["student_id"] for row in rows] == ["zoe-martin", "ann-lee", "bob-ray"]
    assert [row["student_id"] for row in sheet.rows(students, COLUMNS)] == sorted(
        ["zoe-martin", "ann-lee", "bob-ray"]
    )
    canvas = sheet.canvas_rows(rows, COLUMNS, roster)
    ids = [(r["Student"], r["ID"], r["SIS User ID"], r["SIS Login ID"]) for r in canvas[1:]]
    assert ids == [("Zoë Martin", "77", "S77", "zmartin"), ("Ann Lee", "", "ann-lee", "ann-lee"),
                   ("Bob Ray", "", "", "")]  # fmt: skip
    header = sheet.moodle_header(COLUMNS, roster)
    assert header == ["Username", "ID number", "Email address", "Full name", "01_squares",
                      "04_flips", "Total", "Feedback"]  # fmt: skip
    moodle = sheet.moodle_rows(rows, COLUMNS, roster)
    assert [[r.get(name, "") for name in header[:4]] for r in moodle] == [
        ["zmartin", "S77", "z@x.org", "Zoë Martin"], ["ann-lee", "", "", "Ann Lee"],
        ["", "", "bob@x.org", "Bob Ray"],
    ]  # fmt: skip
    assert sheet.moodle_header(COLUMNS) == list(sheet.moodle_rows(rows, COLUMNS)[0])
