"""Lessons and exercises in other languages (course.languages): one English source per
notebook, a catalogue per notebook and language, translated notebooks with the English code.

The translated lessons (``notebooks/CODE/``) are not run by nbval: the test below proves their
code cells, ids and cell metadata are the English ones, so nbval's run of the English lessons
covers them.
"""

from __future__ import annotations

import json
import os
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from course.grading import notebook as nbfile
from course.languages.build import build_exercises, build_lessons, problems, translated_notebook
from course.languages.catalogues import (
    EXERCISES,
    LESSONS,
    Shelf,
    languages,
    read_catalogue,
    updated,
    write_catalogue,
)
from course.languages.notebooks import cell_text, read_notebook
from course.site.languages import TRANSLATION_PLUGIN, interface_locale, language_packs

CODES = languages()


def notebook(*cells: tuple[str, str, str]) -> dict[str, Any]:
    """A notebook of ``(id, kind, source)`` cells."""
    made = [{"cell_type": kind, "id": cell_id, "metadata": {}, "source": text}
            for cell_id, kind, text in cells]  # fmt: skip
    for cell in made:
        if cell["cell_type"] == "code":
            cell.update(outputs=[], execution_count=None)
    return {"cells": made, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def translate(path: Path, translations: dict[str, str]) -> None:
    """Write ``translations`` (by cell id) into the catalogue at ``path``, as a translator does."""
    with path.open("rb") as stream:
        catalog = read_po(stream, locale="fr")
    for message in catalog:
        if message.context in translations:
            message.string = translations[message.context]
            message.flags.discard("fuzzy")
    write_catalogue(catalog, path)


def test_the_kit_speaks_french_at_least() -> None:
    assert "fr" in CODES


def test_every_markdown_cell_of_every_lesson_and_exercise_is_translated_in_every_language() -> None:
    assert problems(CODES) == []


def test_the_check_reports_each_cell_without_a_usable_translation(tmp_path: Path) -> None:
    english = tmp_path / "english"
    english.mkdir()
    lesson = notebook(("a", "markdown", "# Hello"), ("b", "code", "print(1)"),
                      ("c", "markdown", "Two\nlines"), ("d", "markdown", "Third"))  # fmt: skip
    (english / "00_x.ipynb").write_text(json.dumps(lesson), encoding="utf-8")
    shelf = Shelf("notebooks", english, tmp_path / "out", "*.ipynb", tmp_path / "locale")
    found = problems(["fr"], (shelf,))
    assert len(found) == 3 and all("has no catalogue" in line for line in found), found
    path = shelf.catalogue("fr", "00_x")
    write_catalogue(updated(lesson, read_catalogue(path, "fr"), "fr", "00_x.ipynb"), path)
    assert [line.split(": ", 1)[1] for line in problems(["fr"], (shelf,))] == [
        "cell a is not translated in fr", "cell c is not translated in fr",
        "cell d is not translated in fr",
    ]  # fmt: skip
    translate(path, {"a": "# Bonjour", "c": "Deux\nlignes"})
    assert [line.split(": ", 1)[1] for line in problems(["fr"], (shelf,))] == [
        "cell d is not translated in fr"
    ]
    translate(path, {"d": "Troisième"})
    assert problems(["fr"], (shelf,)) == []
    lesson["cells"][0]["source"] = "# Hello, world"  # the English changes: the check says so
    (english / "00_x.ipynb").write_text(json.dumps(lesson), encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in problems(["fr"], (shelf,))] == [
        "cell a was translated from an older English text (run: python -m course.languages "
        "update) in fr"
    ]


def test_update_keeps_translations_and_marks_the_changed_cells_fuzzy(tmp_path: Path) -> None:
    path = tmp_path / "x.po"
    before = notebook(("a", "markdown", "Same"), ("b", "markdown", "Old text"),
                      ("gone", "markdown", "Removed"), ("c", "code", "x = 1"))  # fmt: skip
    write_catalogue(updated(before, read_catalogue(path, "fr"), "fr", "x.ipynb"), path)
    translate(path, {"a": "Pareil", "b": "Ancien texte", "gone": "Supprimé"})
    after = notebook(("a", "markdown", "Same"), ("b", "markdown", "New text"),
                     ("new", "markdown", "Added"), ("c", "code", "x = 2"))  # fmt: skip
    write_catalogue(updated(after, read_catalogue(path, "fr"), "fr", "x.ipynb"), path)
    with path.open("rb") as stream:
        entries = {m.context: m for m in read_po(stream, locale="fr") if m.id}
    assert sorted(entries) == ["a", "b", "new"]  # one per markdown cell; code is never there
    assert (entries["a"].string, entries["a"].fuzzy) == ("Pareil", False)
    assert (entries["b"].id, entries["b"].string, entries["b"].fuzzy) == (
        "New text",
        "Ancien texte",
        True,
    )
    assert (entries["new"].string, entries["new"].fuzzy) == ("", False)
    text = path.read_text(encoding="utf-8")
    assert "Language: fr" in text
    assert '#, fuzzy\n#| msgid "Old text"\nmsgctxt "b"' in text  # what the translator compares
    assert translated_notebook(after, Shelf("notebooks", tmp_path, tmp_path, "x.ipynb"), "x", "fr")[
        "cells"
    ][1]["source"] == ["New text"]  # a fuzzy translation is not used: the English shows


def same_code(english: dict[str, Any], translated: dict[str, Any], where: Path) -> None:
    """The translated notebook has the English one's cells: ids, kinds, code and metadata."""
    assert [(c["id"], c["cell_type"]) for c in translated["cells"]] == [
        (c["id"], c["cell_type"]) for c in english["cells"]
    ], where
    for mine, theirs in zip(translated["cells"], english["cells"], strict=True):
        assert mine["metadata"] == theirs["metadata"], f"{where} {mine['id']}"
        if mine["cell_type"] == "code":
            assert cell_text(mine) == cell_text(theirs), f"{where} {mine['id']}"
    expected = {k: v for k, v in english["metadata"].items() if k != "course"}
    assert {k: v for k, v in translated["metadata"].items() if k != "course"} == expected, where


@pytest.mark.parametrize("code", CODES)
def test_the_translated_lessons_have_the_english_code_cells_and_are_up_to_date(code: str) -> None:
    for source in LESSONS.sources():
        path = LESSONS.translation(code, source.stem)
        assert path.is_file(), f"{path} is missing: python -m course.languages build"
        english, translated = read_notebook(source), read_notebook(path)
        same_code(english, translated, path)
        assert translated["metadata"]["course"]["language"] == code
        fresh = translated_notebook(english, LESSONS, source.stem, code)
        stale = [c["id"] for c, f in zip(translated["cells"], fresh["cells"], strict=True)
                 if c["cell_type"] == "markdown" and c["source"] != f["source"]]  # fmt: skip
        assert stale == [], f"{path}: run python -m course.languages build --lang {code}"
    assert build_lessons(code) == []  # nothing left to write


@pytest.mark.parametrize("code", CODES)
def test_the_translated_exercises_grade_as_the_english_ones(code: str) -> None:
    for source in EXERCISES.sources():
        english = read_notebook(EXERCISES.released / source.name)
        path = EXERCISES.translation(code, source.stem)
        assert path.is_file(), f"{path} is missing: python3 kit.py release"
        translated = read_notebook(path)
        same_code(english, translated, path)
        assert translated["metadata"]["course"] == {"exercise": source.stem, "language": code}
        for mine, theirs in zip(translated["cells"], english["cells"], strict=True):
            if nbfile.tag_with(theirs, nbfile.CHECK):  # the locked checks and their outputs
                assert mine["outputs"] == theirs["outputs"], f"{path} {mine['id']}"
    assert build_exercises(code) == []


def test_lab_in_french_opens_the_french_welcome_lesson_with_jupyterlab_in_french() -> None:
    import kit  # the kit's folder is on the path, as in tests/test_kit.py

    assert kit.welcome_lesson(kit.ROOT, "fr") == "notebooks/fr/00_welcome.ipynb"
    assert kit.welcome_lesson(kit.ROOT, "en") == "notebooks/00_welcome.ipynb"
    assert kit.lab_environment({"JUPYTER_CONFIG_PATH": "/mine"}, kit.ROOT, "en") == {
        "JUPYTER_CONFIG_PATH": "/mine"
    }
    env = kit.lab_environment({"JUPYTER_CONFIG_PATH": "/mine"}, kit.ROOT, "fr")
    first, mine = env["JUPYTER_CONFIG_PATH"].split(os.pathsep)
    settings = json.loads(
        (Path(first) / "labconfig" / "default_setting_overrides.json").read_text()
    )
    assert mine == "/mine" and settings == {TRANSLATION_PLUGIN: {"locale": "fr_FR"}}
    assert interface_locale("fr") == "fr_FR" and interface_locale("en") is None
    packs = [e.name for e in entry_points(group="jupyterlab.languagepack")]
    assert "fr_FR" in packs, (
        f"jupyterlab-language-pack-fr-FR is not installed (the lab extra has it): {packs}"
    )
    assert "jupyterlab-language-pack-fr-FR" in language_packs()
