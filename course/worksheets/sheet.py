"""One worksheet as a print-ready HTML page (A4): the prompts with what they point to, room
to write, and the lesson's paper material, in the lesson's language."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable

from course.cursormap.svg import CursorMapPicture
from course.i18n import gettext as _
from course.i18n import speaking
from reversi import Board
from reversi.cursormap import load_sample

from .drawing import anchor, blank_board, cursor_bits, map_svg, picture, print_board
from .lesson import Lesson, Material, Prompt


@functools.cache
def _markdown() -> Callable[[str], str]:
    import mistune  # the teacher's tools have it (Jupyter's own Markdown reader); `python -m course` starts without it

    made: Callable[[str], str] = mistune.create_markdown(escape=True, plugins=["table"])  # type: ignore[assignment]
    return made


def markdown(text: str) -> str:
    """Markdown as the notebooks write it (tables included); raw HTML in a lesson is shown as text."""
    return _markdown()(text)

STYLE = """
@page { size: A4; margin: 15mm; }
body { font-family: sans-serif; font-size: 11pt; color: #000; max-width: 180mm; }
h1 { font-size: 16pt; margin-bottom: 2mm; }
h2 { font-size: 13pt; }
.name { border-bottom: 1px solid #000; margin: 4mm 0 6mm; padding-bottom: 1mm; }
.prompt { margin-bottom: 6mm; border-top: 1px solid #bbb; padding-top: 2mm; }
.prompt p, .prompt li { line-height: 1.35; }
.figure { break-inside: avoid; margin: 2mm 0; }
.prompt > p, .prompt > .figure, .prompt > ol { break-after: avoid; }  /* a question stays with its picture */
.legend { font-size: 9pt; margin: 1mm 0; }
pre.code { break-inside: avoid; font-size: 9pt; border: 1px solid #999; padding: 2mm 2mm 2mm 9mm;
           white-space: pre-wrap; counter-reset: line; }
pre.code .line { counter-increment: line; }
pre.code .line::before { content: counter(line); display: inline-block; width: 6mm; margin-left: -8mm;
                         margin-right: 2mm; text-align: right; color: #555; }
code { font-size: 95%; }
.lines { height: 28mm; background: repeating-linear-gradient(transparent 0 8mm, #999 8mm 8.3mm); }
.material { break-inside: avoid; margin-top: 6mm; }
table { border-collapse: collapse; margin: 2mm 0; }
td, th { border: 1px solid #000; padding: 1mm 2mm; }
table.truth td, table.truth th, table.cursor td { min-width: 14mm; height: 7mm; text-align: center; }
"""


def _prompt(prompt: Prompt) -> str:
    """A prompt with what it points to above and below it, then lines to write on."""
    question = markdown(f"**{prompt.kind} [{prompt.label}].** {prompt.text}")
    # The picture a prompt names sits next to it; the code to run comes after the picture.
    before = sorted(prompt.before, key=lambda thing: not isinstance(thing, str))
    after = sorted(prompt.after, key=lambda thing: isinstance(thing, str))
    return (
        f'<div class="prompt" id="p{html.escape(prompt.label)}">'
        + "".join(map(picture, before)) + question + "".join(map(picture, after))
        + f'<div class="lines" style="height: {28 * _questions(prompt.text)}mm"></div></div>'
    )  # fmt: skip


def _questions(text: str) -> int:
    """How many questions a prompt asks: its (a), (b)... or its numbered items, else one."""
    return max(1, len(re.findall(r"\([a-e]\) |^\d+\. ", text, re.MULTILINE)))


def materials(lesson: Lesson) -> list[Material]:
    """The paper material of one lesson: boards to draw on, the Figure 2 grid with its clues...
    (a prompt's ``"see"`` names a title in English: :func:`.drawing.picture` translates it)."""
    blank = Material(_("A blank board"), _("Draw the position, then the discs that change."), blank_board())
    start = print_board(Board())  # no moves dotted: finding them is the task
    clues = "".join(markdown(_tables(text)) for text in lesson.materials.values())
    by_lesson: dict[str, Callable[[], list[Material]]] = {
        "00_welcome": lambda: [Material(_("The start"), _("Circle the squares where Black may play."), start),
                               blank],
        "01_play": lambda: [Material(_("The start"), _("Black plays d3: draw White's answers."), start), blank],
        "02_rules": lambda: [
            Material(_("The Figure 2 grid"), _("Place the discs one clue at a time, in pencil."),
                     clues + blank_board()),
            blank,
        ],
        "03_rules_passing_and_end": lambda: [
            Material(_("A 4 x 4 board"), _("Play a game with your neighbour; write who must pass."),
                     blank_board(4, 180)),
            Material(_("A 6 x 6 board"), _("The same on a bigger board."), blank_board(6, 220)),
        ],
        "05_cursormap": lambda: [
            Material(_("A cursor's bits"), _("The list of bits goes clockwise from the top-left."), cursor_bits()),
            Material(_("The first map"), _("Draw a cursor of your own on it and mark the fields it would change."),
                     map_svg(CursorMapPicture(load_sample("01_first_steps")), 300)),
        ],
        "04b_game_trees": lambda: [],
        "06_class_play": lambda: [],
    }  # fmt: skip
    return by_lesson.get(lesson.name, lambda: [blank])()


def _tables(text: str) -> str:
    """The Markdown tables of a text cell (the clues of a puzzle), without the story round them."""
    return "\n".join(line for line in text.splitlines() if line.lstrip().startswith("|"))


def page(lesson: Lesson) -> str:
    """The worksheet of one lesson as one HTML document, in the lesson's language."""
    with speaking(lesson.language):
        return _page(lesson)


def _page(lesson: Lesson) -> str:
    title = html.escape(lesson.title)
    name, date = html.escape(_("Name:")), html.escape(_("Date:"))
    parts = [
        f"<!doctype html><html lang='{lesson.language}'><head><meta charset='utf-8'><title>{title}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<div class="name">{name} ____________________ &nbsp; {date} __________</div>',
        *map(_prompt, lesson.prompts),
    ]
    for material in materials(lesson):
        parts.append(
            f'<div class="material" id="{anchor(material.title)}"><h2>{html.escape(material.title)}</h2>'
            f"<p>{html.escape(material.task)}</p>{material.html}</div>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)
