"""The board in a classroom, in a real Chromium, by a person's path (clicks, keys, typing).

The chart after a game ended by a click and by a computer move; one set of numbers on the
board while the computer thinks; keyboard and typed moves; the live region; the presenter
view on a 1920 px page; a 360 px page keeping its buttons on screen with 40 px targets.
"""

from __future__ import annotations

import re
import shutil

import pytest

from course.board.thinking import LINE_SHOWN
from course.board.view import PALETTE, BoardGeometry
from reversi import Game, square
from tests.browser.conftest import REPO_ROOT, VoilaApp
from tests.browser.test_play_board import click_square, expect_text, game

pytestmark = pytest.mark.browser

TIMEOUT = 20_000  # ms
RING = tuple(int(PALETTE["line-ring"][i : i + 2], 16) for i in (1, 3, 5))


def small_game_moves() -> list[str]:
    """A whole 4x4 game between people, each playing its first legal move ('pass' to pass)."""
    played, g = [], Game(size=4)
    while not g.is_over:
        legal = g.legal_moves()
        if legal:
            g.play(legal[0])
            played.append(str(legal[0]))
        else:
            g.pass_turn()
            played.append("pass")
    return played


def chart_shown(board) -> None:
    """The evaluation chart is drawn in the widget by JupyterLab's Vega renderer, not empty."""
    drawn = board.locator(".reversi-evaluation-chart .vega-embed").locator("canvas, svg.marks").first
    drawn.wait_for(state="visible", timeout=60_000)
    size = drawn.evaluate("d => [d.getBoundingClientRect().width, d.getBoundingClientRect().height]")
    assert size[0] > 200 and size[1] > 100, size


def test_the_chart_appears_after_a_game_ended_by_a_click(jupyter_server, notebook_page):
    cells = ["from course import play\nplay(size=4, animate=False)"]
    nb = notebook_page(jupyter_server.write_notebook("scratch/chart_click.ipynb", cells))
    nb.run_all()
    canvas = nb.canvas(0)
    board = game(nb, 0)
    board.locator(".reversi-thinking-toggle").click()
    geometry = BoardGeometry.fit(4)
    for number, move in enumerate(small_game_moves(), start=1):
        if move == "pass":
            board.locator(".reversi-pass").click()
            continue
        canvas.scroll_into_view_if_needed()
        x, y = geometry.centre(square(move, 4))
        nb.click_canvas(canvas, int(x), int(y))
        expect_text(board.locator(".reversi-log"), rf"{number}\. (Black|White) {move}")
    expect_text(board.locator(".reversi-turn"), r"Game over")
    chart_shown(board)
    assert nb.errors() == []


def test_the_chart_appears_after_a_game_ended_by_a_computer_move(jupyter_server, notebook_page):
    cells = [
        "from course import play\n"
        "play(black='greedy', white='greedy', size=4, animate=False, computer_waits=True)"
    ]
    nb = notebook_page(jupyter_server.write_notebook("scratch/chart_computer.ipynb", cells))
    nb.run_all()
    nb.canvas(0)
    board = game(nb, 0)
    board.locator(".reversi-thinking-toggle").click()  # within the first move's wait
    expect_text(board.locator(".reversi-turn"), r"Game over", timeout=60_000)
    chart_shown(board)
    assert nb.errors() == []


#: Reads the text of the thinking panel and the pixels of the given points in one go, so both
#: come from the same moment.
_JS_SNAPSHOT = """
(panel, points) => {
  const c = panel.closest('.reversi-game').querySelector('canvas');
  const ctx = c.getContext('2d');
  const text = panel.textContent;
  return [text, points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data))];
}
"""


def tiles_on_board(panel) -> tuple[str, set[str]]:
    """The panel's text and the squares showing a numbered tile (their ring left of the centre)."""
    geometry = BoardGeometry.fit(8)
    half = geometry.cell * 0.3
    names, points = [], []
    for row in range(8):
        for col in range(8):
            x, y = geometry.centre((row, col))
            names.append(str(square((row, col), 8)))
            points.append([int(x - half - 1.5), int(y)])
    text, pixels = panel.evaluate(_JS_SNAPSHOT, points)
    found = {
        name
        for name, pixel in zip(names, pixels, strict=True)
        if all(abs(a - b) <= 40 for a, b in zip(pixel[:3], RING, strict=True))
    }
    return text, found


def test_one_set_of_numbers_on_the_board_while_the_computer_thinks(jupyter_server, notebook_page):
    cells = [
        "from course import play\nfrom reversi.players import Hard\n"
        "play(white=Hard(time_limit=15.0), animate=False)"
    ]
    nb = notebook_page(jupyter_server.write_notebook("scratch/line.ipynb", cells))
    nb.run_all()
    canvas = nb.canvas(0)
    board = game(nb, 0)
    panel = board.locator(".reversi-thinking")
    board.locator(".reversi-thinking-toggle").click()
    click_square(nb, canvas, "d3")
    expect_text(panel, r"White looks [3-9] moves ahead and expects", timeout=TIMEOUT)
    line_pattern = re.compile(r"expected line: ((?:[a-h][1-8]|pass)(?: (?:[a-h][1-8]|pass))*)")
    for _ in range(50):  # the text and the pixels of one moment; a redraw may be on its way
        after, tiles = tiles_on_board(panel)
        found = line_pattern.search(after)
        if found:
            expected = {m for m in found[1].split()[:LINE_SHOWN] if m != "pass"}
            if tiles == expected:
                break
        nb.page.wait_for_timeout(50)
    else:
        raise AssertionError(f"tiles {tiles} are not the line's first moves: {after!r}")
    assert 1 <= len(tiles) <= LINE_SHOWN
    assert "expects to be" in after or "level" in after
    board.locator(".reversi-stop").click()
    assert nb.errors() == []


def test_keys_and_a_typed_move_play_and_the_live_region_says_so(jupyter_server, notebook_page):
    cells = ["from course import play\nplay(animate=False)"]
    nb = notebook_page(jupyter_server.write_notebook("scratch/keys.ipynb", cells))
    nb.run_all()
    canvas = nb.canvas(0)
    board = game(nb, 0)
    nb.focus_canvas(canvas)  # as Tab does: no mouse event
    outline = canvas.evaluate(
        "c => getComputedStyle(c).outlineStyle + ' ' + getComputedStyle(c).outlineWidth"
    )
    assert outline == "solid 3px", outline  # the focus is visible
    nb.page.keyboard.press("ArrowUp")  # the cursor appears on d4 ...
    nb.page.keyboard.press("ArrowUp")  # ... and moves up to d3
    nb.page.keyboard.press("Enter")
    expect_text(board.locator(".reversi-log"), r"1\. Black d3 flips d4")
    live = board.locator(".reversi-live [aria-live='polite']")
    expect_text(live, r"Last move: Black d3, turning 1 disc\. Discs: Black 4, White 1\.")

    box = board.locator(".reversi-typed input")
    box.fill("c3")
    box.press("Enter")
    expect_text(board.locator(".reversi-log"), r"2\. White c3 flips d4")
    expect_text(live, r"Last move: White c3, turning 1 disc\. Discs: Black 3, White 3\.")
    box.fill("k9")
    box.press("Enter")
    expect_text(board.locator(".reversi-status"), r"k9")
    assert "3." not in board.locator(".reversi-log").inner_text()
    assert nb.errors() == []


def test_the_presenter_view_fills_a_1920_px_page(jupyter_server, page, notebook_page):
    page.set_viewport_size({"width": 1920, "height": 1080})
    cells = ["from course.board.widget import present\npresent(white='human')"]
    nb = notebook_page(jupyter_server.write_notebook("scratch/present.ipynb", cells))
    nb.run_all()
    canvas = nb.canvas(0)
    canvas.scroll_into_view_if_needed()
    size = canvas.evaluate(
        "c => { const r = c.getBoundingClientRect(); return [r.width, r.height]; }"
    )
    assert size[0] >= 800 and size[1] >= 800 and size[1] <= 1080, size
    board = game(nb, 0)
    for selector in (".reversi-status", ".reversi-turn", ".reversi-pawns", "button.reversi-new"):
        font = board.locator(selector).first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert font >= 20, (selector, font)
    geometry = BoardGeometry.fit(8, 880)
    x, y = geometry.centre(square("d3", 8))
    nb.click_canvas(canvas, int(x), int(y))
    expect_text(board.locator(".reversi-log"), r"1\. Black d3 flips d4")
    assert nb.errors() == []


@pytest.fixture(scope="module")
def voila_present(tmp_path_factory: pytest.TempPathFactory):
    app = VoilaApp(tmp_path_factory.mktemp("voila-present"), "voila/present.ipynb")
    (app.root_dir / "voila").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "voila" / "present.ipynb", app.root_dir / "voila")
    try:
        app.start()
        yield app
    finally:
        app.stop()


@pytest.mark.parametrize(("app", "pixels"), [("voila_play", 400), ("voila_present", 880)])
def test_a_360_px_page_keeps_its_buttons_on_screen_with_40_px_targets(app, pixels, request, page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(request.getfixturevalue(app).url, timeout=120_000)
    board = page.locator(".reversi-game").first
    board.wait_for(state="visible", timeout=120_000)
    canvas = board.locator("canvas").first
    box = canvas.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360.5, box
    scale = box["width"] / canvas.evaluate("c => c.width")
    geometry = BoardGeometry.fit(8, pixels)
    assert geometry.cell * scale >= 40, (geometry.cell, scale)  # a square is a 40 px target
    buttons = board.locator("button")
    assert buttons.count() >= 5
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if not button.is_visible():
            continue
        where = button.bounding_box()
        assert where is not None and where["x"] >= -0.5 and where["x"] + where["width"] <= 360.5, (
            button.inner_text(),
            where,
        )
        assert where["height"] >= 40, (button.inner_text(), where)
    toggle = board.locator(".reversi-thinking-toggle")
    assert toggle.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), "the toggle's label is cut"
