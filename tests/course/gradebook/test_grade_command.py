"""``python -m course grade``: every flag checked before work, and real classes end to end."""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from html import escape
from pathlib import Path

import pytest

import course.__main__ as cli
from course.grading import exercise as exercise_file
from course.grading import feedback, gradebook
from course.grading.checker import SOURCE_DIR
from course.roster.model import Roster
from course.roster.store import ROSTER, RosterFile

from ..grading.helpers import REPOSITORY, source, student, with_answers
from .fakes import write

#: Bad values for every flag of ``grade`` that takes one (a new flag must be added here).
BAD = {
    "folder": ["/no/such/folder", "{file}", "x" * 5000],
    "out": ["{folder}", "/no/such/folder/grades.csv", "/proc/grades.csv", "/dev/null", "\x01.csv"],
    "feedback": ["/dev/null", "/proc/pages", "{file}", "/no/such/dir/../x\x7f"],
    "jobs": ["0", "-1", "x", "1" * 40, "65"],
    "timeout": ["nan", "-1", "1e300", "0", "inf", "x", ""],
    "seed": ["-1", "x", "9" * 40],
    "source": ["/no/such/folder", "{file}"],
    "pick": ["worst", ""],
    "deadline": ["tomorrow", "2026-13-01", "bad name!=2026-01-01", "04_flips=", "9" * 50],
    "overrides": ["/no/such/file.csv", "{folder}", "/dev/zero"],
    "sandbox": ["none", "docker", "", "PYODIDE"],
    "roster": ["/no/such/roster.json", "{folder}", "/dev/zero", "{file}"],
}


def _grade_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    cli.COMMANDS["grade"][1](parser)
    return parser


def test_every_flag_that_takes_a_value_has_bad_values_here() -> None:
    takes = {a.dest for a in _grade_parser()._actions if a.nargs != 0 and a.dest != "help"}
    assert takes == set(BAD)


CASES = [(dest, value) for dest, values in BAD.items() for value in values]


@pytest.mark.parametrize("dest, value", CASES, ids=[f"{d}={v[:12]!r}" for d, v in CASES])
def test_a_bad_flag_exits_2_naming_it_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    dest: str, value: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "subs").mkdir()
    (tmp_path / "a-file").write_text("x")
    value = value.format(folder=tmp_path / "subs", file=tmp_path / "a-file")
    calls: list[object] = []
    monkeypatch.setattr(gradebook, "grade_folder", lambda *a, **k: calls.append(a))
    argv = ["grade", str(tmp_path / "subs")] if dest != "folder" else ["grade", value]
    if dest != "folder":
        argv += [f"--{dest}", value]
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    shown = "folder" if dest == "folder" else f"--{dest}"
    assert f"argument {shown}" in error, error
    assert "Traceback" not in error and calls == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "subs"]  # nothing written


def test_sheets_whose_names_would_be_too_long_are_refused_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "subs").mkdir()
    out = tmp_path / ("g" * 245 + ".csv")  # fine itself; OUT-journal.jsonl would not be
    status = cli.main(["grade", str(tmp_path / "subs"), "--out", str(out), "--seed", "1",
                       "--feedback", str(tmp_path / "pages")])  # fmt: skip
    assert status == 2 and "longer than 255 bytes" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["subs"]


def test_a_default_feedback_folder_that_cannot_be_made_is_refused_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "subs").mkdir()
    (tmp_path / "grades-feedback").write_text("a file where the pages would go")
    calls: list[object] = []
    monkeypatch.setattr(gradebook, "grade_folder", lambda *a, **k: calls.append(a))
    status = cli.main(["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "grades.csv")])
    assert status == 2 and calls == []
    assert "the feedback folder" in capsys.readouterr().err


def _graded_with(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """``grade_folder`` replaced by one that keeps the roster it was given and grades Ada."""
    given: list[object] = []

    def grade_folder(*args: object, roster: object = None, **kwargs: object) -> gradebook.Graded:
        given.append(roster)
        row = {"student_id": "ada-lovelace", "name": "Ada Lovelace", "points": "1",
               "max_points": "2", "passed": "1", "total": "2", "missing": "", "late": "",
               "errors": "", "similar": ""}  # fmt: skip
        return gradebook.Graded([row], [], [], [], {})

    monkeypatch.setattr(gradebook, "grade_folder", grade_folder)
    return given


def test_the_roster_is_class_roster_json_when_it_exists_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "subs").mkdir()
    given = _graded_with(monkeypatch)
    argv = ["grade", "subs"]
    assert cli.main(argv) == 0 and given == [None]
    assert "ada-lovelace: 1/2 points" in capsys.readouterr().out
    RosterFile(ROSTER).save(Roster().add("Ada Lovelace", lms_id="1").add("Alan Turing"))
    RosterFile(tmp_path / "other.json").save(Roster().add("Grace Hopper"))
    assert cli.main(argv) == 0
    said = capsys.readouterr().out
    assert "Roster: class/roster.json, 2 students (--no-roster ignores it)" in said
    assert "Ada Lovelace (ada-lovelace): 1/2 points" in said
    assert cli.main([*argv, "--no-roster"]) == 0
    assert cli.main([*argv, "--roster", "other.json"]) == 0
    other = RosterFile(tmp_path / "other.json").load()
    assert given[1:] == [RosterFile(ROSTER).load(), None, other]
    with pytest.raises(SystemExit) as stopped:
        cli.main([*argv, "--roster", "other.json", "--no-roster"])
    assert stopped.value.code == 2 and "not allowed with" in capsys.readouterr().err
    ROSTER.write_text("{}", encoding="utf-8")  # a default roster that does not read: said, no work
    assert cli.main(argv) == 2 and len(given) == 4
    assert "error: class/roster.json is not a roster the kit wrote" in capsys.readouterr().err


SEED = "5"
HOUR = datetime.timedelta(hours=1)
DAY = datetime.datetime(2026, 11, 30, 17, tzinfo=datetime.timezone.utc)


def _handin(store: Path, folder: str, name: str, notebook: dict, when: datetime.datetime) -> None:
    stamp = when.strftime("%Y%m%dT%H%M%S.%fZ")
    path = write(notebook, store / folder / "01_squares" / f"{stamp}.ipynb")
    receipt = {"student": name, "exercise": "01_squares", "received": when.isoformat(),
               "bytes": path.stat().st_size, "sha256": "0" * 64}  # fmt: skip
    path.with_suffix(".json").write_text(json.dumps(receipt), encoding="utf-8")


def _course(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "course", *args], capture_output=True,
                          text=True, timeout=300, cwd=REPOSITORY)  # fmt: skip


@pytest.mark.slow
def test_the_hand_in_store_graded_for_real(tmp_path: Path) -> None:
    store = tmp_path / "classroom-data" / "handins"
    _handin(store, "ann", "Ann", source("01_squares"), DAY - HOUR)
    _handin(store, "ann", "Ann", student("01_squares"), DAY + HOUR)  # a worse, late resubmission
    _handin(store, "bob", '=HYPERLINK("x")', student("01_squares"), DAY - HOUR)
    _handin(store, "eve\x1b[2J", "Eve", student("01_squares"), DAY - HOUR)
    nested = tmp_path / "nested.json"
    nested.write_text('{"cells": ' + "[" * 50000 + "]" * 50000 + ', "nbformat": 4}')
    stamp = (DAY - HOUR).strftime("%Y%m%dT%H%M%S.%fZ")
    (store / "cid" / "01_squares").mkdir(parents=True)
    shutil.copy(nested, store / "cid" / "01_squares" / f"{stamp}.ipynb")
    out = tmp_path / "grades.csv"
    common = [str(store), "--out", str(out), "--seed", SEED, "--jobs", "2",
              "--deadline", DAY.isoformat()]  # fmt: skip
    last = _course("grade", *common)
    assert last.returncode == 0, last.stderr
    assert "Traceback" not in last.stdout + last.stderr
    assert "\x1b" not in last.stdout, last.stdout
    assert "eve\\x1b[2J: 0/2 points" in last.stdout, last.stdout
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert rows["ann"]["points"] == "0" and rows["ann"]["late"] == "01_squares"
    assert rows["bob"]["name"] == '\'=HYPERLINK("x")'
    assert "nests deeper" in rows["cid"]["errors"]
    assert re.search(r"^error: cid 01_squares: .*nests deeper", last.stdout, re.MULTILINE)
    best = _course("grade", *common, "--pick", "best")
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert rows["ann"]["points"] == "2" and rows["ann"]["late"] == "", best.stdout
    assert "2 hand-ins, the best counts" in (tmp_path / "grades-feedback" / "ann.html").read_text()
    for name in ("grades-canvas.csv", "grades-moodle.csv", "grades-summary.html"):
        assert (tmp_path / name).is_file()
    _grade_time_cases_are_never_shown(
        (tmp_path / "grades-feedback" / "bob.html").read_text(encoding="utf-8")
    )


@pytest.mark.slow
def test_a_class_graded_for_real_against_its_roster(tmp_path: Path) -> None:
    roster = Roster().add("Ada Lovelace", lms_id="1001", login="ada").add("Alan Turing", lms_id="1002")
    RosterFile(tmp_path / "roster.json").save(roster)
    store = tmp_path / "handins"
    _handin(store, "ada-lovelace", "Ada Lovelace", student("01_squares"), DAY - 2 * HOUR)
    later = write(source("01_squares"), store / "ada  LOVELACE" / "01_squares.ipynb")
    os.utime(later, (DAY.timestamp(), DAY.timestamp()))  # the last, over both spellings
    write(source("01_squares"), store / "Charles Babbage" / "01_squares.ipynb")
    out = tmp_path / "grades.csv"
    result = _course("grade", str(store), "--out", str(out), "--seed", SEED,
                     "--roster", str(tmp_path / "roster.json"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "warning: not on the roster, so not graded: 'Charles Babbage' (1 hand-in)" in result.stdout
    assert "Ada Lovelace (ada-lovelace): 2/2 points" in result.stdout
    with open(out, newline="", encoding="utf-8") as file:
        rows = [(r["student_id"], r["name"], r["points"], r["missing"]) for r in csv.DictReader(file)]
    assert rows == [("ada-lovelace", "Ada Lovelace", "2", ""),
                    ("alan-turing", "Alan Turing", "0", "01_squares")]  # fmt: skip
    with open(tmp_path / "grades-canvas.csv", newline="", encoding="utf-8") as file:
        canvas = [(r["ID"], r["SIS Login ID"], r["01_squares"]) for r in csv.DictReader(file)]
    assert canvas[1:] == [("1001", "ada", "2"), ("1002", "", "0")]


def _grade_time_cases_are_never_shown(page: str) -> None:
    """The starter fails every case; the page shows notebook cases, never grade-time ones."""
    exercise = exercise_file.load(SOURCE_DIR / "01_squares.ipynb", int(SEED))
    assert "grade-time cases failed" in page
    for question in exercise.questions:
        shown, unseen = question.parts
        assert not shown.unseen and unseen.unseen and unseen.spec.cases
        for case in unseen.spec.cases:
            assert f"<code>{escape(unseen.spec.call.format(*case.args))}</code>" not in page
            assert escape(case.name) not in page
        calls = [escape(shown.spec.call.format(*case.args)) for case in shown.spec.cases]
        assert sum(f"<code>{call}</code>" in page for call in calls) == feedback.SHOWN_FAILURES


@pytest.mark.slow
def test_nbgrader_course_folder_graded_for_real(tmp_path: Path) -> None:
    course = tmp_path / "course"
    write(source("01_squares"), course / "source" / "01_squares" / "01_squares.ipynb")
    folder = course / "submitted" / "s001" / "01_squares"
    write(source("01_squares"), folder / "01_squares.ipynb")
    (folder / "timestamp.txt").write_text("2026-11-24 09:30:00.000000 UTC\n")
    out = tmp_path / "grades.csv"
    result = _course("grade", str(course), "--out", str(out), "--seed", SEED)
    assert result.returncode == 0, result.stderr
    with open(out, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [(r["student_id"], r["points"], r["01_squares:handed_in"]) for r in rows] == [
        ("s001", "2", "2026-11-24T09:30:00Z")
    ]


LOOP = "def to_notation(row, col):\n    while True:\n        pass\n"


@pytest.mark.slow
def test_a_grading_killed_halfway_keeps_its_rows_and_the_rerun_continues(tmp_path: Path) -> None:
    """A real run killed with SIGKILL (no clean-up at all) after two students are done."""
    folder = tmp_path / "subs"
    for who in ("a1", "a2"):
        write(source("01_squares"), folder / who / "01_squares.ipynb")
    for who in ("z1", "z2", "z3"):  # each spends the whole time-out on to_notation
        write(with_answers(source("01_squares"), {"answer:to_notation": LOOP}),
              folder / who / "01_squares.ipynb")  # fmt: skip
    out = tmp_path / "grades.csv"
    argv = [sys.executable, "-m", "course", "grade", str(folder), "--out", str(out),
            "--seed", SEED, "--jobs", "1", "--timeout", "3"]  # fmt: skip
    process = subprocess.Popen(argv, cwd=REPOSITORY, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if out.is_file() and "a2," in out.read_text(encoding="utf-8"):
                break
            time.sleep(0.05)
        assert process.poll() is None, "the run ended before it could be killed"
        os.killpg(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert {"a1", "a2"} <= set(rows) and rows["a1"]["points"] == rows["a2"]["points"] == "2"
    journal = tmp_path / "grades-journal.jsonl"
    before = journal.read_text(encoding="utf-8").count("\n")
    left = sorted(Path(tempfile.gettempdir()).glob(f"course-sandbox-{process.pid}-*"))
    assert left, "the killed run left no folder: the clean-up below is not tested"
    rerun = _course("grade", str(folder), "--out", str(out), "--seed", SEED, "--timeout", "3")
    assert rerun.returncode == 0, rerun.stderr
    assert not any(path.exists() for path in left)  # the rerun removed what the killed run left
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert sorted(rows) == ["a1", "a2", "z1", "z2", "z3"]
    assert all(rows[z]["01_squares:to_notation"] == "0" for z in ("z1", "z2", "z3"))
    assert rows["z1"]["01_squares:from_notation"] == "1"
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line]
    graded = [line["student"] for line in lines]
    assert sorted(graded) == ["a1", "a2", "z1", "z2", "z3"], (before, graded)  # none twice


NESTED_REPLY = (
    "def to_notation(row, col):\n    deep = []\n    for _ in range(20000):\n"
    "        deep = [deep]\n    return deep\n"
)


@pytest.mark.slow
def test_a_deeply_nested_reply_costs_only_its_student(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    write(source("01_squares"), folder / "ann" / "01_squares.ipynb")
    write(with_answers(source("01_squares"), {"answer:to_notation": NESTED_REPLY}),
          folder / "deep" / "01_squares.ipynb")  # fmt: skip
    out = tmp_path / "grades.csv"
    result = _course("grade", str(folder), "--out", str(out), "--seed", SEED, "--timeout", "10")
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert rows["ann"]["points"] == "2"
    assert rows["deep"]["01_squares:to_notation"] == "0"


@pytest.mark.parametrize(
    "stop, status, said",
    [(KeyboardInterrupt(), 130, "Stopped: every student finished so far is in"),
     (OSError(28, "No space left on device", "grades.csv"), 1,
      "error: cannot write grades.csv: No space left on device")],
)  # fmt: skip
def test_a_stop_while_grading_says_what_is_kept_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    stop: BaseException, status: int, said: str,
) -> None:  # fmt: skip
    def grade_folder(*args: object, **kwargs: object) -> None:
        raise stop

    (tmp_path / "subs").mkdir()
    monkeypatch.setattr(gradebook, "grade_folder", grade_folder)
    assert cli.main(["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "g.csv")]) == status
    error = capsys.readouterr().err
    assert said in error and "Traceback" not in error


def test_a_folder_with_no_hand_ins_is_refused_and_nothing_written(tmp_path: Path, capsys) -> None:
    """A sheet of nobody is the wrong folder (a typo, the class server's data instead of its
    handins/), not a grading: it says so, exits 2 and writes nothing."""
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    (tmp_path / "subs" / "ann" / "notes.txt").write_text("not a notebook")
    argv = ["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "g.csv"), "--seed", "1"]
    assert cli.main(argv) == 2
    said = capsys.readouterr().err
    assert "subs: no hand-ins of the exercises (01_squares" in said and "a folder per student" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["subs"]
