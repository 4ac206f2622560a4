"""The class summary page speaks the teacher's language: French words under KIT_LANG=fr, the
sheet's figures and columns as they are."""

from __future__ import annotations

import re

import pytest

from course.grading import summary

COLUMNS = {"01_squares": {"01_squares:to_notation": 1.0, "01_squares:from_notation": 1.0}}
ROWS = [{"student_id": name, "points": str(points), "01_squares:handed_in": "yes",
         "01_squares:to_notation": str(to), "01_squares:from_notation": "1"}
        for name, points, to in (("ann", 2, 1), ("bob", 1, 0), ("cid", 2, 1))]  # fmt: skip


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_summary_page_in_the_teacher_s_language(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    monkeypatch.setenv("KIT_LANG", language)
    page = summary.page(ROWS, COLUMNS, "title")
    french = language == "fr"
    assert f'<html lang="{language}">' in page
    said = ("3 élèves ; total moyen : 1.67 sur 2 points." if french
            else "3 students; mean total 1.67 of 2 points.")  # fmt: skip
    assert f"<p>{said}</p>" in page
    heads = (["question", "élèves qui l’ont réussie", "part", "points moyens"] if french
             else ["question", "students who passed", "share", "mean points"])  # fmt: skip
    assert "<tr>" + "".join(f"<th>{head}</th>" for head in heads) + "</tr>" in page
    of = "sur" if french else "of"
    assert f"01_squares:to_notation</td><td class='n'>2 {of} 3</td>" in page
    assert ("Taux de réussite par question" in page) is french
    assert ("Pass rate per question" in page) is not french
    bars = re.findall(r"<title>de ([\d.]+) à ([\d.]+) : (\d+)</title>" if french
                      else r"<title>([\d.]+) to ([\d.]+): (\d+)</title>", page)  # fmt: skip
    assert len(bars) == 10 and sum(int(count) for *_, count in bars) == 3
