"""What a student sees in Jupyter under a failed self-check: the report, then one red line,
not a traceback through the kit."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[3]

SWAPPED_WALK = '''
def walk(start, direction, size):
    row, col = start
    squares = []
    while True:
        row, col = row + direction[0], col + direction[1]
        if not (0 <= row < size and 0 <= col < size):
            return squares
        squares.append((col, row))

from course.grading import checks
checks.walk(walk)
'''


def test_a_failed_self_check_ends_in_one_line_naming_the_check() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(SWAPPED_WALK)]
    nbclient.NotebookClient(notebook, timeout=120, allow_errors=True).execute(cwd=str(ROOT))
    outputs = notebook.cells[0].outputs
    printed = "".join(output.get("text", "") for output in outputs if output["output_type"] == "stream")
    assert "likely cause: row and column swapped" in printed
    [error] = [output for output in outputs if output["output_type"] == "error"]
    assert error["ename"] == "CheckFailed"
    assert len(error["traceback"]) == 1
    assert "Self-check failed" in error["traceback"][0] and "walk: 6 of 12 cases failed" in error["traceback"][0]
    assert "File " not in error["traceback"][0] and "course/grading" not in error["traceback"][0]
