"""What the self-check's time and memory bounds cost a correct answer.

    python benchmarks/self_check_bounds.py

In CPython: every check cell of the teacher's solutions (exercises/source) three ways: with
no bounds, with the watchdog thread (every CPython kernel) and with the trace hook (the
fallback without threads before Python 3.12).  In Pyodide (the browser's Python, run in
Deno as the portable grader runs it): a student's ``flips`` on every square of a mid-game
board, 200 times, with no bounds and with :mod:`sys.monitoring` counting, as the browser
classroom's self-checks do.  Seconds and ratios are printed from the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import time
from pathlib import Path
from typing import Any

from course.grading import limits

ROOT = Path(__file__).resolve().parent.parent


def cells(path: Path) -> tuple[list[str], list[str]]:
    """The setup and answer cells' code, and the check cells' code, of a solution notebook."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    given, checks = [], []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        source = "".join(cell["source"])
        if any(tag.startswith("check:") for tag in tags):
            checks.append(source)
        elif "setup" in tags or any(tag.startswith("answer:") for tag in tags):
            given.append(source)
    return given, checks


def run_all(mode: str) -> float:
    original = limits.bounded
    if mode == "none":
        limits_bounded: Any = lambda *args, **kwargs: contextlib.nullcontext()  # noqa: E731
    else:
        limits_bounded = original
    threads = limits.has_threads
    limits.has_threads = (lambda: False) if mode == "trace hook" else threads  # type: ignore[method-assign]
    from course.grading import runner

    runner.bounded = limits_bounded  # type: ignore[attr-defined]
    began = time.perf_counter()
    try:
        for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
            given, checks = cells(path)
            namespace: dict[str, Any] = {"__name__": "__main__"}
            with contextlib.redirect_stdout(io.StringIO()):
                for source in given + checks:
                    exec(compile(source, f"<{path.stem}>", "exec"), namespace)  # noqa: S102 - the kit's own notebooks
    finally:
        runner.bounded = original  # type: ignore[attr-defined]
        limits.has_threads = threads  # type: ignore[method-assign]
    return time.perf_counter() - began


PYODIDE = r'''
import contextlib, sys, time, types, json
for package in ("course", "reversi"):
    module = types.ModuleType(package)
    module.__file__ = f"/lib/python3.14/site-packages/{package}/__init__.py"
    sys.modules[package] = module
import limits

CELL = """
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

def flips(grid, square, color):
    row, col = square
    if grid[row][col] != ".":
        return []
    other = "W" if color == "B" else "B"
    found = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and grid[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and grid[r][c] == color:
            found.extend(line)
    return found
"""
cell = {}
exec(compile(CELL, "<cell>", "exec"), cell)
grid = [list(row) for row in ("........", "..W.....", "..WWB...", "...WBB..", "..BBWW..", "...W....", "........", "........")]
squares = [(r, c) for r in range(8) for c in range(8)]

def once(bounded):
    began = time.perf_counter()
    for _ in range(200):  # 200 checks of 64 cases, each check as the runner makes it
        with limits.checking() if bounded else contextlib.nullcontext():
            for square in squares:
                if bounded:
                    with limits.bounded("flips"):
                        cell["flips"](grid, square, "B")
                else:
                    cell["flips"](grid, square, "B")
    return time.perf_counter() - began

once(False), once(True)
print(json.dumps({"none": min(once(False) for _ in range(3)), "monitoring": min(once(True) for _ in range(3))}))
'''


def pyodide_figures() -> dict[str, float]:
    from course.grading.sandbox import Limits, Sandbox

    files = {"main.py": PYODIDE, "limits.py": (ROOT / "course/grading/limits.py").read_text()}
    with Sandbox("pyodide").start(files, "main.py", Limits(wall=300, cpu=300)) as run:
        run.close_input()
        read = run.lines()
    figures: dict[str, float] = json.loads(read.lines[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    run_all("none")  # warm up: imports, caches
    figures = {mode: min(run_all(mode) for _ in range(3)) for mode in ("none", "watchdog", "trace hook")}
    print("every check cell of the 12 solution notebooks, best of 3")
    for mode, seconds in figures.items():
        print(f"  {mode:12} {seconds:6.2f} s   {seconds / figures['none']:.2f}x")
    browser = pyodide_figures()
    print("Pyodide: flips on 64 squares, 200 times (12,800 bounded calls), best of 3")
    for mode, seconds in browser.items():
        print(f"  {mode:12} {seconds:6.2f} s   {seconds / browser['none']:.2f}x")


if __name__ == "__main__":
    main()
