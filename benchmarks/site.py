"""The browser classroom measured: site size, page to playable board, many browsers, Pyodide speed.

Builds the site (downloads cached in build/site-cache), starts ``python -m course serve``
on a free 127.0.0.1 port and drives Debian's Chromium with Playwright:

* the site's size, total and gzip-compressed;
* page open to a playable board (lesson 00 opened, a ``play()`` cell run at once, its board
  drawn), ``--repeat`` times each: in a private window (a new browser context), cold then warm
  (a second page: HTTP cache warm); and in a browser profile on disk, the first, second and
  third visit (Chromium keeps compiled scripts there from the third); with what each page
  fetched (and anything fetched twice);
* ``--first-cells`` fresh pages whose first cell is run once, as soon as the notebook takes
  keys, and never again: how many ran;
* 30 clients downloading every file a page loads, at once (the class server's share);
* ``--contexts`` browser contexts opening the site at once: time until every board is drawn
  (30 is the goal; each page runs its own Pyodide kernel, so on 2 cores thirty take minutes);
* Pyodide against CPython: perft leaves per second, the search's nodes per second in 1 s,
  and each computer level's move time in the browser.

    python benchmarks/site.py [--contexts 4] [--deadline 900] [--only-contexts]
                              [--only-pages] [--repeat 3] [--first-cells 20]
                              [--site build/site]

Every server and browser is stopped before the script ends.
"""

from __future__ import annotations

import argparse
import json
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

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from course.site.build import OUT, SiteBuild  # noqa: E402
from course.site.compression import _site_size  # noqa: E402
from course.site.prewarm import TIMES  # noqa: E402
from course.site.snapshot import OPTION, SNAPSHOT_FILE, WITHOUT_SNAPSHOT  # noqa: E402
from tests.browser.conftest import CHROMIUM as CHROMIUM_PATH  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402

VISIBLE = ".jp-NotebookPanel:not(.lm-mod-hidden)"
#: Debian's Chromium, as every browser of this benchmark is launched (as the browser tests do).
CHROMIUM: dict[str, Any] = {"executable_path": CHROMIUM_PATH, "headless": True, "args": CHROMIUM_ARGS}
PROBE = """
import json, time
from reversi import Board, BLACK, WHITE, bitboard, engine
from course.board.seats import seat_player  # the levels as the board makes them here
board = Board()
start = time.perf_counter()
leaves = bitboard.perft(board.bits(BLACK), board.bits(WHITE), 7, bitboard.geometry(8))
perft_seconds = time.perf_counter() - start
after = board.copy()
after.play("f5", BLACK)
thought = engine.think(after, WHITE, time_limit=1.0)
levels = {}
for level in ("beginner", "easy", "medium", "hard", "expert"):
    start = time.perf_counter()
    seat_player(WHITE, level, None).choose_move(after, WHITE)
    levels[level] = round(time.perf_counter() - start, 3)
print("PROBE" + json.dumps({"perft_leaves_per_s": leaves / perft_seconds, "nodes_per_s": thought.nodes / thought.seconds,
      "depth": thought.depth, "levels": levels}))
"""


def serve(site: Path, data: Path, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    command = [
        sys.executable,
        "-m",
        "course",
        "serve",
        "--port",
        "0",
        "--data",
        str(data),
        "--site",
        str(site),
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    for _ in range(300):
        found = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", log.read_text())
        if found:
            return process, int(found.group(1))
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the class server did not start:\n" + log.read_text())


def run_cell(page: Any, code: str, timeout: float = 300_000) -> None:
    """Insert a cell at the top, type ``code``, run it and wait for it (as tests/browser/test_lite.py).

    A run pressed before the kernel is connected is dropped or opens "Select Kernel":
    the dialog is accepted, or the cell run again, as a student would.
    """
    cells = page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")
    cells.first.wait_for(timeout=timeout)
    cells.first.click(position={"x": 8, "y": 8})
    for key in ("Escape", "a", "Enter"):
        page.keyboard.press(key)
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    prompt = cells.first.locator(".jp-InputPrompt")
    for _ in range(3):
        try:
            page.wait_for_function(
                "p => /\\[(\\*|\\d+)\\]/.test(p.textContent)",
                arg=prompt.element_handle(), timeout=15_000,
            )  # fmt: skip
            break
        except PlaywrightTimeout:
            dialog = page.locator(".jp-Dialog .jp-mod-accept")
            if dialog.count():
                dialog.first.click()
            else:
                cells.first.locator(".cm-content").click()
                page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "p => /\\[\\d+\\]/.test(p.textContent)", arg=prompt.element_handle(), timeout=timeout
    )


def open_board(page: Any, base: str) -> dict[str, Any]:
    """Open lesson 00 and run ``play()`` at once: seconds to the notebook shown and the board drawn.

    Also what the page fetched: requests, bytes, and URLs fetched more than once.
    """
    fetched: list[tuple[str, int]] = []

    def done(request: Any) -> None:
        sizes = request.sizes()
        fetched.append((request.url, sizes["responseBodySize"]))

    page.on("requestfinished", done)
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    started = time.monotonic()
    page.goto(f"{base}/lab/index.html?path=lessons/00_welcome.ipynb")
    cells = page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")
    cells.first.wait_for(timeout=300_000)
    shown = time.monotonic() - started
    run_cell(page, "from course import play\nplay()")
    canvas = cells.first.locator("canvas").first
    page.wait_for_function(
        "c => c.width > 0 && c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0",
        arg=canvas.element_handle(), timeout=300_000,
    )  # fmt: skip
    board = time.monotonic() - started
    opened = page.evaluate("performance.timeOrigin")  # the worker's times are ms since 1970 too
    times = [json.loads(line[len(TIMES) :]) for line in said if line.startswith(TIMES)]
    python = [(moment - opened) / 1000 for moment in times[0]] if times else []
    urls = [url for url, _ in fetched]
    twice = sorted({url for url in urls if urls.count(url) > 1 and "/api/" not in url})
    fetched_snapshot = any(f"/{SNAPSHOT_FILE}" in url for url in urls)
    # a page started from the snapshot unless it said otherwise (a warm page reads the copy its
    # browser kept, course.site.snapshot.KEPT: no request)
    snapshot = OPTION in page.evaluate("fetch('../jupyter-lite.json').then(r => r.text())") and not any(
        line.startswith(WITHOUT_SNAPSHOT) for line in said)  # fmt: skip
    snapshot_from = "fetched" if fetched_snapshot else "the browser's copy"
    return {"shown": shown, "board": board, "requests": len(fetched), "python": python, "snapshot": snapshot,
            "snapshot_from": snapshot_from, "bytes": sum(size for _, size in fetched), "twice": twice}  # fmt: skip


def machine_speed() -> float:
    """Seconds a fixed Python loop takes (the best of three): this shared machine's own speed
    drifts by a third within an hour, so runs are compared with it beside them."""
    best = float("inf")
    for _ in range(3):
        began, total = time.perf_counter(), 0
        for number in range(10_000_000):
            total += number
        best = min(best, time.perf_counter() - began)
    return best


def _one_page(context: Any, base: str, label: str) -> float:
    """Open lesson 00's board in a new page of ``context``, print what it took; the seconds to the board."""
    page = context.new_page()
    seen = open_board(page, base)
    page.close()
    python = seen["python"]
    share = (
        f"Pyodide's own start {python[1] - python[0]:.1f} s (from {python[0]:.1f} s"
        f"{', from its snapshot, ' + seen['snapshot_from'] if seen['snapshot'] else ', no snapshot'}), "
        f"importing the kernel {python[2] - python[1]:.1f} s"
        if len(python) == 3
        else "Pyodide's start not reported (no kernel started with the page)"
    )
    print(
        f"{label}: notebook shown {seen['shown']:.1f} s, board drawn {seen['board']:.1f} s; {share}; "
        f"{seen['requests']} requests, {seen['bytes'] / 1e6:.1f} MB over the wire, "
        f"{len(seen['twice'])} fetched twice {seen['twice'][:3]}"
    )
    return float(seen["board"])


def pages_to_board(playwright: Any, browser: Any, base: str, repeat: int) -> None:
    """Page open to lesson 00's board drawn, ``repeat`` times each way.

    In a private window (a new context: its cache in memory, and no compiled code kept), cold
    (the context's first page) then warm (its second page); and in a browser profile on disk, as
    a student's browser keeps one: the first visit (cold), the second (warm: the files cached)
    and the third (Chromium compiles a script once it is seen twice, and keeps the code for the
    next page).
    """
    boards: dict[str, list[float]] = {}
    before = machine_speed()
    for run in range(repeat):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        for warmth in ("cold", "warm"):
            boards.setdefault(warmth, []).append(_one_page(context, base, f"run {run + 1} {warmth}"))
        context.close()
    for run in range(repeat):
        with tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, **CHROMIUM, viewport={"width": 1400, "height": 1000}
            )
            for visit in ("first visit, cold", "second visit, warm", "third visit"):
                label = f"profile on disk, {visit}"
                boards.setdefault(label, []).append(_one_page(context, base, f"run {run + 1} {label}"))
            context.close()
    for what, times in boards.items():
        print(f"{what}: board drawn after {min(times):.1f}-{max(times):.1f} s (median {statistics.median(times):.1f} s)")
    print(f"the machine's own speed: a fixed Python loop took {before:.2f} s before and {machine_speed():.2f} s after")


def first_cells(browser: Any, base: str, pages: int) -> None:
    """``pages`` fresh pages (half cold, half warm), a cell run once at the first moment the notebook
    takes keys, never pressed again: how many ran (a dropped run stays ``[ ]``)."""
    ran = 0
    for number in range(pages):
        if number % 2 == 0:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.goto(f"{base}/lab/index.html?path=lessons/00_welcome.ipynb")
        cells = page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")
        cells.first.wait_for(timeout=300_000)
        cells.first.click(position={"x": 8, "y": 8})
        for key in ("Escape", "a", "Enter"):
            page.keyboard.press(key)
        page.keyboard.insert_text(f"print('run', {number})")
        page.keyboard.press("Shift+Enter")
        prompt = cells.first.locator(".jp-InputPrompt").element_handle()
        try:
            page.wait_for_function(PLAYED, arg=prompt, timeout=120_000)
            ran += 1
        except PlaywrightTimeout:
            print(f"  page {number + 1}: the cell did not run within 120 s")
        page.close()
        if number % 2 == 1:
            context.close()
    print(f"first cell run at once on {pages} fresh pages (cold, then warm): {ran} ran")


PLAYED = "p => /\\[\\d+\\]/.test(p.textContent)"
STARTED = "p => /\\[(\\*|\\d+)\\]/.test(p.textContent)"


def many_at_once(contexts: list[Any], base: str, deadline: float) -> None:
    """Open lesson 01 in every context at once, run ``play()`` in each; print when each board came.

    The pages are polled together (not one after another), a run that the page dropped
    is pressed again, and pages still waiting at ``deadline`` seconds are counted, not
    waited for.
    """
    pages = [c.new_page() for c in contexts]
    started = time.monotonic()
    for page in pages:
        page.goto(f"{base}/lab/index.html?path=lessons/01_play.ipynb", wait_until="commit")
    typed: dict[int, float] = {}
    done: dict[int, float] = {}
    while len(done) < len(pages) and time.monotonic() - started < deadline:
        for number, page in enumerate(pages):
            if number in done:
                continue
            try:
                cells = page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")
                if number not in typed:
                    if cells.count() == 0:
                        continue
                    cells.first.click(position={"x": 8, "y": 8}, timeout=5_000)
                    for key in ("Escape", "a", "Enter"):
                        page.keyboard.press(key)
                    page.keyboard.insert_text("from course import play\nplay()")
                    page.keyboard.press("Shift+Enter")
                    typed[number] = time.monotonic()
                    continue
                prompt = cells.first.locator(".jp-InputPrompt").element_handle(timeout=5_000)
                if page.evaluate(PLAYED, prompt):
                    done[number] = time.monotonic() - started
                elif not page.evaluate(STARTED, prompt) and time.monotonic() - typed[number] > 20:
                    dialog = page.locator(".jp-Dialog .jp-mod-accept")
                    if dialog.count():
                        dialog.first.click(timeout=5_000)
                    else:
                        cells.first.locator(".cm-content").click(timeout=5_000)
                        page.keyboard.press("Shift+Enter")
                    typed[number] = time.monotonic()
            except PlaywrightTimeout:
                continue  # a page too busy to answer now: asked again on the next round
        time.sleep(1)
    times = sorted(done.values())
    if times:
        print(
            f"{len(pages)} browser contexts at once: {len(times)} boards playable, the first after "
            f"{times[0]:.0f} s, half after {times[len(times) // 2]:.0f} s, the last after {times[-1]:.0f} s"
        )
    if len(times) < len(pages):
        print(f"  {len(pages) - len(times)} boards not playable within {deadline:.0f} s")


def downloads_at_once(browser: Any, base: str, clients: int) -> None:
    """The server's share: ``clients`` downloading every file one cold page loads, all at once.

    The files are those a real page requested (recorded from one page opening lesson 01
    and starting its kernel); each client fetches them all with gzip, as a browser does.
    In a class each student's kernel runs on the student's own device, so this, not the
    kernels, is what the teacher's laptop carries.
    """
    import concurrent.futures
    import urllib.request

    context = browser.new_context(service_workers="block")
    page = context.new_page()
    wanted: list[str] = []
    page.on("request", lambda r: wanted.append(r.url) if r.url.startswith(base) else None)
    page.goto(f"{base}/lab/index.html?path=lessons/01_play.ipynb")
    run_cell(page, "1 + 1")
    context.close()
    files = sorted({url for url in wanted if "/api/" not in url})

    def fetch_all() -> int:
        received = 0
        for url in files:
            request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=300) as answer:
                received += len(answer.read())
        return received

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        sizes = list(pool.map(lambda _: fetch_all(), range(clients)))
    seconds = time.monotonic() - started
    print(
        f"{clients} clients downloading a page's {len(files)} files at once: all done in "
        f"{seconds:.1f} s, {sum(sizes) / 1e6:.0f} MB sent ({sum(sizes) / 1e6 / seconds:.0f} MB/s)"
    )


def cpython_probe() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=REPO, check=True
    )
    return json.loads(done.stdout.split("PROBE", 1)[1])


def browser_probe(page: Any) -> dict[str, Any]:
    run_cell(page, PROBE, timeout=600_000)
    text = (
        page.locator(f"{VISIBLE} .jp-Notebook .jp-Cell")
        .first.locator(".jp-OutputArea-output")
        .all_text_contents()
    )
    return json.loads("".join(text).split("PROBE", 1)[1])


def one_browser(playwright: Any, browser: Any, base: str, repeat: int) -> None:
    """Page to board, cold and warm, and Pyodide's speed against CPython's."""
    pages_to_board(playwright, browser, base, repeat)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    probe_page = context.new_page()
    probe_page.goto(f"{base}/lab/index.html?path=lessons/01_play.ipynb")
    pyodide = browser_probe(probe_page)
    context.close()
    cpython = cpython_probe()
    for what in ("perft_leaves_per_s", "nodes_per_s"):
        ratio = cpython[what] / pyodide[what]
        print(f"{what}: Pyodide {pyodide[what]:,.0f}, CPython {cpython[what]:,.0f} ({ratio:.1f}x)")
    print(f"search depth in 1 s: Pyodide {pyodide['depth']}, CPython {cpython['depth']}")
    for level, seconds in pyodide["levels"].items():
        print(
            f"move time in the browser, {level}: {seconds:.2f} s (CPython {cpython['levels'][level]:.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--contexts", type=int, default=4, help="browser contexts opening the site at once"
    )
    parser.add_argument(
        "--deadline", type=float, default=900, help="seconds the contexts are waited for"
    )
    parser.add_argument(
        "--only-contexts", action="store_true", help="measure only the contexts at once"
    )
    parser.add_argument(
        "--only-pages", action="store_true", help="measure only page open to board, cold and warm"
    )
    parser.add_argument("--repeat", type=int, default=3, help="cold and warm pages measured")
    parser.add_argument(
        "--first-cells", type=int, default=20, help="fresh pages whose first cell is run at once"
    )
    parser.add_argument(
        "--site", type=Path, default=OUT, help="the built site (default build/site)"
    )
    args = parser.parse_args()
    site = args.site
    if not (site / "jupyter-lite.json").exists():
        SiteBuild(out=site).run()
    print(
        f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    total, compressed = _site_size(site)
    print(f"site size: {total / 1e6:.1f} MB, {compressed / 1e6:.1f} MB compressed")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        process, port = serve(site, Path(scratch) / "data", Path(scratch) / "serve.log")
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**CHROMIUM)
                if args.only_pages:
                    pages_to_board(pw, browser, base, args.repeat)
                    first_cells(browser, base, args.first_cells)
                    return
                if not args.only_contexts:
                    one_browser(pw, browser, base, args.repeat)
                downloads_at_once(browser, base, 30)
                contexts = [
                    browser.new_context(viewport={"width": 1400, "height": 1000})
                    for _ in range(args.contexts)
                ]
                many_at_once(contexts, base, args.deadline)
                for c in contexts:
                    c.close()
                browser.close()
        finally:
            os.kill(process.pid, signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    main()
