"""The lessons' charts measured: making the description, the static picture, and the browser's draw.

* In Python: each chart of the lessons (``course.plots``, ``course.tournament``) made ``--repeat``
  times (its Vega-Lite description; min/median/max ms) with the description's size, and drawn
  as a static SVG by vl-convert (the first one starts its engine: shown apart).
* With ``--site DIR`` (a built browser classroom, ``python -m course site build``): the site is
  served on 127.0.0.1 and Debian's Chromium opens lesson 00 in a fresh context ``--repeat``
  times; once the kernel is ready, a ``nodes_chart`` cell is run and timed until the page has
  drawn the chart (Vega's canvas), with the bytes the page fetched for it (Vega's code, loaded
  the first time a chart is drawn), then a second chart; a tooltip is looked for on a bar.

    python benchmarks/charts.py [--repeat 5] [--site build/site]

Every server and browser is stopped before the script ends.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from course.charts import Chart  # noqa: E402
from course.plots import heatmap, nodes_chart, plot_evaluation, weights_chart  # noqa: E402
from course.tournament import entrant, plot_crosstable, plot_standings, round_robin  # noqa: E402
from reversi.game import Game  # noqa: E402

CHART_CELL = 'from course.plots import nodes_chart\nnodes_chart({"minimax": [4, 20, 88], "alpha-beta": [4, 12, 40]})'
SECOND_CELL = "from course.plots import weights_chart\nweights_chart()"
#: The scripts the page loaded since ``since`` (performance.now()), with their decoded sizes.
LOADED = """since => performance.getEntriesByType('resource')
  .filter(e => e.startTime >= since && /[.]js$/.test(e.name))
  .map(e => [e.name.split('/').pop(), e.decodedBodySize])"""
DRAWN = "n => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedVegaLite canvas.marks').length >= n"


def spread(values: list[float], unit: str = "ms", scale: float = 1000) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{low * scale:.1f} / {mid * scale:.1f} / {high * scale:.1f} {unit} (min/median/max)"


def lessons_charts() -> dict[str, Callable[[], Chart]]:
    game = Game()
    while not game.is_over:
        legal = game.legal_moves()
        game.play(legal[0]) if legal else game.pass_turn()
    result = round_robin({"Greedy": entrant("greedy"), "Positional": entrant("positional"),
                          "Random": entrant("random")}, games_per_pair=4, seed=1)  # fmt: skip
    table = [[row * 8 + col for col in range(8)] for row in range(8)]
    return {
        "heatmap": lambda: heatmap(table, "numbers", labels=True),
        "weights_chart": weights_chart,
        "nodes_chart": lambda: nodes_chart(
            {"minimax": [4, 20, 88, 400], "alpha-beta": [4, 12, 40, 90]}
        ),
        "plot_evaluation (curve given)": lambda: plot_evaluation(
            game, curve=[float(i) for i in range(61)]
        ),
        "plot_standings": lambda: plot_standings(result),
        "plot_crosstable": lambda: plot_crosstable(result),
    }


def in_python(repeat: int) -> None:
    charts = lessons_charts()
    started = time.perf_counter()
    next(iter(charts.values()))().svg()
    print(f"vl-convert's first SVG (its engine starting): {time.perf_counter() - started:.2f} s")
    for name, make in charts.items():
        made, drawn = [], []
        for _ in range(repeat):
            started = time.perf_counter()
            chart = make()
            made.append(time.perf_counter() - started)
            started = time.perf_counter()
            svg = chart.svg()
            drawn.append(time.perf_counter() - started)
        size = len(json.dumps(chart.spec))
        print(
            f"{name}: description {spread(made)}, {size:,} bytes; SVG {spread(drawn)}, {len(svg):,} bytes"
        )


def load_site_benchmark() -> Any:
    """``benchmarks/site.py`` (its server start and cell runner), loaded by path: it is no package."""
    spec = importlib.util.spec_from_file_location("site_benchmark", REPO / "benchmarks" / "site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_browser(site: Path, repeat: int) -> None:
    from playwright.sync_api import sync_playwright

    bench = load_site_benchmark()
    first, second, plain, fetched, tooltips, names = [], [], [], [], 0, set()
    with tempfile.TemporaryDirectory() as scratch:
        process, port = bench.serve(site, Path(scratch) / "data", Path(scratch) / "serve.log")
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**bench.CHROMIUM)
                for _ in range(repeat):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    page = context.new_page()
                    page.goto(f"{base}/lab/index.html?path=lessons/00_welcome.ipynb")
                    bench.run_cell(page, "1")  # the kernel is ready
                    started = time.monotonic()
                    bench.run_cell(page, "2")  # a cell without a chart, run the same way
                    plain.append(time.monotonic() - started)
                    since = page.evaluate("() => performance.now()")
                    for cell, times, count in ((CHART_CELL, first, 1), (SECOND_CELL, second, 2)):
                        started = time.monotonic()
                        bench.run_cell(page, cell)
                        page.wait_for_function(DRAWN, arg=count, timeout=120_000, polling=50)
                        times.append(time.monotonic() - started)
                        if count == 1:
                            loaded = page.evaluate(LOADED, since)
                            fetched.append(sum(size for _, size in loaded))
                            names.update(name for name, _ in loaded)
                    canvas = page.locator(".jp-RenderedVegaLite canvas.marks").last
                    box = canvas.bounding_box()
                    assert box is not None
                    for step in range(1, 10):  # over the grid's squares until a tooltip shows
                        page.mouse.move(
                            box["x"] + box["width"] * step / 10, box["y"] + box["height"] / 2
                        )
                        page.wait_for_timeout(150)
                        if page.locator("#vg-tooltip-element.visible").count():
                            tooltips += 1
                            break
                    context.close()
                browser.close()
        finally:
            os.kill(process.pid, signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    print(f"first chart in a page, run to drawn: {spread(first, 's', 1)}")
    print(f"a plain cell (2), run to done: {spread(plain, 's', 1)}")
    print(
        f"code fetched for the first chart: {spread([b / 1000 for b in fetched], 'kB', 1)} "
        f"(uncompressed): {sorted(names)}"
    )
    print(f"second chart, run to drawn: {spread(second, 's', 1)}")
    print(f"a tooltip showed on hover in {tooltips} of {repeat} pages")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--site", type=Path, help="a built site: also measure in Chromium")
    args = parser.parse_args()
    print(
        f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    in_python(args.repeat)
    if args.site is not None:
        in_browser(args.site, args.repeat)


if __name__ == "__main__":
    main()
