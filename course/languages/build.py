"""The translated lessons and exercises, made from the English notebooks and the catalogues.

Every lesson exists in every language (``notebooks/<code>/<stem>.ipynb``), and so does
every released exercise (``exercises/<code>/<stem>.ipynb``, written by ``release``): a cell
with no usable translation stays English there, and :func:`problems` reports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from course.languages.catalogues import (
    EXERCISES,
    LESSONS,
    ROOT,
    SHELVES,
    Shelf,
    missing,
    read_catalogue,
    updated,
    usable,
    write_catalogue,
)
from course.languages.notebooks import (
    moved_links,
    notebook_text,
    read_notebook,
    translated,
    with_outputs_of,
)


def _in_kit(path: Path) -> str:
    """``path`` relative to the kit's folder, POSIX style (as it is if outside)."""
    path = Path(path).resolve()
    return (
        path.relative_to(ROOT.resolve()).as_posix()
        if path.is_relative_to(ROOT.resolve())
        else path.as_posix()
    )


def counterparts(code: str) -> dict[str, str]:
    """Each lesson and released exercise (its path in the kit) -> its translation's path."""
    found = {}
    for shelf in SHELVES:
        for source in shelf.sources():
            english = _in_kit(shelf.released / source.name)
            found[english] = _in_kit(shelf.translation(code, source.stem))
    return found


def translated_notebook(
    english: dict[str, Any], shelf: Shelf, stem: str, code: str
) -> dict[str, Any]:
    """The notebook ``stem`` of ``shelf`` (its English JSON ``english``) in language ``code``:
    its catalogue's usable translations, its links leading to the translated notebooks."""
    catalog = read_catalogue(shelf.catalogue(code, stem), code)
    others = counterparts(code)
    folder = _in_kit(shelf.released)

    def move(text: str) -> str:
        return moved_links(text, folder, f"{folder}/{code}", others.get)

    return translated(english, usable(catalog, english), code, move)


def build_lessons(code: str, stems: list[str] | None = None) -> list[Path]:
    """Write the lessons in language ``code`` (all, or ``stems``); a code cell unchanged since
    the last build keeps the outputs stored then (run in that language)."""
    written = []
    for source in LESSONS.sources():
        if stems and source.stem not in stems:
            continue
        notebook = translated_notebook(read_notebook(source), LESSONS, source.stem, code)
        target = LESSONS.translation(code, source.stem)
        if target.exists():
            notebook = with_outputs_of(notebook, read_notebook(target))
        text = notebook_text(notebook)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


def build_exercises(code: str, stems: list[str] | None = None) -> list[Path]:
    """Write the released exercises (``exercises/*.ipynb``) in language ``code`` without
    running them again, as ``python3 kit.py release`` would (after a catalogue changed)."""
    written = []
    for source in EXERCISES.sources():
        released = EXERCISES.released / source.name
        if (stems and source.stem not in stems) or not released.exists():
            continue
        notebook = translated_exercise(read_notebook(released), source.stem, code)
        target = EXERCISES.translation(code, source.stem)
        text = notebook_text(notebook)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


def translated_exercise(student: dict[str, Any], stem: str, code: str) -> dict[str, Any]:
    """A released exercise (its student copy's JSON) in language ``code``: same cells, ids and
    grading metadata, the statements, hints and extension tasks translated."""
    return translated_notebook(student, EXERCISES, stem, code)


def update_catalogues(code: str, stems: list[str] | None = None) -> list[Path]:
    """Write the catalogues of every lesson and exercise (or of ``stems``) in ``code`` afresh
    from the English notebooks, keeping their translations."""
    written = []
    for shelf in SHELVES:
        for source in shelf.sources():
            if stems and source.stem not in stems:
                continue
            path = shelf.catalogue(code, source.stem)
            old = read_catalogue(path, code)
            fresh = updated(read_notebook(source), old, code, _in_kit(source))
            write_catalogue(fresh, path)
            written.append(path)
    return written


def problems(codes: list[str], shelves: tuple[Shelf, ...] = SHELVES) -> list[str]:
    """Every markdown cell of every lesson and exercise with no usable translation in one of
    ``codes``, and every catalogue entry for a cell that no longer exists, one line each."""
    found = []
    for code in codes:
        for shelf in shelves:
            for source in shelf.sources():
                path = shelf.catalogue(code, source.stem)
                catalog = read_catalogue(path, code)
                notebook = read_notebook(source)
                for cell_id in missing(catalog, notebook):
                    state = _state(catalog, cell_id, path)
                    found.append(f"{_in_kit(source)}: cell {cell_id} {state} in {code}")
                ids = {cell.get("id") for cell in notebook.get("cells", [])}
                stale = [m.context for m in catalog if m.id and m.context not in ids]
                found += [
                    f"{_in_kit(path)}: cell {cell_id} is not in {source.name}" for cell_id in stale
                ]
    return found


def _state(catalog: Any, cell_id: str, path: Path) -> str:
    """Why a cell's translation is not used: no catalogue, no entry, empty, fuzzy or stale."""
    if not path.exists():
        return f"has no catalogue ({_in_kit(path)})"
    message = next((m for m in catalog if m.context == cell_id), None)
    if message is None or not message.string:
        return "is not translated"
    if message.fuzzy:
        return "has a fuzzy translation (its English changed: check it, then remove the mark)"
    return "was translated from an older English text (run: python -m course.languages update)"
