"""A class graded against its roster (with the stand-in grader of :mod:`.fakes`).

The roster has four students, two of them called Ada Lovelace (told apart by their LMS
ids), listed out of alphabetical order.  Hand-ins come in the class server's store and in
folders, one student's under three spellings of her name, one by a stranger and one in a
folder that could be either Ada.  Every expected row is known from the fake's script.
"""

from __future__ import annotations

import csv
import datetime
import doctest
import json
import os
from pathlib import Path
from typing import Any

import pytest

from course.grading import matching
from course.grading.gradebook import Choices, Graded, grade_folder
from course.grading.handins import GradebookError
from course.grading.overrides import parse_text
from course.roster.model import Roster
from course.roster.store import RosterFile

from .fakes import FakeGrader, notebook, total, write

TO, FROM = total("01_squares", "to_notation"), total("01_squares", "from_notation")
DAY = datetime.datetime(2026, 11, 30, 17, tzinfo=datetime.timezone.utc)
HOUR = datetime.timedelta(hours=1)
KEYS = ["grace-hopper", "ada-lovelace", "alan-turing", "ada-lovelace-2"]  # the roster's order


def _roster(path: Path) -> Roster:
    """The class list, imported: saved as the kit saves it, and read back."""
    roster = (
        Roster()
        .add("Grace Hopper", lms_id="1003", login="ghopper", email="grace@school.example")
        .add("Ada Lovelace", lms_id="1001", sis_id="S-1", login="alovelace", email="ada@school.example")
        .add("Alan Turing", lms_id="1004", sis_id="S-4")
        .add("Ada Lovelace", lms_id="1002", sis_id="S-2", login="alovelace2")
    )  # fmt: skip
    RosterFile(path).save(roster)
    loaded = RosterFile(path).load()
    assert [student.key for student in loaded] == KEYS
    return loaded


def _store(folder: Path, key: str, typed: str, exercise: str, when: datetime.datetime,
           **passed: int) -> None:  # fmt: skip
    """A hand-in as the class server keeps it: handins/KEY/EXERCISE/STAMP.ipynb and its receipt."""
    stamp = when.strftime("%Y%m%dT%H%M%S.%fZ")
    path = write(notebook(exercise, typed, **passed), folder / key / exercise / f"{stamp}.ipynb")
    receipt = {"student": typed, "exercise": exercise, "received": when.isoformat()}
    path.with_suffix(".json").write_text(json.dumps(receipt), encoding="utf-8")


def _dropped(folder: Path, name: str, when: datetime.datetime, **passed: int) -> None:
    """A notebook the teacher put in a folder named after the student (its time: the file's)."""
    path = write(notebook("01_squares", name, **passed), folder / name / "01_squares.ipynb")
    os.utime(path, (when.timestamp(), when.timestamp()))


def _class(tmp_path: Path) -> Path:
    handins = tmp_path / "classroom-data" / "handins"
    _store(handins, "ada-lovelace-2", "Ada Lovelace", "01_squares", DAY - HOUR,
           to_notation=TO, from_notation=FROM)  # fmt: skip
    _store(handins, "ada-lovelace-2", "Ada Lovelace", "02_counting", DAY - HOUR)
    _dropped(handins, "Grace Hopper", DAY - 3 * HOUR, to_notation=TO, from_notation=FROM)
    _dropped(handins, "grace  hopper", DAY - 2 * HOUR)
    _dropped(handins, "Grace Hopper ", DAY - HOUR, to_notation=TO)  # the last
    _dropped(handins, "1001", DAY - HOUR, to_notation=TO)  # the first Ada's LMS id
    _dropped(handins, "ada lovelace", DAY - HOUR, to_notation=TO)  # which Ada?
    _dropped(handins, "Charles Babbage", DAY - HOUR, to_notation=TO)
    return handins


def _grade(folder: Path, roster: Roster | None, grader: FakeGrader | None = None,
           **options: Any) -> Graded:  # fmt: skip
    return grade_folder(folder, folder.parents[1] / "grades.csv", grader=grader or FakeGrader(),
                        choices=Choices(**options), say=lambda line: None, roster=roster)  # fmt: skip


def _read(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_one_row_per_roster_student_in_its_order(tmp_path: Path) -> None:
    roster = _roster(tmp_path / "class" / "roster.json")
    folder = _class(tmp_path)
    grader = FakeGrader()
    graded = _grade(folder, roster, grader)
    rows = _read(tmp_path / "grades.csv")
    assert [(r["student_id"], r["name"]) for r in rows] == [(s.key, s.name) for s in roster]
    assert rows == graded.rows
    by_key = {row["student_id"]: row for row in rows}
    grace, ada, alan, ada2 = (by_key[key] for key in KEYS)
    assert (grace["points"], grace["missing"]) == ("1", "02_counting")
    assert grace["01_squares:handed_in"] == "2026-11-30T16:00:00Z"  # the last of three spellings
    assert (ada["points"], ada["missing"]) == ("1", "02_counting")
    assert (ada2["points"], ada2["missing"]) == ("2", "")
    assert (alan["points"], alan["max_points"], alan["passed"]) == ("0", "4", "0")
    assert alan["missing"] == "01_squares 02_counting" and alan["01_squares:handed_in"] == ""
    assert sorted(who for who, _ in grader.graded) == ["1001", "Ada Lovelace", "Ada Lovelace",
                                                       "Grace Hopper "], (
        "the last of Grace's three spellings only; neither the stranger's nor the ambiguous"
    )  # fmt: skip
    assert graded.warnings == [
        "not on the roster, so not graded: 'Charles Babbage' (1 hand-in); "
        "add them to the roster or name the folder by their key",
        "could be several students, so not graded: 'ada lovelace' (ada-lovelace or "
        "ada-lovelace-2; 1 hand-in); name the folder by the student's key",
        "grace-hopper handed in 01_squares 3 times: the last is Grace Hopper /01_squares.ipynb",
    ]
    page = graded.pages["grace-hopper"].read_text("utf-8")
    assert "Feedback for Grace Hopper" in page and "01_squares: 3 hand-ins, the last counts" in page
    assert "No hand-in of yours was found: 01_squares, 02_counting missing" in (
        graded.pages["alan-turing"].read_text("utf-8")
    )
    _grade(folder, roster, pick="best")  # the best of all three spellings
    assert _read(tmp_path / "grades.csv")[0]["points"] == "2"


def test_the_canvas_and_moodle_files_carry_the_roster_ids(tmp_path: Path) -> None:
    roster = _roster(tmp_path / "roster.json")
    _grade(_class(tmp_path), roster)
    canvas = _read(tmp_path / "grades-canvas.csv")
    assert canvas[0]["Student"] == "Points Possible"
    assert [(r["Student"], r["ID"], r["SIS User ID"], r["SIS Login ID"]) for r in canvas[1:]] == [
        (s.name, s.lms_id, s.sis_id, s.login) for s in roster
    ]
    assert [(r["01_squares"], r["02_counting"]) for r in canvas[1:]] == [
        ("1", "0"), ("1", "0"), ("0", "0"), ("2", "0")
    ]  # fmt: skip
    moodle = _read(tmp_path / "grades-moodle.csv")
    ids = [(r["Username"], r["ID number"], r["Email address"], r["Full name"]) for r in moodle]
    assert ids == [
        ("ghopper", "1003", "grace@school.example", "Grace Hopper"),
        ("alovelace", "S-1", "ada@school.example", "Ada Lovelace"),
        ("", "S-4", "", "Alan Turing"),
        ("alovelace2", "S-2", "", "Ada Lovelace"),
    ]
    assert [r["Total"] for r in moodle] == ["1", "1", "0", "2"]


def test_a_rerun_continues_and_another_roster_never_mixes_rows(tmp_path: Path) -> None:
    """The journal is keyed by the student each hand-in was matched to: a rerun with the same
    roster grades nothing again; a run without it or with another roster gives only its rows,
    grading again the hand-ins that are now someone else's (or another folder's)."""
    roster = _roster(tmp_path / "roster.json")
    folder = _class(tmp_path)
    _grade(folder, roster)
    again = FakeGrader()
    _grade(folder, roster, again)
    assert again.graded == []
    plain = FakeGrader()
    _grade(folder, None, plain)  # no roster: a row per folder, as named
    rows = _read(tmp_path / "grades.csv")
    assert [r["student_id"] for r in rows] == sorted(
        ["1001", "Charles Babbage", "Grace Hopper", "Grace Hopper ", "ada lovelace",
         "ada-lovelace-2", "grace  hopper"]
    )  # fmt: skip
    folders = ["1001", "Charles Babbage", "Grace Hopper", "Grace Hopper ", "ada lovelace"]
    assert sorted(who for who, _ in plain.graded) == sorted([*folders, "grace  hopper"]), (
        "only the store's hand-ins, whose folders are keys, come from the journal"
    )
    smaller = roster.remove("grace-hopper")
    other = FakeGrader()
    graded = _grade(folder, smaller, other)
    rows = _read(tmp_path / "grades.csv")
    assert [r["student_id"] for r in rows] == ["ada-lovelace", "alan-turing", "ada-lovelace-2"]
    assert other.graded == []  # every hand-in still on the roster was graded for its student
    assert graded.warnings[0].startswith("not on the roster, so not graded: 'Charles Babbage' "
                                         "(1 hand-in), 'Grace Hopper' (1 hand-in), 'Grace Hopper ' "
                                         "(1 hand-in), 'grace  hopper' (1 hand-in)")  # fmt: skip
    canvas = _read(tmp_path / "grades-canvas.csv")
    assert [r["ID"] for r in canvas[1:]] == ["1001", "1004", "1002"]
    assert "Grace" not in (tmp_path / "grades-moodle.csv").read_text("utf-8")


def test_overrides_may_name_the_student_as_the_roster_does(tmp_path: Path) -> None:
    roster = _roster(tmp_path / "roster.json")
    folder = _class(tmp_path)
    text = ("student_id,question,points,comment\n"
            "grace  HOPPER,01_squares:from_notation,1,well argued\n"
            "ada-lovelace-2,01_squares:to_notation,0,see me\n"
            "ada lovelace,01_squares:to_notation,0,which one?\n"
            "Charles Babbage,01_squares:to_notation,1,\n")  # fmt: skip
    graded = _grade(folder, roster, overrides=parse_text(text, "o.csv"))
    by_key = {row["student_id"]: row for row in _read(tmp_path / "grades.csv")}
    assert by_key["grace-hopper"]["points"] == "2"
    assert by_key["grace-hopper"]["comments"] == "01_squares:from_notation: well argued"
    assert by_key["ada-lovelace-2"]["points"] == "1"
    assert by_key["ada-lovelace"]["comments"] == ""
    assert graded.warnings[-2:] == [
        "o.csv line 4: 'ada lovelace' could be several students (ada-lovelace or "
        "ada-lovelace-2): the override is left out",
        "o.csv line 5: 'Charles Babbage' is not on the roster: the override is left out",
    ]
    twice = text + "Grace Hopper,01_squares:from_notation,0,\n"
    with pytest.raises(GradebookError, match="o.csv line 6: a second override of "
                       "01_squares:from_notation for grace-hopper"):  # fmt: skip
        _grade(folder, roster, overrides=parse_text(twice, "o.csv"))


def test_a_folder_of_which_nobody_is_on_the_roster_is_refused_before_grading(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "subs"
    _dropped(folder, "Charles Babbage", DAY)
    grader = FakeGrader()
    with pytest.raises(GradebookError, match="no hand-in is by a student on the roster "
                       r"\(4 students\): not on the roster, so not graded: 'Charles Babbage'"):  # fmt: skip
        grade_folder(folder, tmp_path / "grades.csv", grader=grader,
                     roster=_roster(tmp_path / "roster.json"))  # fmt: skip
    assert grader.graded == [] and not (tmp_path / "grades.csv").exists()


def test_the_examples_in_the_matching_module_hold() -> None:
    assert doctest.testmod(matching).failed == 0


def test_a_canvas_export_goes_back_to_canvas_with_the_same_ids(tmp_path: Path) -> None:
    """The teacher's path end to end: Canvas's export imported, hand-ins by key, Canvas's grade file."""
    from course.roster.formats import merge, read_roster
    from tests.course.roster.test_formats import CANVAS

    exported = list(csv.DictReader(CANVAS.lstrip("\ufeff").splitlines()))
    students = [row for row in exported if row["ID"] and row["Student"].strip() != "Points Possible"
                and row["Student"] != "Student, Test"]  # fmt: skip
    roster, _ = merge(Roster(), read_roster(CANVAS.encode("utf-8"), "canvas.csv"))
    RosterFile(tmp_path / "class" / "roster.json").save(roster)
    handins = tmp_path / "classroom-data" / "handins"
    for student in roster:
        _store(handins, student.key, student.name, "01_squares", DAY - HOUR, to_notation=TO)
    _grade(handins, RosterFile(tmp_path / "class" / "roster.json").load())
    canvas = _read(tmp_path / "grades-canvas.csv")[1:]
    assert [(r["Student"], r["ID"], r["SIS User ID"], r["SIS Login ID"]) for r in canvas] == [
        (" ".join(reversed([part.strip() for part in row["Student"].split(",")])), row["ID"],
         row["SIS User ID"], row["SIS Login ID"]) for row in students
    ]  # fmt: skip
    assert len(canvas) == len(students) >= 3 and all(r["01_squares"] == "1" for r in canvas)
