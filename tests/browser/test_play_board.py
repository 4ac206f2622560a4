"""The board of notebooks/01_play.ipynb played in a real Chromium: clicks, the panels, the pixels.

The boards are found in the order the notebook shows them: 0 is ``play()`` (two
people), 1 is ``play(white="greedy", black_name="Ada")``.
"""

from __future__ import annotations

import re

import pytest

from course.board.view import BoardGeometry

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/01_play.ipynb"
DARK = (20, 20, 20, 255)  # board_view.PALETTE[BLACK], #141414
BOARD_GREEN = (46, 139, 87, 255)  # PALETTE["board"], #2e8b57
HINT = (255, 240, 122, 255)  # PALETTE["hint"], #fff07a
TIMEOUT = 15_000  # ms

GEOMETRY = BoardGeometry.fit(8)  # play() draws 8x8 boards about 400 pixels wide


def centre(name: str) -> tuple[int, int]:
    """Canvas pixel at the centre of square ``name`` (``'d3'``)."""
    from reversi import square

    x, y = GEOMETRY.centre(square(name, 8))
    return int(x), int(y)


def game(nb, index: int):
    """Locator of the index-th board widget (its canvas, panels and buttons)."""
    return nb.page.locator(".reversi-game").nth(index)


def expect_text(locator, pattern: str, timeout: int = TIMEOUT) -> str:
    """Wait until ``locator``'s text matches the regex ``pattern``; returns the text."""
    from playwright.sync_api import expect

    expect(locator).to_have_text(re.compile(pattern, re.S), timeout=timeout)
    return locator.inner_text()


def click_square(nb, canvas, name: str) -> None:
    """Click the centre of square ``name``, once the canvas has stopped moving on the page.

    JupyterLab renders cells lazily: scrolling a board into view can resize the cells above
    it, so the canvas may still be moving when first measured.  Wait until two measurements
    agree (our helper; the harness clicks wherever the canvas is at that instant).
    """
    canvas.scroll_into_view_if_needed()
    before = None
    for _ in range(40):
        box = nb.canvas_box(canvas)
        if (
            before is not None
            and abs(box["top"] - before["top"]) < 0.5
            and abs(box["left"] - before["left"]) < 0.5
        ):
            break
        before = box
        nb.page.wait_for_timeout(100)
    nb.click_canvas(canvas, *centre(name))


def counts(board) -> tuple[int, int]:
    text = board.locator(".reversi-pawns").inner_text()
    black = re.search(r"Black:\s*(\d+)", text)
    white = re.search(r"White:\s*(\d+)", text)
    assert black and white, text
    return int(black[1]), int(white[1])


def test_click_plays_d3_and_an_illegal_click_says_why(notebook_page):
    nb = notebook_page(NOTEBOOK)
    nb.run_all()
    canvas = nb.canvas(0)
    board = game(nb, 0)
    nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)  # the start position is drawn
    assert nb.pixel(canvas, *centre("d3")) == HINT  # a legal-move dot, not a disc

    click_square(nb, canvas, "d3")
    expect_text(
        board.locator(".reversi-pawns"), r"Black:\s*4\b.*White:\s*1\b.*Total:\s*5\b.*Empty:\s*59\b"
    )
    expect_text(board.locator(".reversi-log"), r"1\. Black d3 flips d4")
    expect_text(
        board.locator(".reversi-status"), r"Black played d3 and turned 1 disc\. White to move\."
    )
    nb.wait_pixel(canvas, *centre("d3"), DARK, tolerance=8)  # the new disc
    nb.wait_pixel(canvas, *centre("d4"), DARK, tolerance=8)  # the captured one, once turned

    a1 = nb.pixel(canvas, *centre("a1"))
    click_square(nb, canvas, "a1")
    expect_text(
        board.locator(".reversi-status"),
        r"'a1' is not a legal move for White: no Black disc is next to a1",
    )
    assert counts(board) == (4, 1)
    assert nb.pixel(canvas, *centre("a1")) == a1 == BOARD_GREEN
    assert "1. Black d3 flips d4" in board.locator(".reversi-log").inner_text()

    # Shown smaller than its pixels, the canvas still maps clicks to the right squares.
    canvas.evaluate(
        "c => { for (const k of ['width', 'height', 'minWidth', 'minHeight']) c.style[k] = '300px'; }"
    )
    box = nb.canvas_box(canvas)
    assert abs(box["sx"] - 300 / box["cw"]) < 0.01, box
    click_square(nb, canvas, "c5")  # the harness scales canvas pixels to CSS pixels
    expect_text(board.locator(".reversi-log"), r"2\. White c5 flips d5")
    assert counts(board) == (3, 3)
    nb.wait_pixel(canvas, *centre("c5"), (244, 244, 244, 255), tolerance=8)
    assert nb.errors() == []


def test_a_reloaded_page_shows_the_current_position(jupyter_server, notebook_page):
    path = jupyter_server.write_notebook(
        "scratch/play_reload.ipynb", ["from course import play\nplay()"]
    )
    nb = notebook_page(path)
    nb.run_all()
    canvas = nb.canvas(0)
    nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)
    click_square(nb, canvas, "f5")
    expect_text(game(nb, 0).locator(".reversi-log"), r"1\. Black f5 flips e5")

    # Save (so the page finds the widget output again), reload with the kernel still running:
    # the widgets come back from the kernel, and the canvas, blank in the new page, must be
    # redrawn by the board itself (on_client_ready).
    nb.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    nb.page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT
    )
    nb.page.reload()
    canvas = nb.canvas(0, timeout=60_000)
    nb.wait_pixel(canvas, *centre("f5"), DARK, tolerance=8, timeout=30_000)
    nb.wait_pixel(canvas, *centre("e5"), DARK, tolerance=8)
    board = game(nb, 0)
    click_square(nb, canvas, "f4")  # and it still plays: White f4 flips e4
    expect_text(board.locator(".reversi-log"), r"2\. White f4 flips e4")
    nb.wait_pixel(canvas, *centre("e4"), (244, 244, 244, 255), tolerance=8)


def test_the_computer_answers_a_move(notebook_page):
    nb = notebook_page(NOTEBOOK)
    nb.run_all()
    canvas = nb.canvas(1)
    board = game(nb, 1)
    nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)
    expect_text(board.locator(".reversi-turn"), r"Black \(Ada\) to move")

    click_square(nb, canvas, "d3")
    log = expect_text(
        board.locator(".reversi-log"), r"1\. Black d3 flips d4.*2\. White [a-h][1-8] flips"
    )
    expect_text(board.locator(".reversi-turn"), r"Black \(Ada\) to move")
    assert counts(board) == (3, 3), log  # every White answer to d3 turns exactly one disc
    reply = re.search(r"2\. White ([a-h][1-8])", log)[1]
    nb.wait_pixel(canvas, *centre(reply), (244, 244, 244, 255), tolerance=8)  # a white disc

    click_square(nb, canvas, "a8")  # illegal: the computer does not move either
    expect_text(board.locator(".reversi-status"), r"'a8' is not a legal move for Black")
    assert counts(board) == (3, 3)
    assert nb.errors() == []


BROKEN_PLAYER_CELLS = [
    """\
from course import play
from reversi.players import Player

class Broken(Player):
    kind = "broken"
    label = "Broken"

    def choose_move(self, board, color):
        raise RuntimeError("this player is broken on purpose")

play(white=Broken(), animate=False)
""",
    """\
play(black="random", white="greedy", animate=False)
""",
]


def test_an_error_in_a_callback_shows_in_the_board_and_a_computer_game_plays_out(
    jupyter_server, notebook_page
):
    path = jupyter_server.write_notebook("scratch/play_errors.ipynb", BROKEN_PLAYER_CELLS)
    nb = notebook_page(path)
    nb.run_all()

    # Randomizer against Greedy, no animation: the whole game runs to its end by itself.
    cvc = game(nb, 1)
    expect_text(
        cvc.locator(".reversi-turn"), r"Game over: (Black wins|White wins|A draw)", timeout=30_000
    )
    black, white = counts(cvc)
    assert black + white == int(
        re.search(r"Total:\s*(\d+)", cvc.locator(".reversi-pawns").inner_text())[1]
    )

    canvas = nb.canvas(0)
    board = game(nb, 0)
    nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)
    click_square(nb, canvas, "d3")  # White's computer player raises
    expect_text(
        board.locator(".reversi-status"),
        r"Error: PlayerError|Error: RuntimeError: this player is broken",
    )
    details = board.locator(".reversi-error").text_content()  # folded: not in inner_text
    assert "this player is broken on purpose" in details and "Traceback" in details, details
    assert nb.callback_log() == []  # caught and shown, not lost in the browser console


def test_a_finger_on_the_board_plays_as_a_click(browser, jupyter_server):
    """On a touch screen ipycanvas cancels the browser's mouse press: the board takes the touch."""
    from tests.browser.conftest import VIEWPORT, open_notebook

    context = browser.new_context(viewport=VIEWPORT, has_touch=True)
    try:
        nb = open_notebook(context.new_page(), jupyter_server, NOTEBOOK)
        nb.run_all()
        canvas = nb.canvas(0)
        nb.wait_pixel(canvas, *centre("e4"), DARK, tolerance=8)
        canvas.scroll_into_view_if_needed()
        nb.tap_canvas(canvas, *centre("d3"))
        expect_text(game(nb, 0).locator(".reversi-log"), r"1\. Black d3 flips d4")
        nb.wait_pixel(canvas, *centre("d3"), DARK, tolerance=8)
        assert counts(game(nb, 0)) == (4, 1)
        assert nb.errors() == []
    finally:
        context.close()
