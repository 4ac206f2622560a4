"""Every lesson runs in the browser classroom's kernel without a traceback (issue 24, item 3).

Each notebook runs in a fresh Python process set up as Pyodide is (see
``browser_kernel.py``): ``sys.platform`` is "emscripten", matplotlib cannot be
imported, numpy and ``PIL.Image`` are the kit's offline STAND-INS.  A chart is a Vega-Lite
description the page draws (tests/browser/test_lite.py counts them drawn), and a round robin
must play fewer games, so that every cell runs and the notebook stays fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL = Path(__file__).with_name("browser_kernel.py")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: Lessons this simulated kernel cannot run, each with the reason (checked below to stay true).
NOT_IN_BROWSER = {
    # talks to the class server that served the page, which only a real page has:
    # tests/browser/test_lite.py runs it top to bottom in Chromium
    "06_class_play": "LessonServer.start(",
}
#: Notebooks that draw charts, and how many each draws (in the page: tests/browser/test_lite.py).
CHARTS = {"03_rules_passing_and_end": 1, "04_computer_players": 4}
#: The lines that say a round robin plays fewer games in the browser.
FEWER_GAMES = {
    "04_computer_players": [
        "each pair plays 40 games here instead of 400",
        "each pair plays 2 games here instead of 20",
    ],
}
#: A notebook that takes longer than this in the browser kernel is too slow for a class.
SECONDS = 30


def run_in_browser_kernel(notebook: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(KERNEL), str(notebook)],
        capture_output=True,
        text=True,
        timeout=SECONDS,
        cwd=ROOT,
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_cell_runs_in_the_browser_kernel(notebook: Path) -> None:
    if notebook.stem in NOT_IN_BROWSER:
        source = notebook.read_text(encoding="utf-8")
        assert NOT_IN_BROWSER[notebook.stem] in source, "the reason it cannot run is gone"
        return
    run = run_in_browser_kernel(notebook)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = sum(cell["cell_type"] == "code" for cell in cells)
    assert f"ran {code} code cells" in run.stdout
    fewer = [line for line in run.stdout.splitlines() if "games here instead of" in line]
    assert len(fewer) == len(FEWER_GAMES.get(notebook.stem, []))
    for line, expected in zip(fewer, FEWER_GAMES.get(notebook.stem, []), strict=True):
        assert expected in line
