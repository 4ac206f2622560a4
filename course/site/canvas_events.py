"""The kit's boards send the browser classroom's kernel only the presses they listen to.

ipycanvas's page side sends the kernel a message for every mouse move, release, exit and
wheel turn over a canvas, and for every touch move and end, whether or not anything in
Python listens (ipycanvas 0.14).  On the laptop that costs nothing.  In the browser
classroom each message is a turn of the Pyodide kernel, which takes the page's messages one
at a time: a hand moved over a board left a queue of moves that a click waited behind
(a click answered in up to 0.19 s on an idle page), and while the computer thinks every
one of them waits for a slice of the search.

The kit's boards (:class:`course.board.view.BoardCanvas`, the cursor map's view) listen to
presses and keys only, and mark their canvas with :data:`PRESSES_ONLY`.  :func:`patch_canvas`
changes the built site's copy of ipycanvas so that a canvas with that mark sends no move,
release, exit, wheel or touch-move message; any other canvas (a student's own) is as before.

A press inside a kit's board also stays with the board.  JupyterLab makes a cell the
active one when a press or a focus reaches the notebook from inside it, and on the first
click after another cell was run that cost the page 60-130 ms of layout (its editors
measured again, the cell's toolbar moved) before the press went on to the kernel.  The
boards take their keys themselves (ipycanvas stops them), so the cell's being active
serves nothing there.  A board's outer box has the class :data:`OWN_PRESSES`, and
:data:`PAGE_SCRIPT`, in the site's notebook pages, keeps such a box's presses and focus
from the notebook; anywhere else in a cell a click makes it active, as before.  A press on
a board's button does not take the focus either (as in Safari): the focus moving away from
the board and back cost a click about 20 ms (median 48 ms, 28 without; an idle page), and the
board, focused by its first click, keeps its keys.  The keyboard still reaches every button
with Tab.

>>> _quiet('onMouseMove(e){this.model.send({event:"mouse_move"})}')
('onMouseMove(e){if(this.el.classList.contains("kit-presses-only"))return;this.model.send({event:"mouse_move"})}', 1)
"""

from __future__ import annotations

import re
from pathlib import Path

from course.site import SiteError
from course.site.patches import rewrite
from course.site.prewarm import PAGES

#: The CSS class of a canvas that listens to presses (mouse down, touch start) and keys only.
PRESSES_ONLY = "kit-presses-only"
#: Where ipycanvas's page code is in a built site.
IPYCANVAS_STATIC = Path("extensions/ipycanvas/static")
#: The handlers a marked canvas keeps quiet: ``onMouseMove(EVENT){``, and the others.
QUIET = ("MouseMove", "MouseUp", "MouseOut", "MouseWheel", "TouchMove", "TouchEnd", "TouchCancel")
HANDLER = re.compile(r"on(" + "|".join(QUIET) + r")\(([\w$]+)\)\{")
GUARD = f'if(this.el.classList.contains("{PRESSES_ONLY}"))return;'
#: The CSS class of a widget whose presses and focus stay inside it (the kit's boards).
OWN_PRESSES = "kit-own-presses"
#: The script goes first in the head of the notebook pages (:data:`PAGES`).
HEAD = "<head>"
#: On a press or focus's way in, a marked box is given (once) listeners that stop its way out.
PAGE_SCRIPT = (
    '<script id="kit-own-presses">(()=>{const kinds=["mousedown","focusin"],'
    "stop=e=>{e.stopPropagation();e.type==='mousedown'&&e.target.closest('button')&&e.preventDefault()},"
    "own=e=>{const box=e.target instanceof Element"
    f'&&e.target.closest(".{OWN_PRESSES}");if(box&&!box.$kitOwn){{box.$kitOwn=1;'
    "for(const k of kinds)box.addEventListener(k,stop)}};"
    "for(const k of kinds)addEventListener(k,own,true)})()</script>"
)


def _quiet(source: str) -> tuple[str, int]:
    """``source`` with each quiet handler returning at once on a marked canvas; and how many."""
    return HANDLER.subn(lambda m: f"{m[0]}{GUARD}", source)


def patch_canvas(site: Path) -> int:
    """Keep the kit's canvases from sending moves, and its boards' presses from the notebook, in
    the built ``site``; returns the handlers and pages changed.

    Raises :class:`SiteError`, and changes nothing, when the handlers are not each found once
    (another ipycanvas) or a page has no head.
    """
    changed, fixes = 0, {}
    for name in PAGES:
        page = Path(site) / name
        text = page.read_text(encoding="utf-8")
        if PAGE_SCRIPT not in text:
            if text.count(HEAD) != 1:
                raise SiteError(f"{page} has no <head>: not a JupyterLite page")
            fixes[page] = text.replace(HEAD, HEAD + PAGE_SCRIPT)
        changed += 1
    for bundle in sorted((Path(site) / IPYCANVAS_STATIC).glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if GUARD in source:  # patched already
            changed += source.count(GUARD)
            continue
        fixed, count = _quiet(source)
        if count:
            fixes[bundle] = fixed
            changed += count
    if changed != len(PAGES) + len(QUIET):
        raise SiteError(
            f"ipycanvas's event handlers were found {changed - len(PAGES)} times in "
            f"{Path(site) / IPYCANVAS_STATIC}, not {len(QUIET)}: the ipycanvas version is not the one "
            "the build pins"
        )
    for bundle, fixed in fixes.items():  # written only once every place was found
        rewrite(bundle, fixed)
    return changed
