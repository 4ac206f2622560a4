"""The board a student sees, at a phone's width and a wide screen's, in a real Chromium.

At every width the board must be whole (scaled down, never cut: all four rows of
coordinates visible), every panel and button reachable inside the window, the
panels beside the board when there is room and below it when there is not, with no
blank gap under the board.  A refusal must look different from normal news, and
Undo must be disabled before anyone has moved.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play_board import centre, click_square, expect_text

pytestmark = pytest.mark.browser

#: What a student must be able to see and reach, by CSS selector inside the board widget.
REACHABLE = [
    ".reversi-turn",
    ".reversi-pawns",
    ".reversi-scores",
    ".reversi-log",
    ".reversi-status",
    "button.reversi-new",
    "button.reversi-undo",
    "button.reversi-pass",
    "button.reversi-resign",
    "button.reversi-stop",
    ".reversi-settings",
]

# For one element: scroll it into view as a student would, then say where it is and whether
# the point at its centre (and, for the canvas, near each corner) shows it, not something else.
_JS_WHERE = """
(el) => {
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const shows = (x, y) => { const hit = document.elementFromPoint(x, y);
                            return !!hit && (hit === el || el.contains(hit)); };
  const inset = 3;
  return {
    left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
    viewport: document.documentElement.clientWidth,
    centre: shows(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)),
    corners: [shows(r.left + inset, r.top + inset), shows(r.right - inset, r.top + inset),
              shows(r.left + inset, r.bottom - inset), shows(r.right - inset, r.bottom - inset)],
  };
}
"""

SCRATCH = "from course import play\nplay()"


@pytest.mark.parametrize("width", [360, 760, 1280])
def test_the_board_fits_and_every_panel_is_reachable(width, jupyter_server, page, notebook_page):
    page.set_viewport_size({"width": width, "height": 900})
    path = jupyter_server.write_notebook(f"scratch/layout_{width}.ipynb", [SCRATCH])
    nb = notebook_page(path)
    if width < 500:  # on a phone a student closes the file browser first; at 760 it stays open
        nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        nb.page.wait_for_timeout(300)
    nb.run_all()
    board = nb.page.locator(".reversi-game").first
    canvas = nb.canvas(0)
    nb.wait_pixel(canvas, *centre("e4"), (20, 20, 20, 255), tolerance=8)

    # Before any move: Undo and Pass cannot be used, so they are disabled.
    assert board.locator("button.reversi-undo").is_disabled()
    assert board.locator("button.reversi-pass").is_disabled()

    where = canvas.evaluate(_JS_WHERE)
    assert where["left"] >= 0 and where["right"] <= where["viewport"] + 0.5, where
    assert abs(where["width"] - where["height"]) < 1.5, where  # scaled whole, not squashed
    assert all(where["corners"]), where  # every corner shows: no coordinate is cut
    if width < 500:
        assert where["width"] < canvas.evaluate("c => c.width"), where  # scaled down to fit

    for selector in REACHABLE:
        spot = board.locator(selector).first.evaluate(_JS_WHERE)
        assert spot["width"] > 0 and spot["height"] > 0, (selector, spot)
        assert spot["left"] >= -0.5 and spot["right"] <= spot["viewport"] + 0.5, (selector, spot)
        assert spot["centre"], (selector, spot)  # nothing covers or clips it

    # The canvas maps clicks at this size; a legal move is normal news, an illegal one stands out.
    click_square(nb, canvas, "d3")
    expect_text(board.locator(".reversi-status"), r"Black played d3 and turned 1 disc")
    normal = board.locator(".reversi-status .reversi-note")
    assert normal.count() == 1
    # The buttons' state travels in its own widget message: wait for it, as a student's eye would.
    expect(board.locator("button.reversi-undo")).to_be_enabled()
    plain = normal.evaluate("e => getComputedStyle(e).backgroundColor")
    click_square(nb, canvas, "a1")
    refusal = board.locator(".reversi-status .reversi-refusal")
    expect_text(refusal, r"⚠.*'a1' is not a legal move for White")
    look = refusal.evaluate(
        "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderLeftWidth]"
    )
    assert look[0] != plain and look[1] != "0px", (plain, look)

    # A few more moves fill the log: the panels still sit beside the board (or below it) and
    # leave no blank gap under the board.
    for square in ["c3", "e6", "d2", "d1"]:  # a legal line (Black is stuck after c1)
        click_square(nb, canvas, square)
    expect_text(board.locator(".reversi-log"), r"5\. Black d1")
    # Measured in one go, without scrolling in between, so the boxes compare.
    pawns, where, row, log = board.evaluate(
        """g => [g.querySelector('.reversi-pawns'), g.querySelector('canvas'),
                 g.querySelector('canvas').parentElement, g.querySelector('.reversi-log')]
               .map(e => e.getBoundingClientRect().toJSON())"""
    )
    row = row["height"]
    if width >= 1000:
        assert pawns["left"] >= where["right"] - 0.5, (pawns, where)  # beside the board
        # no gap under the board (its 5 px margins hold its focus ring, which the row would clip)
        assert row <= where["height"] + 2 * 5 + 2, (row, where)
    else:
        assert pawns["top"] >= where["bottom"] - 0.5, (pawns, where)  # below the board
    assert log["height"] < 260, log
    assert re.search(r"Black:\s*\d+", board.locator(".reversi-pawns").inner_text())
    assert nb.errors() == []
