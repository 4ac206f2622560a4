"""A notebook in another language: the English notebook with its markdown cells translated.

The code cells are shared by every language and never change: a translated notebook has
the English notebook's cells, ids, code, metadata and outputs, each markdown cell's source
replaced by its translation (the English text where there is none), and says its language
in ``metadata.course.language`` (:func:`course.i18n.notebook_language` reads it: the grader
writes a student's feedback in it).  A translated notebook lives one folder deeper than its
English source (``notebooks/fr/`` for ``notebooks/``), so its relative links are moved: a
link to a lesson or an exercise leads to its translation, any other to the same file.

>>> english = {"cells": [
...     {"cell_type": "markdown", "id": "intro", "metadata": {},
...      "source": ["# Welcome\\n", "See [lesson 01](01_play.ipynb)."]},
...     {"cell_type": "code", "id": "run", "metadata": {}, "source": "play()",
...      "outputs": [], "execution_count": None}], "metadata": {}}
>>> french = translated(english, {"intro": "# Bienvenue\\nVois la [leçon 01](01_play.ipynb)."}, "fr")
>>> french["cells"][0]["source"], french["cells"][1]["source"], french["metadata"]
(['# Bienvenue\\n', 'Vois la [leçon 01](01_play.ipynb).'], 'play()', {'course': {'language': 'fr'}})
>>> moved_links("[guide](../docs/guide.md#start) and [ex 1](../exercises/01_squares.ipynb)",
...             "notebooks", "notebooks/fr", {"exercises/01_squares.ipynb": "exercises/fr/01_squares.ipynb"}.get)
'[guide](../../docs/guide.md#start) and [ex 1](../../exercises/fr/01_squares.ipynb)'
"""

from __future__ import annotations

import copy
import json
import posixpath
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from course.i18n import NOTEBOOK_KEY

#: A markdown link or picture: ``[text](target "title")``.
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)((?:\s+\"[^\"]*\")?)\)")
#: Link targets that leave the kit on purpose (or stay in the same notebook).
ABSOLUTE = ("https://", "http://", "mailto:", "#")


def cell_text(cell: Mapping[str, Any]) -> str:
    """A cell's source as one string (nbformat keeps it as a string or a list of lines)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def markdown_cells(notebook: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The ``(id, English source)`` of each markdown cell, in order (the catalogue's entries)."""
    return [
        (str(cell.get("id", "")), cell_text(cell))
        for cell in notebook.get("cells", [])
        if cell.get("cell_type") == "markdown"
    ]


def moved_links(
    text: str, english_folder: str, folder: str, counterpart: Callable[[str], str | None]
) -> str:
    """``text`` with its relative links moved from ``english_folder`` to ``folder`` (both
    relative to the kit's folder, POSIX style): a target for which ``counterpart`` gives a
    translated file leads there, any other to the same file as before."""

    def move(link: re.Match[str]) -> str:
        bang, words, target, title = link.groups()
        if target.startswith(ABSOLUTE):
            return link.group(0)
        path, hash_sign, anchor = target.partition("#")
        in_kit = posixpath.normpath(posixpath.join(english_folder, path))
        in_kit = counterpart(in_kit) or in_kit
        moved = posixpath.relpath(in_kit, folder) + hash_sign + anchor
        return f"{bang}[{words}]({moved}{title})"

    return LINK.sub(move, text)


def translated(
    english: Mapping[str, Any],
    translations: Mapping[str, str],
    language: str,
    move: Callable[[str], str] = str,
) -> dict[str, Any]:
    """The notebook ``english`` in ``language``: each markdown cell's source is its translation
    in ``translations`` (by cell id; the English source where there is none), passed through
    ``move`` (its links for the new folder); everything else is the English notebook's."""
    notebook: dict[str, Any] = copy.deepcopy(dict(english))
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            text = translations.get(str(cell.get("id", "")), cell_text(cell))
            cell["source"] = move(text).splitlines(keepends=True)
    course = notebook.setdefault("metadata", {}).setdefault(NOTEBOOK_KEY, {})
    course["language"] = language
    return notebook


def with_outputs_of(notebook: dict[str, Any], earlier: Mapping[str, Any]) -> dict[str, Any]:
    """``notebook`` with the outputs of ``earlier`` (a former translation of it, run in its
    language) for every code cell whose id and source are unchanged; the others keep theirs."""
    before = {
        cell.get("id"): cell for cell in earlier.get("cells", []) if cell.get("cell_type") == "code"
    }
    for cell in notebook.get("cells", []):
        old = before.get(cell.get("id"))
        unchanged = old is not None and cell_text(old) == cell_text(cell)
        if cell.get("cell_type") == "code" and old is not None and unchanged:
            cell["outputs"] = copy.deepcopy(old.get("outputs", []))
            cell["execution_count"] = old.get("execution_count")
    return notebook


def notebook_text(notebook: Mapping[str, Any]) -> str:
    """A notebook's JSON as nbformat writes it (one-space indent, sorted keys, UTF-8 text)."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def read_notebook(path: Path) -> dict[str, Any]:
    """The JSON of the kit's own notebook at ``path`` (a lesson or an exercise: trusted)."""
    notebook: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return notebook
