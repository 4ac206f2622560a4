"""The same board in the other front ends a teacher may use: Notebook 7 and Voila.

JupyterLab is covered by test_play_board.py.  Here a real Chromium plays a move in
Notebook 7 (``jupyter notebook``) and in Voila (``voila notebooks/01_play.ipynb``),
which shows only the outputs: the boards and their controls, no code.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import WAIT_TIMEOUT, NotebookPage
from tests.browser.test_play_board import DARK, HINT, centre, click_square, expect_text

pytestmark = pytest.mark.browser

WHITE_DISC = (244, 244, 244, 255)


def test_the_board_plays_in_notebook_7(notebook7_server, page):
    path = notebook7_server.write_notebook(
        "scratch/notebook7.ipynb", ["from course import play\nplay()"]
    )
    nb = NotebookPage(page, notebook7_server, path).open()  # type: ignore[arg-type]
    assert "/notebooks/" in page.url  # Notebook 7's own page, not JupyterLab's
    nb.run_all()
    canvas = nb.canvas(0)
    board = page.locator(".reversi-game").first
    nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)
    assert nb.pixel(canvas, *centre("d3")) == HINT
    assert board.locator("button.reversi-undo").is_disabled()

    click_square(nb, canvas, "d3")
    expect_text(board.locator(".reversi-status"), r"Black played d3 and turned 1 disc")
    nb.wait_pixel(canvas, *centre("d4"), DARK, tolerance=8)
    click_square(nb, canvas, "c5")
    expect_text(board.locator(".reversi-log"), r"2\. White c5 flips d5")
    nb.wait_pixel(canvas, *centre("c5"), WHITE_DISC, tolerance=8)
    assert nb.errors() == []


def _pixel(canvas, name: str) -> tuple[int, ...]:
    x, y = centre(name)
    return tuple(
        canvas.evaluate(
            "(c, [x, y]) => Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data)", [x, y]
        )
    )


def _wait_pixel(page, canvas, name: str, rgba: tuple[int, ...], timeout: int = 30_000) -> None:
    for _ in range(timeout // 100):
        if all(abs(a - b) <= 8 for a, b in zip(_pixel(canvas, name), rgba, strict=True)):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{name} is {_pixel(canvas, name)}, not {rgba}")


def test_voila_serves_the_lesson_as_a_page_of_boards_without_code(voila_play, page):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(voila_play.url, timeout=120_000)
    board = page.locator(".reversi-game").first
    board.wait_for(state="visible", timeout=120_000)  # Voila runs the whole notebook first
    assert page.locator(".reversi-game").count() >= 2  # the lesson's boards, every one
    # The code is left out: the lesson's first cell is not on the page, its pictures are.
    assert "from course import play" not in page.locator("body").inner_text()
    assert page.locator('[data-mime-type="image/svg+xml"]').count() > 0

    canvas = board.locator("canvas").first
    _wait_pixel(page, canvas, "e4", DARK)
    assert board.locator("button.reversi-undo").is_disabled()
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    scale = box["width"] / canvas.evaluate("c => c.width")
    x, y = centre("d3")
    page.mouse.click(box["x"] + (x + 0.5) * scale, box["y"] + (y + 0.5) * scale)
    expect_text(
        board.locator(".reversi-status"), r"Black played d3 and turned 1 disc", WAIT_TIMEOUT
    )
    expect_text(board.locator(".reversi-log"), r"1\. Black d3 flips d4")
    _wait_pixel(page, canvas, "d4", DARK)
    assert not board.locator("button.reversi-undo").is_disabled()
    assert errors == []
