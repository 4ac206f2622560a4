"""The teacher's override file: both formats, and every malformed line refused with its place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course.grading.handins import GradebookError
from course.grading.overrides import Override, load, parse_text

HEADER = "student_id,question,points,comment\n"


def test_csv_and_json_say_the_same(tmp_path: Path) -> None:
    entries = [
        {"student_id": "ann", "question": "04_flips:flips", "points": 0.5, "comment": "half"},
        {
            "student_id": "bob",
            "question": "01_squares:to_notation",
            "points": None,
            "comment": "hm",
        },
    ]
    (tmp_path / "o.json").write_text(json.dumps(entries), encoding="utf-8")
    (tmp_path / "o.csv").write_text(
        HEADER + "ann,04_flips:flips,0.5,half\nbob,01_squares:to_notation,,hm\n"
    )
    from_json, from_csv = load(tmp_path / "o.json"), load(tmp_path / "o.csv")
    assert (
        [(s, q, o.points, o.comment) for s, q, o in from_json]
        == [(s, q, o.points, o.comment) for s, q, o in from_csv]
        == [("ann", "04_flips:flips", 0.5, "half"), ("bob", "01_squares:to_notation", None, "hm")]
    )
    wrapped = tmp_path / "w.json"
    wrapped.write_text(json.dumps({"overrides": entries}), encoding="utf-8")
    assert load(wrapped).get("ann", "04_flips:flips") == Override(0.5, "half", f"{wrapped} item 1")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            HEADER + "ann,04_flips:flips,nan,\n",
            "o.csv line 2: points must be a number from 0 up, not 'nan'",
        ),
        (HEADER + "ann,04_flips:flips,-1,\n", "o.csv line 2: points must be a number from 0 up"),
        (HEADER + "ann,04_flips:flips,1e999,\n", "o.csv line 2: points must be a number from 0 up"),
        (HEADER + "ann,04_flips:flips,one,\n", "o.csv line 2: points must be a number"),
        (HEADER + ",04_flips:flips,1,\n", "o.csv line 2: student_id must be a non-empty name"),
        (HEADER + "ann,,1,\n", "o.csv line 2: question must be a non-empty name"),
        (HEADER + "ann,q,1,c,extra\n", "o.csv line 2: more cells than columns"),
        (HEADER + "ann,q,1,\nann,q,0,\n", "o.csv line 3: a second override of q for ann"),
        ("who,question,points\n", "o.csv line 1: the header needs the columns"),
        ("student_id,question,grade\nann,q,1\n", "o.csv line 2: unknown column 'grade'"),
        (
            HEADER + "ann,q,1," + "x" * 3000 + "\n",
            "o.csv line 2: the comment must be text of at most",
        ),
    ],
)
def test_a_bad_csv_line_is_named(text: str, message: str) -> None:
    with pytest.raises(GradebookError, match="^" + message.replace("(", "\\(").replace(")", "\\)")):
        parse_text(text, "o.csv")


@pytest.mark.parametrize(
    "data, message",
    [
        ("[" * 100000, "o.json: not valid JSON"),
        ("{", "o.json: not valid JSON"),
        ('{"a": 1}', "o.json: must hold a list of objects"),
        ("[1]", "o.json: must hold a list of objects"),
        (
            '[{"student_id": "a", "question": "q", "points": true}]',
            "o.json item 1: points must be a number",
        ),
        (
            '[{"student_id": "a", "question": "q", "points": [1]}]',
            "o.json item 1: points must be a number",
        ),
        (
            '[{"student_id": 5, "question": "q"}]',
            "o.json item 1: student_id must be a non-empty name",
        ),
        (
            '[{"student_id": "a", "question": "q", "comment": 3}]',
            "o.json item 1: the comment must be text",
        ),
    ],
)
def test_a_bad_json_item_is_named(data: str, message: str) -> None:
    with pytest.raises(GradebookError, match="^" + message):
        parse_text(data, "o.json")


def test_only_csv_or_json_and_only_a_regular_utf8_file(tmp_path: Path) -> None:
    with pytest.raises(GradebookError, match="a .csv or a .json file"):
        parse_text("", "o.txt")
    latin = tmp_path / "o.csv"
    latin.write_bytes(HEADER.encode() + "ann,q,1,caf\xe9\n".encode("latin-1"))
    with pytest.raises(GradebookError, match="must be UTF-8"):
        load(latin)
    link = tmp_path / "l.csv"
    link.symlink_to(latin)
    with pytest.raises(GradebookError, match="a symlink"):
        load(link)
