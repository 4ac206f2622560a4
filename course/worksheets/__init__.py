"""Printable worksheets, one per lesson: the lesson's prompts with what they point to, room to
write, and paper material.

A worksheet is a print-ready HTML page (A4, one lesson per file) made from the lesson
notebook itself: every "Predict, then run" and "Check your understanding" prompt of the
lesson with the questions, code, boards and trees it points to (:mod:`.lesson` takes them
from the lesson's own cells), lined space under it, then the paper material the lesson needs
(blank boards, the Figure 2 grid with its clues, the truth tables, a cursor's eight bits).
Boards are drawn for paper (:mod:`.drawing`): light squares, dark outlines, coordinates.
Because everything is read from the notebooks, a worksheet never disagrees with its lesson.

``python -m course worksheets --out DIR`` writes ``DIR/index.html`` and one page per
lesson, and, when Chromium is installed, a PDF of each page next to it (headless
``--print-to-pdf``).  In another language (``kit.py --lang fr worksheets``) each sheet is made
from the lesson's translation (``notebooks/fr/NAME``, the English lesson where there is none)
and speaks the lesson's language.
"""

from __future__ import annotations

import html
import shutil
import subprocess
from pathlib import Path

from course.i18n import gettext as _
from course.i18n import language

from .lesson import PROMPT, Material, Prompt, WorksheetError
from .running import read_lesson
from .sheet import page

#: Its face is the command ``python -m course worksheets`` (tests/course/worksheets drive it);
#: the functions that read the lessons and write the pages are its inside.
__all__ = [
    "CHROMIUM",
    "NOTEBOOKS",
    "PDF_SECONDS",
    "PROMPT",
    "Material",
    "Prompt",
    "WorksheetError",
]

#: The lessons' folder in a checkout of the kit.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: Chromium binaries tried for the PDFs, in order.
CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
#: Without the address bar's popup, a page of its own that a headless window otherwise loads
#: beside the one it prints (a page printed in 0.52-0.59 s instead of 0.72-0.75 s, Chromium 156;
#: the browser tests and benchmarks launch Chromium with it too).
NO_POPUP = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
PDF_SECONDS = 120


def _lessons(folder: Path, code: str = "en") -> list[Path]:
    """The numbered lesson notebooks of ``folder`` (``00_welcome.ipynb`` ...), in order, each in
    language ``code`` where ``folder/code/`` has its translation."""
    found = sorted(path for path in folder.glob("*.ipynb") if path.name[:2].isdigit())
    return [path.parent / code / path.name if (path.parent / code / path.name).is_file() else path
            for path in found]  # fmt: skip


def write(out: Path, folder: Path = NOTEBOOKS, pdf: bool = True) -> list[Path]:
    """Write one worksheet per lesson and an index into ``out``; returns the files written."""
    found = _lessons(folder, language())
    if not found:
        raise WorksheetError(_("no lesson notebooks (NN_name.ipynb) in {folder}").format(folder=folder))
    out.mkdir(parents=True, exist_ok=True)
    written, links = [], []
    for notebook in found:
        lesson = read_lesson(notebook)
        if not lesson.prompts:
            raise WorksheetError(_("{notebook} has no prompts (**Predict, then run [..].**)").format(
                notebook=notebook))  # fmt: skip
        target = out / f"{notebook.stem}.html"
        target.write_text(page(lesson), encoding="utf-8")
        written.append(target)
        links.append(f'<li><a href="{target.name}">{html.escape(lesson.title)}</a></li>')
    index = out / "index.html"
    heading = html.escape(_("Worksheets"))
    index.write_text(
        f"<!doctype html><html lang='{language()}'><head><meta charset='utf-8'><title>{heading}</title></head>"
        f"<body><h1>{heading}</h1><ul>{''.join(links)}</ul></body></html>",
        encoding="utf-8",
    )
    written.append(index)
    browser = _chromium() if pdf else None
    if browser:
        written += [_to_pdf(browser, path) for path in written if path != index]
    return written


def _chromium() -> str | None:
    """The path of a Chromium to print PDFs with, or None."""
    return next((found for name in CHROMIUM if (found := shutil.which(name))), None)


def _to_pdf(browser: str, page_file: Path) -> Path:
    """Print one HTML page to a PDF beside it with headless Chromium."""
    target = page_file.with_suffix(".pdf")
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", NO_POPUP, "--no-pdf-header-footer",
        f"--print-to-pdf={target.absolute()}", page_file.absolute().as_uri(),
    ]  # fmt: skip
    try:
        subprocess.run(command, capture_output=True, timeout=PDF_SECONDS, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        raise WorksheetError(_("Chromium could not print {page}: {error}").format(
            page=page_file.name, error=error)) from error  # fmt: skip
    if not target.is_file():
        raise WorksheetError(_("Chromium wrote no PDF for {page}").format(page=page_file.name))
    return target
