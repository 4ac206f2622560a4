"""How long from a click on the notebook board to the new disc on the screen, in a real browser.

Starts a private JupyterLab and headless Chromium with the browser-test harness
(tests/browser/conftest.py), opens a scratch notebook with two boards (animation
off and on), clicks legal moves one after another and times, inside the page,
from the canvas's ``mousedown`` event to the first change of the clicked square's
centre pixel.  Then it times a Randomizer-vs-Greedy game with no animation and no
wait, from the board appearing to "Game over".

    python benchmarks/click_to_redraw.py [--clicks 30]

Target: median click-to-redraw under 150 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

from course.board.view import BoardGeometry
from reversi import BLACK, Board

REPO = Path(__file__).resolve().parents[1]

BOARDS_CELLS = [
    "from course import play\nplay(animate=False)",
    "play(animate=True)",
]
CVC_CELLS = ['from course import play\nplay("random", "greedy", animate=False)']

# Resolves with the time from the canvas's next mousedown to the first change of pixel (x, y).
JS_ARM = """
(c, [x, y]) => {
  const ctx = c.getContext('2d');
  const read = () => Array.from(ctx.getImageData(x, y, 1, 1).data).join();
  const before = read();
  window.__bench = new Promise((resolve, reject) => {
    let t0 = null;
    c.addEventListener('mousedown', () => { t0 = performance.now(); }, {once: true, capture: true});
    const started = performance.now();
    const poll = () => {
      if (t0 !== null && read() !== before) { resolve(performance.now() - t0); return; }
      if (performance.now() - started > 10000) { reject(new Error('no redraw in 10 s')); return; }
      setTimeout(poll, 1);
    };
    poll();
  });
}
"""

# Records when a board first appears and when its turn line first says "Game over".
JS_WATCH_GAME = """
() => {
  window.__game = {appeared: null, over: null};
  const id = setInterval(() => {
    const g = window.__game;
    if (g.appeared === null && document.querySelector('.reversi-game canvas')) g.appeared = performance.now();
    const turn = document.querySelector('.reversi-turn');
    if (g.over === null && turn && turn.textContent.startsWith('Game over')) {
      g.over = performance.now(); g.text = turn.textContent; clearInterval(id);
    }
  }, 5);
}
"""


def load_harness():
    path = REPO / "tests" / "browser" / "conftest.py"
    spec = importlib.util.spec_from_file_location("browser_harness", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["browser_harness"] = module
    spec.loader.exec_module(module)
    return module


def time_clicks(nb, canvas_index: int, clicks: int) -> list[float]:
    """Click ``clicks`` legal moves on a two-person board; returns the redraw times in ms."""
    canvas = nb.canvas(canvas_index)
    canvas.scroll_into_view_if_needed()
    nb.page.wait_for_timeout(500)  # let the lazily rendered cells above settle
    geometry = BoardGeometry.fit(8)
    board, color, times = Board(), BLACK, []
    for _ in range(clicks):
        if not board.has_legal_move(color):
            if board.is_finished():
                break
            widget = nb.page.locator(".reversi-game").nth(canvas_index)
            widget.locator("button.reversi-pass").click()  # the rules make this side pass
            nb.page.wait_for_timeout(300)
            color = color.opponent
        move = board.legal_moves(color)[0]
        x, y = (int(v) for v in geometry.centre(move))
        canvas.evaluate(JS_ARM, [x, y])
        nb.click_canvas(canvas, x, y)
        times.append(nb.page.evaluate("() => window.__bench"))
        board.play(move, color)
        color = color.opponent
        nb.page.wait_for_timeout(300)  # let an animation finish: time one click at a time
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="clicks per board (default 30)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    harness = load_harness()
    server = harness.JupyterServer(Path(tempfile.mkdtemp(prefix="click-bench-")))
    server.start()
    pw = sync_playwright().start()
    browser = pw.chromium.launch(
        executable_path=harness.CHROMIUM, headless=True, args=harness.CHROMIUM_ARGS
    )
    try:
        page = browser.new_context(viewport=harness.VIEWPORT).new_page()
        path = server.write_notebook("bench/boards.ipynb", BOARDS_CELLS)
        nb = harness.open_notebook(page, server, path)
        nb.run_all()
        for index, label in ((0, "animation off"), (1, "animation on ")):
            times = time_clicks(nb, index, args.clicks)
            print(
                f"click-to-redraw, {label}: median {statistics.median(times):6.1f} ms, "
                f"min {min(times):6.1f}, max {max(times):6.1f} ({len(times)} clicks)"
            )

        path = server.write_notebook("bench/cvc.ipynb", CVC_CELLS)
        nb = harness.open_notebook(page, server, path)
        page.evaluate(JS_WATCH_GAME)
        started = time.monotonic()
        nb.run_all()
        page.wait_for_function("() => window.__game.over !== null", timeout=60_000)
        game = page.evaluate("() => window.__game")
        seconds = (game["over"] - game["appeared"]) / 1000
        print(f"Randomizer vs Greedy, no animation, no wait: board shown to game over {seconds:.2f} s")
        print(f"  ({game['text'].strip()}; run-all to game over {time.monotonic() - started:.1f} s)")
    finally:
        browser.close()
        pw.stop()
        server.stop()


if __name__ == "__main__":
    main()
