"""The grader's side of the table of mistake kinds: a few of test_mistakes.py's wrong answers
handed in and graded for real (``python -m course grade``, the sandbox), whose feedback pages
must name the same cause the self-check names, in the same words."""

from __future__ import annotations

import csv
from html import escape
from pathlib import Path

import pytest

from course.grading.mistakes import sentence
from course.grading.precheck import kit_import

from .helpers import course, source, with_answers, write
from .test_mistakes import KINDS, KIT_FLIPS, NO_MINUS, NOT_RAISING


@pytest.mark.slow
def test_graded_pages_name_the_self_checks_causes(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    handins = {
        "swap": ("01_squares", {"answer:to_notation": KINDS[0].code}),
        "kit": ("04_flips", {"answer:flips": KIT_FLIPS["in the cell"]}),
        "inside": ("04_flips", {"answer:flips": KIT_FLIPS["when called"]}),
        "sign": ("09_minimax", {"answer:minimax": NO_MINUS}),
        "play": ("05_play", {"answer:play": NOT_RAISING["no refusal at all"][0]}),
    }
    for who, (exercise, answers) in handins.items():
        write(with_answers(source(exercise), answers), folder / who / f"{exercise}.ipynb")
    out, pages = tmp_path / "grades.csv", tmp_path / "pages"
    result = course("grade", str(folder), "--out", str(out), "--seed", "5",
                    "--feedback", str(pages), "--timeout", "20")  # fmt: skip
    assert result.returncode == 0, result.stderr
    with open(out, newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    read = {who: (pages / f"{who}.html").read_text(encoding="utf-8") for who in handins}

    assert rows["swap"]["01_squares:to_notation"] == "0"
    assert f"Likely cause: {escape(sentence('swapped'))}" in read["swap"]
    assert "Likely cause: off by one" not in read["swap"]

    assert rows["kit"]["04_flips:flips"] == "0"
    assert escape(kit_import("flips", "reversi")) in read["kit"]
    assert "No module named" not in read["kit"]

    assert rows["inside"]["04_flips:flips"] == "0"
    assert f"<td>{escape(kit_import('flips', 'reversi'))}</td>" in read["inside"]
    assert f"Likely cause: {escape(kit_import('flips', 'reversi'))}" in read["inside"]

    assert rows["sign"]["09_minimax:minimax_nodes"] == "0"
    assert f"Likely cause: {escape(sentence('wrong sign'))}" in read["sign"]
    assert float(rows["play"]["05_play:play"]) < 2  # partial credit at most
    assert "should raise ValueError and leave the board as it was" in read["play"]
    assert "should be empty; yours is Black" in read["play"]
    assert "a b c d e f g h" not in read["play"]  # the boards as squares that differ
    for page in read.values():
        assert "Traceback" not in page and "Raises(" not in page
        assert "<tr><th>question</th>" in page
