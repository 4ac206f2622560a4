"""The kit on a real JupyterHub, in Chromium through the hub's address: two students and a teacher.

The hub (tests/hub.py: the ``jupyterhub`` package, configurable-http-proxy from npm, local
processes, DummyAuthenticator with an allowed list) spawns each student's JupyterLab with
``course.hub.singleuser`` (the lessons copied into their home) and runs the class service.
The students log in, open lesson 00 and see its board, run a self-check, hand in and play
each other; the teacher signs in to the service through the hub and sees them; a student's
token acts for nobody else, a request without one is refused; the hand-ins grade.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_lite import CELL_TIMEOUT, D3, KERNEL_TIMEOUT, VISIBLE, LitePage
from tests.hub import PASSWORD, Hub

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WRONG = """from course.grading import checks
def to_notation(row, col):
    return "abcdefgh"[row] + str(col + 1)
checks.to_notation(to_notation)"""
RIGHT = WRONG.replace('"abcdefgh"[row] + str(col + 1)', '"abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1)')
#: Run in Grace's kernel: her own token, trying to act for Ada and to read Ada's hand-ins.
AS_ADA = """import json, os, urllib.request, urllib.error
def ask(path, body=None):
    request = urllib.request.Request(os.environ["REVERSI_CLASS_SERVER"] + path,
        None if body is None else json.dumps(body).encode(),
        {"Content-Type": "application/json", "Authorization": "token " + os.environ["JUPYTERHUB_API_TOKEN"]},
        method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code
print("AS-ADA", ask("/hand-in", {"student": "ada", "exercise": "01_squares", "notebook": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}),
      ask("/teacher/handins"), ask("/teacher/progress.csv"))"""


class HubPage(LitePage):
    """A notebook of a user's JupyterLab on the hub, driven like the browser classroom's."""

    def __init__(self, page: Any, hub: Hub, user: str, path: str) -> None:
        self.page, self.server, self.path = page, hub, path  # type: ignore[assignment]
        self.console = []
        page.on("console", lambda m: self.console.append(f"[{m.type}] {m.text}"))
        page.goto(f"{hub.base}/user/{user}/lab/tree/{path}")
        page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell").first.wait_for(timeout=KERNEL_TIMEOUT)

    def add_cell(self, code: str, timeout: int = CELL_TIMEOUT) -> Any:
        """Insert a code cell at the top through JupyterLab's own commands, run it, wait for it."""
        cell = self.page.evaluate(
            """async ([code, path]) => {
                 const app = window.jupyterapp;
                 let panel = null;
                 for (let tries = 0; !panel && tries < 300; tries++) {
                   panel = Array.from(app.shell.widgets("main")).find((w) => w.context && w.context.path.endsWith(path));
                   if (!panel) await new Promise((done) => setTimeout(done, 200));
                 }
                 app.shell.activateById(panel.id);
                 await panel.context.ready;
                 await panel.sessionContext.ready;
                 panel.content.activeCellIndex = 0;
                 await app.commands.execute("notebook:insert-cell-above");
                 await app.commands.execute("notebook:change-cell-to-code");
                 const cell = panel.content.activeCell;
                 cell.model.sharedModel.setSource(code);
                 app.commands.execute("notebook:run-cell");
                 return cell.model.id;
               }""",
            [code, self.path],
        )
        self.page.wait_for_function(
            """([id, path]) => {
                 const panel = Array.from(window.jupyterapp.shell.widgets("main"))
                   .find((w) => w.context && w.context.path.endsWith(path));
                 const cell = panel && panel.content.widgets.find((c) => c.model.id === id);
                 return cell && cell.model.executionCount !== null;
               }""",
            arg=[cell, self.path], timeout=timeout,
        )  # fmt: skip
        return self.cells().first


def log_in(context: Any, hub: Hub, user: str) -> Any:
    page = context.new_page()
    page.goto(f"{hub.base}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{user}/lab**", timeout=KERNEL_TIMEOUT)
    return page


def output(cell: Any) -> str:
    try:
        cell.locator(".jp-OutputArea-output").first.wait_for(timeout=CELL_TIMEOUT)
        return str(cell.locator(".jp-OutputArea").inner_text())
    except Exception:
        cell.page.screenshot(path="test-artifacts/hub-failure.png", full_page=True)
        raise


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    running = Hub(tmp_path_factory.mktemp("hub"))
    running.start()
    try:
        yield running
    finally:
        running.stop()
        print(running.log.read_text()[-3000:])


def test_two_students_and_a_teacher_go_from_the_lesson_to_the_grade_through_the_hub(
    hub: Hub, browser: Any, tmp_path: Path
) -> None:
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(3)]
    try:
        ada_page, grace_page = log_in(contexts[0], hub, "ada"), log_in(contexts[1], hub, "grace")
        assert (hub.home("ada") / "reversi" / "lessons" / "00_welcome.ipynb").is_file()

        lesson = HubPage(ada_page, hub, "ada", "reversi/lessons/00_welcome.ipynb")
        lesson.add_cell("from course import play\nplay()", timeout=KERNEL_TIMEOUT)
        lesson.canvas()  # the board is drawn
        ada_page.close()

        ada = HubPage(contexts[0].new_page(), hub, "ada", "reversi/exercises/01_squares.ipynb")
        failed = ada.add_cell(WRONG, timeout=KERNEL_TIMEOUT)
        assert "Self-check failed" in output(failed)
        handed = ada.add_cell("from course import hand_in\nhand_in()", timeout=CELL_TIMEOUT)
        assert "Handed in: 01_squares by ada" in output(handed), output(handed)

        grace = HubPage(grace_page, hub, "grace", "reversi/exercises/01_squares.ipynb")
        grace.add_cell(RIGHT, timeout=KERNEL_TIMEOUT)
        handed = grace.add_cell("from course import hand_in\nhand_in()")
        assert "Handed in: 01_squares by grace" in output(handed), output(handed)
        refused = grace.add_cell('hand_in("ada")')
        assert "you are logged in to the hub as grace" in output(refused)
        probes = grace.add_cell(AS_ADA)
        assert "AS-ADA 403 403 403" in output(probes), output(probes)

        for player in (ada, grace):
            player.add_cell('from course import join\nboard = join(room="duel")\nboard', timeout=KERNEL_TIMEOUT)
        for player in (ada, grace):
            player.wait_text(".reversi-seats", r"Black[\s\S]*ada[\s\S]*White[\s\S]*grace")
        ada.click_square(ada.canvas(), *D3)
        assert "d3" in grace.wait_text(".reversi-log", "d3")

        # No token, no service: a request from outside the hub acts for nobody.
        request = urllib.request.Request(f"{hub.service}/hand-in", json.dumps({"exercise": "01_squares", "notebook": {}}).encode(),
                                         {"Content-Type": "application/json"}, method="POST")  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as outside:
            urllib.request.urlopen(request, timeout=20)
        assert outside.value.code == 403

        teacher = log_in(contexts[2], hub, hub.teacher)
        teacher.goto(f"{hub.service}/")
        teacher.wait_for_function("document.getElementById('status').textContent.startsWith('Live')", timeout=60_000)
        sections = teacher.locator("#sections").inner_text()
        assert "ada" in sections and "grace" in sections and "duel" in teacher.content()
        handins = sorted(p.parent.parent.name for p in (hub.data / "handins").rglob("*.ipynb"))
        assert handins == ["ada", "grace"]

        graded = subprocess.run(
            [sys.executable, "-m", "course", "grade", str(hub.data / "handins"), "--out", str(tmp_path / "grades.csv"),
             "--no-roster", "--jobs", "2"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert graded.returncode == 0, graded.stdout + graded.stderr
        sheet = (tmp_path / "grades.csv").read_text()
        assert "ada" in sheet and "grace" in sheet
    finally:
        for context in contexts:
            context.close()
