"""Every exercise reads whole in every language: each markdown cell of each exercise (the teacher's
source and the released student copy) has a translation in ``course/locale/<lang>/exercises/<stem>.po``,
and the translation keeps what the code and the checks rely on.

The oracle is independent of any translation tool: the notebooks are read as plain JSON, the
catalogues with Babel's own PO reader, and the translation is compared with the English cell on
what must not be translated: the code spans (names of functions, variables, values, in any order),
the fenced code blocks, the link targets, the heading levels, the ``<details>``/``<summary>`` tags
of the hints and the rows of the tables.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "exercises" / "source"
RELEASED = ROOT / "exercises"
LOCALE = ROOT / "course" / "locale"
STEMS = sorted(path.stem for path in SOURCES.glob("[0-9][0-9]_*.ipynb"))
LANGUAGES = sorted(path.parent.name for path in LOCALE.glob("*/exercises"))

FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```", re.S | re.M)
SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#+) ", re.M)
TAG = re.compile(r"</?(?:details|summary)>")
TABLE_ROW = re.compile(r"^\|.*\|[ \t]*$", re.M)


def markdown(notebook: Path) -> dict[str, str]:
    """Each markdown cell's source by cell id."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return {
        cell["id"]: "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for cell in cells
        if cell["cell_type"] == "markdown"
    }


def shape(text: str) -> dict[str, object]:
    """What a translation of ``text`` must keep exactly."""
    prose = FENCE.sub("", text)
    return {
        "code spans": sorted({" ".join(span.split()) for span in SPAN.findall(prose)}),
        "code blocks": FENCE.findall(text),
        "links": LINK.findall(prose),
        "headings": [len(level) for level in HEADING.findall(prose)],
        "hint tags": Counter(TAG.findall(prose)),
        "table rows": len(TABLE_ROW.findall(prose)),
    }


def differences(english: str, translation: str) -> list[str]:
    """How ``translation`` fails to keep the shape of ``english`` (empty: it keeps it)."""
    want, got = shape(english), shape(translation)
    return [
        f"{key}: {want[key]!r} in English, {got[key]!r} translated"
        for key in want
        if want[key] != got[key]
    ]


def catalog(language: str, stem: str) -> dict[str, tuple[str, str, bool]]:
    """The catalogue's entries by context (cell id): (English, translation, fuzzy)."""
    path = LOCALE / language / "exercises" / f"{stem}.po"
    assert path.is_file(), (
        f"{path} is missing: run .venv/bin/python -m course.languages update --lang {language}"
    )
    with path.open("rb") as stream:
        read = read_po(stream, locale=language, abort_invalid=True)
    assert read.locale is not None and str(read.locale) == language, (
        f"{path}: its Language header is {read.locale}"
    )
    entries = {}
    for message in read:
        if message.id:
            assert message.context, f"{path}: {str(message.id)[:40]!r} has no msgctxt (the cell id)"
            entries[message.context] = (str(message.id), str(message.string), message.fuzzy)
    return entries


def test_the_oracle_sees_a_name_translated_or_a_hint_lost() -> None:
    english = "## Who?\n\nWrite `count_discs(board, color)`.\n\n<details><summary>Hint 1</summary>\n\nLoop.\n\n</details>"
    assert differences(english, english.replace("Who?", "Qui ?").replace("Write", "Écris")) == []
    assert differences(
        english, "## Qui ?\n\nÉcris `compter_pions(board, color)`.\n\n" + english[-45:]
    )
    assert differences(english, english.replace("</details>", ""))
    assert differences(english, english.replace("## Who?", "# Qui ?"))
    assert differences("See [ten](10_alphabeta.ipynb).", "Voir [dix](10_alpha.ipynb).")


def test_there_is_a_language_besides_english() -> None:
    assert "fr" in LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("stem", STEMS)
def test_every_markdown_cell_is_translated_and_keeps_its_code(language: str, stem: str) -> None:
    entries = catalog(language, stem)
    source, released = markdown(SOURCES / f"{stem}.ipynb"), markdown(RELEASED / f"{stem}.ipynb")
    problems = []
    for where, cells in (("exercises/source", source), ("exercises", released)):
        for cell_id, english in cells.items():
            if cell_id not in entries:
                problems.append(f"{where}/{stem}.ipynb cell {cell_id}: no entry")
                continue
            msgid, translation, fuzzy = entries[cell_id]
            if msgid != english:
                problems.append(
                    f"{where}/{stem}.ipynb cell {cell_id}: the entry translates an older English text"
                )
            elif not translation.strip() or translation == english or fuzzy:
                problems.append(
                    f"{where}/{stem}.ipynb cell {cell_id}: not translated (or marked fuzzy)"
                )
            else:
                problems += [
                    f"{stem} cell {cell_id}: {problem}"
                    for problem in differences(english, translation)
                ]
    problems += [
        f"{stem}.po: entry {cell_id} has no cell"
        for cell_id in set(entries) - set(source) - set(released)
    ]
    assert problems == []
