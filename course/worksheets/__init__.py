"""Printable worksheets, one per lesson: the lesson's prompts with room to write, and paper boards.

A worksheet is a print-ready HTML page (A4, one lesson per file) made from the lesson
notebook itself and from the kit's own SVG pictures (:mod:`course.pictures`,
:mod:`course.cursormap.svg`): every "Predict, then run" and "Check your understanding"
prompt of the lesson with lined space under it, then the paper material the lesson needs
(blank boards, the Figure 2 grid, the truth tables, a cursor's eight bits). Because the
prompts are read from the notebooks, a worksheet never disagrees with its lesson.

``python -m course worksheets --out DIR`` writes ``DIR/index.html`` and one page per
lesson, and, when Chromium is installed, a PDF of each page next to it (headless
``--print-to-pdf``). Nothing here runs a notebook; it only reads their text.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from course.cursormap.svg import cursormap_svg
from course.pictures.svg import board_svg
from reversi import BLACK, Board
from reversi.cursormap import load_sample
from reversi.errors import ReversiError

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
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: A prompt in a lesson's text: its kind, its label and the paragraph that follows.
PROMPT = re.compile(
    r"\*\*(Predict, then run|Check your understanding) \[([\w.]+)\]\.\*\*(.*?)(?:\n\s*\n|\Z)",
    re.DOTALL,
)
#: Chromium binaries tried for the PDFs, in order.
CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
PDF_SECONDS = 120


class WorksheetError(ReversiError, ValueError):
    """A lesson that cannot be turned into a worksheet (unreadable, or no prompts)."""


@dataclass(frozen=True)
class Prompt:
    """One question of a lesson: ``kind`` ("Predict, then run"...), ``label`` ("02.1"), text."""

    kind: str
    label: str
    text: str


@dataclass(frozen=True)
class Material:
    """A piece of paper material: a title, a line saying what to do, and its HTML (a picture)."""

    title: str
    task: str
    html: str


def _prompts(notebook: Path) -> list[Prompt]:
    """The prompts of a lesson notebook, in order, read from its text cells."""
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise WorksheetError(f"{notebook} cannot be read as a notebook: {error}") from error
    found = []
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        text = "".join(cell.get("source", ""))
        for kind, label, body in PROMPT.findall(text):
            found.append(Prompt(kind, label, " ".join(body.split())))
    return found


def _inline(text: str) -> str:
    """Markdown's ``code`` and **bold** as HTML, everything else escaped."""
    escaped = html.escape(text)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", escaped)


def _blank_board(size: int = 8, px: int = 300) -> str:
    """An empty board with its coordinates, to draw discs on."""
    return board_svg(Board.from_text("\n".join([". " * size] * size)), size_px=px)


def _start_board(size: int = 8, px: int = 300) -> str:
    """The start position with Black's legal moves dotted."""
    board = Board(size)
    return board_svg(board, markers=board.legal_moves(BLACK), size_px=px)


def _truth_tables() -> str:
    """AND, OR and XOR with the result columns left empty to fill in."""
    rows = "".join(
        f"<tr><td>{field}</td><td>{bit}</td><td></td><td></td><td></td></tr>"
        for field in (0, 1)
        for bit in (0, 1)
    )
    head = "<tr><th>field</th><th>bit</th><th>AND</th><th>OR</th><th>XOR</th></tr>"
    return f'<table class="truth">{head}{rows}</table>'


def _cursor_bits() -> str:
    """A cursor's 3x3 square with the eight bits numbered clockwise from the top-left."""
    order: list[list[int | str]] = [[0, 1, 2], [7, "OP", 3], [6, 5, 4]]
    rows = "".join(
        "<tr>" + "".join(f"<td><small>bits[{n}]</small></td>" if n != "OP" else "<td>OP</td>"
                         for n in row) + "</tr>"
        for row in order
    )  # fmt: skip
    return f'<table class="cursor">{rows}</table>'


def _game_tree() -> str:
    """A small game tree with empty boxes for the values, to fill in by hand."""
    return (
        '<pre class="tree">'
        "                 [ ? ]   Black chooses the largest\n"
        "            /              \\\n"
        "        [ ? ]              [ ? ]      White chooses the smallest\n"
        "       /     \\            /     \\\n"
        "     +3      -2         +5      +1    the values of the positions\n"
        "</pre>"
    )


def _pictures(lesson: str) -> list[Material]:
    """The paper material of one lesson (by its notebook's name)."""
    blank = Material(
        "A blank board", "Draw the position, then the discs that change.", _blank_board()
    )
    by_lesson: dict[str, Callable[[], list[Material]]] = {
        "00_welcome": lambda: [
            Material("The start", "Circle the squares where Black may play.", _start_board()),
            blank,
        ],
        "01_play": lambda: [Material("The start", "Black plays d3: draw White's answers.", _start_board()), blank],
        "02_rules": lambda: [
            Material("The Figure 2 grid", "Place the discs one clue at a time, in pencil.", _blank_board()),
            blank,
        ],
        "03_rules_passing_and_end": lambda: [
            Material("A 4 x 4 board", "Play a game with your neighbour; write who must pass.", _blank_board(4, 200)),
            Material("A 6 x 6 board", "The same on a bigger board.", _blank_board(6, 250)),
        ],
        "04_computer_players": lambda: [
            Material("A game tree", "Fill in the boxes from the bottom up.", _game_tree()),
            blank,
        ],
        "04b_game_trees": lambda: [
            Material("A game tree", "Fill in the boxes from the bottom up.", _game_tree()),
        ],
        "05_cursormap": lambda: [
            Material("Truth tables", "Fill in every empty box.", _truth_tables()),
            Material("A cursor's bits", "The list of bits goes clockwise from the top-left.", _cursor_bits()),
            Material("The first map", "Mark the fields a cursor on (1, 1) would change.",
                     cursormap_svg(load_sample("01_first_steps"), pixels=300)),
        ],
    }  # fmt: skip
    return by_lesson.get(lesson, lambda: [blank])()


STYLE = """
@page { size: A4; margin: 15mm; }
body { font-family: sans-serif; font-size: 11pt; color: #000; max-width: 180mm; }
h1 { font-size: 16pt; margin-bottom: 2mm; }
.name { border-bottom: 1px solid #000; margin: 4mm 0 6mm; padding-bottom: 1mm; }
.prompt { break-inside: avoid; margin-bottom: 6mm; }
.label { font-weight: bold; }
.lines { height: 28mm; background: repeating-linear-gradient(transparent 0 8mm, #999 8mm 8.3mm); }
.material { break-inside: avoid; margin-top: 6mm; }
table.truth, table.cursor { border-collapse: collapse; }
table.truth td, table.truth th, table.cursor td { border: 1px solid #000; width: 14mm; height: 9mm; text-align: center; }
pre.tree { font-size: 12pt; }
"""


def _page(lesson: str, title: str, found: list[Prompt]) -> str:
    """The worksheet of one lesson as one HTML document."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        '<div class="name">Name: ____________________ &nbsp; Date: __________</div>',
    ]
    for prompt in found:
        parts.append(
            f'<div class="prompt"><p><span class="label">{html.escape(prompt.kind)} '
            f"[{html.escape(prompt.label)}].</span> {_inline(prompt.text)}</p>"
            '<div class="lines"></div></div>'
        )
    for material in _pictures(lesson):
        parts.append(
            f'<div class="material"><h2>{html.escape(material.title)}</h2>'
            f"<p>{html.escape(material.task)}</p>{material.html}</div>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def _title_of(notebook: Path) -> str:
    """The lesson's title: its first heading."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    first = "".join(cells[0].get("source", "")) if cells else ""
    heading = first.splitlines()[0] if first else notebook.stem
    return heading.lstrip("# ").strip() or notebook.stem


def _lessons(folder: Path) -> list[Path]:
    """The numbered lesson notebooks of ``folder`` (``00_welcome.ipynb`` ...), in order."""
    return sorted(path for path in folder.glob("*.ipynb") if path.name[:2].isdigit())


def _write(out: Path, folder: Path = NOTEBOOKS, pdf: bool = True) -> list[Path]:
    """Write one worksheet per lesson and an index into ``out``; returns the files written."""
    found = _lessons(folder)
    if not found:
        raise WorksheetError(f"no lesson notebooks (NN_name.ipynb) in {folder}")
    out.mkdir(parents=True, exist_ok=True)
    written, links = [], []
    for notebook in found:
        title = _title_of(notebook)
        target = out / f"{notebook.stem}.html"
        target.write_text(_page(notebook.stem, title, _prompts(notebook)), encoding="utf-8")
        written.append(target)
        links.append(f'<li><a href="{target.name}">{html.escape(title)}</a></li>')
    index = out / "index.html"
    index.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>Worksheets</title></head>"
        f"<body><h1>Worksheets</h1><ul>{''.join(links)}</ul></body></html>",
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
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
        f"--print-to-pdf={target.absolute()}", page_file.absolute().as_uri(),
    ]  # fmt: skip
    try:
        subprocess.run(command, capture_output=True, timeout=PDF_SECONDS, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        raise WorksheetError(f"Chromium could not print {page_file.name}: {error}") from error
    if not target.is_file():
        raise WorksheetError(f"Chromium wrote no PDF for {page_file.name}")
    return target
