"""The hand-in store: the contract's layout, never overwriting, every refusal, restarts."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from course.site.store import (
    MAX_NOTEBOOK,
    Flood,
    HandInError,
    HandInStore,
    check_notebook,
    exercise_name,
    student_folder,
)
from reversi.errors import ReversiError

NOTEBOOK = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
MOMENT = datetime(2026, 11, 24, 9, 30, 0, 123456, tzinfo=timezone.utc)


def fixed_clock(moment: datetime = MOMENT):
    return lambda: moment


def test_a_hand_in_is_kept_in_the_contracts_layout_with_its_receipt(tmp_path: Path) -> None:
    store = HandInStore(tmp_path, clock=fixed_clock())
    receipt = store.hand_in("Zoë Martin", "04_flips", NOTEBOOK)
    folder = tmp_path / "handins" / "zoe-martin" / "04_flips"
    assert sorted(p.name for p in folder.iterdir()) == [
        "20261124T093000.123456Z.ipynb",
        "20261124T093000.123456Z.json",
    ]
    assert (folder / "20261124T093000.123456Z.ipynb").read_bytes() == NOTEBOOK
    saved = json.loads((folder / "20261124T093000.123456Z.json").read_text())
    assert saved == {
        "student": "Zoë Martin",
        "exercise": "04_flips",
        "received": "2026-11-24T09:30:00.123456+00:00",
        "bytes": len(NOTEBOOK),
        "sha256": hashlib.sha256(NOTEBOOK).hexdigest(),
    }
    assert receipt.as_dict() == saved
    assert datetime.fromisoformat(saved["received"]) == MOMENT


def test_hand_ins_at_the_same_instant_are_all_kept_never_overwritten(tmp_path: Path) -> None:
    store = HandInStore(tmp_path, clock=fixed_clock())
    bodies = [NOTEBOOK.replace(b"{}", f'{{"n": {i}}}'.encode()) for i in range(5)]
    for body in bodies:
        store.hand_in("ada", "04_flips", body)
    kept = sorted((tmp_path / "handins" / "ada" / "04_flips").glob("*.ipynb"))
    assert len(kept) == 5
    assert sorted(p.read_bytes() for p in kept) == sorted(bodies)
    assert all(re.fullmatch(r"\d{8}T\d{6}\.\d{6}Z", p.stem) for p in kept)


def test_the_store_survives_a_restart_and_keeps_counting(tmp_path: Path) -> None:
    HandInStore(tmp_path, max_per_student=2).hand_in("ada", "04_flips", NOTEBOOK)
    again = HandInStore(tmp_path, max_per_student=2)
    again.hand_in("ada", "05_play", NOTEBOOK)
    assert [row["count"] for row in again.summary()] == [1, 1]
    with pytest.raises(HandInError, match="handed in 2 times") as refused:
        HandInStore(tmp_path, max_per_student=2).hand_in("ada", "04_flips", NOTEBOOK)
    assert refused.value.status == 429
    HandInStore(tmp_path, max_per_student=2).hand_in(
        "bob", "04_flips", NOTEBOOK
    )  # others are not limited


def test_hand_ins_from_many_threads_keep_the_quota_exactly(tmp_path: Path) -> None:
    """The server hands in from threads: 16 at once against a quota of 5 keep exactly 5."""
    store = HandInStore(tmp_path, max_per_student=5)
    start = threading.Barrier(16)

    def hand_in(n: int) -> str:
        start.wait()
        try:
            store.hand_in("ada", "04_flips", NOTEBOOK.replace(b"{}", f'{{"n": {n}}}'.encode()))
        except HandInError as refused:
            return str(refused.status)
        return "kept"

    with ThreadPoolExecutor(16) as pool:
        outcomes = list(pool.map(hand_in, range(16)))
    assert sorted(outcomes) == ["429"] * 11 + ["kept"] * 5
    assert len(list((tmp_path / "handins" / "ada" / "04_flips").glob("*.ipynb"))) == 5


def test_a_student_byte_limit_refuses_without_writing(tmp_path: Path) -> None:
    store = HandInStore(tmp_path, max_bytes_per_student=len(NOTEBOOK) + 10)
    store.hand_in("ada", "04_flips", NOTEBOOK)
    with pytest.raises(HandInError, match="no room left"):
        store.hand_in("ada", "04_flips", NOTEBOOK)
    assert len(list((tmp_path / "handins").rglob("*.ipynb"))) == 1


@pytest.mark.parametrize(
    ("student", "reason"),
    [
        ("", "the student name is blank"),
        ("   ", "the student name is blank"),
        (None, "missing"),
        (42, "missing"),
        ("a/b", "path separator"),
        ("a\\b", "path separator"),
        ("..", "path separator"),
        ("ada\x00", "contains the control character"),
        ("ada\nbob", "contains the control character"),
        ("ada\u202e", "contains the control character"),
        ("x" * 41, "has 41 characters; at most 40"),
        ("!!!", "at least one letter"),
        ("日本", "at least one letter"),
    ],
)
def test_bad_student_names_are_refused_naming_the_reason(
    tmp_path: Path, student: object, reason: str
) -> None:
    store = HandInStore(tmp_path)
    with pytest.raises(HandInError, match=reason):
        store.hand_in(student, "04_flips", NOTEBOOK)
    assert not (tmp_path / "handins").exists() or not any((tmp_path / "handins").rglob("*"))


@pytest.mark.parametrize(
    ("exercise", "reason"),
    [("../04_flips", "path separator"), ("04_flips/x", "path separator"), ("flips", "not an exercise name"),
     ("04_Flips", "not an exercise name"), ("04_flips.ipynb", "not an exercise name"), ("", "blank"),
     ("99_nothing", "no exercise")],
)  # fmt: skip
def test_bad_exercise_names_are_refused(tmp_path: Path, exercise: str, reason: str) -> None:
    store = HandInStore(tmp_path, known_exercises=frozenset({"04_flips"}))
    with pytest.raises(HandInError, match=reason):
        store.hand_in("ada", exercise, NOTEBOOK)
    assert not list(tmp_path.rglob("*.ipynb"))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"hello", "not valid JSON"),
        (b"[" * 100_000, "nests deeper than 64 levels"),
        (b"[]", "no 'cells'"),
        (b'{"cells": []}', "nbformat 4"),
        (b'{"cells": {}, "nbformat": 4}', "no 'cells'"),
        (b" " * (MAX_NOTEBOOK + 1), "at most"),
    ],
)
def test_anything_but_a_notebook_is_refused(tmp_path: Path, data: bytes, reason: str) -> None:
    with pytest.raises(HandInError, match=reason):
        HandInStore(tmp_path).hand_in("ada", "04_flips", data)
    assert not list(tmp_path.rglob("*.ipynb"))


def test_names_are_safe_folder_names_by_construction() -> None:
    for typed in ["Ada", "ada lovelace", "Zoë-Ünal", "o'brien", "A_B c", "Åsa 2"]:
        folder = student_folder(typed)
        assert re.fullmatch(r"[a-z0-9][a-z0-9_-]*", folder), folder
    assert exercise_name("04_flips") == "04_flips"
    assert check_notebook(NOTEBOOK)["nbformat"] == 4


def test_every_refusal_is_one_of_the_kits_errors() -> None:
    assert issubclass(HandInError, ReversiError) and issubclass(HandInError, ValueError)


def test_flood_limits_each_address_in_a_sliding_window() -> None:
    now = [0.0]
    flood = Flood(limit=3, window=10.0, clock=lambda: now[0])
    for _ in range(3):
        flood.check("10.0.0.1")
    with pytest.raises(HandInError, match="too many hand-ins from this computer: wait 10 s"):
        flood.check("10.0.0.1")
    flood.check("10.0.0.2")  # another computer is not affected
    now[0] = 10.5
    flood.check("10.0.0.1")


def test_summary_lists_the_last_hand_in_per_student_and_exercise(tmp_path: Path) -> None:
    times = iter([MOMENT, MOMENT + timedelta(minutes=1), MOMENT + timedelta(minutes=2)])
    store = HandInStore(tmp_path, clock=lambda: next(times))
    store.hand_in("Ada", "04_flips", NOTEBOOK)
    store.hand_in("Bob", "04_flips", NOTEBOOK)
    store.hand_in("Ada", "04_flips", NOTEBOOK)
    assert store.summary() == [
        {
            "student": "Ada",
            "exercise": "04_flips",
            "count": 2,
            "last": (MOMENT + timedelta(minutes=2)).isoformat(),
        },
        {
            "student": "Bob",
            "exercise": "04_flips",
            "count": 1,
            "last": (MOMENT + timedelta(minutes=1)).isoformat(),
        },
    ]


def test_what_is_too_deep_or_not_a_set_of_names_is_refused_with_the_reason() -> None:
    with pytest.raises(HandInError, match="nests deeper"):
        check_notebook(b"[" * 100_000 + b"]" * 100_000)  # nested deeper than json can read
