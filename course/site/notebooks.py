"""The site's copies of the notebooks, made to show in JupyterLite as they do in JupyterLab.

* JupyterLite hands a notebook's JSON to the page as it is on disk, and nbformat keeps a
  multi-line text as a list of lines: the browser's output area showed such a list
  joined by commas (``,1 . . . . . . . .``).  A copy holds every text as one string,
  which nbformat allows as well.
* The site holds the lessons and the released exercises, nothing else of the kit: a link
  to another of its files (lesson 00's link to the teacher guide) would be dead there,
  so it becomes its own text and where the file is in the kit's folder.  A link to a
  notebook the site holds leads to its place in the site (a French lesson's
  ``../../exercises/fr/01_squares.ipynb`` becomes ``../exercises/01_squares.ipynb``).
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
...             "lessons", {"notebooks/01_play.ipynb": "lessons/01_play.ipynb"}, "notebooks")
"the guide (docs/guide.md in the kit's folder) and [lesson 01](01_play.ipynb)"
>>> _site_links("[exercise 01](../../exercises/fr/01_squares.ipynb)", "lessons",
...             {"exercises/fr/01_squares.ipynb": "exercises/01_squares.ipynb"}, "notebooks/fr")
'[exercise 01](../exercises/01_squares.ipynb)'

"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from course.i18n import _
from course.languages.notebooks import ABSOLUTE, LINK

#: The copies are the site build's inside (:mod:`course.site.build` makes them).

#: The browser kernel's own name: a notebook that names another (``python3``) makes
#: JupyterLab guess, and a cell run while it guesses opens a "Select Kernel" dialog.
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: A widget's view in an output, and the notebook metadata that may store widgets' models.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _joined(text: str | list[str]) -> str:
    """One string for nbformat's multi-line text (a string, or a list of lines)."""
    return "".join(text) if isinstance(text, list) else text


def _is_json(mime: str) -> bool:
    """Whether an output's data of this type is JSON (kept as it is), not text."""
    return mime == "application/json" or mime.endswith("+json")


def _site_links(text: str, folder: str, shipped: Mapping[str, str], kit_folder: str) -> str:
    """``text`` with every relative link to a notebook the site holds leading to it there,
    and every other relative link turned into plain words.

    ``folder`` is the notebook's folder in the site (``lessons``), ``shipped`` maps the
    site's notebooks in the kit to their place in the site (``notebooks/01_play.ipynb`` to
    ``lessons/01_play.ipynb``), ``kit_folder`` is the notebook's folder in the kit.
    """

    def replace(link: re.Match[str]) -> str:
        bang, words, target, title = link.groups()
        if target.startswith(ABSOLUTE):
            return link.group(0)
        path, hash_sign, anchor = target.partition("#")
        in_kit = posixpath.normpath(posixpath.join(kit_folder, path))
        if in_kit in shipped:
            moved = posixpath.relpath(shipped[in_kit], folder) + hash_sign + anchor
            return f"{bang}[{words}]({moved}{title})"
        return _("{words} ({path} in the kit's folder)").format(words=words, path=in_kit)

    return LINK.sub(replace, text)


def _site_notebook(
    notebook: dict[str, Any], folder: str, shipped: Mapping[str, str], kit_folder: str
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


def _kit_folder(path: Path, kit: Path) -> str:
    """The folder of the notebook ``path`` in the kit (its own name if outside the kit)."""
    where = path.parent.resolve()
    return (
        where.relative_to(kit.resolve()).as_posix()
        if where.is_relative_to(kit.resolve())
        else where.name
    )


def copy_notebooks(sources: dict[str, list[Path]], files: Path, kit: Path) -> None:
    """Write the site's copies: ``sources`` maps a folder of the site (``lessons``) to its notebooks."""
    shipped = {
        f"{_kit_folder(path, kit)}/{path.name}": f"{folder}/{path.name}"
        for folder, paths in sources.items()
        for path in paths
    }
    for folder, paths in sources.items():
        (files / folder).mkdir(parents=True, exist_ok=True)
        for path in paths:
            notebook = json.loads(path.read_text(encoding="utf-8"))
            copy = _site_notebook(notebook, folder, shipped, _kit_folder(path, kit))
            text = json.dumps(copy, indent=1, ensure_ascii=False) + "\n"
            (files / folder / path.name).write_text(text, encoding="utf-8")
