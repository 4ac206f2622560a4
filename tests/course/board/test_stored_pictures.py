"""Boards that show before anything runs: a notebook stored by scripts/store_outputs.py, rendered
to HTML by nbconvert WITHOUT running it, shows a picture for every board widget."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "store_outputs.py"
WIDGET = "application/vnd.jupyter.widget-view+json"
PICTURE = re.compile(
    r'data-mime-type="image/svg\+xml"[^>]*>\s*<img [^>]*src="data:image/svg\+xml;base64,([^"]+)"'
)


def pictures_in_html(notebook: nbformat.NotebookNode) -> list[str]:
    """The SVG documents nbconvert's HTML shows as images (decoded), in page order."""
    body, _ = HTMLExporter().from_notebook_node(notebook)
    return [base64.b64decode(found).decode() for found in PICTURE.findall(body)]


#: The kit's boards (how their text/plain begins): each must store a picture.
BOARDS = ("GameWidget(", "CursorMapWidget(")


def is_board(output: dict) -> bool:
    data = output.get("data", {})
    return WIDGET in data and str(data.get("text/plain", "")).startswith(BOARDS)


def widget_outputs(notebook: nbformat.NotebookNode) -> int:
    """How many of the kit's boards the notebook's stored outputs hold."""
    return sum(is_board(output) for cell in notebook.cells for output in cell.get("outputs", []))


@pytest.mark.slow
def test_the_script_stores_a_picture_beside_each_board_widget(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    path = folder / "boards.ipynb"
    cells = [
        nbformat.v4.new_code_cell(
            "from course import play\nboard = play()\nboard.controller.click('d3')\nboard"
        ),
        nbformat.v4.new_code_cell(
            "from course.cursormap.view import play_cursormap\nplay_cursormap()"
        ),
    ]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    done = subprocess.run([sys.executable, str(SCRIPT), str(path), "--timeout", "120"],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 pictures" in done.stdout
    stored = nbformat.read(path, as_version=4)
    assert widget_outputs(stored) == 2 and "widgets" not in stored.metadata
    assert not (folder / "saves").exists()  # the lesson ran in a scratch copy
    svgs = pictures_in_html(stored)
    assert len(svgs) == 2
    assert svgs[0].count("<circle") >= 5 and "cursor map" in svgs[1]


def test_a_bad_flag_exits_2_naming_it(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "missing.ipynb")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (
        done.returncode == 2 and "missing.ipynb" in done.stderr and "Traceback" not in done.stderr
    )
    done = subprocess.run([sys.executable, str(SCRIPT), "--timeout", "-3"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "--timeout" in done.stderr


@pytest.mark.parametrize(
    "lesson", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name
)
def test_every_stored_board_in_the_lessons_shows_a_picture_without_running(lesson):
    notebook = nbformat.read(lesson, as_version=4)
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if is_board(output):
                assert "image/svg+xml" in output["data"], (lesson.name, cell.source[:80])
    assert len(pictures_in_html(notebook)) >= widget_outputs(notebook)
