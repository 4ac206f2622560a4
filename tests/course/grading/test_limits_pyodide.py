"""The self-check's bounds in the browser's Python: Pyodide (in Deno, as the portable grader runs
it) has no threads, so :mod:`course.grading.limits` stops a runaway answer from inside, with its
trace hook on the student's own lines.  The module runs there as the browser classroom's kernel
imports it; the kit's packages are placed where a site installs them."""

from __future__ import annotations

import json
from pathlib import Path

from course.grading.sandbox import Limits, Sandbox

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = r'''
import json, sys, time, types

for package in ("course", "reversi"):  # where the site's wheel puts them: traced as the kit
    module = types.ModuleType(package)
    module.__file__ = f"/lib/python3.13/site-packages/{package}/__init__.py"
    sys.modules[package] = module
import i18n  # the messages' module, which limits imports (English: no catalogue shipped)

sys.modules["course.i18n"] = i18n
import limits

CELL = """
def walk(start, direction, size):
    squares = []
    row, col = start
    while 0 <= row < size and 0 <= col < size:
        squares.append((row + direction[0], col + direction[1]))
    return squares

def spin(start, direction, size):
    while True:
        pass

def total(n):
    return sum(range(n))
"""
cell = {}
exec(compile(CELL, "<cell 3>", "exec"), cell)  # a notebook cell, as IPython compiles it

found = {"threads": limits.has_threads()}
for name, args, bounds in (("walk", ((3, 3), (0, 1), 8), (60, 40)), ("spin", ((3, 3), (0, 1), 8), (0.5, 500))):
    began = time.monotonic()
    try:
        with limits.bounded(name, seconds=bounds[0], megabytes=bounds[1]):
            cell[name](*args)
        found[name] = "returned"
    except limits.Overrun as stopped:
        found[name] = str(stopped)
    found[name + "_seconds"] = round(time.monotonic() - began, 2)
began = time.monotonic()
with limits.bounded("total"):
    found["total"] = cell["total"](10**5)
found["total_seconds"] = round(time.monotonic() - began, 3)
print(json.dumps(found))
'''


def test_a_runaway_answer_is_stopped_in_pyodide_by_memory_and_by_time() -> None:
    files = {"main.py": PROGRAM, "limits.py": (ROOT / "course/grading/limits.py").read_text(),
             "i18n.py": (ROOT / "course/i18n.py").read_text()}  # fmt: skip
    with Sandbox("pyodide").start(files, "main.py", Limits(wall=120, memory_mb=1024)) as run:
        run.close_input()
        read = run.lines()
    found = json.loads(read.lines[-1])
    assert found["threads"] is False
    assert found["walk"].startswith("your walk used more than 40 MB and was stopped"), found
    assert found["spin"] == "your spin ran for 0.5 s and was stopped: does the loop step, and does it end?"
    assert found["spin_seconds"] < 3, found
    assert found["total"] == 4999950000
