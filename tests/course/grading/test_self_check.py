"""The self-check as a student sees it in Jupyter: their own failing line, then one line
saying the check failed, not a traceback through the kit.

IPython runs in a process of its own, so that no other test meets its global shell.
"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
from IPython.testing.globalipapp import start_ipython
shell = start_ipython()
shell.run_cell("from course.grading import checks")
shell.run_cell("def to_notation(row, col):\\n    letters = 'abc'\\n    return letters[col] + str(row + 1)\\n")
shell.run_cell("checks.to_notation(to_notation)")
"""


def test_a_failing_self_check_shows_the_students_line_and_hides_the_kit() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})  # fmt: skip
    out = run.stdout
    assert "but it raised IndexError: string index out of range" in out, out + run.stderr
    assert "line 3 of your code, in to_notation: return letters[col] + str(row + 1)" in out
    ending = out[out.index("Self-check failed") :]
    assert "Traceback" not in out, out  # one line, not a traceback through the kit
    for kit in ("checks_board.py", "runner.py", "in run(", "in _report("):
        assert kit not in ending, ending
    assert len(ending.strip().splitlines()) == 1, ending
