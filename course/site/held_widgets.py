"""The board's modules imported into the kernel's snapshot, their widgets opened at the first cell.

Importing ipycanvas makes a widget (its canvas manager, which every canvas names), and a
widget opens a comm to the page as it is made; the kernel's snapshot is made in Deno, with no
page (:mod:`course.site.snapshot`).  So the snapshot imports ipycanvas and the kit's board with
each widget made *held* (no comm), and the kernel opens them as its first cell starts: by
then the page's widget manager listens, as it did when that cell imported ipycanvas itself.
The first ``play()`` of a page no longer imports them (0.10-0.15 s of a warm page's first cell).

Runs inside the browser's kernel only (Pyodide): the laptop's kernels import as usual.
"""

from __future__ import annotations

import importlib

import ipywidgets
from IPython import get_ipython


def import_holding_widgets(*modules: str) -> list[ipywidgets.Widget]:
    """Import ``modules``, holding every widget they make until the shell runs its next cell.

    Returns the held widgets (opened, and the list emptied, as that cell starts).
    """
    shell = get_ipython()
    if shell is None:
        raise RuntimeError("the widgets are held for a shell's first cell, and there is no shell")
    held: list[ipywidgets.Widget] = []
    opened = ipywidgets.Widget.open

    def hold(widget: ipywidgets.Widget) -> None:
        held.append(widget)

    ipywidgets.Widget.open = hold
    try:
        for name in modules:
            importlib.import_module(name)
    finally:
        ipywidgets.Widget.open = opened

    def open_held(info: object) -> None:
        shell.events.unregister("pre_run_cell", open_held)
        while held:
            held.pop(0).open()

    shell.events.register("pre_run_cell", open_held)
    return held
