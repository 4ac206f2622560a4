"""The "what the computer thinks" toggle in a real Chromium: the report while the hard level
thinks, and Stop taking effect while it does."""

from __future__ import annotations

import re

import pytest

from course.board.view import BoardGeometry

pytestmark = pytest.mark.browser

TIMEOUT = 20_000  # ms
GEOMETRY = BoardGeometry.fit(8)

CELLS = [
    """\
from course import play
from reversi.players import Hard
board = play(white=Hard(time_limit=4.0), black_name="Ada", animate=False)
board
""",
]


def centre(name: str) -> tuple[int, int]:
    from reversi import square

    x, y = GEOMETRY.centre(square(name, 8))
    return int(x), int(y)


def expect_text(locator, pattern: str, timeout: int = TIMEOUT) -> str:
    from playwright.sync_api import expect

    expect(locator).to_have_text(re.compile(pattern, re.S), timeout=timeout)
    return locator.inner_text()


def test_the_toggle_shows_the_search_and_stop_ends_it(jupyter_server, notebook_page):
    path = jupyter_server.write_notebook("scratch/thinking_panel.ipynb", CELLS)
    nb = notebook_page(path)
    nb.run_all()
    canvas = nb.canvas(0)
    board = nb.page.locator(".reversi-game").nth(0)
    panel = board.locator(".reversi-thinking")
    assert not panel.is_visible()  # off until asked for

    board.locator(".reversi-thinking-toggle").click()
    expect_text(panel, r"Nothing to show yet")

    canvas.scroll_into_view_if_needed()
    nb.page.wait_for_timeout(300)
    nb.click_canvas(canvas, *centre("d3"))
    expect_text(board.locator(".reversi-log"), r"1\. Black d3 flips d4")
    text = expect_text(
        panel,
        r"White is thinking: depth [2-9].*evaluation for White: .*"
        r"expected line: [a-h][1-8] [a-h][1-8]",
    )
    assert re.search(r"White looks [2-9] moves ahead and expects", text)  # words first
    # the figures are folded in a detail: read the panel's whole text, shown or folded
    first = re.search(r"expected line: ([a-h][1-8])", panel.text_content() or "")[1]
    assert first in {"c3", "e3", "c5"}  # White's legal answers to d3

    board.locator(".reversi-stop").click()  # while it thinks: no move comes
    expect_text(board.locator(".reversi-status"), r"Stopped", timeout=5_000)
    nb.page.wait_for_timeout(4_500)  # longer than its time limit: its answer was dropped
    assert "2. White" not in board.locator(".reversi-log").inner_text()

    board.locator(".reversi-stop").click()  # Continue: it thinks again and moves
    expect_text(board.locator(".reversi-log"), r"2\. White [a-h][1-8] flips", timeout=30_000)
    assert nb.errors() == []
