"""One search across slices: depth reached, move time and the longest slice, CPython and Pyodide.

Without threads (Pyodide in a browser) the board runs the strong search on the event
loop, which must get a turn every few hundredths of a second.  Three ways are measured
on the same positions, for the hard and expert levels (expert with its browser time):

* ``whole``: one uninterrupted :func:`~reversi.engine.think`, as in a worker thread;
* ``sliced``: :func:`~reversi.engine.thinking` paused every
  :data:`course.board.background.SLICE_SECONDS` and resumed, as the browser board runs it now;
* ``restart``: the board's way before: a new ``think()`` one depth deeper per slice (a new
  table, every lower depth searched again).

For each: the mean depth reached (an exact solve counts as reaching the end), the mean
and longest move time, and for the sliced ways the longest slice (the longest time the
loop waited).  Every time here, the searches' time limits included, is CPU time of the
process (``time.process_time`` in CPython, Node's ``process.cpuUsage`` in Pyodide, whose
``process_time`` is the wall clock): on a machine shared with other programs the wall
clock would measure the others too.  The three ways take turns position by position.  Then the exact solve of positions with 14 empty squares (expert's
``solve_empties``): its time uninterrupted and sliced, to set expert's browser time.
The same script runs inside Pyodide under Node (``build/pyodide-*``, made by
``python -m course site build`` or ``course.pyodide.core()``), and the figures are printed
side by side.

    python benchmarks/engine_slices.py [--positions 8] [--solves 6] [--no-pyodide]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
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

from reversi.board import Board  # noqa: E402
from reversi.engine import Thought, think, thinking  # noqa: E402
from reversi.notation import BLACK, Color, Square  # noqa: E402
from reversi.players import Expert, Hard, PositionalPlayer, StrongPlayer  # noqa: E402

#: Seconds per slice, as course/board/background.py's SLICE_SECONDS (read from there on CPython).
SLICE = 0.04

#: Expert's thinking time in the browser (course/browser.py's BROWSER_TIME_LIMITS, read from there on CPython).
EXPERT_BROWSER = 3.0

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
sys.argv = ["engine_slices.py", "--inside", *json.loads(bench_args)]
import runpy
runpy.run_path("/repo/benchmarks/engine_slices.py", run_name="__main__")
`);
"""


def cpu_clock() -> Callable[[], float]:
    """A clock of the CPU seconds this process used (in Pyodide, the Node process's)."""
    if sys.platform != "emscripten":
        return time.process_time
    from js import process  # type: ignore[import-not-found,unused-ignore]

    def node_cpu() -> float:
        used = process.cpuUsage()
        return float(used.user + used.system) / 1e6

    return node_cpu


def game_position(empties: int, seed: int) -> tuple[Board, Color]:
    """A position of a seeded game (a positional player, a quarter of its moves random) at ``empties``."""
    board, color = Board(), BLACK
    chooser, chance = PositionalPlayer(), random.Random(seed)
    while board.count(None) > empties and not board.is_finished():
        moves = board.legal_moves(color)
        if moves:
            chosen = chooser.choose_move(board.copy(), color)
            move = chance.choice(moves) if chance.random() < 0.25 or not isinstance(chosen, Square) else chosen
            board.play(move, color)
        color = color.opponent
    if not board.legal_moves(color):
        color = color.opponent
    return board, color


def sliced(board: Board, color: Color, slice_seconds: float, **options: Any) -> tuple[Thought, float]:
    """:func:`thinking` resumed after every pause: its answer and the longest slice in seconds."""
    clock = options["clock"]
    steps = thinking(board, color, slice_seconds=slice_seconds, **options)
    longest = 0.0
    while True:
        began = clock()
        try:
            next(steps)
        except StopIteration as end:
            return end.value, max(longest, clock() - began)
        longest = max(longest, clock() - began)


def restarted(board: Board, color: Color, time_limit: float, **options: Any) -> tuple[Thought, float]:
    """The board's way before: a new ``think()`` one depth deeper per slice, in the time left."""
    clock = options["clock"]
    start, best, longest = clock(), None, 0.0
    for depth in range(1, 61):
        left = time_limit - (clock() - start)
        if left <= 0:
            break
        began = clock()
        thought = think(board, color, time_limit=left, max_depth=depth, **options)
        longest = max(longest, clock() - began)
        finished = thought.exact or thought.depth >= depth
        if finished or best is None:
            best = thought
        if not finished or thought.exact or depth > 2 * board.count(None):
            break
    assert best is not None
    return best, longest


def reached(thought: Thought, board: Board) -> int:
    """The depth a search reached: an exact solve reaches the end (every empty square)."""
    return board.count(None) if thought.exact else thought.depth


def ways(level: StrongPlayer, slice_seconds: float) -> dict[str, Callable[[Board, Color], tuple[Thought, float]]]:
    """The three ways of searching for ``level``: each gives the answer and the longest slice."""
    clock = cpu_clock()
    options: dict[str, Any] = {"solve_empties": level.solve_empties, "wld_empties": level.wld_empties,
                               "clock": clock}
    return {
        "whole": lambda b, c: (think(b, c, time_limit=level.time_limit, **options), 0.0),
        "sliced": lambda b, c: sliced(b, c, slice_seconds, time_limit=level.time_limit, **options),
        "restart": lambda b, c: restarted(b, c, level.time_limit, solve_empties=level.solve_empties,
                                          clock=clock),
    }


def measure(positions: int, solves: int, slice_seconds: float, expert_time: float) -> dict[str, Any]:
    """Every figure, for the Python this runs in."""
    hard, expert, clock = Hard(), Expert(time_limit=expert_time), cpu_clock()
    boards = [game_position(60 - plies, seed) for plies in (8, 16, 24, 32) for seed in range(positions // 4)]
    boards = [(board, color) for board, color in boards if board.legal_moves(color)]
    out: dict[str, Any] = {"python": sys.version.split()[0], "platform": sys.platform, "levels": {},
                           "expert_time": expert_time}
    for name, level in (("hard", hard), ("expert", expert)) if boards else ():
        runs = ways(level, slice_seconds)
        found: dict[str, tuple[list[int], list[float], list[float]]] = {way: ([], [], []) for way in runs}
        for board, color in boards:
            for way, run in runs.items():
                began = clock()
                thought, longest = run(board, color)
                found[way][1].append(clock() - began)
                found[way][0].append(reached(thought, board))
                found[way][2].append(longest)
        figures = {way: {"depth": statistics.mean(depths), "depths": depths, "move_s": statistics.mean(seconds),
                         "longest_move_s": max(seconds), "longest_slice_s": max(slices)}
                   for way, (depths, seconds, slices) in found.items()}
        out["levels"][name] = {"time_limit": level.time_limit, "ways": figures}
    solve_times, solve_slices, solve_sliced, in_time = [], [], [], 0
    for seed in range(solves):
        board, color = game_position(14, 1000 + seed)
        began = clock()
        whole = think(board, color, solve_empties=14, clock=clock)
        solve_times.append(clock() - began)
        began = clock()
        thought, longest = sliced(board, color, slice_seconds, solve_empties=14, clock=clock)
        solve_sliced.append(clock() - began)
        solve_slices.append(longest)
        assert whole.exact and thought.exact and thought.move == whole.move and thought.value == whole.value
        as_expert, _ = sliced(board, color, slice_seconds, time_limit=expert.time_limit, clock=clock,
                              solve_empties=expert.solve_empties, wld_empties=expert.wld_empties)
        in_time += as_expert.exact
    out["solve14"] = {"whole_s": solve_times, "sliced_s": solve_sliced, "longest_slice_s": max(solve_slices),
                      "expert_exact": in_time}
    return out


def in_pyodide(arguments: list[str]) -> dict[str, Any] | None:
    """The figures measured inside Pyodide under Node, or ``None`` (with the reason printed)."""
    folders = sorted((REPO / "build").glob("pyodide-*"))
    node = shutil.which("node") or "/usr/bin/node"
    if not folders or not Path(node).exists():
        print("Pyodide not measured: needs build/pyodide-* (python -m course site build) and Node")
        return None
    with tempfile.TemporaryDirectory() as folder:
        driver = Path(folder) / "driver.mjs"
        driver.write_text(NODE_DRIVER)
        done = subprocess.run([node, str(driver), str(folders[-1]), str(REPO), json.dumps(arguments)],
                              capture_output=True, text=True, timeout=3600)
    for line in done.stdout.splitlines():
        if line.startswith("FIGURES"):
            return json.loads(line.removeprefix("FIGURES"))  # type: ignore[no-any-return]
    print("Pyodide run failed:\n" + done.stdout[-2000:] + done.stderr[-2000:])
    return None


def table(runs: dict[str, dict[str, Any]]) -> None:
    """Print the figures of each runtime side by side."""
    names = list(runs)
    print(f"\n{'level':8} {'way':8} " + " ".join(f"{n + ': depth  move s (max)  longest slice':>44}" for n in names))
    first = runs[names[0]]
    for level in first["levels"]:
        for way in first["levels"][level]["ways"]:
            cells = []
            for name in names:
                f = runs[name]["levels"][level]["ways"][way]
                slice_text = "-" if way == "whole" else f"{1000 * f['longest_slice_s']:.0f} ms"
                cells.append(f"{f['depth']:>20.2f} {f['move_s']:6.2f} ({f['longest_move_s']:.2f}) {slice_text:>12}")
            limit = first["levels"][level]["time_limit"]
            print(f"{level + f' {limit:g}s':8} {way:8} " + " ".join(cells))
    for name in names:
        s = runs[name]["solve14"]
        whole = sorted(s["whole_s"])
        print(f"{name}: exact solve, {len(whole)} positions with 14 empties: whole median "
              f"{statistics.median(whole):.2f} s, 90% {whole[int(0.9 * (len(whole) - 1))]:.2f} s, "
              f"max {whole[-1]:.2f} s; sliced max {max(s['sliced_s']):.2f} s, longest slice "
              f"{1000 * s['longest_slice_s']:.0f} ms; expert ({runs[name]['expert_time']:g} s) solved "
              f"{s['expert_exact']} of {len(whole)} in its time")
        for level in runs[name]["levels"]:
            ways = runs[name]["levels"][level]["ways"]
            print(f"{name} {level}: sliced reaches {ways['sliced']['depth'] - ways['whole']['depth']:+.2f} ply "
                  f"against whole, restart {ways['restart']['depth'] - ways['whole']['depth']:+.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8, help="midgame positions (4 game stages)")
    parser.add_argument("--solves", type=int, default=6, help="14-empty positions solved")
    parser.add_argument("--slice", type=float, default=None, help="seconds per slice")
    parser.add_argument("--expert-time", type=float, default=None, help="seconds (default: its browser time)")
    parser.add_argument("--no-pyodide", action="store_true")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:  # the board's own settings (course/ does not run inside Pyodide here)
        from course.board.background import SLICE_SECONDS
        from course.browser import BROWSER_TIME_LIMITS
        args.slice = SLICE_SECONDS if args.slice is None else args.slice
        args.expert_time = BROWSER_TIME_LIMITS["expert"] if args.expert_time is None else args.expert_time
    slice_seconds = SLICE if args.slice is None else args.slice
    expert_time = EXPERT_BROWSER if args.expert_time is None else args.expert_time
    figures = measure(args.positions, args.solves, slice_seconds, expert_time)
    if args.inside:
        print("FIGURES" + json.dumps(figures))
        return
    runs = {"CPython": figures}
    if not args.no_pyodide:
        pyodide = in_pyodide(["--positions", str(args.positions), "--solves", str(args.solves),
                              "--slice", str(slice_seconds), "--expert-time", str(expert_time)])
        if pyodide is not None:
            runs["Pyodide"] = pyodide
    print(f"slice {1000 * slice_seconds:.0f} ms, expert at {expert_time:g} s (its browser time); "
          "times in CPU seconds")
    table(runs)


if __name__ == "__main__":
    main()
