"""The board in play, measured for accessibility in a real Chromium, on one page at 200% zoom.

One JupyterLab page as a 1280 x 800 screen shows it at 200% zoom (640 x 400 CSS pixels, two
device pixels to each), with a 4 x 4 board against the computer (the easy level), and:

* axe-core's WCAG 2.x A/AA rules on the kit's part of the page (the cell's output: the board
  widget), no serious or critical violation; JupyterLab's own chrome is audited apart and only
  printed (``pytest -s``), as it is not the kit's to fix;
* a whole game played with the keyboard alone (arrow keys and Enter on the board, Tab to the
  Pass button and Enter), every move, the pass and the result read back from the live region
  (``role="status"``: the words a screen reader announces), each checked against the test's
  own referee, a :class:`reversi.game.Game` fed with what was announced;
* at 200% every control inside the window, the board whole, and a square still clickable;
* in forced-colours (high-contrast) mode, the drawn board's features told apart by light and
  shape, not hue: discs, the last move's frame, a legal move's dot and the keyboard cursor's
  double frame keep a contrast of 3:1 with the board, and the focus ring shows.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import expect

from course.board.view import BoardGeometry
from reversi.game import Game
from reversi.notation import BLACK, WHITE, Square
from tests.browser.axe import assert_accessible, audit, describe
from tests.browser.conftest import JupyterServer, NotebookPage, open_notebook
from tests.browser.test_board_layout import _JS_WHERE, REACHABLE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: A 1280 x 800 screen at 200% zoom: the page gets half as many CSS pixels, each two pixels wide.
SCREEN_AT_200 = {"width": 640, "height": 400}
SIZE = 4
PIXELS = 400  # the board's default width
GEOMETRY = BoardGeometry.fit(SIZE, PIXELS)
CELL = f'from course import play\nplay("human", "computer", size={SIZE}, animate=False)'
#: The kit's part of a JupyterLab page: what cells show, not JupyterLab's own controls.
KIT = (".jp-OutputArea-output",)
#: WCAG 2.x's least contrast for the parts of a picture a person must tell apart (1.4.11).
GRAPHICS_CONTRAST = 3.0
TIMEOUT = 30_000

# Every text the live region says, in order, as a MutationObserver sees it change.
_JS_LISTEN = """(el) => {
  window.__said = [];
  const note = () => {
    const region = el.querySelector('[role="status"][aria-live="polite"]');
    const text = region ? region.textContent.trim() : '(no live region)';
    const said = window.__said;
    if (text && said[said.length - 1] !== text) said.push(text);
  };
  new MutationObserver(note).observe(el, {subtree: true, childList: true, characterData: true});
  note();
}"""

LAST_MOVE = re.compile(
    r"Last move: (Black|White) (?:([a-p]\d{1,2}), turning (\d+) discs?|(passed))\."
)
DISCS = re.compile(r"Discs: Black (\d+), White (\d+)\.")
BLACK_TO_ACT = re.compile(r"Black (?:to move|has no legal move and must pass)\.$")
OVER = re.compile(r"Game over: (?:(Black|White) wins|A draw), Black (\d+) – White (\d+)")


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two sRGB colours (1 to 21), computed here from its definition."""

    def luminance(rgb: tuple[int, ...]) -> float:
        linear = [
            c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


class Listener:
    """What the live region said, followed by a referee: each announced move is played on
    :attr:`referee`, which refuses a move out of turn, so a move left unsaid fails the test."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.referee = Game(size=SIZE)
        self.heard = 0
        self.last = "No move yet."
        self.said: list[str] = []

    def until(self, done: Any, timeout: int = TIMEOUT) -> str:
        """Follow the announcements until ``done()``; returns the latest one."""
        __tracebackhide__ = True
        while not done():
            self.page.wait_for_function(
                "n => window.__said.length > n", arg=self.heard, timeout=timeout
            )
            for text in self.page.evaluate("n => window.__said.slice(n)", self.heard):
                self.heard += 1
                self.said.append(text)
                self.follow(text)
        return self.said[-1]

    def follow(self, text: str) -> None:
        game = self.referee
        move = LAST_MOVE.search(text)
        if move and move[0] != self.last:  # a new move: play it on the referee
            self.last = move[0]
            color, square, turned, passed = move.groups()
            assert color == str(game.turn), f"{text!r}: the referee expected {game.turn} to move"
            if passed:
                assert game.must_pass, f"{text!r}: {color} had a legal move"
                game.pass_turn()
            else:
                assert len(game.play(square)) == int(turned), (
                    f"{text!r}: wrong count of turned discs"
                )
        counts = DISCS.search(text)
        assert counts, f"no disc counts in {text!r}"
        got = game.counts()
        assert (int(counts[1]), int(counts[2])) == (got.black, got.white), (text, got)
        if game.outcome is not None and move and move[0] == self.last:
            over = OVER.search(text)
            if over:  # the same move is said again once the game is over: check the result
                outcome = game.outcome
                winner = str(outcome.winner) if outcome.winner is not None else None
                assert (over[1], int(over[2]), int(over[3])) == (
                    winner,
                    outcome.black,
                    outcome.white,
                ), text

    def played(self, plies: int) -> bool:
        """More than ``plies`` moves were announced."""
        return len(self.referee.plies) > plies

    def black_to_act(self, plies: int) -> bool:
        """Past ``plies`` moves, and Black (the person) is to move or pass, or the game is over."""
        game = self.referee
        said = self.said[-1] if self.said else ""
        if game.outcome is not None:
            return "Game over" in said
        return (
            len(game.plies) > plies and game.turn is BLACK and BLACK_TO_ACT.search(said) is not None
        )


@pytest.fixture
def zoomed(browser: Any) -> Iterator[Any]:
    """A page as a 1280 x 800 screen shows it at 200% zoom."""
    context = browser.new_context(viewport=SCREEN_AT_200, device_scale_factor=2)
    try:
        yield context.new_page()
    finally:
        context.close()


def focused(page: Any) -> str:
    return page.evaluate("() => (document.activeElement.className || '').toString()")


def tab_to(page: Any, css_class: str, key: str = "Tab") -> None:
    """Press Tab (or Shift+Tab) until the element with ``css_class`` has the focus.

    Each press waits for the focus to move: from the board it moves once the kernel has
    heard the key (ipycanvas keeps it from the browser; see course.board.keys.pass_focus).
    """
    __tracebackhide__ = True
    for _ in range(12):
        if css_class in focused(page).split():
            return
        page.evaluate("() => { window.__left = document.activeElement; }")
        page.keyboard.press(key)
        page.wait_for_function("() => document.activeElement !== window.__left", timeout=TIMEOUT)
    raise AssertionError(f"{key} never reached .{css_class} (focus on {focused(page)!r})")


def walk(page: Any, start: Square | None, to: Square) -> Square:
    """Move the keyboard's cursor to ``to`` with the arrow keys (the first press shows it)."""
    if start is None:
        page.keyboard.press("ArrowUp")
        start = Square((SIZE - 1) // 2, (SIZE - 1) // 2)
    for _ in range(abs(to.row - start.row)):
        page.keyboard.press("ArrowDown" if to.row > start.row else "ArrowUp")
    for _ in range(abs(to.col - start.col)):
        page.keyboard.press("ArrowRight" if to.col > start.col else "ArrowLeft")
    return to


def test_the_board_at_200_percent_by_keyboard_read_aloud_and_in_forced_colours(
    zoomed: Any, jupyter_server: JupyterServer
) -> None:
    path = jupyter_server.write_notebook("scratch/accessible_board.ipynb", [CELL])
    nb = open_notebook(zoomed, jupyter_server, path)
    page = nb.page
    nb.run_all()
    canvas = nb.canvas(0)
    board = page.locator(".reversi-game").first
    expect(board.locator(".reversi-live")).to_contain_text("Black to move", timeout=TIMEOUT)

    # axe on the board as it opens: the kit's part must pass; JupyterLab's own is only printed.
    results = assert_accessible(page, "the board widget in play", include=KIT)
    assert {"button-name", "label"} <= set(results["passes"]), results["passes"]  # it saw the board
    chrome = [v for v in audit(page)["violations"] if v["impact"] in ("serious", "critical")]
    if chrome:
        print(f"\n[axe] JupyterLab's own page at 200% (not the kit's):\n{describe(chrome)}")

    # A whole game by keyboard: the board is in the tab order; arrows, Enter, Tab to Pass.
    assert canvas.evaluate("c => c.tabIndex") == 0
    canvas.focus()
    page.evaluate(_JS_LISTEN, board.locator(".reversi-live").element_handle())
    listener = Listener(page)
    listener.until(functools.partial(listener.black_to_act, -1))  # "No move yet. ..."
    cursor = None
    while listener.referee.outcome is None:
        game = listener.referee
        plies = len(game.plies)
        if game.must_pass:
            expect(board.locator("button.reversi-pass")).to_be_enabled()
            tab_to(page, "reversi-pass")
            page.keyboard.press("Enter")
            listener.until(functools.partial(listener.played, plies))
            tab_to(page, "reversi-canvas", "Shift+Tab")
        else:
            cursor = walk(page, cursor, sorted(game.legal_moves(), key=str)[0])
            page.keyboard.press("Enter")
        listener.until(functools.partial(listener.black_to_act, plies))
    game = listener.referee
    said = listener.said
    moves = [text for text in said if "Last move" in text]
    assert any("Black passed" in text for text in said), said
    assert game.outcome is not None and "Game over" in said[-1], said
    assert len({LAST_MOVE.search(text)[0] for text in moves}) == len(game.plies), said
    print(f"\n[live region] {len(said)} announcements, e.g. {said[1]!r} ... {said[-1]!r}")
    tab_to(page, "reversi-new")  # Tab leaves the board forwards, Shift+Tab backwards: no trap
    tab_to(page, "reversi-canvas", "Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.wait_for_function(
        "() => !document.activeElement.closest('.reversi-game')", timeout=TIMEOUT
    )

    # At 200%: every control inside the window and unhidden, the board whole; a click still plays.
    for selector in [".reversi-canvas", *REACHABLE]:
        spot = board.locator(selector).first.evaluate(_JS_WHERE)
        assert spot["width"] > 0 and spot["left"] >= -0.5, (selector, spot)
        assert spot["right"] <= spot["viewport"] + 0.5 and spot["centre"], (selector, spot)
    where = canvas.evaluate(_JS_WHERE)
    assert all(where["corners"]) and abs(where["width"] - where["height"]) < 1.5, where
    board.locator("button.reversi-new").click()
    expect(board.locator(".reversi-live")).to_contain_text("No move yet", timeout=TIMEOUT)
    first = sorted(Game(size=SIZE).legal_moves(), key=str)[0]
    canvas.scroll_into_view_if_needed()
    nb.click_canvas(canvas, *GEOMETRY.centre(first))
    expect(board.locator(".reversi-live")).to_contain_text("Last move: White", timeout=TIMEOUT)
    assert nb.errors() == []

    # Forced colours: the position now has discs, White's last move, Black's legal moves.
    page.emulate_media(forced_colors="active")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    check_forced_colours(nb, canvas, first)


def check_forced_colours(nb: NotebookPage, canvas: Any, first: Square) -> None:
    """The drawn board and its focus ring as the screen shows them in forced-colours mode."""
    page = nb.page
    referee = Game(size=SIZE)
    referee.play(first)
    # White's reply, read from the game log (the referee cannot know the computer's choice).
    log = page.locator(".reversi-game .reversi-log").first.inner_text()
    reply = re.search(r"2\. White ([a-p]\d+)", log)
    assert reply, log
    referee.play(reply[1])
    hints = referee.legal_moves()
    empty = [sq for sq in referee.board.squares() if referee.board[sq] is None and sq not in hints]
    cursor = Square((SIZE - 1) // 2, (SIZE - 1) // 2)  # where the first arrow key shows it
    canvas.focus()
    page.keyboard.press("Escape")  # hides the cursor of the last game ...
    page.keyboard.press("ArrowUp")  # ... and shows it again, in the middle
    nb.wait_pixel(canvas, *_inner_frame(cursor), (0xFF, 0xF0, 0x7A), tolerance=12)
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    box = nb.canvas_box(canvas)
    ratio = shot.width / page.viewport_size["width"]

    def seen(x: float, y: float) -> tuple[int, ...]:  # canvas pixel -> what the screen shows
        return shot.getpixel(
            (int((box["left"] + x * box["sx"]) * ratio), int((box["top"] + y * box["sy"]) * ratio))
        )

    def at(square: Square, dx: float = 0, dy: float = 0) -> tuple[int, ...]:
        cx, cy = GEOMETRY.centre(square)
        return seen(cx + dx * GEOMETRY.cell, cy + dy * GEOMETRY.cell)

    ground = at(next(sq for sq in empty if sq != cursor))
    black = next(sq for sq in referee.board.squares() if referee.board[sq] is BLACK)
    white = next(sq for sq in referee.board.squares() if referee.board[sq] is WHITE)
    last = referee.last_move
    hint = next(sq for sq in hints if sq not in (cursor,))
    x, y = GEOMETRY.corner(last)
    found = {
        "black disc": at(black),
        "white disc": at(white),
        "a legal move's dot": at(hint),
        "the last move's frame": seen(x + 3, y + GEOMETRY.cell / 2),
        "the cursor's inner frame": seen(*_inner_frame(cursor)),
    }
    low = {name: round(contrast(colour, ground), 2) for name, colour in found.items()
           if contrast(colour, ground) < GRAPHICS_CONTRAST}  # fmt: skip
    assert not low, f"against the board {ground}: {low}"
    assert contrast(found["black disc"], found["white disc"]) >= GRAPHICS_CONTRAST
    # Shapes, not only colours: a legal move is a dot (board round it), the last move a frame
    # (its disc inside), the cursor a frame (what is inside shows through).
    assert contrast(at(hint, 0.3, 0), ground) < 1.2, "a legal move's mark is a small dot"
    assert contrast(seen(x + 6, y + GEOMETRY.cell / 2), ground) < 1.2, (
        "the last move's mark is a thin frame"
    )
    cx, cy = _inner_frame(cursor)
    outer, inner = seen(cx - 2, cy), seen(cx, cy)
    assert contrast(outer, inner) >= GRAPHICS_CONTRAST, (
        "the cursor's frame is double, dark and light",
        outer,
        inner,
    )

    # The focus ring round the focused board: drawn (in the system's colour) and visible.
    assert canvas.evaluate("c => document.activeElement === c")
    style = canvas.evaluate(
        "c => [getComputedStyle(c).outlineStyle, getComputedStyle(c).outlineWidth]"
    )
    assert style[0] != "none" and float(style[1].rstrip("px")) >= 2, style
    ring = shot.getpixel(
        (int((box["left"] - 3.5) * ratio), int((box["top"] + box["height"] / 2) * ratio))
    )
    outside = shot.getpixel(
        (int((box["left"] - 9) * ratio), int((box["top"] + box["height"] / 2) * ratio))
    )
    assert contrast(ring, outside) >= GRAPHICS_CONTRAST, (ring, outside)


def _inner_frame(square: Square) -> tuple[float, float]:
    """A pixel of the keyboard cursor's inner frame (2 px wide, 5 px inside the cell)."""
    x, y = GEOMETRY.corner(square)
    return x + 5, y + GEOMETRY.cell / 2
