"""Live class progress in real Chromium against ``python -m course serve``: a student's
self-checks reach the teacher's grid live, another student cannot read it, the CSV has
the rows, and a restarted server still shows them."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from course.site.build import SiteBuild
from tests.browser.test_lite import KERNEL_TIMEOUT, LanAddress, LitePage, LiteServer, lan_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["lan_browser"]  # the fixture, used here

WRONG = """from course.grading import checks
def to_notation(row, col):
    return "abcdefgh"[row] + str(col + 1)
checks.to_notation(to_notation)"""
RIGHT = WRONG.replace('"abcdefgh"[row] + str(col + 1)', '"abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1)')
GRID = "#sections td"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiteServer]:
    root = tmp_path_factory.mktemp("progress")
    SiteBuild(out=root / "site", say=lambda line: print(f"[site] {line}")).run()
    server = LiteServer(root / "site", root / "data", root / "serve.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        print(server.log.read_text()[-1500:])


def teacher_key(server: LiteServer) -> str:
    keys = re.findall(r"Teacher key: (\S+)", server.log.read_text())
    assert keys, server.log.read_text()[-1500:]
    return str(keys[-1])


def csv_text(server: LiteServer, key: str) -> str:
    with urllib.request.urlopen(f"{server.base}/teacher/progress.csv?key={key}", timeout=10) as answer:
        return str(answer.read().decode())


def grid_row(teacher: Any, student: str, pattern: str) -> str:
    """Wait (no reload) until the teacher's grid has ``student``'s row matching ``pattern``."""
    teacher.wait_for_function(
        """([student, pattern]) => Array.from(document.querySelectorAll('#sections tr'))
             .some(r => r.cells[0] && r.cells[0].textContent === student && new RegExp(pattern).test(r.textContent))""",
        arg=[student, pattern], timeout=60_000,
    )  # fmt: skip
    return str(teacher.locator("#sections tr", has_text=student).first.inner_text())


def test_self_checks_reach_the_teachers_grid_live_and_survive_a_restart(served: LiteServer, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(3)]
    try:
        teacher = contexts[0].new_page()
        teacher.goto(f"{served.base}/teacher#key={teacher_key(served)}")
        teacher.wait_for_function("document.getElementById('status').textContent.startsWith('Live')")

        ada = LitePage(contexts[1].new_page(), served, "exercises/01_squares.ipynb")
        ada.add_cell('from course.site.progress_client import my_name\nmy_name("Ada")', timeout=KERNEL_TIMEOUT)
        ada.add_cell(WRONG)
        started = time.monotonic()
        failing = grid_row(teacher, "Ada", r"failing \d+ min, swapped \(1\)")
        print(f"self-check done to the teacher's grid: {time.monotonic() - started:.2f} s")
        assert "to_notation" in teacher.locator("#sections th", has_text="to_notation").first.inner_text()
        passed = ada.add_cell(RIGHT).locator(".jp-OutputArea").inner_text()
        assert "Self-check failed" not in passed, passed
        assert "ok (2)" in grid_row(teacher, "Ada", r"ok \(2\)"), failing
        assert "def to_notation" not in teacher.locator("#sections").inner_text()  # never the code

        # another student's page can read neither the CSV nor the live overview
        bo = contexts[2].new_page()
        bo.goto(f"{served.base}/lab/index.html?path=exercises/01_squares.ipynb")
        status = bo.evaluate("async () => (await fetch('/teacher/progress.csv')).status")
        assert status == 403
        refused = bo.evaluate(
            """() => new Promise(done => {
                 const s = new WebSocket(`ws://${location.host}/teacher/live`);
                 let got = '';
                 s.onopen = () => s.send(JSON.stringify({key: 'guess'}));
                 s.onmessage = e => { got += e.data; };
                 s.onclose = () => done(got);
               })"""
        )
        assert "not the teacher key" in refused and "Ada" not in refused

        rows = csv_text(served, teacher_key(served)).splitlines()
        assert rows[0] == "time,student,exercise,question,passed,mistake"
        assert [r.split(",", 1)[1] for r in rows[1:]] == [
            "Ada,01_squares,to_notation,no,swapped",
            "Ada,01_squares,to_notation,yes,",
        ]

        served.stop()
        served.start()
        teacher.goto(f"{served.base}/teacher#key={teacher_key(served)}")
        teacher.reload()
        assert "ok (2)" in grid_row(teacher, "Ada", r"ok \(2\)")
        assert len(csv_text(served, teacher_key(served)).splitlines()) == 3
    finally:
        for context in contexts:
            context.close()


def test_on_a_plain_http_lan_address_a_student_without_a_name_reports_nothing_then_reports(
    served: LiteServer, lan_browser: Any
) -> None:
    context = lan_browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        bo = LitePage(page, LanAddress(served), "exercises/01_squares.ipynb")  # type: ignore[arg-type]
        assert page.evaluate("isSecureContext") is False
        before = csv_text(served, teacher_key(served))
        quiet = bo.add_cell(WRONG, timeout=KERNEL_TIMEOUT).locator(".jp-OutputArea").inner_text()
        assert "Self-check failed" in quiet and "my_name" not in quiet  # no name yet: nothing said, nothing kept
        assert csv_text(served, teacher_key(served)) == before
        bo.add_cell('from course.site.progress_client import my_name\nmy_name("Bo")')
        bo.add_cell(RIGHT)
        deadline = time.monotonic() + 30
        while "Bo,01_squares" not in csv_text(served, teacher_key(served)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert csv_text(served, teacher_key(served)).splitlines()[-1].endswith(",Bo,01_squares,to_notation,yes,")
    finally:
        context.close()
