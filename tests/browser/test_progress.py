"""Live class progress and sign-in in real Chromium against ``python -m course serve``: a
student's self-checks reach the teacher's grid live, another student cannot read it, the CSV
has the rows, and a restarted server still shows them; with a roster, two students sign in
with their cards, hand in, self-check and play, and a third browser acts for neither."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from course.roster.model import Roster
from course.roster.signin import SignIns
from course.roster.store import RosterFile
from course.site.build import SiteBuild
from tests.browser.test_lite import (
    D3,
    KERNEL_TIMEOUT,
    LanAddress,
    LitePage,
    LiteServer,
    lan_browser,
)

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
    row = teacher.wait_for_function(
        """([student, pattern]) => {
             const row = Array.from(document.querySelectorAll('#sections tr'))
               .find(r => r.cells[0] && r.cells[0].textContent === student && new RegExp(pattern).test(r.textContent));
             return row ? row.innerText : false;
           }""",
        arg=[student, pattern], timeout=60_000,
    )  # fmt: skip
    return str(row.json_value())


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


@pytest.fixture(scope="module")
def signed(served: LiteServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiteServer, dict[str, str]]]:
    """The same site served to a class with a roster of two, and the codes on their cards."""
    root = tmp_path_factory.mktemp("roster-class")
    roster_file = RosterFile(root / "roster.json")
    roster_file.save(Roster().add("Ada Lovelace", lms_id="101").add("Grace Hopper", lms_id="102"))
    signins = SignIns(roster_file, root / "signin.sqlite")
    cards = {student.key: signins.issue(student.key) for student in roster_file.load()}
    signins.close()
    server = LiteServer(served.site, root / "data", root / "serve.log", roster=root / "roster.json")
    server.start()
    try:
        yield server, cards
    finally:
        server.stop()
        print(server.log.read_text()[-1500:])


FORGERIES = """async ([notebook]) => {
  const post = async (path, body) => (await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                                          body: JSON.stringify(body)})).status;
  const seat = () => new Promise(done => {
    const s = new WebSocket(`ws://${location.host}/room`);
    let got = "";
    s.onopen = () => s.send(JSON.stringify({type: "hello", room: "duel", name: "Ada"}));
    s.onmessage = e => { got += e.data; s.close(); };
    s.onclose = () => done(got);
  });
  const found = {};
  found.handin = await post("/hand-in", {student: "Ada Lovelace", exercise: "01_squares", notebook: notebook});
  found.unnamed = await post("/hand-in", {exercise: "01_squares", notebook: notebook});
  found.report = await post("/progress", {exercise: "01_squares", question: "to_notation", passed: false});
  found.claim = await post("/signin/name", {student: "Ada Lovelace"});
  found.seat = await seat();
  document.cookie = "reversi_session=ada-lovelace; path=/";
  found.forged = await post("/hand-in", {student: "Ada Lovelace", exercise: "01_squares", notebook: notebook});
  found.forged_seat = await seat();
  return found;
}"""


def test_two_students_sign_in_with_their_cards_and_a_third_browser_acts_for_neither(
    signed: tuple[LiteServer, dict[str, str]], browser: Any
) -> None:
    server, cards = signed
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(4)]
    try:
        teacher = contexts[0].new_page()
        teacher.goto(f"{server.base}/teacher#key={teacher_key(server)}")
        teacher.wait_for_function("document.getElementById('status').textContent.startsWith('Live')")

        # Ada types her code at the address; Grace scans her card's QR code (the code after '#').
        ada_page = contexts[1].new_page()
        ada_page.goto(f"{server.base}/")
        assert ada_page.url.endswith("/signin/")
        ada_page.fill("#code", cards["ada-lovelace"].lower().replace("-", ""))
        ada_page.click("button[type=submit]")
        ada_page.wait_for_selector("text=Signed in as Ada Lovelace.")
        grace_page = contexts[2].new_page()
        grace_page.goto(f"{server.base}/signin/#code={cards['grace-hopper']}")
        grace_page.wait_for_selector("text=Signed in as Grace Hopper.")
        assert "code" not in grace_page.url

        ada = LitePage(ada_page, server, "exercises/01_squares.ipynb")
        ada.add_cell(WRONG, timeout=KERNEL_TIMEOUT)
        grid_row(teacher, "Ada Lovelace", r"failing \d+ min, swapped \(1\)")
        receipt = ada.add_cell("from course import hand_in\nhand_in()").locator(".jp-OutputArea")
        ada.page.wait_for_function("e => /Handed in|Not handed in/.test(e.textContent)", arg=receipt.element_handle())
        assert "Handed in: 01_squares by Ada Lovelace" in receipt.inner_text()
        grace = LitePage(grace_page, server, "exercises/01_squares.ipynb")
        grace.add_cell(RIGHT, timeout=KERNEL_TIMEOUT)
        grid_row(teacher, "Grace Hopper", r"ok \(1\)")
        receipt = grace.add_cell('from course import hand_in\nhand_in("Ada Lovelace")').locator(".jp-OutputArea")
        grace.page.wait_for_function("e => /Handed in|Not handed in/.test(e.textContent)", arg=receipt.element_handle())
        assert "you are signed in as Grace Hopper" in receipt.inner_text()

        # They play each other, each seated under the name the server gives.
        for player in (ada, grace):
            player.add_cell('from course import join\nboard = join(room="duel")\nboard', timeout=KERNEL_TIMEOUT)
        for player in (ada, grace):
            player.wait_text(".reversi-seats", r"Black[\s\S]*Ada[\s\S]*White[\s\S]*Grace")
        ada.click_square(ada.canvas(), *D3)
        assert "d3" in grace.wait_text(".reversi-log", "d3")

        # Mallory's browser, by every request it can craft, acts for neither.
        mallory = contexts[3].new_page()
        mallory.goto(f"{server.base}/signin/")
        found = mallory.evaluate(FORGERIES, [{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}])
        assert {k: v for k, v in found.items() if "seat" not in k} == {
            "handin": 403, "unnamed": 403, "report": 403, "claim": 403, "forged": 403}
        for refusal in (found["seat"], found["forged_seat"]):
            assert '"type": "error"' in refusal.replace('":"', '": "') and "not signed in" in refusal
        handins = sorted(p.parent.parent.name for p in (server.data / "handins").rglob("*.ipynb"))
        assert handins == ["ada-lovelace"]

        # After a restart everyone is still signed in, and the teacher sees each student's term.
        server.stop()
        server.start()
        assert ada_page.evaluate("async () => (await (await fetch('/signin/me')).json()).name") == "Ada Lovelace"
        teacher.goto(f"{server.base}/teacher#key={teacher_key(server)}")
        teacher.reload()
        teacher.wait_for_function("document.getElementById('status').textContent.startsWith('Live')")
        sections = teacher.locator("#sections").inner_text()
        assert "Ada Lovelace" in sections and "Grace Hopper" in sections
    finally:
        for context in contexts:
            context.close()
