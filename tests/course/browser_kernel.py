"""Run a notebook's code cells as the browser classroom's kernel would meet them.

Used by ``test_browser_lessons.py`` in a fresh Python process: ``sys.platform`` says
"emscripten" (Pyodide's name) before the kit is imported, matplotlib and the class
server's packages (uvicorn, starlette, websockets: not in the site) cannot be imported at all, and numpy and ``PIL.Image`` are the kit's offline STAND-INS
(course/site/standin_numpy.py and standin_pil.py, the modules the browser site ships
under those names, NOT the real packages).  Each code cell runs in one IPython shell;
Python 3.11 has no ``__buffer__`` protocol (PEP 688; Pyodide's Python has it), so
ipycanvas's ``memoryview`` calls go through the stand-in's ``__buffer__`` as 3.12's would.
The first cell that fails is printed as ``FAILED <index>`` with its traceback and the
process exits 1.  Usage: ``python browser_kernel.py NOTEBOOK``.
"""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STANDINS = {
    "numpy": ROOT / "course" / "site" / "standin_numpy.py",
    "PIL.Image": ROOT / "course" / "site" / "standin_pil.py",
}
#: Not in the site: matplotlib, the real numpy and Pillow, and the class server's own packages.
BLOCKED = ("matplotlib", "PIL", "numpy", "uvicorn", "starlette", "websockets")


class BrowserImports(importlib.abc.MetaPathFinder):
    """Gives the stand-ins for numpy and PIL.Image, and refuses matplotlib and the rest of PIL."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name == "PIL":  # a bare package holding only the stand-in Image module
            return importlib.util.spec_from_loader(name, None, is_package=True)
        if name in STANDINS:
            return importlib.util.spec_from_file_location(name, STANDINS[name])
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (the browser kernel)", name=name)
        return None


def memoryview_312(value: object) -> memoryview:
    """``memoryview(value)`` as Python 3.12 makes it, taking ``__buffer__`` into account."""
    if not isinstance(value, bytes | bytearray | memoryview) and hasattr(value, "__buffer__"):
        return value.__buffer__(0)  # type: ignore[no-any-return]
    return builtins.memoryview(value)  # type: ignore[arg-type]


def main(notebook: Path) -> int:
    """Run every code cell of ``notebook``; 0 when none raised, 1 at the first that did."""
    sys.path.insert(0, str(ROOT))  # this tree's kit, whatever the environment has installed
    sys.meta_path.insert(0, BrowserImports())
    sys.platform = "emscripten"
    import ipycanvas.utils

    ipycanvas.utils.memoryview = memoryview_312  # type: ignore[attr-defined]
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell

    os.chdir(notebook.parent)
    shell = InteractiveShell.instance()
    cells = nbformat.read(notebook, as_version=4).cells
    for index, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        result = shell.run_cell(cell.source, store_history=False)
        if not result.success:
            print(f"FAILED {index}", flush=True)
            return 1
    print(f"ran {sum(c.cell_type == 'code' for c in cells)} code cells", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve()))
