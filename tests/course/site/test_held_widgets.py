"""The board's modules imported with their widgets held until the first cell
(course.site.held_widgets, as the kernel's snapshot does), in a fresh Python with an IPython
shell; the browser proof is tests/browser/test_lite.py (a board drawn from the first cell)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_widgets_made_by_the_imports_open_as_the_shells_next_cell_starts() -> None:
    said = run(
        """
        import sys
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        from course.site.held_widgets import import_holding_widgets
        held = import_holding_widgets("ipycanvas", "course.board.widget")
        import ipycanvas.canvas
        manager = ipycanvas.canvas._CANVAS_MANAGER
        print(len(held), held[0] is manager, manager.comm is None, "course.board.widget" in sys.modules)
        shell.run_cell("quiet = 1", silent=True)  # a silent run (the page's own) opens nothing
        print(manager.comm is None)
        shell.run_cell("from course import play\\ngame = play()")
        print(manager.comm is not None, held == [], shell.user_ns["game"] is not None)
        from ipywidgets.widgets.widget import _instances
        canvases = [w for w in _instances.values() if isinstance(w, ipycanvas.Canvas)]
        print(bool(canvases) and all(c.get_state()["_canvas_manager"] == f"IPY_MODEL_{manager.model_id}"
                                     for c in canvases))  # the board's canvases name the opened manager
        from ipywidgets import Button
        print(Button().comm is not None)  # widgets made after the imports open as usual
        """
    )
    assert said == ["1", "True", "True", "True", "True", "True", "True", "True", "True", "True"]


def test_an_import_that_fails_leaves_widgets_opening_as_usual() -> None:
    said = run(
        """
        from IPython.core.interactiveshell import InteractiveShell
        InteractiveShell.instance()
        from course.site.held_widgets import import_holding_widgets
        try:
            import_holding_widgets("no_such_module_here")
        except ModuleNotFoundError as problem:
            print(problem.name)
        from ipywidgets import Button
        print(Button().comm is not None)
        """
    )
    assert said == ["no_such_module_here", "True"]


def test_without_a_shell_nothing_is_imported() -> None:
    said = run(
        """
        import sys
        from course.site.held_widgets import import_holding_widgets
        try:
            import_holding_widgets("ipycanvas")
        except RuntimeError as problem:
            print("shell" in str(problem), "ipycanvas" in sys.modules)
        """
    )
    assert said == ["True", "False"]
