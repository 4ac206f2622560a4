"""Expert's move 14 squares from the end within its browser time, on 100 fixed positions, CPython and Pyodide.

The expert level solves the game exactly from 14 empty squares; in the browser it has
``course.browser.BROWSER_TIME_LIMITS["expert"]`` seconds a move.  When the exact solve
cannot finish in that time the search stops before the deadline and plays the best move
of the depth-limited search that ran first (:func:`reversi.engine.thinking`).  For each
position this script runs the expert's search as the browser board runs it (in slices of
``course.board.background.SLICE_SECONDS``) and prints the wall-clock seconds from start to
answer, whether the answer is exact or the fallback (and its depth); then the median, the
longest, how many answered within the limit and how many were solved exactly.

The positions are reproducible: ``benchmarks/endgame.py``'s games (two positional players,
a quarter of the moves random from ``random.Random(seed)``) stopped at 14 empty squares,
seeds ``--first`` to ``--first + --positions - 1``.  The same script runs inside Pyodide
under Node (``build/pyodide-*``, made by ``python -m course site build`` or
``course.pyodide.core()``), as ``benchmarks/engine_slices.py`` does.

    python benchmarks/expert_endgame.py [--positions 100] [--first 0] [--no-pyodide] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from endgame import fourteen_empties  # noqa: E402

from reversi.engine import thinking  # noqa: E402
from reversi.players import Expert  # noqa: E402

#: Expert's time in the browser, the board's slice and its reserve (read from course/ on CPython; passed to Pyodide).
EXPERT_BROWSER = 3.0
SLICE = 0.04
RESERVE = 0.05

NODE_DRIVER = """
const [pyodideFolder, repo, args] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideFolder + "/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: pyodideFolder + "/" });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.globals.set("bench_args", args);
pyodide.runPython(`
import sys, json
sys.path.insert(0, "/repo")
sys.argv = ["expert_endgame.py", "--inside", *json.loads(bench_args)]
import runpy
runpy.run_path("/repo/benchmarks/expert_endgame.py", run_name="__main__")
`);
"""


def expert_move(seed: int, limit: float, slice_seconds: float, reserve: float) -> dict[str, Any]:
    """The expert's search on position ``seed`` in slices, as the browser board runs it (aiming at
    the limit less ``reserve`` of it)."""
    board, color = fourteen_empties(seed)
    expert = Expert(time_limit=limit)
    start = time.perf_counter()
    steps = thinking(board, color, time_limit=expert.time_limit * (1 - reserve), max_depth=expert.max_depth,
                     solve_empties=expert.solve_empties, wld_empties=expert.wld_empties,
                     clock=time.perf_counter, slice_seconds=slice_seconds)  # fmt: skip
    longest, began = 0.0, time.perf_counter()
    while True:
        try:
            next(steps)
        except StopIteration as end:
            thought = end.value
            break
        now = time.perf_counter()
        longest, began = max(longest, now - began), now
    seconds = time.perf_counter() - start
    assert board.is_legal(thought.move, color), f"position {seed}: {thought.move} is not legal"
    return {"seed": seed, "seconds": seconds, "exact": thought.exact, "depth": thought.depth,
            "move": str(thought.move), "longest_slice": max(longest, time.perf_counter() - began)}  # fmt: skip


def measure(first: int, count: int, limit: float, slice_seconds: float, reserve: float, quiet: bool,
            runtime: str) -> list[dict[str, Any]]:
    rows = []
    for seed in range(first, first + count):
        row = expert_move(seed, limit, slice_seconds, reserve)
        rows.append(row)
        if not quiet:
            answer = "exact" if row["exact"] else f"depth {row['depth']} (fallback)"
            print(f"{runtime} position {seed:3}: {row['seconds']:5.2f} s, {answer}, {row['move']}, "
                  f"longest slice {1000 * row['longest_slice']:.0f} ms", flush=True)
    return rows


def in_pyodide(arguments: list[str]) -> list[dict[str, Any]] | None:
    """The rows measured inside Pyodide under Node, or ``None`` (with the reason printed)."""
    folders = sorted((REPO / "build").glob("pyodide-*"))
    node = shutil.which("node") or "/usr/bin/node"
    if not folders or not Path(node).exists():
        print("Pyodide not measured: needs build/pyodide-* (python -m course site build) and Node")
        return None
    with tempfile.TemporaryDirectory() as folder:
        driver = Path(folder) / "driver.mjs"
        driver.write_text(NODE_DRIVER)
        with subprocess.Popen([node, str(driver), str(folders[-1]), str(REPO), json.dumps(arguments)],
                              stdout=subprocess.PIPE, text=True) as running:  # fmt: skip
            assert running.stdout is not None
            for line in running.stdout:
                if line.startswith("ROWS"):
                    return json.loads(line.removeprefix("ROWS"))  # type: ignore[no-any-return]
                print(line, end="", flush=True)  # its per-position lines as they come
    print("Pyodide run failed")
    return None


def summary(runtime: str, rows: list[dict[str, Any]], limit: float) -> None:
    times = sorted(row["seconds"] for row in rows)
    within = sum(t <= limit for t in times)
    exact = sum(row["exact"] for row in rows)
    print(f"{runtime}: {len(rows)} positions with 14 empties, expert at {limit:g} s: median {statistics.median(times):.2f} s, "
          f"90% {times[int(0.9 * (len(times) - 1))]:.2f} s, max {times[-1]:.2f} s; within {limit:g} s: {within} of {len(rows)}; "
          f"solved exactly: {exact}, fallback move: {len(rows) - exact}; "
          f"longest slice {1000 * max(row['longest_slice'] for row in rows):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100, help="how many positions")
    parser.add_argument("--first", type=int, default=0, help="the first position's seed")
    parser.add_argument("--limit", type=float, default=None, help="seconds (default: expert's browser time)")
    parser.add_argument("--slice", type=float, default=None, help="seconds per slice (default: the board's)")
    parser.add_argument("--reserve", type=float, default=None, help="share of the limit kept (default: the board's)")
    parser.add_argument("--no-pyodide", action="store_true")
    parser.add_argument("--no-cpython", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no line per position")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:  # the board's own settings (course/ does not run inside Pyodide here)
        from course.board.background import SLICE_SECONDS, TIME_RESERVE
        from course.browser import BROWSER_TIME_LIMITS

        args.limit = BROWSER_TIME_LIMITS["expert"] if args.limit is None else args.limit
        args.slice = SLICE_SECONDS if args.slice is None else args.slice
        args.reserve = TIME_RESERVE if args.reserve is None else args.reserve
    limit = EXPERT_BROWSER if args.limit is None else args.limit
    slice_seconds = SLICE if args.slice is None else args.slice
    reserve = RESERVE if args.reserve is None else args.reserve
    if args.inside:
        rows = measure(args.first, args.positions, limit, slice_seconds, reserve, args.quiet, "Pyodide")
        print("ROWS" + json.dumps(rows), flush=True)
        return
    runs = {}
    if not args.no_cpython:
        runs["CPython"] = measure(args.first, args.positions, limit, slice_seconds, reserve, args.quiet, "CPython")
    if not args.no_pyodide:
        rows = in_pyodide(["--positions", str(args.positions), "--first", str(args.first), "--limit", str(limit),
                           "--slice", str(slice_seconds), "--reserve", str(reserve)] + (["--quiet"] if args.quiet else []))  # fmt: skip
        if rows is not None:
            runs["Pyodide"] = rows
    for runtime, rows in runs.items():
        summary(runtime, rows, limit)


if __name__ == "__main__":
    main()
