"""The teacher's overview page in a real browser: live rooms, and its buttons acting on them."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from course.classroom.client import RoomClient
from tests.course.classroom.server_process import ServerProcess

pytestmark = pytest.mark.browser

TIMEOUT = 15_000


class Class:
    """Ada, Bob and Cy in room t1, driven from their own thread and event loop while the page is open."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.new_event_loop()
        self.clients: dict[str, RoomClient] = {}
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def do(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    async def join(self) -> None:
        for name, watch in (("Ada", False), ("Bob", False), ("Cy", True)):
            self.clients[name] = await RoomClient(self.url, "t1", name, watch=watch).connect()
        await self.clients["Ada"].move("d3")
        await self.clients["Bob"].until(lambda s: s["game"]["plies"] == 1)
        await self.clients["Bob"].say("a rude line")
        await self.clients["Cy"].wait_for(
            lambda m: m["type"] == "chat" and m["text"] == "a rude line"
        )

    def stop(self) -> None:
        for client in self.clients.values():
            asyncio.run_coroutine_threadsafe(client.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def class_server(tmp_path: Path):
    server = ServerProcess(tmp_path / "data", grace=60, move_time=60).start()
    yield server
    server.stop()


def test_the_overview_shows_rooms_live_and_its_buttons_moderate(page, class_server) -> None:
    students = Class(class_server.url)
    try:
        students.do(students.join())
        http = class_server.url.replace("ws://", "http://")
        page.goto(f"{http}/teacher")
        page.fill("#key", "wrong")
        page.click("#login button")
        page.wait_for_function("document.getElementById('status').textContent.includes('not the teacher key')",
                               timeout=TIMEOUT)  # fmt: skip
        page.goto(f"{http}/teacher#key={class_server.key}")
        page.reload()
        room = page.locator('.room[data-room="t1"]')
        room.locator(".line", has_text="Bob: a rude line").wait_for(timeout=TIMEOUT)
        assert room.locator(".cell.B").count() == 4 and room.locator(".cell.W").count() == 1
        assert "black: Ada" in room.inner_text() and "white: Bob" in room.inner_text()

        chat = room.locator(".chat")
        at_bottom = "c => c.scrollHeight > c.clientHeight && c.scrollTop + c.clientHeight >= c.scrollHeight - 2"
        for number in range(4):  # long lines wrap: more than the chat box shows at once
            students.do(students.clients["Bob"].say(f"line {number} " + "and more words " * 12))
        room.locator(".line", has_text="line 3 ").wait_for(timeout=TIMEOUT)
        assert chat.evaluate(at_bottom), chat.evaluate("c => [c.scrollTop, c.clientHeight, c.scrollHeight]")
        students.do(students.clients["Ada"].say("the newest line"))
        room.locator(".line", has_text="the newest line").wait_for(timeout=TIMEOUT)
        assert chat.evaluate(at_bottom)  # it follows the newest line, live

        students.do(students.clients["Bob"].move("c5"))  # live: no reload
        page.wait_for_function("document.querySelectorAll('[data-room=t1] .cell.W').length === 3",
                               timeout=TIMEOUT)  # fmt: skip

        room.locator(".line", has_text="a rude line").locator("button.unsay").click()
        room.locator(".line", has_text="a rude line").wait_for(state="detached", timeout=TIMEOUT)
        students.do(students.clients["Cy"].wait_for(lambda m: m["type"] == "unsaid"))
        assert "a rude line" not in [line["text"] for line in students.clients["Cy"].chat]

        room.locator('.person[data-name="Bob"] button.mute').click()
        room.locator('.person[data-name="Bob"] button.unmute').wait_for(timeout=TIMEOUT)
        bob = students.clients["Bob"]
        mark = len(bob.received)
        students.do(bob.say("more"))
        error = students.do(bob.wait_for(lambda m: m["type"] == "error", since=mark))
        assert "muted" in error["message"]

        room.locator('.person[data-name="Cy"] button.kick').click()
        students.do(students.clients["Cy"].wait_for(lambda m: m["type"] == "closed"))
        room.locator('.person[data-name="Cy"]').wait_for(state="detached", timeout=TIMEOUT)

        room.locator("button.close").click()
        page.locator('.room[data-room="t1"]').wait_for(state="detached", timeout=TIMEOUT)
        closed = students.do(students.clients["Ada"].wait_for(lambda m: m["type"] == "closed"))
        assert closed["reason"] == "the teacher closed the room"
    finally:
        students.stop()
