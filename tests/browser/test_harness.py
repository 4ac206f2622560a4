"""Self-test of the browser harness on scratch notebooks the tests write into the server root."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

RED = (255, 0, 0, 255)

PROBE_CELLS = [
    "import reversi, course\nprint('kit imports ok')",
    """\
import ipywidgets as widgets
from ipycanvas import Canvas
from IPython.display import display

canvas = Canvas(width=200, height=100)
label = widgets.Label(value="waiting")
label.add_class("harness-label")

def draw(*_):
    canvas.clear()
    canvas.fill_style = "red"
    canvas.fill_rect(0, 0, 100, 100)

def on_down(x, y):
    label.value = f"{x:.0f},{y:.0f}"

def on_key(key, shift_key, ctrl_key, meta_key):
    label.value = f"key:{key}"

canvas.on_client_ready(draw)  # a (re)connecting view starts blank: redraw for it
canvas.on_mouse_down(on_down)
canvas.on_key_down(on_key)
draw()
display(canvas, label)
""",
]

MULTI_CELLS = [
    """\
import ipywidgets as widgets
from ipycanvas import MultiCanvas
from IPython.display import display

mc = MultiCanvas(2, width=120, height=80)
status = widgets.Label(value="waiting")
status.add_class("multi-label")

def draw(*_):
    mc[0].fill_style = "blue"
    mc[0].fill_rect(0, 0, 120, 80)
    mc[1].clear()
    mc[1].fill_style = "lime"
    mc[1].fill_rect(60, 0, 60, 80)

def on_down(x, y):
    if x >= 60:
        1 / 0  # an exception in a handler: the harness must report it
    status.value = f"left {x:.0f},{y:.0f}"

mc.on_client_ready(draw)
mc.on_mouse_down(on_down)
draw()
display(mc, status)
""",
    'raise ValueError("cell error on purpose")',
]


def _coords(text: str) -> tuple[int, int] | None:
    m = re.fullmatch(r"(-?\d+),(-?\d+)", text)
    return (int(m[1]), int(m[2])) if m else None


def _near(text: str, x: int, y: int) -> bool:
    c = _coords(text)
    return c is not None and abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1


def test_canvas_pixel_and_click(jupyter_server, notebook_page):
    path = jupyter_server.write_notebook("harness_selftest/probe_click.ipynb", PROBE_CELLS)
    nb = notebook_page(path)
    nb.run_all()
    assert "kit imports ok" in nb.outputs_text()

    canvas = nb.canvas(0)
    nb.wait_pixel(canvas, 50, 50, RED)
    assert nb.pixel(canvas, 150, 50)[3] == 0  # right half untouched (transparent)

    nb.click_canvas(canvas, 150, 60)
    text = nb.wait_text(".harness-label", lambda t: _near(t, 150, 60))
    assert _near(text, 150, 60), text
    assert nb.errors() == []


def test_canvas_key_press(jupyter_server, notebook_page):
    path = jupyter_server.write_notebook("harness_selftest/probe_keys.ipynb", PROBE_CELLS)
    nb = notebook_page(path)
    nb.run_all()
    canvas = nb.canvas(0)
    nb.wait_pixel(canvas, 50, 50, RED)

    # Focus as a user does: a click (mouse-down) on the canvas, then keys.
    nb.press("ArrowLeft", canvas=canvas, at=(20, 20))
    nb.wait_text(".harness-label", "key:ArrowLeft")
    nb.press("a")  # focus stays on the canvas
    nb.wait_text(".harness-label", re.compile(r"^key:a$"))
    assert nb.errors() == []


def test_multicanvas_and_callback_errors(jupyter_server, notebook_page):
    path = jupyter_server.write_notebook("harness_selftest/probe_multi.ipynb", MULTI_CELLS)
    nb = notebook_page(path)
    assert nb.run_all(check=False) is False  # the last cell raises
    errors = nb.errors()
    assert len(errors) == 1 and "ValueError: cell error on purpose" in errors[0], errors

    # ipycanvas 0.14 renders a MultiCanvas as one composited <canvas>.
    assert nb.canvases().count() == 1
    mc = nb.canvas(0)
    nb.wait_pixel(mc, 90, 40, (0, 255, 0, 255))  # top layer
    nb.wait_pixel(mc, 30, 40, (0, 0, 255, 255))  # bottom layer shows through

    nb.click_canvas(mc, 30, 40)
    nb.wait_text(".multi-label", lambda t: t.startswith("left ") and _near(t[5:], 30, 40))
    assert nb.callback_log() == []

    nb.click_canvas(mc, 90, 40)  # the handler raises ZeroDivisionError
    nb.page.wait_for_function(
        "() => window.__harness.callbackLog.some(e => e.kind === 'error')", timeout=10_000
    )
    errors = nb.errors()
    assert len(errors) == 2 and "ZeroDivisionError" in errors[1], errors
    assert nb.texts(".multi-label")[0].startswith("left ")  # unchanged by the failed click
