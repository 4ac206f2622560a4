"""Two pages of one JupyterLab (two notebooks, two kernels) join the same room of a class server.

A click on one board shows the move on the other, which updates while no cell
runs in its notebook (the client's receiving task runs on the kernel's asyncio
loop); the undo confirm appears on the opponent's page only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from course.board.view import BoardGeometry
from reversi import square
from tests.browser.conftest import NotebookPage
from tests.course.classroom.server_process import ServerProcess

pytestmark = pytest.mark.browser

DARK = (20, 20, 20, 255)
LIGHT = (244, 244, 244, 255)
GREEN = (46, 139, 87, 255)
HINT = (255, 240, 122, 255)
GEOMETRY = BoardGeometry.fit(8)
TIMEOUT = 20_000


def centre(name: str) -> tuple[int, int]:
    x, y = GEOMETRY.centre(square(name, 8))
    return int(x), int(y)


def notebook(server, path: str, url: str, name: str) -> str:
    return server.write_notebook(path, [
        "from course import join",
        f'board = join("{url}", room="duo", name="{name}")\nboard',
    ])  # fmt: skip


def no_cell_running(nb: NotebookPage) -> bool:
    return nb.page.evaluate(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   const k = w.sessionContext.session.kernel;
                   return k.status === 'idle' && !w.content.widgets.some(
                       c => c.model.type === 'code' && c.model.executionState === 'running'); }"""
    )


def visible(nb: NotebookPage, selector: str) -> bool:
    return nb.page.locator(selector).first.is_visible()


@pytest.fixture
def room_server(tmp_path: Path):
    server = ServerProcess(tmp_path / "room-data", grace=60, move_time=None).start()
    yield server
    server.stop()


def test_two_kernels_play_in_one_room(jupyter_server, page, browser, room_server, monkeypatch):
    ada_path = notebook(jupyter_server, "scratch/room_ada.ipynb", room_server.url, "Ada")
    bob_path = notebook(jupyter_server, "scratch/room_bob.ipynb", room_server.url, "Bob")
    ada = NotebookPage(page, jupyter_server, ada_path).open()
    ada.run_all()
    ada.wait_text(".reversi-room-title", "you play Black", timeout=TIMEOUT)

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        monkeypatch.setattr(jupyter_server, "delete_sessions", lambda: None)  # keep Ada's kernel
        bob = NotebookPage(context.new_page(), jupyter_server, bob_path).open()
        bob.run_all()
        bob.wait_text(".reversi-room-title", "you play White", timeout=TIMEOUT)
        ada.wait_text(".reversi-status", "Your move.", timeout=TIMEOUT)
        assert len(jupyter_server.sessions()) == 2  # two notebooks, two kernels

        ada_canvas, bob_canvas = ada.canvas(0), bob.canvas(0)
        ada.wait_pixel(ada_canvas, *centre("d3"), HINT)  # Ada's legal moves are marked...
        bob.wait_pixel(bob_canvas, *centre("e4"), DARK, tolerance=8)
        assert bob.pixel(bob_canvas, *centre("d3")) == GREEN  # ...not Bob's, who must wait

        bob.wait_idle()
        ada.click_canvas(ada_canvas, *centre("d3"))
        bob.wait_pixel(bob_canvas, *centre("d3"), DARK, tolerance=8, timeout=TIMEOUT)
        assert no_cell_running(bob), "Bob's board must update with no cell running"
        bob.wait_pixel(bob_canvas, *centre("d4"), DARK, tolerance=8)
        bob.wait_text(".reversi-pawns", lambda t: re.search(r"Black:\s*4\b\s*White:\s*1\b", t) is not None)
        bob.wait_text(".reversi-status", "Your move.")

        bob.click_canvas(bob_canvas, *centre("a1"))  # illegal: refused, on Bob's page only
        bob.wait_text(".reversi-status", "'a1' is not a legal move for White")
        ada.click_canvas(ada_canvas, *centre("c5"))  # out of turn
        ada.wait_text(".reversi-status", "it is White's turn, not yours (Black)")

        bob.click_canvas(bob_canvas, *centre("c5"))
        ada.wait_pixel(ada_canvas, *centre("c5"), LIGHT, tolerance=8, timeout=TIMEOUT)
        assert no_cell_running(ada)

        ada.page.locator(".reversi-undo button, button.reversi-undo").first.click()
        bob.wait_text(".reversi-question", "Ada asks to take back their last move", timeout=TIMEOUT)
        assert visible(bob, ".reversi-undo-answer")
        ada.wait_text(".reversi-status", "You asked to undo; waiting for Bob's answer.")
        assert not visible(ada, ".reversi-undo-answer")  # the asker sees no confirm box
        # each page's status line fits it: Bob, who must answer, is not told to wait for an answer
        status = bob.wait_text(".reversi-status", "Ada asks to take back their last move: answer below.")
        assert "waiting" not in status

        bob.page.locator(".reversi-accept button, button.reversi-accept").first.click()
        ada.wait_pixel(ada_canvas, *centre("d3"), HINT, timeout=TIMEOUT)  # back to the start
        bob.wait_pixel(bob_canvas, *centre("d3"), GREEN, timeout=TIMEOUT)
        bob.wait_pixel(bob_canvas, *centre("c5"), GREEN)
        assert not visible(bob, ".reversi-undo-answer")
        ada.wait_text(".reversi-chat", "Bob accepts Ada's undo request")
        bob.page.locator(".reversi-chat-input input").fill("well asked")
        bob.page.locator(".reversi-chat-send button, button.reversi-chat-send").first.click()
        ada.wait_text(".reversi-chat", "Bob: well asked", timeout=TIMEOUT)
        long_line = "and " + "wraps-" * 30 + "end"  # one long word: it must wrap, not be clipped
        ada.page.locator(".reversi-chat-input input").fill(long_line)
        ada.page.locator(".reversi-chat-input input").press("Enter")  # Enter sends
        bob.wait_text(".reversi-chat", "Ada: " + long_line, timeout=TIMEOUT)
        panel = bob.page.locator(".reversi-chat").first
        widths = panel.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1] + 1, f"the chat panel scrolls sideways: {widths}"
        ada.page.wait_for_function(  # the kernel empties the box once the line is sent
            "() => document.querySelector('.reversi-chat-input input').value === ''",
            timeout=TIMEOUT,
        )
        assert ada.errors() == [] and bob.errors() == []
    finally:
        context.close()
