"""A student's term from the class's files; everything kept about one student, exported and erased."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from course.classroom.progress import Progress
from course.grading import sheet, summary
from course.grading.feedback import page, page_name
from course.grading.journal import Journal, Marked, Outputs
from course.roster import term as term_module
from course.roster.model import Roster, RosterError, Student
from course.roster.signin import SignIns
from course.roster.store import Places, RosterFile
from course.roster.term import (
    ExerciseTerm,
    Stuck,
    erase_student,
    export_student,
    term,
    term_csv,
    term_section,
)
from course.site.store import HandInStore

NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
COLUMNS = {"04_flips": {"04_flips:flips": 1.0, "04_flips:count": 1.0}}
START = datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc)
ADA, BO = "ada-lovelace", "bo-chen"
#: Ada's gradebook ids, which the Canvas and Moodle sheets carry instead of her key.
IDS = {"lms_id": "LMS-ADA-7", "sis_id": "SIS-ADA-1", "login": "alovelace", "email": "ada@school.example"}


class Clock:
    """Seconds since the epoch, moved on by hand."""

    def __init__(self) -> None:
        self.now = START.timestamp()

    def __call__(self) -> float:
        self.now += 10
        return self.now


class Class:
    """A class in ``tmp``: three students, self-checks, hand-ins, a graded sheet, sign-ins."""

    def __init__(self, tmp: Path) -> None:
        self.root = tmp
        self.places = Places(tmp / "class/roster.json", tmp / "class/classroom-data", tmp / "class/grades.csv")
        self.roster_file = RosterFile(self.places.roster)
        roster = Roster().add("Ada Lovelace", **IDS).add("Bo Chen").add("=Eve")
        self.roster_file.save(roster)
        self.ada, self.bo, self.eve = roster.students
        progress = Progress(self.places.data, Clock())
        for student, exercise, question, passed in [
            (ADA, "04_flips", "flips", False), (ADA, "04_flips", "flips", False),
            (ADA, "04_flips", "flips", True), (ADA, "04_flips", "count", False),
            (ADA, "05_search", "minimax", False), (ADA, "05_search", "minimax", False),
            (BO, "04_flips", "flips", True), (BO, "04_flips", "count", False),
            (BO, "04_flips", "count", True), (BO, "04_flips", "count", False),
        ]:  # fmt: skip
            progress.record(student, exercise, question, passed, "" if passed else "off by one")
        moments = iter(START + timedelta(minutes=minute) for minute in (5, 7, 9))
        store = HandInStore(self.places.data, clock=lambda: next(moments))
        data = json.dumps(NOTEBOOK).encode()
        store.hand_in("Ada Lovelace", "04_flips", data, key=ADA)
        store.hand_in("Ada Lovelace", "04_flips", data, key=ADA)
        store.hand_in("Bo Chen", "04_flips", data, key=BO)
        self.outputs = Outputs(self.places.grades, tmp / "class/grades-feedback")
        self.grade([
            (ADA, "Ada Lovelace", {"04_flips:flips": (True, 1.0), "04_flips:count": (False, 0.5)}),
            (BO, "Bo Chen", {"04_flips:flips": (True, 1.0), "04_flips:count": (True, 1.0)}),
        ])  # fmt: skip
        self.signins = SignIns(self.roster_file, self.places.signin)
        self.code = self.signins.issue(ADA)
        self.signins.sign_in(self.code, "10.0.0.1", "Firefox on a school PC")
        self.signins.issue(BO)

    def grade(self, graded: list[tuple[str, str, dict[str, tuple[bool, float]]]], similar: str = "") -> None:
        """The files `python -m course grade` writes: the sheets, the journal, the pages, the summary."""
        students = [
            sheet.Student(key, name, {"04_flips": sheet.ExerciseResult(
                {column: sheet.Question(ok, earned, 1.0) for column, (ok, earned) in questions.items()},
                START + timedelta(minutes=9))}, [similar] if similar and key == BO else [])
            for key, name, questions in graded
        ]  # fmt: skip
        rows = sheet.rows(students, COLUMNS)
        sheet.write(rows, self.outputs.sheet, sheet.header(COLUMNS))
        canvas = sheet.canvas_rows(rows, COLUMNS)  # with the roster's ids, as the grader writes them
        moodle = [{"ID number": "", "Email address": "", **line} for line in sheet.moodle_rows(rows, COLUMNS)]
        for line in canvas + moodle:
            if line.get("SIS User ID") == ADA:
                line |= {"ID": IDS["lms_id"], "SIS User ID": IDS["sis_id"], "SIS Login ID": IDS["login"]}
            if line.get("Username") == ADA:
                line |= {"Username": IDS["login"], "ID number": IDS["sis_id"], "Email address": IDS["email"]}
        sheet.write(canvas, self.outputs.canvas, list(canvas[0]))
        sheet.write(moodle, self.outputs.moodle, ["Username", "ID number", "Email address", "Full name",
                                                   *COLUMNS, "Total", "Feedback"])  # fmt: skip
        self.outputs.summary.write_text(summary.page(rows, COLUMNS, "Class summary"), encoding="utf-8")
        journal = Journal(self.outputs.journal)
        self.outputs.feedback.mkdir(parents=True, exist_ok=True)
        for key, name, questions in graded:
            marked = {column: [ok, earned, 1.0] for column, (ok, earned) in questions.items()}
            journal.add(Marked(f"hash-{key}", key, "04_flips", START.isoformat(), marked,
                               answers={"flips": f"def flips():  # {name}\n    return []"}))  # fmt: skip
            html = page(name, [], [f"Student id: {key}"], "1 of 2")
            (self.outputs.feedback / page_name(key)).write_text(html, encoding="utf-8")

    def files(self) -> dict[str, bytes]:
        """Every file of the class, by path (the sign-in database apart: its pages move)."""
        return {str(path.relative_to(self.root)): path.read_bytes()
                for path in sorted(self.root.rglob("*")) if path.is_file() and path.suffix != ".sqlite"}  # fmt: skip


@pytest.fixture
def school(tmp_path: Path) -> Class:
    return Class(tmp_path)


def test_a_row_per_student_counts_questions_passed_hand_ins_and_points_and_says_where_stuck(
    school: Class,
) -> None:
    rows = term(school.roster_file.load(), school.places, ["03_legal_moves", "04_flips"])
    assert [row.student for row in rows] == [school.ada, school.bo, school.eve]
    ada, bo, eve = rows
    assert list(ada.exercises) == ["03_legal_moves", "04_flips", "05_search"]  # then what the data names
    assert ada.exercises["04_flips"] == ExerciseTerm(1, 2, 2, "2026-11-24T10:07:00Z", 1.5)
    assert ada.exercises["05_search"] == ExerciseTerm(0, 1, 0, "", None)  # not on the sheet: not graded
    assert ada.stuck == Stuck("05_search", "minimax", 2)  # failed last, after 04_flips/count
    assert ada.missing == ["03_legal_moves", "05_search"]
    assert ada.points == "1.5"
    assert bo.exercises["04_flips"] == ExerciseTerm(1, 2, 1, "2026-11-24T10:09:00Z", 2.0)
    assert bo.stuck == Stuck("04_flips", "count", 1)  # one failure since it passed
    assert eve.exercises == {name: ExerciseTerm() for name in ["03_legal_moves", "04_flips", "05_search"]}
    assert (eve.stuck, eve.points, eve.missing) == (None, "", list(eve.exercises))


def test_a_pass_ends_being_stuck(school: Class) -> None:
    Progress(school.places.data, Clock()).record(BO, "04_flips", "count", True)
    bo = term(school.roster_file.load(), school.places, [])[1]
    assert bo.stuck is None
    assert bo.exercises["04_flips"].passed == 2


def test_a_casual_class_has_a_row_per_student_key_in_the_data(school: Class) -> None:
    Progress(school.places.data, Clock()).record("cy", "05_search", "minimax", True)
    rows = term(Roster(), school.places, ["04_flips"])
    assert [(row.student.key, row.student.name) for row in rows] == [
        (ADA, "Ada Lovelace"), ("bo-chen", "Bo Chen"), ("cy", "cy")  # names from the sheet
    ]  # fmt: skip
    assert rows[2].exercises["05_search"] == ExerciseTerm(1, 1)


def test_points_wait_for_the_sheet_and_an_older_sheet_still_reads(school: Class) -> None:
    school.places.grades.unlink()
    rows = term(school.roster_file.load(), school.places, [])
    assert [row.exercises["04_flips"].points for row in rows] == [None, None, None]
    assert [row.points for row in rows] == ["", "", ""]
    school.places.grades.write_text("student_id,name,04_flips:flips\r\nbo-chen,Bo Chen,1\r\n")
    rows = term(school.roster_file.load(), school.places, [])
    assert [row.exercises["04_flips"].points for row in rows] == [None, 1.0, None]


def test_the_csv_has_a_group_of_columns_per_exercise_and_no_formula(school: Class) -> None:
    rows = list(csv.reader(io.StringIO(term_csv(term(school.roster_file.load(), school.places, [])))))
    assert rows[0] == [
        "key", "name",
        "04_flips passed", "04_flips tried", "04_flips hand-ins", "04_flips last hand-in", "04_flips points",
        "05_search passed", "05_search tried", "05_search hand-ins", "05_search last hand-in", "05_search points",
        "stuck", "stuck tries", "missing", "points",
    ]  # fmt: skip
    assert rows[1] == [ADA, "Ada Lovelace", "1", "2", "2", "2026-11-24T10:07:00Z", "1.5",
                       "0", "1", "0", "", "", "05_search/minimax", "2", "05_search", "1.5"]  # fmt: skip
    assert rows[3][:2] == ["eve", "'=Eve"]  # a spreadsheet shows the name, never runs it
    assert term_csv([]) == "key,name,stuck,stuck tries,missing,points\r\n"


def test_the_section_is_a_table_of_the_overview_read_again_every_ten_seconds(school: Class) -> None:
    now = [0.0]
    section = term_section(school.roster_file, school.places, ["04_flips"], clock=lambda: now[0])
    table = section()
    assert table["columns"] == ["Student", "Stuck at", "04_flips", "05_search", "Points"]
    assert table["rows"][0] == [
        "Ada Lovelace", "05_search/minimax (2 tries)", "1/2 passed; 2 hand-ins; 1.5 points", "0/1 passed", "1.5"
    ]  # fmt: skip
    assert table["rows"][2] == ["=Eve", "", "", "", ""]
    school.roster_file.save(school.roster_file.load().add("Cy Young"))
    now[0] = term_module.REFRESH - 1
    assert section() == table
    now[0] = term_module.REFRESH
    assert [row[0] for row in section()["rows"]] == ["Ada Lovelace", "Bo Chen", "=Eve", "Cy Young"]


def test_the_export_holds_everything_kept_about_the_student_and_never_the_code(school: Class) -> None:
    export = export_student(school.ada, school.places, school.signins)
    assert json.loads(json.dumps(export)) == export
    assert school.code not in json.dumps(export)
    assert export["student"] == {"key": ADA, "name": "Ada Lovelace", **IDS}
    assert export["sign_in"]["code_issued"] is not None
    assert [b["browser"] for b in export["sign_in"]["browsers"]] == ["Firefox on a school PC"]
    assert [c["question"] for c in export["self_checks"]] == ["flips"] * 3 + ["count"] + ["minimax"] * 2
    assert {c["student"] for c in export["self_checks"]} == {ADA}
    assert [h["exercise"] for h in export["hand_ins"]] == ["04_flips", "04_flips"]
    first = export["hand_ins"][0]
    assert first["notebook"] == NOTEBOOK
    assert first["receipt"]["student"] == "Ada Lovelace"
    assert first["receipt"]["received"] == "2026-11-24T10:05:00+00:00"
    assert Path(first["notebook_path"]).parent == school.places.handins / ADA / "04_flips"
    grades = export["grades"]
    assert [row["student_id"] for row in grades[str(school.outputs.sheet)]] == [ADA]
    assert grades[str(school.outputs.sheet)][0]["04_flips:count"] == "0.5"
    assert [row["SIS User ID"] for row in grades[str(school.outputs.canvas)]] == [IDS["sis_id"]]
    assert [row["Total"] for row in grades[str(school.outputs.moodle)]] == ["1.5"]
    assert [line["student"] for line in export["grading_journal"]] == [ADA]
    assert "Student id: ada-lovelace" in export["feedback_page"]["html"]


def test_the_erase_removes_every_trace_and_keeps_every_other_student_byte_for_byte(school: Class) -> None:
    before = school.files()
    bo_signin = school.signins.export(BO)
    school.signins.db.execute("PRAGMA secure_delete = OFF")  # as many SQLite builds start
    said = erase_student(school.ada, school.places, school.signins)
    places, outputs = school.places, school.outputs
    assert said == [
        f"removed 6 self-checks from {places.progress}",
        f"removed 1 graded hand-in from {outputs.journal}",
        f"removed their row from {outputs.sheet}",
        f"removed their row from {outputs.canvas}",
        f"removed their row from {outputs.moodle}",
        f"removed their feedback page {outputs.feedback / 'ada-lovelace.html'}",
        f"removed 2 hand-ins of 1 exercise: {places.handins / ADA}",
        f"{outputs.summary} still counts them in its totals until the next grading",
        f"removed their sign-in (a card's code: yes, 1 browser signed in) from {places.signin}",
    ]
    progress = "class/classroom-data/progress.jsonl"
    rewritten = ["class/grades.csv", "class/grades-canvas.csv", "class/grades-moodle.csv", "class/grades-journal.jsonl"]
    after = school.files()
    def others(data: bytes) -> bytes:
        return b"".join(line for line in data.splitlines(keepends=True) if b"Lovelace" not in line
                        and ADA.encode() not in line)  # fmt: skip

    assert after[progress] == others(before[progress]) and after[progress].count(b"\n") == 4
    for name in rewritten:
        assert after[name] == others(before[name]) != before[name], name
    unchanged = {name: data for name, data in after.items() if name not in [progress, *rewritten]}
    assert unchanged == {name: data for name, data in before.items()
                         if name not in [progress, *rewritten] and ADA not in name}  # fmt: skip
    assert any(BO in name for name in unchanged)  # Bo's hand-ins and page
    assert school.signins.export(BO) == bo_signin
    assert school.signins.export(ADA) == {"code_issued": None, "browsers": [], "claimed_name": None}
    for path in school.root.rglob("*"):  # nowhere, the sign-in database included, but the roster
        if path.is_file() and path != school.places.roster:
            data = path.read_bytes()
            assert not [word for word in (ADA, "Lovelace", *IDS.values()) if word.encode() in data], path
    assert term(school.roster_file.load(), school.places, [])[0].exercises == {"04_flips": ExerciseTerm()}
    assert erase_student(school.ada, school.places, school.signins) == [
        "nothing was kept about Ada Lovelace (ada-lovelace) beyond the roster"
    ]


def test_the_erase_takes_their_key_out_of_other_students_near_copy_notes(school: Class) -> None:
    note = "04_flips answer:flips 0.97 like ada-lovelace"
    school.grade([(ADA, "Ada Lovelace", {"04_flips:flips": (True, 1.0)}),
                  (BO, "Bo Chen", {"04_flips:flips": (True, 1.0)})], similar=note)  # fmt: skip
    assert note in school.places.grades.read_text()
    said = erase_student(school.ada, school.places, school.signins)
    assert f"removed their key from 1 near-copy note of others in {school.places.grades}" in said
    rows = list(csv.DictReader(io.StringIO(school.places.grades.read_text())))
    assert [(row["student_id"], row["similar"]) for row in rows] == [
        (BO, "04_flips answer:flips 0.97 like a student since erased")
    ]


def test_an_erase_that_cannot_read_a_file_changes_nothing(
    school: Class, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = school.files()
    monkeypatch.setattr(term_module, "MAX_SHEET", 100)
    with pytest.raises(RosterError, match=r"grades.csv is over 100 bytes"):
        erase_student(school.ada, school.places, school.signins)
    assert school.files() == before
    assert school.signins.export(ADA)["code_issued"] is not None


@pytest.mark.parametrize("key", ["../roster", "", "."])
def test_a_key_that_names_no_hand_in_folder_is_refused(school: Class, key: str) -> None:
    before = school.files()
    with pytest.raises(RosterError, match="is not a student key the kit made"):
        erase_student(Student(key, "Mallory"), school.places, school.signins)
    assert school.files() == before
