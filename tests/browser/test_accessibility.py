"""Accessibility measured: axe-core's WCAG 2.x A and AA rules on the kit's own web pages.

The sign-in page (signed out and signed in), the teacher's overview with a live room and
its game, and the printable sign-in cards, each in a real Chromium (see tests/browser/axe.py;
the gradebook's pages are audited in test_gradebook_pages.py).  No serious or critical
violation is allowed; the lesser ones are printed (``pytest -s``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from course.roster.cards import cards_html
from tests.browser.axe import assert_accessible
from tests.browser.test_teacher_overview import Class as Room
from tests.course.classroom.server_process import ServerProcess
from tests.course.site.test_signin import Class
from tests.ports import free_port

pytestmark = pytest.mark.browser

TIMEOUT = 15_000


class Served:
    """A Starlette app served by uvicorn on 127.0.0.1 from a thread of its own, until :meth:`stop`."""

    def __init__(self, app: Any) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


@pytest.fixture
def school(tmp_path: Path) -> Iterator[tuple[Class, Served]]:
    school = Class(tmp_path)
    served = Served(school.app)
    yield school, served
    served.stop()


def test_the_sign_in_page_signed_out_and_signed_in(page: Any, school: tuple[Class, Served]) -> None:
    roster, served = school
    page.goto(f"{served.url}/signin/")
    page.locator("#code").wait_for(timeout=TIMEOUT)
    assert_accessible(page, "the sign-in page, signed out")

    page.fill("#code", "K7QM4-XRT9Q")  # a wrong code: the page says why, in the status line
    page.click("button[type=submit]")
    page.locator("#status.bad").wait_for(timeout=TIMEOUT)
    assert_accessible(page, "the sign-in page, a code refused")

    page.fill("#code", next(iter(roster.codes.values())))
    page.click("button[type=submit]")
    page.locator("#in").wait_for(timeout=TIMEOUT)
    assert page.locator("#name").inner_text() == "Ada Lovelace"
    assert_accessible(page, "the sign-in page, signed in")


@pytest.fixture
def class_server(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data", grace=60, move_time=60).start()
    yield server
    server.stop()


def test_the_teacher_overview_with_a_room_and_its_game(page: Any, class_server: ServerProcess) -> None:
    http = class_server.url.replace("ws://", "http://")
    page.goto(f"{http}/teacher")
    page.locator("#key").wait_for(timeout=TIMEOUT)
    assert_accessible(page, "the teacher overview, before the key")

    students = Room(class_server.url)
    try:
        students.do(students.join())  # Ada and Bob play in t1, Cy watches; a chat line
        page.goto(f"{http}/teacher#key={class_server.key}")
        page.reload()
        room = page.locator('.room[data-room="t1"]')
        room.locator(".line", has_text="Bob: a rude line").wait_for(timeout=TIMEOUT)
        assert room.locator(".cell.B").count() == 4
        assert_accessible(page, "the teacher overview, live")

        students.do(students.clients["Ada"].undo())  # a pending question, a player away, a muted one
        students.do(students.clients["Bob"].drop())
        room.locator(".undo").wait_for(timeout=TIMEOUT)
        room.locator(".seat .away").wait_for(timeout=TIMEOUT)
        mute = room.locator('.person[data-name="Cy"] button.mute')
        mute.focus()
        page.keyboard.press("Enter")  # by keyboard: the redrawn room gives the focus back
        room.get_by_role("button", name="Unmute Cy").wait_for(timeout=TIMEOUT)
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Unmute Cy"
        assert_accessible(page, "the teacher overview, an undo asked and a player away")
    finally:
        students.stop()


def test_the_printable_sign_in_cards(page: Any, tmp_path: Path) -> None:
    from course.roster.model import Student

    people = [(Student(f"s{n}", name), f"K7QM{n}-XRT9P") for n, name in
              enumerate(["Ada Lovelace", "Grace Hopper", "Zoë Martin", "O'Brien & Søn", "李雷"] * 3)]  # fmt: skip
    path = tmp_path / "cards.html"
    path.write_text(cards_html(people, "http://192.168.1.20:8765/"), encoding="utf-8")
    page.goto(path.as_uri())
    assert page.locator(".card").count() == 15
    assert_accessible(page, "the sign-in cards")
