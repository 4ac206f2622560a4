"""The cursor-map lesson in a real browser: run it, focus the board, move and apply by keyboard."""

from __future__ import annotations

import re

import pytest

from course.cursormap import Layout
from course.cursormap.scene import CURSOR_FRAME
from reversi.cursormap import load_sample

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/05_cursormap.ipynb"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def test_keys_move_the_cursor_and_enter_passes_the_turn(notebook_page):
    nb = notebook_page(NOTEBOOK)
    nb.run_all()
    board = nb.canvas(-1)  # the game is the notebook's last (and only) canvas
    layout = Layout.for_map(load_sample("01_first_steps"))  # the map the lesson plays
    nb.wait_text(".cursormap-status", "at (1, 2)")
    nb.wait_text(".cursormap-turn", "Turn 1: player one (blue) to play")

    # The cursor's frame is painted 3 cells wide around its centre: check its left edge
    # (4 px wide line on a cell boundary) moves one cell to the right with the cursor.
    def frame_left_edge(col: int) -> tuple[int, int]:
        x, y = layout.corner(1, col - 1)
        return x, y + layout.cell + layout.cell // 2  # middle of the frame's left side

    gold = (*_rgb(CURSOR_FRAME), 255)
    nb.wait_pixel(board, *frame_left_edge(2), gold, tolerance=8)

    nb.press("ArrowRight", canvas=board, at=(2, 2))  # a click in the margin focuses, moves nothing
    nb.wait_text(".cursormap-status", "at (1, 3)")
    nb.wait_pixel(board, *frame_left_edge(3), gold, tolerance=8)
    assert nb.pixel(board, *frame_left_edge(2))[:3] != gold[:3]

    log_before = nb.texts(".cursormap-log")[-1]
    nb.press("Enter")  # focus stays on the canvas
    nb.wait_text(".cursormap-turn", "Turn 2: player two (red) to play")
    log_after = nb.wait_text(".cursormap-log", re.compile(r"Turn 1: player one \(blue\) applied"))
    assert len(log_after) > len(log_before)
    assert nb.texts(".cursormap-status")[-1].endswith("at (1, 3)")  # the cursor stays put
    assert nb.errors() == []
