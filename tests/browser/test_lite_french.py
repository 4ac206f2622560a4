"""The browser classroom in French (``python3 kit.py site build --lang fr``), in real Chromium:
lesson 00 opens in French with JupyterLite's menus in French, its first cell runs, and the
Pyodide kernel has ``KIT_LANG=fr``; exercises 01-03 open in French and their self-checks
answer a wrong answer in French, naming the cause.  One site: the French build costs a second
``jupyter lite build`` (its downloads come from build/site-cache, as test_lite.py's).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from course.site.build import SiteBuild
from tests.browser.test_lite import CELL_TIMEOUT, KERNEL_TIMEOUT, VISIBLE, LitePage, LiteServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The text of the open notebook's code cell ``index`` outputs, read from its model.
CELL_OUTPUT = """i => window.jupyterapp.shell.currentWidget.content.model.toJSON().cells
    .filter(c => c.cell_type === 'code')[i].outputs
    .map(o => [].concat(o.text ?? o.data?.['text/plain'] ?? '').join('')).join('')"""


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiteServer]:
    root = tmp_path_factory.mktemp("lite-fr")
    SiteBuild(out=root / "site", language="fr", say=lambda line: print(f"[site] {line}")).run()
    server = LiteServer(root / "site", root / "data", root / "serve.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_french_site_opens_lesson_00_in_french_and_runs_its_first_cell(
    french: LiteServer, page: Any
) -> None:
    lesson = LitePage(page, french, "lessons/00_welcome.ipynb")
    heading = page.locator(f"{VISIBLE} .jp-RenderedMarkdown h1").first
    assert heading.inner_text(timeout=CELL_TIMEOUT).strip() == "Bienvenue dans le kit Reversi"
    page.wait_for_function(  # JupyterLite's own menus, through JupyterLab's language pack
        "() => [...document.querySelectorAll('.lm-MenuBar-itemLabel')].some(e => e.textContent === 'Fichier')",
        timeout=CELL_TIMEOUT,
    )  # fmt: skip
    menus = page.locator(".lm-MenuBar-itemLabel").all_text_contents()
    assert {"Fichier", "Noyau"} <= set(menus) and "File" not in menus, menus
    cell = lesson.add_cell("import os; print(os.environ.get('KIT_LANG'))", timeout=KERNEL_TIMEOUT)
    assert cell.locator(".jp-OutputArea-output").inner_text().strip() == "fr"
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    first = 1  # the lesson's first code cell (the cell added above is code cell 0)
    page.evaluate(
        """async i => {
             const notebook = window.jupyterapp.shell.currentWidget.content;
             notebook.activeCellIndex = notebook.widgets.indexOf(
               notebook.widgets.filter(w => w.model.type === 'code')[i]);
             await window.jupyterapp.commands.execute('notebook:run-cell');
           }""",
        first,
    )  # fmt: skip
    page.wait_for_function(f"i => ({CELL_OUTPUT})(i).includes('a b c d e f g h')", arg=first,
                           timeout=CELL_TIMEOUT, polling=200)  # fmt: skip
    board = page.evaluate(CELL_OUTPUT, first)
    assert "4 . . . W B . . ." in board and "5 . . . B W . . ." in board, board
    assert lesson.errors() == []


#: A wrong answer to each of exercises 01-03, its self-check, and what the French feedback says.
WRONG_ANSWERS = {
    "01_squares": (
        "def to_notation(row, col):\n    return 'abcdefgh'[col] + str(row)\nchecks.to_notation(to_notation)",
        ["to_notation : 0/11 cas réussis", "attendu : 'a1'", "obtenu :  'a0'",
         "cause probable : décalage de un"],
    ),
    "02_counting": (
        "def count_discs(board, color):\n    return sum(1 for s in board.squares() if board[s] is not color)\n"
        "checks.count_discs(count_discs)",
        ["count_discs : 2/20 cas réussis", "Premier cas en échec : Noir sur la position de départ",
         "attendu : 2"],
    ),
    "03_lines": (
        "def walk(start, direction, size):\n    return [start]\nchecks.walk(walk)",
        ["walk : 0/12 cas réussis", "depuis d4 par pas de (0, 1) sur un plateau 8x8",
         "attendu : e4 f4 g4 h4"],
    ),
}


def test_exercises_01_to_03_check_a_wrong_answer_in_french_and_name_the_cause(
    french: LiteServer, page: Any
) -> None:
    for name, (code, said) in WRONG_ANSWERS.items():
        exercise = LitePage(page, french, f"exercises/{name}.ipynb")
        heading = page.locator(f"{VISIBLE} .jp-RenderedMarkdown h1").first
        assert heading.inner_text(timeout=CELL_TIMEOUT).startswith("Exercice ")
        cell = exercise.add_cell(f"from course.grading import checks\n{code}", timeout=KERNEL_TIMEOUT)
        feedback = cell.locator(".jp-OutputArea-output").first.inner_text()
        for words in said:
            assert words in feedback, (name, words, feedback)
        assert "cases passed" not in feedback and "expected" not in feedback, feedback
