"""The kit's canvases send the browser classroom's kernel presses only (course.site.canvas_events)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course import play
from course.board.view import BoardGeometry
from course.cursormap.view import play_cursormap
from course.site import SiteError
from course.site.canvas_events import (
    IPYCANVAS_STATIC,
    OWN_PRESSES,
    PAGE_SCRIPT,
    PAGES,
    PRESSES_ONLY,
    QUIET,
    _quiet,
    patch_canvas,
)

#: ipycanvas's page code as pip installed it beside the kit (the version the site build pins).
INSTALLED = Path(sys.prefix) / "share/jupyter/labextensions/ipycanvas/static"


def installed_site(tmp_path: Path) -> Path:
    shutil.copytree(INSTALLED, tmp_path / IPYCANVAS_STATIC)
    for name in PAGES:
        (tmp_path / name).parent.mkdir(parents=True)
        (tmp_path / name).write_text("<!doctype html><html><head><title>JupyterLite</title></head></html>")
    for bundle in (tmp_path / IPYCANVAS_STATIC).glob("*.js"):
        Path(f"{bundle}.gz").write_bytes(b"stale")
    return tmp_path


def test_ipycanvas_as_installed_has_each_handler_once_and_is_patched_once(tmp_path: Path) -> None:
    site = installed_site(tmp_path)
    assert patch_canvas(site) == len(QUIET) + len(PAGES)
    patched = [p for p in (site / IPYCANVAS_STATIC).glob("*.js") if "kit-presses-only" in p.read_text()]
    assert len(patched) == 1
    assert not Path(f"{patched[0]}.gz").exists()  # its stale compressed copy dropped, no other
    assert len(list((site / IPYCANVAS_STATIC).glob("*.gz"))) == len(list(INSTALLED.glob("*.js"))) - 1
    code = patched[0].read_text()
    for handler in QUIET:
        assert f'on{handler}(e){{if(this.el.classList.contains("{PRESSES_ONLY}"))return;' in code
    assert 'onMouseDown(e){this.el.focus(),this.model.send' in code  # presses as before
    before = {p.name: p.read_text() for p in (site / IPYCANVAS_STATIC).glob("*.js")}
    for name in PAGES:
        assert (site / name).read_text().startswith(f"<!doctype html><html><head>{PAGE_SCRIPT}<title>")
    assert patch_canvas(site) == len(QUIET) + len(PAGES)  # a second build step changes nothing
    assert before == {p.name: p.read_text() for p in (site / IPYCANVAS_STATIC).glob("*.js")}
    assert (site / PAGES[0]).read_text().count(PAGE_SCRIPT) == 1


def test_a_site_with_another_ipycanvas_is_refused(tmp_path: Path) -> None:
    for name in PAGES:
        (tmp_path / name).parent.mkdir(parents=True)
        (tmp_path / name).write_text("<head></head>")
    (tmp_path / IPYCANVAS_STATIC).mkdir(parents=True)
    (tmp_path / IPYCANVAS_STATIC / "1.js").write_text('onMouseMove(e){this.model.send({})}')
    with pytest.raises(SiteError, match="found 1 times.*not 7"):
        patch_canvas(tmp_path)
    assert (tmp_path / IPYCANVAS_STATIC / "1.js").read_text() == 'onMouseMove(e){this.model.send({})}'
    assert (tmp_path / PAGES[0]).read_text() == "<head></head>"  # nothing changed


VIEW = """
class View {
  constructor(classes) { this.sent = []; this.model = {send: (m) => this.sent.push(m.event)};
                         this.el = {classList: {contains: (c) => classes.includes(c)}, focus() {}}; }
  onMouseMove(e){this.model.send({event:"mouse_move"})}
  onMouseUp(e){this.model.send({event:"mouse_up"})}
  onMouseDown(e){this.el.focus(),this.model.send({event:"mouse_down"})}
  onTouchMove(e){this.model.send({event:"touch_move"})}
}
const sent = [[], ["MARK"]].map((classes) => {
  const view = new View(classes);
  for (const what of ["onMouseMove", "onMouseMove", "onMouseDown", "onMouseUp", "onTouchMove"]) view[what]({});
  return view.sent;
});
console.log(JSON.stringify(sent));
"""


def test_in_node_a_marked_canvas_sends_its_press_and_no_move_and_another_sends_all() -> None:
    """Node (Debian's nodejs, installed by kit.py test) runs the handlers as patched."""
    code, count = _quiet(VIEW)
    assert count == 3
    run = subprocess.run(["node", "-e", code.replace("MARK", PRESSES_ONLY)],
                         capture_output=True, text=True, timeout=30)  # fmt: skip
    assert run.returncode == 0, run.stderr
    unmarked, marked = json.loads(run.stdout)
    assert unmarked == ["mouse_move", "mouse_move", "mouse_down", "mouse_up", "touch_move"]
    assert marked == ["mouse_down"]


def test_the_kits_boards_are_marked_and_a_finger_plays_as_a_click() -> None:
    game = play(animate=False)
    assert PRESSES_ONLY in game.board.canvas._dom_classes
    assert PRESSES_ONLY in play_cursormap().canvas._dom_classes
    assert OWN_PRESSES in game._dom_classes and OWN_PRESSES in play_cursormap()._dom_classes
    x, y = BoardGeometry.fit(8).centre(game.controller.game.board.legal_moves(game.controller.game.turn)[0])
    game._on_touch_start([(x, y)])
    assert len(game.controller.game.plies) == 1
    game._on_touch_start([(x, y), (x + 50, y)])  # two fingers at once: not a move
    assert len(game.controller.game.plies) == 1


#: A page with a board's box (its canvas and a button inside) and a cell around it; the
#: notebook (the cell's ancestor) hears what reaches it; then the page script runs.
PAGE = """
class Node extends EventTarget {
  constructor(parent, classes = [], tag = "div") { super(); this.parentNode = parent; this.classes = classes; this.tag = tag; }
  closest(selector) {  // ".class" or "tag"
    const found = (n) => selector.startsWith(".") ? n.classes.includes(selector.slice(1)) : n.tag === selector;
    for (let n = this; n; n = n.parentNode) if (found(n)) return n;
    return null;
  }
}
globalThis.Element = Node;
const window = new Node(null), notebook = new Node(window), cell = new Node(notebook);
const box = new Node(cell, ["BOX"]), canvas = new Node(box), button = new Node(box, [], "button");
const text = new Node(cell), outside = new Node(cell, [], "button");  // a button of the notebook's own
globalThis.addEventListener = (...args) => window.addEventListener(...args);
// capture, target and bubble, as a browser dispatches along the path
const dispatch = (target, type) => {
  const path = []; for (let n = target; n; n = n.parentNode) path.unshift(n);
  const event = {type, target, stopped: false, stopPropagation() { this.stopped = true; },
                 prevented: false, preventDefault() { this.prevented = true; }};
  for (const [n, capture] of [...path.map(n => [n, true]), ...path.reverse().map(n => [n, false])]) {
    if (event.stopped) break;
    for (const f of n.listeners?.[type + capture] ?? []) f(event);
  }
  return event;
};
for (const n of [window, notebook, cell, box, canvas, button, text, outside]) {
  n.listeners = {}; n.addEventListener = (type, f, capture = false) =>
    (n.listeners[type + !!capture] ??= []).push(f);
}
const heard = [];
for (const type of ["mousedown", "focusin"]) notebook.addEventListener(type, (e) => heard.push(type));
SCRIPT
const focusKept = [];  // a press whose default (the focus moving) is kept from happening
for (const target of [canvas, button, canvas, text, outside]) {
  if (dispatch(target, "mousedown").prevented) focusKept.push(target === button ? "button" : "other");
  dispatch(target, "focusin");
}
console.log(JSON.stringify({heard, focusKept, boxListeners: Object.values(box.listeners).flat().length}));
"""


def test_in_node_a_press_inside_a_board_stays_there_its_buttons_keep_the_focus_and_one_outside_reaches_the_notebook() -> None:
    script = PAGE_SCRIPT.removeprefix('<script id="kit-own-presses">').removesuffix("</script>")
    run = subprocess.run(["node", "-e", PAGE.replace("BOX", OWN_PRESSES).replace("SCRIPT", script)],
                         capture_output=True, text=True, timeout=30)  # fmt: skip
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    # the notebook hears the text's press and the outside button's only; only the board's own
    # button keeps the focus where it was
    assert found == {"heard": ["mousedown", "focusin"] * 2, "focusKept": ["button"], "boxListeners": 2}
