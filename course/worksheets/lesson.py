"""What a worksheet takes from a lesson notebook: its prompts and what each prompt points to.

A prompt is a bold **Predict, then run [02.2].** or **Check your understanding [06.6].**
paragraph, with the lists, tables and code blocks that follow it in the same cell (the
questions of 06.6, the tree of 04b.2).  It points to things in the cells around it: "the
position below", "the picture above", "run the cell".  Those are taken from the lesson
itself: the code cells as they are written, and the boards, maps and trees by running the
lesson's code cells up to the one that makes them, exactly as Jupyter would (``show`` is
recorded instead of drawn), so the sheet shows the lesson's own position, never a copy.

Where the words do not say where to look, the prompt's text cell says it in its metadata,
``"worksheet": {"02.2": {"picture": "below", "name": "star"}}``: the picture is the value of
``star`` after the first code cell below the prompt; ``"code": [-1, 1]`` shows the code cell
before and the one after; ``"picture": "none"`` shows no picture; ``"paper": "truth tables"`` puts that paper
(:data:`course.worksheets.drawing.PAPERS`) under the prompt; ``"see": "The Figure 2 grid"``
points to that paper material of the sheet (a puzzle the lesson's picture would solve).  A text cell with
``"worksheet": {"material": "A title"}`` goes to the paper material at the end of the sheet.

A lesson in another language (``notebooks/fr/``) writes the prompts' kinds and the pointing
words as the kit's catalogue translates them ("Prévois, puis exécute", "ci-dessous"), and its
sheet speaks its language (``metadata.course.language``).

:mod:`.running` runs the cells and fills the prompts in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from course.i18n import LANGUAGES, N_, catalogue
from reversi import Board, Square
from reversi.errors import ReversiError

#: The two kinds of prompt, in English.
PREDICT, CHECK = N_("Predict, then run"), N_("Check your understanding")
# TRANSLATORS: the words (separated by |) with which a lesson points to what comes after a question
BELOW_WORDS = N_("below|next cell|the diagram|this little")
# TRANSLATORS: the words (separated by |) with which a lesson points to what comes before a question
ABOVE_WORDS = N_("above")


def written(message: str) -> dict[str, str]:
    """``message`` as each language of the kit writes it -> ``message`` (English)."""
    return {catalogue(code).gettext(message) or message: message for code in LANGUAGES}


def _words(message: str) -> re.Pattern[str]:
    """Any of the words of ``message`` (``a|b``), in any language of the kit, as whole words."""
    found = [word for text in written(message) for word in text.split("|") if word.strip()]
    return re.compile("|".join(rf"\b{re.escape(word)}\b" for word in found), re.IGNORECASE)


#: A prompt's kind as a lesson writes it (in any language of the kit) -> the English kind.
KINDS = {**written(PREDICT), **written(CHECK)}
#: A prompt in a lesson's text: its kind and its label.
PROMPT = re.compile(r"\*\*(" + "|".join(map(re.escape, KINDS)) + r") \[([\w.]+)\]\.\*\*")
#: Words that point to what follows the prompt, and to what comes before it.
BELOW, ABOVE = _words(BELOW_WORDS), _words(ABOVE_WORDS)


class WorksheetError(ReversiError, ValueError):
    """A lesson that cannot be turned into a worksheet (unreadable, or no prompts)."""


@dataclass(frozen=True)
class Shown:
    """A board as a lesson cell shows it: the board and its marks."""

    board: Board
    highlight: tuple[Square, ...] = ()
    markers: tuple[Square, ...] = ()
    last_move: Square | None = None


@dataclass(frozen=True)
class Paper:
    """A piece of paper a prompt asks to fill in, by name (``"truth tables"``)."""

    name: str


@dataclass(frozen=True)
class See:
    """A pointer to paper material on the same sheet, by its title (``"The Figure 2 grid"``)."""

    title: str


@dataclass
class Prompt:
    """One question of a lesson, with what it points to.

    ``text`` is the question's Markdown; ``before`` and ``after`` hold what goes above and
    below it on the sheet: code (a ``str`` of Python), a :class:`Shown` board, a tree (a
    nested ``list``) or a cursor-map picture.
    """

    kind: str
    label: str
    text: str
    before: list[object] = field(default_factory=list)
    after: list[object] = field(default_factory=list)


@dataclass(frozen=True)
class Material:
    """A piece of paper material: a title, a line saying what to do, and its HTML (a picture)."""

    title: str
    task: str
    html: str


@dataclass
class Lesson:
    """A lesson as a worksheet needs it: its name, title, prompts, marked text cells and language."""

    name: str
    title: str
    prompts: list[Prompt]
    materials: dict[str, str]  # title -> Markdown of a cell marked as paper material
    language: str = "en"


@dataclass(frozen=True)
class Wanted:
    """Something a prompt points to: a picture (``name`` or what the cell shows) or code."""

    prompt: Prompt
    cell: int
    side: str  # "before" or "after"
    what: str  # "code", "picture" or "name"
    name: str = ""


def _blocks(text: str) -> list[str]:
    """The Markdown blocks of a cell: paragraphs, lists, tables and fenced code, in order."""
    blocks: list[str] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                blocks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _is_part(block: str, previous: str) -> bool:
    """Whether ``block`` still belongs to the prompt before it: a list, table or code block,
    or the sentence right after such a code block (the question goes on under a tree)."""
    first = block.lstrip()
    if first.startswith(("```", "|", "- ", "* ")) or re.match(r"\d+\. ", first):
        return True
    return previous.lstrip().startswith("```") and not first.startswith(("#", "**"))


def prompts_of(text: str) -> list[tuple[str, str, str]]:
    """The prompts of one text cell: (kind, label, Markdown of the question and its parts)."""
    found: list[tuple[str, str, str]] = []
    blocks = _blocks(text)
    for at, block in enumerate(blocks):
        match = PROMPT.search(block)
        if not match:
            continue
        rest = block[match.end() :]
        parts = [rest.strip() if rest.strip(" ")[:1] != "\n" else "\n" + rest.strip()]
        previous = block
        for following in blocks[at + 1 :]:
            if PROMPT.search(following) or not _is_part(following, previous):
                break
            parts.append(following)
            previous = following
        # "\n\n" first when the questions start on their own lines (a list under the label)
        found.append((match.group(1), match.group(2), "\n\n".join(parts).strip(" ")))
    return found


def code_cells(cells: list[dict[str, Any]], at: int, step: int) -> Iterator[int]:
    """The indexes of the code cells after (``step`` 1) or before (-1) cell ``at``."""
    index = at + step
    while 0 <= index < len(cells):
        if cells[index].get("cell_type") == "code":
            yield index
        index += step


def source_of(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def pointed_to(cells: list[dict[str, Any]], at: int, prompt: Prompt) -> list[Wanted]:
    """What one prompt (in text cell ``at``) points to, from its words and its cell's metadata."""
    metadata = cells[at].get("metadata", {}).get("worksheet", {})
    settings = metadata.get(prompt.label, {}) if isinstance(metadata, dict) else {}
    wanted: list[Wanted] = []
    default_code = [1] if KINDS.get(prompt.kind) == PREDICT else []
    for offset in settings.get("code", default_code):
        cell = next(code_cells(cells, at, 1 if offset > 0 else -1), None)
        if cell is not None:
            wanted.append(Wanted(prompt, cell, "after" if offset > 0 else "before", "code"))
    if isinstance(settings.get("paper"), str):
        prompt.after.append(Paper(settings["paper"]))
    if isinstance(settings.get("see"), str):
        prompt.after.append(See(settings["see"]))
    direction = settings.get("picture")
    if direction is None:
        direction = (
            "below"
            if BELOW.search(prompt.text)
            else "above"
            if ABOVE.search(prompt.text)
            else "none"
        )
    if direction == "none":
        return wanted
    step = 1 if direction == "below" else -1
    side = "after" if step == 1 else "before"
    candidates = list(code_cells(cells, at, step))[:3]
    name = settings.get("name", "")
    if name and candidates:
        wanted.append(Wanted(prompt, candidates[0], side, "name", name))
    else:
        wanted += [Wanted(prompt, cell, side, "picture") for cell in candidates]
    return wanted
