"""The lessons in JupyterLab, measured with axe-core: the kit's own part of each page.

Every numbered lesson is opened in one JupyterLab page as it is stored (trusted, as after a
run, so its stored pictures are drawn), and axe-core's WCAG 2.x A/AA rules run on the page.
In what the kit wrote, the rendered Markdown and the outputs (pictures, charts, tables,
texts), no serious or critical violation is allowed.  Two kinds are only printed
(``pytest -s``), as they are not the kit's to fix: JupyterLab's own controls (menus,
toolbars, the file browser), and the ``<img>`` JupyterLab draws an output picture in, which
has no ``alt`` and which no output can give one (see :func:`sort_out`).
Then the cursor-map lesson runs and its board is audited in play, and Tab is checked to
leave its board (ipycanvas keeps every key; see course.board.keys.pass_focus).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import BLOCKING, audit, describe
from tests.browser.conftest import JupyterServer, open_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
#: The numbered lessons (the extras and the project are audited by hand, not here).
LESSONS = sorted(path.name for path in (REPO / "notebooks").glob("[0-9]*.ipynb"))
TIMEOUT = 60_000
TRACKER = "@jupyterlab/notebook-extension:tracker"

# Open a notebook in the running JupyterLab (closing what was open) and wait until every one
# of its cells is there, their Markdown rendered.
_JS_OPEN = """async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  for (const open of Array.from(app.shell.widgets('main'))) open.dispose();  // unsaved: no dialog
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  await panel.context.ready;
  await panel.revealed;
  const notebook = panel.content;
  return notebook.widgets.length;
}"""
_JS_SHOWN = """([path, cells]) => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return false;
  return panel.node.querySelectorAll('.jp-Cell').length >= cells
      && !panel.node.querySelector('.jp-MarkdownCell:not(.jp-mod-rendered)');
}"""

# Whose each element is: "kit" (rendered Markdown, outputs), "renderer" (the <img> JupyterLab
# draws an output picture in), or "jupyterlab" (its own controls).
_JS_WHOSE = """(targets) => targets.map(target => {
  const e = document.querySelector(target);
  if (!e) return 'jupyterlab';
  if (e.matches('.jp-OutputArea-output:is(.jp-RenderedSVG, .jp-RenderedImage) > img')) return 'renderer';
  return e.closest('.jp-RenderedMarkdown, .jp-OutputArea-output') ? 'kit' : 'jupyterlab';
})"""


def trust(server: JupyterServer, paths: list[Path]) -> None:
    """Sign the server's copies of ``paths`` as trusted, with the server's own key."""
    env = dict(os.environ, JUPYTER_DATA_DIR=str(server.base / "data"))
    subprocess.run([sys.executable, "-m", "jupyter", "trust", *map(str, paths)],
                   env=env, check=True, capture_output=True, timeout=120)  # fmt: skip


def sort_out(page: Any, include: Sequence[str] = ()) -> dict[str, list[dict[str, Any]]]:
    """axe's serious and critical violations on the whole page, by whose they are.

    ``kit``: in what the kit wrote (rendered Markdown, cell outputs).  ``renderer``: an
    output picture without a text alternative: JupyterLab draws image/svg+xml and image/png
    outputs as an ``<img>`` with no ``alt``, and an output cannot give it one, so that is
    JupyterLab's renderer's (jupyterlab/rendermime), not the kit's.  ``jupyterlab``: its own
    controls (menus, toolbars, the file browser).
    """
    found: dict[str, list[dict[str, Any]]] = {"kit": [], "renderer": [], "jupyterlab": []}
    for violation in audit(page, include)["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        whose = page.evaluate(_JS_WHOSE, [node["target"] for node in violation["nodes"]])
        for owner in found:
            nodes = [
                node for node, it in zip(violation["nodes"], whose, strict=True) if it == owner
            ]
            if nodes:
                found[owner].append({**violation, "nodes": nodes})
    return found


@pytest.fixture
def every_cell_drawn(jupyter_server: JupyterServer) -> Iterator[JupyterServer]:
    """The server's JupyterLab draws every cell of a notebook, not only those scrolled into
    view (so that axe sees them all), until the test ends."""
    url = f"/lab/api/settings/{TRACKER}"
    before = jupyter_server.api("GET", url)["raw"]
    settings = {**json.loads(before or "{}"), "windowingMode": "none"}
    jupyter_server.api("PUT", url, {"raw": json.dumps(settings)})
    try:
        yield jupyter_server
    finally:
        jupyter_server.api("PUT", url, {"raw": before})


def test_the_lessons_as_rendered_and_the_cursor_map_board_in_play(
    page: Any, every_cell_drawn: JupyterServer
) -> None:
    jupyter_server = every_cell_drawn
    trust(jupyter_server, [jupyter_server.root_dir / "notebooks" / name for name in LESSONS])
    page.set_default_timeout(TIMEOUT)
    page.goto(jupyter_server.lab_url("notebooks", workspace=f"a{uuid.uuid4().hex[:12]}"))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=TIMEOUT)
    chrome: dict[str, str] = {}
    problems: list[str] = []
    pictures = unnamed = 0
    for name in LESSONS:
        path = f"notebooks/{name}"
        cells = page.evaluate(_JS_OPEN, path)
        page.wait_for_function(_JS_SHOWN, arg=[path, cells], timeout=TIMEOUT)
        page.wait_for_timeout(300)  # outputs render on the next frames
        panel = page.locator(".jp-NotebookPanel:visible")
        pictures += panel.locator(".jp-OutputArea-output :is(img, svg)").count()
        # JupyterLab's own controls are the same on every page: audited with the first only
        found = sort_out(page, () if name == LESSONS[0] else (".jp-NotebookPanel .jp-Notebook",))
        if found["kit"]:
            problems.append(f"{name}:\n{describe(found['kit'])}")
        unnamed += sum(len(v["nodes"]) for v in found["renderer"])
        for violation in found["jupyterlab"]:
            chrome.setdefault(violation["id"], describe([violation]))
        jupyter_server.delete_sessions()
    assert pictures >= 20, f"only {pictures} pictures drawn: are the stored outputs trusted?"
    print(f"\n[axe] {pictures} stored pictures drawn; JupyterLab's <img> gave {unnamed} of them "
          "no text alternative")  # fmt: skip
    if chrome:
        print("[axe] JupyterLab's own controls (not the kit's):\n" + "\n".join(chrome.values()))

    nb = open_notebook(page, jupyter_server, "notebooks/05_cursormap.ipynb")
    nb.run_all()
    board = nb.canvas(-1)
    nb.wait_text(".cursormap-turn", "Turn 1: player one (blue) to play")
    found = sort_out(page, (".jp-NotebookPanel .jp-Notebook",))
    if found["kit"]:
        problems.append(f"the cursor-map board in play:\n{describe(found['kit'])}")
    board.focus()
    page.keyboard.press("Tab")  # handed on by the kernel: the board is no keyboard trap
    page.wait_for_function(
        "() => document.activeElement.classList.contains('cursormap-up')", timeout=TIMEOUT
    )
    assert nb.errors() == []
    assert not problems, "serious or critical violations in the lessons:\n" + "\n".join(problems)
