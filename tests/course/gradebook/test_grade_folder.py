"""A class graded with a stand-in for the sandbox (see :mod:`.fakes`): rows, pages, journal.

Every expected number is known from the fake's script, so these tests are about the
gradebook: nothing lost on a crash, a broken notebook costing only its student, page
names, late flags, the hand-in that counts, overrides and the summary page.
"""

from __future__ import annotations

import csv
import datetime
import json
import re
import types
from pathlib import Path
from typing import Any

import pytest

from course.grading import feedback
from course.grading.gradebook import Choices, Graded, grade_folder
from course.grading.handins import GradebookError
from course.grading.overrides import parse_text

from .fakes import Crash, FakeGrader, notebook, total, write

TO, FROM = total("01_squares", "to_notation"), total("01_squares", "from_notation")
UTC = datetime.timezone.utc


def _grade(
    folder: Path, grader: FakeGrader | None = None, **options: Any
) -> tuple[Graded, list[str]]:
    said: list[str] = []
    graded = grade_folder(folder, folder.parent / "grades.csv", grader=grader or FakeGrader(),
                          choices=Choices(**options), say=said.append)  # fmt: skip
    return graded, said


def _rows(folder: Path, name: str = "grades.csv") -> dict[str, dict[str, str]]:
    with open(folder.parent / name, newline="", encoding="utf-8") as file:
        return {row["student_id"]: row for row in csv.DictReader(file)}


def _class(folder: Path, students: list[str]) -> None:
    for index, who in enumerate(students):
        write(notebook("01_squares", who, to_notation=TO, from_notation=index % (FROM + 1)),
              folder / who / "01_squares.ipynb")  # fmt: skip


def test_points_are_partial_credit_per_question(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    write(notebook("01_squares", "ann", to_notation=TO, from_notation=FROM // 2),
          folder / "ann" / "01_squares.ipynb")  # fmt: skip
    write(notebook("02_counting", "ann"), folder / "ann" / "02_counting.ipynb")
    graded, said = _grade(folder)
    row = _rows(folder)["ann"]
    share = round(FROM // 2 / FROM, 2)
    assert float(row["01_squares:to_notation"]) == 1
    assert float(row["01_squares:from_notation"]) == share
    assert float(row["02_counting:count_discs"]) == 0
    assert float(row["points"]) == pytest.approx(1 + share, abs=0.011)
    assert row["max_points"] == "4" and row["passed"] == "1" and row["total"] == "4"
    assert said == [] and row["errors"] == ""
    assert graded.summary == ["01_squares: to_notation 1/1, from_notation 0/1",
                              "02_counting: count_discs 0/1, leader 0/1"]  # fmt: skip


def test_a_crash_halfway_keeps_every_finished_row_and_a_rerun_continues(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    students = ["ann", "bob", "cid", "dan", "eve"]
    _class(folder, students)
    crashing = FakeGrader(crash_on="cid")
    with pytest.raises(Crash):
        _grade(folder, crashing)
    assert [who for who, _ in crashing.graded][:3] == ["ann", "bob", "cid"]
    rows = _rows(folder)
    assert {"ann", "bob"} <= set(rows) and "cid" not in rows  # written as each finished
    assert (folder.parent / "grades-feedback" / "bob.html").is_file()
    again = FakeGrader()
    graded, _ = _grade(folder, again)
    regraded = [who for who, _ in again.graded]
    assert regraded[0] == "cid" and "ann" not in regraded and "bob" not in regraded
    rows = _rows(folder)
    assert sorted(rows) == students
    for index, who in enumerate(students):
        assert float(rows[who]["01_squares:from_notation"]) == round(index / FROM, 2)
    fresh = FakeGrader()
    _grade(folder, fresh, regrade=True)
    assert len(fresh.graded) == len(students)


def test_a_changed_notebook_is_graded_again(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann", "bob"])
    _grade(folder)
    write(notebook("01_squares", "bob", to_notation=0), folder / "bob" / "01_squares.ipynb")
    grader = FakeGrader()
    _grade(folder, grader)
    assert [who for who, _ in grader.graded] == ["bob"]
    assert _rows(folder)["bob"]["01_squares:to_notation"] == "0"


@pytest.mark.parametrize(
    "broken, reason",
    [
        ('{"cells": ' + "[" * 100000 + "]" * 100000 + ', "nbformat": 4}', "nests deeper"),
        ("{not json", "not valid JSON"),
        ('{"cells": [], "nbformat": 3}', "only notebook format 4"),
        (b"\xff\xfe", "not UTF-8"),
        ("FAKE-RecursionError", "the grader could not grade it (RecursionError"),
        ("FAKE-MemoryError", "the grader could not grade it (MemoryError"),
        ("FAKE-broken_report", "the grader could not grade it (AttributeError"),
    ],
)
def test_a_broken_notebook_costs_only_its_student(
    tmp_path: Path, broken: str | bytes, reason: str
) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann", "cid"])
    path = folder / "bob" / "01_squares.ipynb"
    if isinstance(broken, str) and broken.startswith("FAKE-"):
        data = notebook("01_squares", "bob", to_notation=TO)
        kind = broken.removeprefix("FAKE-")
        data["metadata"]["fake"].update(
            {kind: True} if kind == "broken_report" else {"raise": kind}
        )
        write(data, path)
    else:
        path.parent.mkdir(parents=True)
        path.write_bytes(broken if isinstance(broken, bytes) else broken.encode())
    graded, said = _grade(folder)
    rows = _rows(folder)
    assert sorted(rows) == ["ann", "bob", "cid"]
    assert reason in rows["bob"]["errors"] and rows["bob"]["points"] == "0"
    assert len(said) == 1 and said[0].startswith("error: bob 01_squares: ") and reason in said[0]
    assert rows["ann"]["01_squares:to_notation"] == rows["cid"]["01_squares:to_notation"] == "1"
    assert reason in graded.pages["bob"].read_text(encoding="utf-8")


HOSTILE = ["collide lee", "collide_lee", "Ann", "ann", "con", "=1+1", "-x", "@x", "a.b",
           "\u00e9l\u00e8ve", "x" * 200, "x..", "~tilde", "CON"]  # fmt: skip


def test_feedback_page_names_never_collide(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    for who in HOSTILE:
        write(notebook("01_squares", who), folder / f"{who}__01_squares.ipynb")
    graded, _ = _grade(folder)
    pages = graded.pages
    assert sorted(pages) == sorted(HOSTILE)
    assert len({path.name.lower() for path in pages.values()}) == len(HOSTILE)  # case too
    for who, path in pages.items():
        assert path.parent == folder.parent / "grades-feedback"
        assert re.fullmatch(r"[a-z0-9_-]+(~[0-9a-f]{10})?\.html", path.name), path.name
        assert f"<h1>Feedback for {feedback.escape(who)}</h1>" in path.read_text(encoding="utf-8")
    assert sorted(p.name for p in pages.values()) == sorted(
        p.name for p in (folder.parent / "grades-feedback").iterdir()
    )


def _store(folder: Path, who: str, exercise: str, when: datetime.datetime, **passed: int) -> None:
    stamp = when.strftime("%Y%m%dT%H%M%S.%fZ")
    path = write(notebook(exercise, who, **passed), folder / who / exercise / f"{stamp}.ipynb")
    receipt = {"student": who.title(), "exercise": exercise, "received": when.isoformat(),
               "bytes": path.stat().st_size, "sha256": "0" * 64}  # fmt: skip
    path.with_suffix(".json").write_text(json.dumps(receipt), encoding="utf-8")


DAY = datetime.datetime(2026, 11, 30, 17, 0, tzinfo=UTC)


def test_late_flags_follow_each_deadline(tmp_path: Path) -> None:
    folder = tmp_path / "handins"
    minute = datetime.timedelta(minutes=1)
    _store(folder, "ann", "01_squares", DAY - minute, to_notation=TO)
    _store(folder, "ann", "02_counting", DAY + minute)
    _store(folder, "bob", "01_squares", DAY + minute, to_notation=TO)
    _store(folder, "bob", "02_counting", DAY + 3 * minute)
    deadlines = {"": DAY, "02_counting": DAY + 2 * minute}
    graded, _ = _grade(folder, deadlines=deadlines)
    rows = _rows(folder)
    assert rows["ann"]["name"] == "Ann"  # the name as typed, from the receipt
    assert (rows["ann"]["01_squares:late"], rows["ann"]["02_counting:late"]) == ("", "")
    assert (rows["bob"]["01_squares:late"], rows["bob"]["02_counting:late"]) == ("late", "late")
    assert rows["bob"]["late"] == "01_squares 02_counting" and rows["ann"]["late"] == ""
    assert rows["ann"]["01_squares:handed_in"] == "2026-11-30T16:59:00Z"
    assert "after the deadline 2026-11-30T17:00:00Z" in graded.pages["bob"].read_text("utf-8")
    assert rows["bob"]["points"] == "1", "late is a flag; the points stay"


def test_resubmissions_are_history_and_the_teacher_picks_last_or_best(tmp_path: Path) -> None:
    folder = tmp_path / "handins"
    hour = datetime.timedelta(hours=1)
    _store(folder, "ann", "01_squares", DAY - 3 * hour, to_notation=TO)  # the best
    _store(folder, "ann", "01_squares", DAY - 2 * hour, to_notation=3)
    _store(folder, "ann", "01_squares", DAY - hour, to_notation=5)  # the last
    last, _ = _grade(folder)
    assert float(_rows(folder)["ann"]["01_squares:to_notation"]) == round(5 / TO, 2)
    page = last.pages["ann"].read_text("utf-8")
    assert "01_squares: 3 hand-ins, the last counts" in page
    best, _ = _grade(folder, pick="best")
    row = _rows(folder)["ann"]
    assert row["01_squares:to_notation"] == "1"
    assert row["01_squares:handed_in"] == "2026-11-30T14:00:00Z"
    assert "3 hand-ins, the best counts" in best.pages["ann"].read_text("utf-8")


def test_the_best_is_never_a_late_hand_in_when_one_is_on_time(tmp_path: Path) -> None:
    folder = tmp_path / "handins"
    hour = datetime.timedelta(hours=1)
    _store(folder, "ann", "01_squares", DAY - 2 * hour, to_notation=3)  # on time, worse
    _store(folder, "ann", "01_squares", DAY - hour, to_notation=2)  # on time, worst
    _store(folder, "ann", "01_squares", DAY + hour, to_notation=TO)  # late, the most points
    _store(folder, "bob", "01_squares", DAY + hour, to_notation=3)  # only late ones
    _store(folder, "bob", "01_squares", DAY + 2 * hour, to_notation=TO)
    deadlines = {"01_squares": DAY}
    _grade(folder, pick="best", deadlines=deadlines)
    rows = _rows(folder)
    assert rows["ann"]["01_squares:to_notation"] == str(round(3 / TO, 2))
    assert rows["ann"]["01_squares:handed_in"] == "2026-11-30T15:00:00Z"
    assert rows["ann"]["01_squares:late"] == ""
    assert rows["bob"]["01_squares:to_notation"] == "1"  # all late: the best of them, marked
    assert rows["bob"]["01_squares:late"] == "late"
    _grade(folder, pick="best")  # no deadline: nothing is late, the most points count
    assert _rows(folder)["ann"]["01_squares:to_notation"] == "1"


def test_overrides_survive_a_regrade(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann", "bob"])
    text = ("student_id,question,points,comment\n"
            "ann,01_squares:from_notation,1,\"=cmd|' /C calc'!A0 well argued\"\n"
            "bob,01_squares:to_notation,,see me\n")  # fmt: skip
    book = parse_text(text, "overrides.csv")
    for regrade in (False, True, True):
        graded, _ = _grade(folder, overrides=book, regrade=regrade)
        rows = _rows(folder)
        assert rows["ann"]["01_squares:from_notation"] == "1"
        assert rows["ann"]["passed"] == "2" and rows["ann"]["points"] == "2"
        assert rows["ann"]["comments"] == "01_squares:from_notation: =cmd|' /C calc'!A0 well argued"
        assert rows["bob"]["01_squares:to_notation"] == "1"  # no points: the grader's stay
        assert rows["bob"]["comments"] == "01_squares:to_notation: see me"
        assert "see me" in graded.pages["bob"].read_text("utf-8")


def test_an_override_beyond_the_points_or_of_no_question_is_refused_before_grading(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann"])
    for line, message in [
        ("ann,01_squares:to_notation,2,", "2 points for 01_squares:to_notation, which is worth 1"),
        ("ann,01_squares:nothing,1,", "there is no question '01_squares:nothing'"),
        ("ann,04_flips:flips,1,", "there is no question '04_flips:flips'"),
    ]:
        grader = FakeGrader()
        book = parse_text(f"student_id,question,points,comment\n{line}\n", "o.csv")
        with pytest.raises(GradebookError, match=re.escape(f"o.csv line 2: {message}")):
            _grade(folder, grader, overrides=book)
        assert grader.graded == []
        assert not (folder.parent / "grades.csv").exists()


@pytest.mark.parametrize("what", ["sheet-is-folder", "canvas-is-folder", "feedback-is-file",
                                  "summary-is-symlink"])  # fmt: skip
def test_outputs_are_checked_before_the_first_notebook(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann"])
    if what == "sheet-is-folder":
        (tmp_path / "grades.csv").mkdir()
    elif what == "canvas-is-folder":
        (tmp_path / "grades-canvas.csv").mkdir()
    elif what == "feedback-is-file":
        (tmp_path / "grades-feedback").write_text("x")
    else:
        (tmp_path / "grades-summary.html").symlink_to(tmp_path / "elsewhere.html")
    grader = FakeGrader()
    with pytest.raises(GradebookError):
        _grade(folder, grader)
    assert grader.graded == []
    assert not (tmp_path / "elsewhere.html").exists()


def test_the_summary_page_shows_pass_rates_and_a_histogram_without_script(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    passes = [TO, TO, TO, 0, 0]  # 3 of 5 pass to_notation
    for index, count in enumerate(passes):
        write(notebook("01_squares", f"s{index}", to_notation=count, from_notation=FROM),
              folder / f"s{index}" / "01_squares.ipynb")  # fmt: skip
    _grade(folder)
    page = (tmp_path / "grades-summary.html").read_text("utf-8")
    assert "<script" not in page and "http" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )
    assert re.search(r"01_squares:to_notation</td><td class='n'>3 of 5</td>", page)
    assert re.search(r"01_squares:from_notation</td><td class='n'>5 of 5</td>", page)
    bars = re.findall(r"<title>([\d.]+) to ([\d.]+): (\d+)</title>", page)
    assert len(bars) == 10 and sum(int(count) for *_, count in bars) == 5
    assert ("1", "1.2", "2") in bars and ("1.8", "2", "3") in bars  # totals 1, 1 and 2, 2, 2


def test_a_journal_line_cut_short_or_malformed_is_graded_again(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann", "bob", "cid"])
    _grade(folder)
    journal = tmp_path / "grades-journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    by_student = {json.loads(line)["student"]: line for line in lines}
    broken = json.loads(by_student["bob"])
    broken["questions"] = {"01_squares:to_notation": ["yes", "1", None]}
    journal.write_text(by_student["ann"] + "\n" + json.dumps(broken) + "\n"
                       + by_student["cid"][:40], encoding="utf-8")  # fmt: skip
    grader = FakeGrader()
    _grade(folder, grader)
    assert sorted(who for who, _ in grader.graded) == ["bob", "cid"]
    assert sorted(_rows(folder)) == ["ann", "bob", "cid"]
    third = FakeGrader()
    _grade(folder, third)
    assert third.graded == []  # what the second run wrote after the cut line is kept


class _Unisolated(FakeGrader):
    sandbox = types.SimpleNamespace(isolated=False)


def test_a_run_without_isolation_says_so_in_every_row_and_page(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    _class(folder, ["ann", "bob"])
    graded, _ = _grade(folder, _Unisolated())
    assert {row["isolated"] for row in _rows(folder).values()} == {"no"}
    for page in graded.pages.values():
        assert "without the sandbox&#x27;s isolation" in page.read_text("utf-8")
    _grade(folder, FakeGrader())  # the journal keeps how each notebook was graded
    assert {row["isolated"] for row in _rows(folder).values()} == {"no"}
    _grade(folder, FakeGrader(), regrade=True)
    assert {row["isolated"] for row in _rows(folder).values()} == {"yes"}
