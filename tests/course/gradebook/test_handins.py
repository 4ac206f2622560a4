"""Reading a class's hand-ins: every layout, hand-in times, history, and only regular files."""

from __future__ import annotations

import datetime
import json
import os
import socket
from pathlib import Path

import pytest

from course.grading import handins
from course.grading import notebook as nbfile
from course.grading.checker import exercises
from course.grading.handins import GradebookError, collect, read_regular
from course.grading.notebook import NotebookError

from .fakes import notebook, write

KNOWN = list(exercises())
UTC = datetime.timezone.utc


def _found(folder: Path) -> tuple[dict[tuple[str, str], handins.Submission], list[str]]:
    submissions, warnings = collect(folder, KNOWN)
    return {(s.student, s.exercise): s for s in submissions}, warnings


@pytest.mark.parametrize("given", ["classroom-data/handins", "classroom-data"])
def test_the_kit_hand_in_store_gives_names_times_and_history(tmp_path: Path, given: str) -> None:
    """The store, named as itself or as the class server's data folder that holds it."""
    store = tmp_path / "classroom-data" / "handins"
    times = ["20261124T090000.000001Z", "20261124T100000.500000Z"]
    for stamp in times:
        path = write(notebook("04_flips", "ann"), store / "ann-lee" / "04_flips" / f"{stamp}.ipynb")
        received = datetime.datetime.strptime(stamp, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=UTC)
        receipt = {"student": "Ann Lee", "exercise": "04_flips", "received": received.isoformat(),
                   "bytes": path.stat().st_size, "sha256": "0" * 64}  # fmt: skip
        path.with_suffix(".json").write_text(json.dumps(receipt), encoding="utf-8")
    found, warnings = _found(tmp_path / given)
    assert list(found) == [("ann-lee", "04_flips")]
    submission = found["ann-lee", "04_flips"]
    assert [h.received.strftime("%Y%m%dT%H%M%S.%fZ") for h in submission.history] == times
    assert submission.name == "Ann Lee" and submission.last.layout == "store"
    assert warnings == ["ann-lee handed in 04_flips 2 times: the last is "
                        f"ann-lee/04_flips/{times[1]}.ipynb"]  # fmt: skip


def test_a_store_hand_in_without_its_receipt_keeps_the_stamp_time(tmp_path: Path) -> None:
    write(
        notebook("01_squares", "bob"),
        tmp_path / "bob" / "01_squares" / "20261124T080000.000000Z.ipynb",
    )
    (tmp_path / "bob" / "01_squares" / "20261124T080000.000000Z.json").write_text("[" * 10000)
    found, _ = _found(tmp_path)
    handin = found["bob", "01_squares"].last
    assert handin.received == datetime.datetime(2026, 11, 24, 8, tzinfo=UTC)
    assert handin.name == "bob"


@pytest.mark.parametrize("given", ["course", "course/submitted"])
def test_nbgrader_layout_with_its_timestamps(tmp_path: Path, given: str) -> None:
    course = tmp_path / "course"
    write(notebook("04_flips", "x"), course / "source" / "04_flips" / "04_flips.ipynb")  # teacher's
    folder = course / "submitted" / "s001" / "04_flips"
    data = notebook("04_flips", "x")
    del data["metadata"]["course"]  # the assignment folder names the exercise
    write(data, folder / "flips.ipynb")
    (folder / "timestamp.txt").write_text("2026-11-24 09:30:00.123456 UTC\n")
    write(notebook("01_squares", "x"), course / "submitted" / "s002" / "01_squares" / "mine.ipynb")
    found, warnings = _found(tmp_path / given)
    assert sorted(found) == [("s001", "04_flips"), ("s002", "01_squares")]
    handin = found["s001", "04_flips"].last
    assert handin.layout == "nbgrader"
    assert handin.received == datetime.datetime(2026, 11, 24, 9, 30, 0, 123456, tzinfo=UTC)
    assert found["s002", "01_squares"].last.layout == "folder"  # no timestamp.txt: the file's time
    assert warnings == []


@pytest.mark.parametrize("given", ["exchange/course101", "exchange/course101/inbound"])
def test_nbgrader_exchange_inbound_with_history(tmp_path: Path, given: str) -> None:
    """``nbgrader submit`` copies each hand-in to the exchange's
    ``inbound/STUDENT+ASSIGNMENT+TIME[+RANDOM]/``, with a ``timestamp.txt`` inside."""
    inbound = tmp_path / "exchange" / "course101" / "inbound"
    first = inbound / "s001+04_flips+2026-11-24 09:30:00.123456 UTC+Q2xhc3MtMQ_-"
    data = notebook("04_flips", "x")
    del data["metadata"]["course"]  # the folder's name names the exercise
    write(data, first / "flips.ipynb")
    (first / "timestamp.txt").write_text("2026-11-24 09:30:00.123456 UTC")
    second = inbound / "s001+04_flips+2026-11-25 08:00:00.000001 UTC"  # older nbgrader: no random
    write(notebook("04_flips", "x"), second / "04_flips.ipynb")  # no timestamp.txt: the name's time
    write(
        notebook("01_squares", "x"), inbound / "s002+01_squares+2026-11-24 10:00:00 UTC" / "a.ipynb"
    )
    found, warnings = _found(tmp_path / given)
    assert sorted(found) == [("s001", "04_flips"), ("s002", "01_squares")]
    history = found["s001", "04_flips"].history
    assert [h.received for h in history] == [
        datetime.datetime(2026, 11, 24, 9, 30, 0, 123456, tzinfo=UTC),
        datetime.datetime(2026, 11, 25, 8, 0, 0, 1, tzinfo=UTC),
    ]
    assert {h.layout for h in history} == {"nbgrader"} and history[-1].path.parent == second
    assert warnings == [
        f"s001 handed in 04_flips 2 times: the last is {second.name}/04_flips.ipynb"
    ]


def test_a_notebook_downloaded_from_jupyterlite_into_a_student_folder(tmp_path: Path) -> None:
    data = notebook("05_play", "x")
    del data["metadata"]["course"]
    write(data, tmp_path / "cid" / "05_play (1).ipynb")
    found, _ = _found(tmp_path)
    assert found["cid", "05_play"].last.layout == "folder"


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    outside = write(notebook("01_squares", "x"), tmp_path / "teacher" / "01_squares.ipynb")
    folder = tmp_path / "subs"
    write(notebook("01_squares", "x"), folder / "ann" / "01_squares.ipynb")
    (folder / "eve").mkdir(parents=True)
    (folder / "eve" / "01_squares.ipynb").symlink_to(outside)
    (folder / "mal").symlink_to(outside.parent, target_is_directory=True)
    (folder / "fifo").mkdir()
    os.mkfifo(folder / "fifo" / "01_squares.ipynb")
    (folder / "sock").mkdir()
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(folder / "sock" / "01_squares.ipynb"))
        found, warnings = _found(folder)
    assert sorted(found) == [("ann", "01_squares")]
    assert sorted(warnings) == [
        "skipped eve/01_squares.ipynb: a symlink",
        "skipped fifo/01_squares.ipynb: not a regular file",
        "skipped sock/01_squares.ipynb: not a regular file",
    ]


def test_read_regular_refuses_what_is_not_a_bounded_regular_file(tmp_path: Path) -> None:
    real = tmp_path / "real.ipynb"
    real.write_bytes(b"12345")
    assert read_regular(real) == b"12345"
    link = tmp_path / "link.ipynb"
    link.symlink_to(real)
    fifo = tmp_path / "fifo.ipynb"
    os.mkfifo(fifo)
    for path, reason in [(link, "a symlink"), (fifo, "not a regular file"),
                         (Path("/dev/zero"), "not a regular file"), (tmp_path, "not a regular file"),
                         (tmp_path / "gone.ipynb", "No such file")]:  # fmt: skip
        with pytest.raises(NotebookError, match=reason):
            read_regular(path)
    with pytest.raises(NotebookError, match="5 bytes \\(at most 4\\)"):
        read_regular(real, limit=4)


@pytest.mark.parametrize("depth", [10_000, 1_000_000])
def test_a_deeply_nested_notebook_is_the_students_error(tmp_path: Path, depth: int) -> None:
    data = (
        b'{"cells": [], "metadata": '
        + b'{"a": ' * depth
        + b"1"
        + b"}" * depth
        + b', "nbformat": 4}'
    )
    with pytest.raises(NotebookError, match="nests deeper"):
        nbfile.parse(data, "x.ipynb")
    write({}, tmp_path / "subs" / "ann" / "placeholder.json")
    (tmp_path / "subs" / "ann" / "02_counting.ipynb").write_bytes(data)
    found, _ = _found(tmp_path / "subs")
    assert list(found) == [("ann", "02_counting")]  # collected by its name, graded as an error


def test_the_gradebook_error_is_one_of_the_kit_errors() -> None:
    from reversi.errors import ReversiError

    assert issubclass(GradebookError, ReversiError) and issubclass(GradebookError, ValueError)
