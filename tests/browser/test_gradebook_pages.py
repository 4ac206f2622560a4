"""The gradebook's pages in a real Chromium, opened from disk as a teacher opens them.

The class summary page and a feedback page are written by the gradebook (with a
stand-in grader: see tests/course/gradebook/fakes.py), then opened with ``file://``.
They must draw their charts and boards (inline SVG with a real size on screen), run no
script, ask the network for nothing, and pass axe-core's WCAG checks (tests/browser/axe.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from course.grading import feedback
from course.grading.gradebook import Choices, grade_folder
from course.grading.records import Case, CheckResult, Failure, Report
from reversi import Board
from tests.browser.axe import assert_accessible
from tests.course.gradebook.fakes import FakeGrader, notebook, total, write
from tests.course.gradebook.test_feedback import _question

pytestmark = pytest.mark.browser


def _open(page: Any, path: Path) -> list[str]:
    """Open ``path`` from disk; the URLs of every request the page made besides itself."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return [url for url in asked if url != path.as_uri()]


def test_the_summary_page_draws_its_charts(tmp_path: Path, page: Any) -> None:
    folder = tmp_path / "subs"
    to = total("01_squares", "to_notation")
    for index, passed in enumerate([to, to, 0, 5]):
        write(
            notebook("01_squares", f"s{index}", to_notation=passed),
            folder / f"s{index}" / "01_squares.ipynb",
        )
    grade_folder(folder, tmp_path / "grades.csv", grader=FakeGrader(), choices=Choices(), say=print)
    assert _open(page, tmp_path / "grades-summary.html") == []
    assert page.evaluate("document.scripts.length") == 0
    heading = page.get_by_role("heading", name="Pass rate per question")
    assert heading.is_visible()
    bars = page.locator("table svg rect.bar")
    assert bars.count() == 2
    widths = [bars.nth(i).bounding_box()["width"] for i in range(2)]
    assert widths[0] == pytest.approx(200 * 2 / 4, abs=1)  # to_notation: 2 of 4 passed
    assert widths[1] == 0  # from_notation: nobody
    histogram = page.get_by_role("img", name="histogram of totals")
    box = histogram.bounding_box()
    assert box["width"] > 300 and box["height"] > 150
    assert page.locator("svg[aria-label='histogram of totals'] rect.bar").count() == 10
    assert_accessible(page, "the class summary page")


def test_a_feedback_page_shows_the_board_of_a_failed_case(tmp_path: Path, page: Any) -> None:
    case = Case("the corner", ("a1",), 3, Board(), ("a1",))
    hidden = Case("hidden [grade-time case]", ("h8",), 1)
    result = CheckResult("check:play", False, "2 of 2 cases failed", 0, 2,
                         [Failure(case, 2), Failure(hidden, 0)], _question([case], [hidden]))  # fmt: skip
    path = tmp_path / "ann.html"
    path.write_text(feedback.page("Ann <b>", [feedback.section(Report(path, "05_play", [result]))]))
    assert _open(page, path) == []
    assert page.get_by_role("heading", name="Feedback for Ann <b>").is_visible()
    board = page.locator(".case svg")
    assert board.count() == 1
    box = board.bounding_box()
    assert box["width"] == pytest.approx(220, abs=1) and box["height"] == pytest.approx(220, abs=1)
    assert page.get_by_text("Likely cause: off by one").is_visible()
    assert page.get_by_text("1 grade-time case failed (1 wrong answer)").is_visible()
    assert "h8" not in page.inner_text("body")
    assert_accessible(page, "a feedback page")
