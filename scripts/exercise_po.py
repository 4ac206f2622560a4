"""Keep the exercises' translation catalogues in step with their English sources.

    .venv/bin/python scripts/exercise_po.py fr            # every exercise of exercises/source/
    .venv/bin/python scripts/exercise_po.py fr 04_flips   # one exercise

Each exercise ``exercises/source/<stem>.ipynb`` has, per language, one gettext catalogue
``course/locale/<lang>/exercises/<stem>.po`` with one entry per markdown cell: ``msgctxt`` is
the cell's id, ``msgid`` its English source, ``msgstr`` the translation (empty: not yet
translated, and the notebook keeps the English cell).  The released notebooks
(``exercises/<stem>.ipynb``, made by ``python3 kit.py release``) keep the sources' markdown
cells and ids, so one catalogue serves both.  Code cells are shared by every language and
never translated.

Running the script writes each catalogue afresh from the source: a translation whose cell
and English text are unchanged is kept; one whose English text changed is kept but marked
``fuzzy`` (check it, then remove the mark); the entries of cells that no longer exist are
dropped.  Any PO editor (Poedit, Lokalize, a text editor) edits the result.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "exercises" / "source"
LOCALE = ROOT / "course" / "locale"


def markdown_cells(notebook: Path) -> list[tuple[str, str]]:
    """The (id, source) of each markdown cell of ``notebook``, in order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = []
    for cell in cells:
        if cell["cell_type"] == "markdown":
            text = cell["source"]
            found.append((cell["id"], text if isinstance(text, str) else "".join(text)))
    return found


def po_path(language: str, stem: str) -> Path:
    return LOCALE / language / "exercises" / f"{stem}.po"


def read_catalog(path: Path, language: str) -> Catalog:
    """The catalogue at ``path``, or an empty one for ``language`` when there is none yet."""
    if not path.exists():
        return Catalog(locale=language)
    with path.open("rb") as stream:
        catalog: Catalog = read_po(stream, locale=language)
    return catalog


def fresh_catalog(notebook: Path, old: Catalog, language: str) -> Catalog:
    """A catalogue of ``notebook``'s markdown cells with the translations ``old`` has."""
    catalog = Catalog(
        locale=language,
        project="reversi-kit exercises",
        header_comment=f"# {notebook.stem}: the exercise's markdown cells (one entry per cell id).",
        creation_date=old.creation_date,  # an unchanged catalogue is written unchanged
        revision_date=old.revision_date,
        last_translator=old.last_translator,
        language_team=old.language_team,
        fuzzy=False,
    )
    by_cell = {message.context: message for message in old if message.id and message.context}
    for cell_id, source in markdown_cells(notebook):
        before = by_cell.get(cell_id)
        translation, flags = "", set()
        if before is not None and before.string:
            translation = str(before.string)
            if before.id != source or before.fuzzy:
                flags.add("fuzzy")
        catalog.add(source, translation, context=cell_id, flags=flags,
                    locations=[(f"exercises/source/{notebook.name}", 0)])  # fmt: skip
    return catalog


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_po(stream, catalog, width=0, include_lineno=False, omit_header=False)


def update(language: str, stems: list[str]) -> list[Path]:
    """Write the catalogues of ``stems`` (every exercise when empty) for ``language``."""
    notebooks = [SOURCES / f"{stem}.ipynb" for stem in stems] or sorted(
        SOURCES.glob("[0-9][0-9]_*.ipynb")
    )
    written = []
    for notebook in notebooks:
        if not notebook.is_file():
            raise SystemExit(f"{notebook} is not an exercise source (see exercises/source/)")
        path = po_path(language, notebook.stem)
        write_catalog(fresh_catalog(notebook, read_catalog(path, language), language), path)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", help="a language code, e.g. fr")
    parser.add_argument("stems", nargs="*", help="exercises by name, e.g. 04_flips (default: all)")
    args = parser.parse_args(argv)
    for path in update(args.language, args.stems):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
