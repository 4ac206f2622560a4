"""The notebooks' translation catalogues: one gettext PO file per notebook and language.

``course/locale/<code>/notebooks/<stem>.po`` holds a lesson's translation and
``course/locale/<code>/exercises/<stem>.po`` an exercise's, one entry per markdown cell:
``msgctxt`` is the cell's id, ``msgid`` its English source, ``msgstr`` the translation.
Any PO editor opens them (Poedit, Lokalize, a text editor).  :func:`updated` writes a
catalogue afresh from the English notebook: a translation whose English is unchanged is
kept; one whose English changed is kept but marked fuzzy, with the English it was made
from (``#| msgid``) so the translator sees what changed; the entries of cells that no longer
exist are dropped.  A fuzzy or empty translation is not used: the cell stays English, and
:func:`missing` reports it (``python -m course.languages check``, and the tests).

The catalogues are the kit's own files, read with Babel (the test extra has it; JupyterLab
brings it too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from course.i18n import LANGUAGES, LOCALE
from course.languages.notebooks import markdown_cells

ROOT = LOCALE.parents[1]
#: When a catalogue is first made (fixed, so that a catalogue made twice is the same file).
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


class CatalogueError(Exception):
    """A catalogue that cannot be read, named with the reason."""


@dataclass(frozen=True)
class Shelf:
    """One kind of notebook: where the English ones are and where their translations go.

    ``english`` holds the English notebooks, ``released`` the folder whose ``<code>/``
    subfolder holds the translated ones (``notebooks/fr/``, ``exercises/fr/``), and the
    catalogues are in ``course/locale/<code>/<name>/``.
    """

    name: str
    english: Path
    released: Path
    pattern: str
    locale: Path = LOCALE

    def sources(self) -> list[Path]:
        """The English notebooks, in order."""
        return sorted(self.english.glob(self.pattern))

    def catalogue(self, code: str, stem: str) -> Path:
        """Where language ``code``'s catalogue of the notebook ``stem`` is."""
        return self.locale / code / self.name / f"{stem}.po"

    def translation(self, code: str, stem: str) -> Path:
        """Where the notebook ``stem`` in language ``code`` is written."""
        return self.released / code / f"{stem}.ipynb"


LESSONS = Shelf("notebooks", ROOT / "notebooks", ROOT / "notebooks", "*.ipynb")
#: The released exercises keep the sources' markdown cells and ids: one catalogue serves both.
EXERCISES = Shelf(
    "exercises", ROOT / "exercises" / "source", ROOT / "exercises", "[0-9][0-9]_*.ipynb"
)
SHELVES = (LESSONS, EXERCISES)


def languages(locale: Path = LOCALE) -> list[str]:
    """Every language but English: the kit's (:data:`course.i18n.LANGUAGES`) and every one
    with a folder of notebook catalogues."""
    found = {code for code in LANGUAGES if code != "en"}
    for shelf in SHELVES:
        found.update(path.parent.name for path in locale.glob(f"*/{shelf.name}") if path.is_dir())
    return sorted(found)


def read_catalogue(path: Path, code: str) -> Catalog:
    """The catalogue at ``path``, or an empty one for language ``code`` if there is none."""
    if not Path(path).exists():
        return Catalog(locale=code, creation_date=EPOCH, revision_date=EPOCH, fuzzy=False)
    try:
        with Path(path).open("rb") as stream:
            catalog: Catalog = read_po(stream, locale=code, abort_invalid=True)
    except (OSError, ValueError, SyntaxError) as error:
        raise CatalogueError(f"cannot read the catalogue {path}: {error}") from None
    return catalog


def write_catalogue(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` at ``path`` (lines unwrapped: a cell's lines stay its lines)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with Path(path).open("wb") as stream:
        write_po(stream, catalog, width=0, include_lineno=False, include_previous=True)


def updated(notebook: Mapping[str, Any], old: Catalog, code: str, where: str) -> Catalog:
    """The catalogue of ``notebook``'s markdown cells in language ``code``, keeping the
    translations of ``old``: unchanged cells as they were, changed ones marked fuzzy.
    ``where`` is the English notebook's path in the kit, written beside each entry."""
    made = len(old) > 0  # an existing catalogue keeps its header, and is written unchanged
    catalog = Catalog(
        locale=code,
        project=old.project if made else "reversi-kit",
        header_comment=old.header_comment
        if made
        else f"# {where} in {code}: one entry per "
        "markdown cell (msgctxt: the cell's id, msgid: its English text).",
        creation_date=old.creation_date,
        revision_date=old.revision_date,
        last_translator=old.last_translator,
        language_team=old.language_team,
        fuzzy=False,
    )
    by_cell = {message.context: message for message in old if message.id and message.context}
    for cell_id, source in markdown_cells(notebook):
        before = by_cell.get(cell_id)
        translation, flags, previous = "", set(), list[str]()
        if before is not None and before.string:
            translation = str(before.string)
            if before.id != source or before.fuzzy:
                flags.add("fuzzy")
                # the English the translation was made from (Babel keeps it as a list)
                previous = [str(text) for text in before.previous_id] or (
                    [str(before.id)] if before.id != source else []
                )
        catalog.add(source, translation, context=cell_id, flags=flags, locations=[(where, 0)],
                    previous_id=previous)  # fmt: skip
    return catalog


def usable(catalog: Catalog, notebook: Mapping[str, Any]) -> dict[str, str]:
    """The translations a translated notebook takes, by cell id: those made from the
    notebook's current English text, not empty and not fuzzy."""
    english = dict(markdown_cells(notebook))
    found = {}
    for message in catalog:
        cell_id = str(message.context)
        current = cell_id in english and message.id == english[cell_id]
        if current and message.string and not message.fuzzy:
            found[cell_id] = str(message.string)
    return found


def missing(catalog: Catalog, notebook: Mapping[str, Any]) -> list[str]:
    """The ids of ``notebook``'s markdown cells ``catalog`` gives no usable translation of."""
    have = usable(catalog, notebook)
    return [cell_id for cell_id, _ in markdown_cells(notebook) if cell_id not in have]
