"""How long a board takes to answer while another board's computer player searches, in a real browser.

In the browser classroom (JupyterLite, the Pyodide kernel) there are no threads: a hard or
expert player's search runs on the kernel's event loop in slices, and every message of the
page (a click on a board, a button, a setting; even a mouse move over a canvas) waits for
the search to give the loop a turn.  This script opens a notebook with two boards: the
first plays computer against computer at ``--levels`` (so a search runs nearly all the
time), the second is a two-person board the script plays on, round after round:

* a move clicked (the wait: from the ``mousedown`` to the clicked square's first redraw);
* Undo pressed (to the opponent's "take it back?" question shown);
* Accept pressed (to the square redrawn empty);
* the same move clicked again (the game goes on);
* a setting changed: the game log panel shown or hidden from the settings' Panels tab (to
  the panel shown or hidden; the settings are opened first, which the page does alone).

Every wait is timed inside the page, and counted only when the first board was
thinking both at the ``mousedown`` and at the answer.  The mouse moves over the canvas
between clicks, as a person's does.  ``none`` is the idle page (no search) for comparison.

    python benchmarks/busy_board.py [--levels none hard expert] [--rounds 6] [--site build/site]
    python benchmarks/busy_board.py --lab      # the laptop: JupyterLab, searches in threads

Prints, per level, the waits' median and longest (the longest is the figure the classroom
needs under 0.1 s) and how many were measured during a search.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from course.board.view import BoardGeometry  # noqa: E402
from reversi import BLACK, Board  # noqa: E402

#: The busy board first, then the board the script plays on.
CELL = """from course import play
from IPython.display import display
busy = play({black!r}, {white!r}, animate=False)
quiet = play(animate=False, undo_limit=None)
display(busy)
display(quiet)"""

#: Resolves with {ms, thinking_at_start, thinking_at_end}: from the next mousedown anywhere
#: until ``done()`` (checked every millisecond) is true.
JS_ARM = """
([kind, index, x, y]) => {
  const games = () => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .reversi-game');
  const thinking = () => {
    const turn = games().length > 1 ? games()[0].querySelector('.reversi-turn') : null;
    return turn !== null && turn.textContent.includes('thinking');
  };
  const game = games()[index];
  const canvas = game.querySelector('canvas');
  const ctx = canvas.getContext('2d');
  const pixel = () => Array.from(ctx.getImageData(x, y, 1, 1).data).join();
  const before = pixel();
  const shown = () => { const box = game.querySelector('.reversi-undo-answer'); return box && box.offsetParent !== null; };
  const log = () => game.querySelector('.reversi-log').offsetParent !== null;
  const logBefore = log();
  const done = kind === 'shown' ? shown : kind === 'log' ? () => log() !== logBefore : () => pixel() !== before;
  window.__wait = new Promise((resolve, reject) => {
    let t0 = null, atStart = null;
    document.addEventListener('mousedown', () => { t0 = performance.now(); atStart = thinking(); },
                              {once: true, capture: true});
    const started = performance.now();
    const poll = () => {
      if (t0 !== null && done()) {
        resolve({ms: performance.now() - t0, start: atStart, end: thinking()});
        return;
      }
      if (performance.now() - started > 30000) { reject(new Error('no answer in 30 s')); return; }
      setTimeout(poll, 1);
    };
    poll();
  });
}
"""


def wander(page: Any, canvas: Any) -> None:
    """Move the mouse across the canvas as a hand does (every move is a message to the kernel)."""
    box = canvas.bounding_box()
    for step in range(8):
        page.mouse.move(box["x"] + box["width"] * (0.2 + 0.08 * step), box["y"] + box["height"] * 0.5)
        page.wait_for_timeout(15)


def timed(nb: Any, arm: list[Any], act: Any) -> dict[str, Any]:
    """Arm the page's timer, act (a click), and return what the page measured."""
    nb.page.evaluate(JS_ARM, arm)
    act()
    result: dict[str, Any] = nb.page.evaluate("() => window.__wait")
    return result


def rounds(nb: Any, canvas: Any, count: int, busy: bool) -> list[dict[str, Any]]:
    """Play ``count`` rounds (move, Undo, Accept, move, a setting) on the second board; every wait measured."""
    geometry = BoardGeometry.fit(8)
    game = nb.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .reversi-game").nth(1)
    board, color, waits = Board(), BLACK, []
    game.locator(".reversi-settings .jupyter-widget-Collapse-header").click()  # on the page only
    game.locator(".reversi-settings .lm-TabBar-tab", has_text="Panels").click()
    log_box = game.locator(".reversi-settings label", has_text="Show game log").locator("input")
    for _ in range(count):
        if busy:  # measure while a search runs, not between two
            nb.page.wait_for_function(
                """() => { const g = document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .reversi-game');
                           return g[0].querySelector('.reversi-turn').textContent.includes('thinking'); }""",
                timeout=60_000, polling=5,
            )  # fmt: skip
        move = board.legal_moves(color)[0]
        x, y = (int(v) for v in geometry.centre(move))
        click = functools.partial(nb.click_square, canvas, x, y)
        wander(nb.page, canvas)
        waits.append({"what": "move", **timed(nb, ["pixel", 1, x, y], click)})
        undo = game.locator("button.reversi-undo")
        waits.append({"what": "undo", **timed(nb, ["shown", 1, x, y], undo.click)})
        accept = game.locator("button.reversi-accept")
        waits.append({"what": "accept", **timed(nb, ["pixel", 1, x, y], accept.click)})
        game.locator(".reversi-undo-answer").wait_for(state="hidden")  # the board moves up: wait
        waits.append({"what": "move", **timed(nb, ["pixel", 1, x, y], click)})
        waits.append({"what": "setting", **timed(nb, ["log", 1, x, y], log_box.click)})  # a panel
        board.play(move, color)
        color = color.opponent
        nb.page.wait_for_timeout(200)
    return waits


def summary(level: str, waits: list[dict[str, Any]], busy: bool) -> None:
    during = [w for w in waits if w["start"] and w["end"]] if busy else waits
    if not during:
        print(f"{level:7} no wait measured during a search ({len(waits)} in all)")
        return
    ms = sorted(w["ms"] for w in during)
    by_kind = {kind: max((w["ms"] for w in during if w["what"] == kind), default=0.0)
               for kind in ("move", "undo", "accept", "setting")}
    kinds = ", ".join(f"{kind} {value:.0f}" for kind, value in by_kind.items())
    print(f"{level:7} {len(during):3} waits{' during a search' if busy else ''}: median {statistics.median(ms):5.0f} ms,"
          f" longest {ms[-1]:5.0f} ms (longest by kind: {kinds}; all: {len(waits)})", flush=True)


class SitePage:
    """A notebook of the served site in one Chromium page: a cell typed and run, boards clicked."""

    VISIBLE = ".jp-NotebookPanel:not(.lm-mod-hidden)"

    def __init__(self, page: Any, base: str, path: str) -> None:
        self.page = page
        page.goto(f"{base}/lab/index.html?path={path}")
        self.cells().first.wait_for(timeout=300_000)

    def cells(self) -> Any:
        return self.page.locator(f"{self.VISIBLE} .jp-Notebook .jp-Cell")

    def run_cell(self, code: str, timeout: float = 300_000) -> None:
        """Insert a cell at the top, type ``code``, run it (again if the kernel was not ready)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.cells().first.click(position={"x": 8, "y": 8})
        for key in ("Escape", "a", "Enter"):
            self.page.keyboard.press(key)
        self.page.keyboard.insert_text(code)
        self.page.keyboard.press("Shift+Enter")
        prompt = self.cells().first.locator(".jp-InputPrompt").element_handle()
        for _ in range(3):
            try:
                self.page.wait_for_function("p => /\\[(\\*|\\d+)\\]/.test(p.textContent)", arg=prompt,
                                            timeout=15_000)  # fmt: skip
                break
            except PlaywrightTimeout:
                dialog = self.page.locator(".jp-Dialog .jp-mod-accept")
                if dialog.count():
                    dialog.first.click()
                else:
                    self.cells().first.locator(".cm-content").click()
                    self.page.keyboard.press("Shift+Enter")
        self.page.wait_for_function("p => /\\[\\d+\\]/.test(p.textContent)", arg=prompt, timeout=timeout)

    def canvas(self, index: int) -> Any:
        canvas = self.page.locator(f"{self.VISIBLE} .jp-OutputArea-output canvas").nth(index)
        canvas.wait_for(state="visible", timeout=120_000)
        self.page.wait_for_function(
            "c => c.width > 0 && c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0",
            arg=canvas.element_handle(), timeout=120_000,
        )  # fmt: skip
        return canvas

    def click_square(self, canvas: Any, x: float, y: float) -> None:
        """Click the canvas pixel ``(x, y)`` (the canvas may be drawn scaled)."""
        left, top, scale = canvas.evaluate(
            """c => { c.scrollIntoView({block: 'center'});
                      const r = c.getBoundingClientRect(); return [r.left, r.top, r.width / c.width]; }"""
        )
        self.page.mouse.click(left + x * scale, top + y * scale)


def site_pages(site: Path, levels: list[str], count: int) -> None:
    """The browser classroom: the site served by ``python -m course serve``, a page per level."""
    from playwright.sync_api import sync_playwright

    from course.site.build import SiteBuild
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    if not (site / "jupyter-lite.json").exists():
        SiteBuild(out=site, say=lambda line: print(f"[site] {line}")).run()
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "serve.log"
        command = [sys.executable, "-m", "course", "serve", "--host", "127.0.0.1", "--port", "0",
                   "--data", str(Path(scratch) / "data"), "--site", str(site)]  # fmt: skip
        with open(log, "wb") as out:
            server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
        try:
            base = f"http://127.0.0.1:{listening(log, server)}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                for level in levels:
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    nb = SitePage(context.new_page(), base, "lessons/00_welcome.ipynb")
                    players = ("human", "human") if level == "none" else (level, level)
                    nb.run_cell(CELL.format(black=players[0], white=players[1]))
                    nb.canvas(0)
                    canvas = nb.canvas(1)
                    canvas.scroll_into_view_if_needed()
                    summary(level, rounds(nb, canvas, count, level != "none"), level != "none")
                    context.close()
                browser.close()
        finally:
            os.kill(server.pid, signal.SIGINT)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def listening(log: Path, server: subprocess.Popen[bytes]) -> int:
    """The port the class server says it listens on (it is stopped if it never says)."""
    for _ in range(300):
        found = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", log.read_text())
        if found:
            return int(found.group(1))
        if server.poll() is not None:
            break
        time.sleep(0.2)
    server.kill()
    raise SystemExit("the class server did not start:\n" + log.read_text())


class LabPage:
    """The harness's notebook page with the two calls :func:`rounds` makes."""

    def __init__(self, nb: Any) -> None:
        self.nb, self.page = nb, nb.page

    def click_square(self, canvas: Any, x: float, y: float) -> None:
        self.nb.click_canvas(canvas, x, y)


def lab_pages(levels: list[str], count: int) -> None:
    """The laptop: a private JupyterLab (tests/browser/conftest.py's harness), searches in threads."""
    from playwright.sync_api import sync_playwright

    from tests.browser import conftest as harness

    server = harness.JupyterServer(Path(tempfile.mkdtemp(prefix="busy-board-")))
    server.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=harness.CHROMIUM, headless=True,
                                         args=harness.CHROMIUM_ARGS)  # fmt: skip
            for level in levels:
                page = browser.new_context(viewport=harness.VIEWPORT).new_page()
                players = ("human", "human") if level == "none" else (level, level)
                path = server.write_notebook(f"bench/{level}.ipynb", [CELL.format(black=players[0], white=players[1])])
                nb = harness.open_notebook(page, server, path)
                nb.run_all()
                nb.canvas(0)
                canvas = nb.canvas(1)
                canvas.scroll_into_view_if_needed()
                summary(level, rounds(LabPage(nb), canvas, count, level != "none"), level != "none")
                page.context.close()
            browser.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["none", "hard", "expert"],
                        choices=["none", "hard", "expert"], help="the first board's players")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=6, help="rounds of five waits per level")
    parser.add_argument("--site", type=Path, default=REPO / "build" / "site", help="the built site")
    parser.add_argument("--lab", action="store_true", help="JupyterLab with threads, not the site")
    args = parser.parse_args()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores; "
          f"{'JupyterLab (threads)' if args.lab else 'browser classroom (Pyodide)'}")
    if args.lab:
        lab_pages(args.levels, args.rounds)
    else:
        site_pages(args.site, args.levels, args.rounds)


if __name__ == "__main__":
    main()
