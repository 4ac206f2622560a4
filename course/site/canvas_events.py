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

>>> _quiet('onMouseMove(e){this.model.send({event:"mouse_move"})}')
('onMouseMove(e){if(this.el.classList.contains("kit-presses-only"))return;this.model.send({event:"mouse_move"})}', 1)
"""

from __future__ import annotations

import re
from pathlib import Path

from course.site import SiteError
from course.site.patches import rewrite

#: The CSS class of a canvas that listens to presses (mouse down, touch start) and keys only.
PRESSES_ONLY = "kit-presses-only"
#: Where ipycanvas's page code is in a built site.
IPYCANVAS_STATIC = Path("extensions/ipycanvas/static")
#: The handlers a marked canvas keeps quiet: ``onMouseMove(EVENT){``, and the others.
QUIET = ("MouseMove", "MouseUp", "MouseOut", "MouseWheel", "TouchMove", "TouchEnd", "TouchCancel")
HANDLER = re.compile(r"on(" + "|".join(QUIET) + r")\(([\w$]+)\)\{")
GUARD = f'if(this.el.classList.contains("{PRESSES_ONLY}"))return;'


def _quiet(source: str) -> tuple[str, int]:
    """``source`` with each quiet handler returning at once on a marked canvas; and how many."""
    return HANDLER.subn(lambda m: f"{m[0]}{GUARD}", source)


def patch_canvas(site: Path) -> int:
    """Keep the kit's canvases from sending moves in the built ``site``; returns the handlers changed.

    Raises :class:`SiteError`, and changes nothing, when the handlers are not each found once
    (another ipycanvas).
    """
    changed, fixes = 0, {}
    for bundle in sorted((Path(site) / IPYCANVAS_STATIC).glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if GUARD in source:  # patched already
            changed += source.count(GUARD)
            continue
        fixed, count = _quiet(source)
        if count:
            fixes[bundle] = fixed
            changed += count
    if changed != len(QUIET):
        raise SiteError(
            f"ipycanvas's event handlers were found {changed} times in {Path(site) / IPYCANVAS_STATIC}, "
            f"not {len(QUIET)}: the ipycanvas version is not the one the build pins"
        )
    for bundle, fixed in fixes.items():  # written only once every handler was found
        rewrite(bundle, fixed)
    return changed
