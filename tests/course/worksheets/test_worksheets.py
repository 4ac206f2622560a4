"""The printable worksheets: one page per lesson, every prompt of the lesson on it, pictures drawn.

The prompts are counted in the notebooks here with a pattern of the test's own, so a page
that drops a question fails; the PDF is printed by the real Chromium and opened as a PDF.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from course import worksheets
from course.__main__ import main

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
LABEL = re.compile(r"\*\*(?:Predict, then run|Check your understanding) \[([\w.]+)\]\.\*\*")
LESSONS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.name[:2].isdigit())


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
def test_each_lesson_has_a_page_with_every_prompt_and_a_picture(pages, notebook):
    page = (pages / f"{notebook.stem}.html").read_text(encoding="utf-8")
    labels = labels_in(notebook)
    assert labels, f"{notebook.name} has no prompts"
    for label in labels:
        assert f"[{label}].</span>" in page, f"{notebook.stem}: prompt [{label}] missing"
    assert page.count('class="lines"') == len(labels)
    assert "<svg" in page or '<table class="truth"' in page or '<pre class="tree"' in page
    assert f'href="{notebook.stem}.html"' in (pages / "index.html").read_text(encoding="utf-8")


def test_the_papers_each_lesson_needs():
    figure2 = (NOTEBOOKS / "02_rules.ipynb").stem
    sheet = worksheets._page(figure2, "t", [])
    assert "Figure 2 grid" in sheet and sheet.count('class="disc ') == 0 and "<svg" in sheet
    cursor = worksheets._page("05_cursormap", "t", [])
    assert cursor.count("<td></td>") == 12  # AND, OR, XOR for four rows, to fill in
    assert "bits[7]" in cursor and 'class="field ' in cursor


def test_a_prompt_keeps_its_words_escaped():
    found = worksheets._inline("a <b> `x < y` **bold**")
    assert found == "a &lt;b&gt; <code>x &lt; y</code> <b>bold</b>"


def test_chromium_prints_a_pdf(tmp_path):
    assert worksheets._chromium(), "Chromium is needed (python3 kit.py test installs it)"
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(NOTEBOOKS / "05_cursormap.ipynb", folder)
    written = worksheets._write(tmp_path / "out", folder, pdf=True)
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
