"""The site's copies of the notebooks, made to show in JupyterLite as they do in JupyterLab.

* JupyterLite hands a notebook's JSON to the page as it is on disk, and nbformat keeps a
  multi-line text as a list of lines: the browser's output area showed such a list
  joined by commas (``,1 . . . . . . . .``).  A copy holds every text as one string,
  which nbformat allows as well.
* The site holds the lessons and the released exercises, nothing else of the kit: a link
  to another of its files (lesson 00's link to the teacher guide) would be dead there,
  so it becomes its own text and where the file is in the kit's folder.
* The copy names the browser kernel, so JupyterLab never asks which kernel to start.
* JupyterLab draws an SVG (and an HTML output whole) only for a *trusted* cell: a cell
  whose ``metadata.trusted`` is true (``CellModel`` reads it as the notebook loads); the
  output area of any other cell shows only "safe" kinds, so a board's stored picture
  showed as its text, ``<BoardPicture of ...>``.  A Jupyter server sets that flag on every
  load from its store of signatures (nbformat's notary); JupyterLite has no server, no
  notary and no signatures, and reads the flag as the file has it.  The site's notebooks
  are the kit's own lessons and released exercises, never a student's file, so every code
  cell of a copy is marked trusted, as ``jupyter trust`` would mark it on a laptop.
* A stored widget view whose model the notebook does not store (the kit stores no widget
  state: ``scripts/store_outputs.py``) can never be drawn again, and a trusted cell would
  prefer it to the picture stored beside it and show "Loading widget..." for ever: the
  copy leaves such a view out.  Running the cell shows the live widget as before.

>>> _joined(["1 . .\\n", "2 . .\\n"])
'1 . .\\n2 . .\\n'
>>> _site_links("the [guide](../docs/guide.md) and [lesson 01](01_play.ipynb)",
...             "lessons", frozenset({"lessons/01_play.ipynb"}), "notebooks")
"the guide (docs/guide.md in the kit's folder) and [lesson 01](01_play.ipynb)"
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

#: The copies are the site build's inside (:mod:`course.site.build` makes them).

#: The browser kernel's own name: a notebook that names another (``python3``) makes
#: JupyterLab guess, and a cell run while it guesses opens a "Select Kernel" dialog.
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: A markdown link or picture: ``[text](target "title")``.
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)((?:\s+\"[^\"]*\")?)\)")
#: Targets that leave the site on purpose (or stay in the same notebook).
ABSOLUTE = ("https://", "http://", "mailto:", "#")
#: A widget's view in an output, and the notebook metadata that may store widgets' models.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _joined(text: str | list[str]) -> str:
    """One string for nbformat's multi-line text (a string, or a list of lines)."""
    return "".join(text) if isinstance(text, list) else text


def _is_json(mime: str) -> bool:
    """Whether an output's data of this type is JSON (kept as it is), not text."""
    return mime == "application/json" or mime.endswith("+json")


def _in_site(folder: str, target: str) -> str:
    """Where a relative link from a notebook in the site's ``folder`` points, inside the site."""
    return posixpath.normpath(posixpath.join(folder, target.split("#", 1)[0]))


def _site_links(text: str, folder: str, shipped: frozenset[str], kit_folder: str) -> str:
    """``text`` with every relative link to a file the site does not hold turned into plain words.

    ``folder`` is the notebook's folder in the site (``lessons``), ``shipped`` the site's
    files (``lessons/01_play.ipynb``), ``kit_folder`` the notebook's folder in the kit.
    """

    def replace(link: re.Match[str]) -> str:
        target = link.group(3)
        if target.startswith(ABSOLUTE) or _in_site(folder, target) in shipped:
            return link.group(0)
        in_kit = posixpath.normpath(posixpath.join(kit_folder, target.split("#", 1)[0]))
        return f"{link.group(2)} ({in_kit} in the kit's folder)"

    return LINK.sub(replace, text)


def _site_notebook(
    notebook: dict[str, Any], folder: str, shipped: frozenset[str], kit_folder: str
) -> dict[str, Any]:
    """The site's copy of a notebook (its JSON): texts joined, dead links made words, the browser kernel named."""
    copy: dict[str, Any] = json.loads(json.dumps(notebook))
    copy.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    models = _stored_widget_models(copy["metadata"])
    for cell in copy.get("cells", []):
        cell["source"] = _joined(cell.get("source", ""))
        if cell.get("cell_type") == "markdown":
            cell["source"] = _site_links(cell["source"], folder, shipped, kit_folder)
        if cell.get("cell_type") == "code":
            cell.setdefault("metadata", {})["trusted"] = True
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = _joined(output["text"])
            data = output.get("data", {})
            view = data.get(WIDGET_VIEW)
            if isinstance(view, dict) and view.get("model_id") not in models:
                del data[WIDGET_VIEW]
            for mime, value in data.items():
                if not _is_json(mime):
                    data[mime] = _joined(value)
    return copy


def _stored_widget_models(metadata: dict[str, Any]) -> frozenset[str]:
    """The ids of the widget models a notebook's ``metadata`` stores (none, for the kit's)."""
    state = metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return frozenset(state) if isinstance(state, dict) else frozenset()


def copy_notebooks(sources: dict[str, list[Path]], files: Path, kit: Path) -> None:
    """Write the site's copies: ``sources`` maps a folder of the site (``lessons``) to its notebooks."""
    shipped = frozenset(
        f"{folder}/{path.name}" for folder, paths in sources.items() for path in paths
    )
    for folder, paths in sources.items():
        (files / folder).mkdir(parents=True, exist_ok=True)
        for path in paths:
            notebook = json.loads(path.read_text(encoding="utf-8"))
            where = path.parent.resolve()
            kit_folder = (
                where.relative_to(kit.resolve()).as_posix()
                if where.is_relative_to(kit.resolve())
                else where.name
            )
            copy = _site_notebook(notebook, folder, shipped, kit_folder)
            text = json.dumps(copy, indent=1, ensure_ascii=False) + "\n"
            (files / folder / path.name).write_text(text, encoding="utf-8")
