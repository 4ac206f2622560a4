"""The printable worksheets: one page per lesson, every prompt of the lesson on it with what it
points to, taken from the lesson's own cells (test_printed.py prints them in Chromium).

The prompts are counted in the notebooks here with a pattern of the test's own, so a page
that drops a question fails; the boards and trees are compared with the lesson's code.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest

from course import worksheets
from course.__main__ import main
from course.charts import Chart
from course.plots import nodes_chart
from course.worksheets.drawing import MARKS, legend, picture, tree_svg
from course.worksheets.lesson import Shown, WorksheetError, prompts_of
from course.worksheets.running import read_lesson
from course.worksheets.sheet import markdown, page
from reversi import BLACK, Board

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
LABEL = re.compile(r"\*\*(?:Predict, then run|Check your understanding) \[([\w.]+)\]\.\*\*")
LESSONS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.name[:2].isdigit())
FROM_TEXT = re.compile(r"from_text\('{3}(.*?)'{3}", re.DOTALL)


def labels_in(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return LABEL.findall(text)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheets")
    assert main(["worksheets", "--out", str(out), "--no-pdf"]) == 0
    return out


def test_there_are_lessons_to_print():
    assert len(LESSONS) >= 7


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_has_a_page_with_every_prompt(pages, notebook):
    sheet = (pages / f"{notebook.stem}.html").read_text(encoding="utf-8")
    labels = labels_in(notebook)
    assert labels, f"{notebook.name} has no prompts"
    for label in labels:
        assert f"[{label}].</strong>" in sheet, f"{notebook.stem}: prompt [{label}] missing"
    assert sheet.count('class="lines"') == len(labels)
    assert f'href="{notebook.stem}.html"' in (pages / "index.html").read_text(encoding="utf-8")


def code_after(notebook: Path, label: str) -> str:
    """The source of the first code cell after the text cell holding prompt ``label``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    at = next(i for i, c in enumerate(cells) if f"[{label}].**" in "".join(c["source"]))
    return "".join(next(c for c in cells[at + 1 :] if c["cell_type"] == "code")["source"])


def prompt(lesson: str, label: str) -> worksheets.Prompt:
    found = read_lesson(NOTEBOOKS / f"{lesson}.ipynb").prompts
    return next(p for p in found if p.label == label)


def flatten(tree):
    for child in tree:
        yield from flatten(child) if isinstance(child, list) else [child]


def test_the_tree_of_a_prompt_is_the_lessons_own():
    source = code_after(NOTEBOOKS / "04b_game_trees.ipynb", "04b.2")
    assignment = next(n for n in ast.parse(source).body if isinstance(n, ast.Assign))
    lesson_tree = ast.literal_eval(assignment.value)
    trees = [thing for thing in prompt("04b_game_trees", "04b.2").after if isinstance(thing, list)]
    assert trees == [lesson_tree]
    drawn = tree_svg(lesson_tree)
    leaves = re.findall(r'class="leaf">([^<]+)<', drawn)
    assert [int(v) for v in leaves] == list(flatten(lesson_tree))
    assert (
        drawn.count("<rect") == drawn.count("<line") - len(leaves) + 1
    )  # a box per branching point


def test_the_position_below_is_the_lessons_board_before_the_move():
    source = code_after(NOTEBOOKS / "02_rules.ipynb", "02.2")
    found = prompt("02_rules", "02.2")
    shown = [thing for thing in found.after if isinstance(thing, Board)]
    assert shown == [Board.from_text(FROM_TEXT.search(source).group(1))]
    assert source.strip() in found.after  # and the cell to run


def test_the_picture_below_is_the_one_the_lesson_shows_first():
    shown = [thing for thing in prompt("01_play", "01.1").after if isinstance(thing, Shown)]
    expected = Board()
    expected.play("d3", BLACK)
    assert len(shown) == 1 and shown[0].board == expected and str(shown[0].last_move) == "d3"
    assert not shown[0].markers  # White's moves are the answer: the sheet does not dot them
    assert legend(shown[0]) == '<p class="legend">On paper: ' + MARKS["last_move"] + ".</p>"


def test_questions_listed_under_their_label_are_kept():
    found = prompt("06_class_play", "06.6")
    assert len(re.findall(r"^\d+\. ", found.text, re.MULTILINE)) == 3
    assert page(read_lesson(NOTEBOOKS / "06_class_play.ipynb")).count("<li>") == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**Check your understanding [1.1].**\n1. One?\n2. Two?\n\nThis lesson has no exercise.",
         "\n1. One?\n2. Two?"),
        ("**Predict, then run [1.2].** Work this tree out:\n\n```\n[1, 2]\n```\n\nWhich one?\n\n## Next",
         "Work this tree out:\n\n```\n[1, 2]\n```\n\nWhich one?"),
        ("**Predict, then run [1.3].** Which?\n\n**Exercise:** 03 lines", "Which?"),
    ],
    ids=["list", "code-and-sentence", "stops-at-next-paragraph"],
)  # fmt: skip
def test_a_prompt_takes_its_lists_and_code_blocks(text, expected):
    assert [body for _, _, body in prompts_of(text)] == [expected]


def write_notebook(folder: Path, cells: list[dict]) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "01_t.ipynb"
    path.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    return path


def md(text: str, **worksheet) -> dict:
    return {"cell_type": "markdown", "metadata": {"worksheet": worksheet}, "source": text}


def code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": text, "outputs": []}


def test_a_lesson_cell_that_fails_is_named(tmp_path):
    path = write_notebook(tmp_path / "l", [
        md("# T"), md("**Predict, then run [1.1].** Look at the board below. Which?"), code("1 / 0"),
    ])  # fmt: skip
    with pytest.raises(WorksheetError, match=r"01_t.ipynb, cell 2 fails: ZeroDivisionError"):
        read_lesson(path)


def test_a_cell_that_only_calls_a_board_is_not_run_unless_looked_at(tmp_path):
    path = write_notebook(tmp_path / "l", [
        md("# T"),
        code("from reversi import Board\nsmall = Board(4)"),
        code("play_in_a_browser()"),  # would fail here: only a browser shows it
        md("**Check your understanding [1.1].** Why this?", **{"1.1": {"picture": "above", "name": "small"}}),
        md("**Predict, then run [1.2].** Look at the board below. Which?"),
        code("play_in_a_browser()"),
    ])  # fmt: skip
    with pytest.raises(WorksheetError, match=r"cell 5 fails: NameError"):
        read_lesson(path)  # looked at by [1.2]: run, and its failure named


def test_metadata_names_what_a_prompt_points_to(tmp_path):
    path = write_notebook(tmp_path / "l", [
        md("# T"),
        code("from reversi import Board\nsmall = Board(4)"),
        md("**Check your understanding [1.1].** Why?", **{"1.1": {"picture": "above", "name": "small"}}),
    ])  # fmt: skip
    found = read_lesson(path).prompts[0]
    assert found.before == [Board(4)] and found.after == []


def test_a_chart_below_a_prompt_is_drawn_on_paper_as_a_picture(tmp_path):
    path = write_notebook(tmp_path / "l", [
        md("# T"),
        md("**Predict, then run [1.1].** Look at the chart below. Which search looks at more?"),
        code('from course.plots import nodes_chart\nnodes_chart({"minimax": [4, 20], "alpha-beta": [4, 12]})'),
    ])  # fmt: skip
    (chart,) = [thing for thing in read_lesson(path).prompts[0].after if isinstance(thing, Chart)]
    assert chart.data == nodes_chart({"minimax": [4, 20], "alpha-beta": [4, 12]}).data
    drawn = picture(chart)
    assert drawn.startswith('<div class="figure chart"><svg') and "Positions visited" in drawn


def test_the_papers_each_lesson_needs():
    figure2 = read_lesson(NOTEBOOKS / "02_rules.ipynb")
    sheet = page(figure2)
    grid = sheet[sheet.index("The Figure 2 grid") :]
    clues = re.findall(r"^\| `\w\d` \|", "\n".join(figure2.materials.values()), re.MULTILINE)
    assert len(clues) == 7 and grid.count("<tr>") >= len(clues) and "<svg" in grid
    cursor = page(read_lesson(NOTEBOOKS / "05_cursormap.ipynb"))
    assert cursor.count("<td></td>") == 12  # AND, OR, XOR for four rows, to fill in (under 05.1)
    assert "bits[7]" in cursor and 'class="field ' in cursor


def test_the_sheet_does_not_solve_its_own_puzzle():
    lesson = read_lesson(NOTEBOOKS / "02_rules.ipynb")
    sheet = page(lesson)
    found = next(p for p in lesson.prompts if p.label == "02.4")
    assert not [thing for thing in found.before + found.after if isinstance(thing, (Board, Shown))]
    link = re.search(r'<a href="#([\w-]+)">the figure 2 grid</a>', sheet)
    assert link and f'id="{link.group(1)}"' in sheet
    grid = sheet[sheet.index(f'id="{link.group(1)}"') :]
    assert 'class="disc ' not in grid  # the grid is empty: the clues are for the student


def test_the_start_to_mark_up_has_no_moves_dotted():
    for lesson in ("00_welcome", "01_play"):
        sheet = page(read_lesson(NOTEBOOKS / f"{lesson}.ipynb"))
        start = sheet[sheet.index("<h2>The start</h2>") :]
        start = start[: start.index("</svg>")]
        assert start.count('class="disc ') == 4 and 'class="marker"' not in start


def test_a_prompt_keeps_its_words_escaped():
    found = markdown("a <b> `x < y` **bold** *White*")
    assert (
        found == "<p>a &lt;b&gt; <code>x &lt; y</code> <strong>bold</strong> <em>White</em></p>\n"
    )


def test_chromium_prints_a_pdf(tmp_path):
    assert worksheets._chromium(), "Chromium is needed (python3 kit.py test installs it)"
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(NOTEBOOKS / "05_cursormap.ipynb", folder)
    written = worksheets.write(tmp_path / "out", folder, pdf=True)
    pdf = tmp_path / "out" / "05_cursormap.pdf"
    assert pdf in written
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page") >= 1


@pytest.mark.parametrize(
    "flags",
    [["--out", "/proc/sheets"], ["--out", "x", "--notebooks", "/no/such/folder"]],
    ids=["system-out", "missing-notebooks"],
)
def test_bad_flags_exit_2_naming_the_flag(flags, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["worksheets", *flags])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flags[-2]}" in error


def test_without_out_the_sheets_go_to_the_class_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    shutil.copy(NOTEBOOKS / "05_cursormap.ipynb", lessons)
    assert main(["worksheets", "--notebooks", "lessons", "--no-pdf"]) == 0
    assert (tmp_path / "class" / "worksheets" / "05_cursormap.html").is_file()
    assert "wrote class/worksheets/index.html" in capsys.readouterr().out.replace("\\", "/")


def test_a_folder_without_lessons_is_refused(tmp_path, capsys):
    assert main(["worksheets", "--out", str(tmp_path / "o"), "--notebooks", str(tmp_path)]) == 2
    assert "no lesson notebooks" in capsys.readouterr().err


def pointed(prompt: worksheets.Prompt) -> tuple[str, list[str], list[str]]:
    """A prompt's label and the kinds of what it points to above and below it."""
    return prompt.label, [type(x).__name__ for x in prompt.before], [type(x).__name__ for x in prompt.after]


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.stem)
def test_a_french_lesson_s_prompts_point_to_what_the_english_ones_do(notebook: Path) -> None:
    english, french = read_lesson(notebook), read_lesson(NOTEBOOKS / "fr" / notebook.name)
    assert french.language == "fr" and english.language == "en"
    assert [p.kind for p in french.prompts] == [
        {"Predict, then run": "Prévois, puis exécute", "Check your understanding": "Vérifie que tu as compris"}[p.kind]
        for p in english.prompts
    ]
    assert list(map(pointed, french.prompts)) == list(map(pointed, english.prompts))


def test_the_sheets_are_french_when_the_kit_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_LANG", "fr")
    assert main(["worksheets", "--out", str(tmp_path), "--no-pdf"]) == 0
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<html lang='fr'>" in index and "<h1>Fiches de travail</h1>" in index
    rules = (tmp_path / "02_rules.html").read_text(encoding="utf-8")
    assert "<html lang='fr'>" in rules and '<div class="name">Nom : ____' in rules and "Date : ___" in rules
    assert "<strong>Prévois, puis exécute [02.1].</strong>" in rules
    assert "<h2>La grille de la figure 2</h2><p>Place les pions un indice après l’autre, au crayon.</p>" in rules
    assert ('<p class="see">Travaille sur <a href="#m-la-grille-de-la-figure-2">la grille de la figure 2</a> '
            "à la fin de cette feuille.</p>") in rules  # fmt: skip
    play = (tmp_path / "01_play.html").read_text(encoding="utf-8")
    assert '<p class="legend">Sur papier : un cadre noir marque le dernier coup (blanc à l’écran).</p>' in play
    assert "<h2>Le départ</h2><p>Noir joue d3 : dessine les réponses de Blanc.</p>" in play
    trees = (tmp_path / "04b_game_trees.html").read_text(encoding="utf-8")
    assert "Noir : le plus grand</text>" in trees and "Blanc : le plus petit</text>" in trees
    cursor = (tmp_path / "05_cursormap.html").read_text(encoding="utf-8")
    assert "<th>opérateur</th><th>champ</th><th>bit du curseur</th><th>nouveau champ</th>" in cursor
    assert "Predict" not in rules + play + trees + cursor and "On paper" not in play
