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
(:data:`course.worksheets.drawing.PAPERS`) under the prompt.  A text cell with
``"worksheet": {"material": "A title"}`` goes to the paper material at the end of the sheet.

The lessons are the kit's own files (or a teacher's, with ``--notebooks``): running them is
what Jupyter does with them too.  Only the cells up to the last picture a prompt needs run, and
of those not a cell that is one call such as ``play()`` (a clickable board) unless a prompt
looks at it.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reversi import Board, Square
from reversi.errors import ReversiError

__all__ = [
    "PROMPT",
    "Lesson",
    "Material",
    "Paper",
    "Prompt",
    "Shown",
    "WorksheetError",
    "read_lesson",
]

#: A prompt in a lesson's text: its kind and its label.
PROMPT = re.compile(r"\*\*(Predict, then run|Check your understanding) \[([\w.]+)\]\.\*\*")
#: Words that point to what follows the prompt, and to what comes before it.
BELOW = re.compile(r"\bbelow\b|\bnext cell\b|\bthe diagram\b|\bthis little\b", re.IGNORECASE)
ABOVE = re.compile(r"\babove\b", re.IGNORECASE)


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
    """A lesson as a worksheet needs it: its name, title, prompts and marked text cells."""

    name: str
    title: str
    prompts: list[Prompt]
    materials: dict[str, str]  # title -> Markdown of a cell marked as paper material


@dataclass(frozen=True)
class _Wanted:
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


def _prompts_of(text: str) -> list[tuple[str, str, str]]:
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


def _code_cells(cells: list[dict[str, Any]], at: int, step: int) -> Iterator[int]:
    """The indexes of the code cells after (``step`` 1) or before (-1) cell ``at``."""
    index = at + step
    while 0 <= index < len(cells):
        if cells[index].get("cell_type") == "code":
            yield index
        index += step


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _wanted(cells: list[dict[str, Any]], at: int, prompt: Prompt) -> list[_Wanted]:
    """What one prompt (in text cell ``at``) points to, from its words and its cell's metadata."""
    metadata = cells[at].get("metadata", {}).get("worksheet", {})
    settings = metadata.get(prompt.label, {}) if isinstance(metadata, dict) else {}
    wanted: list[_Wanted] = []
    default_code = [1] if prompt.kind.startswith("Predict") else []
    for offset in settings.get("code", default_code):
        cell = next(_code_cells(cells, at, 1 if offset > 0 else -1), None)
        if cell is not None:
            wanted.append(_Wanted(prompt, cell, "after" if offset > 0 else "before", "code"))
    if isinstance(settings.get("paper"), str):
        prompt.after.append(Paper(settings["paper"]))
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
    candidates = list(_code_cells(cells, at, step))[:3]
    name = settings.get("name", "")
    if name and candidates:
        wanted.append(_Wanted(prompt, candidates[0], side, "name", name))
    else:
        wanted += [_Wanted(prompt, cell, side, "picture") for cell in candidates]
    return wanted


class _Recorder:
    """Runs a lesson's code cells one by one, as Jupyter does, and keeps what each shows."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        self.shown: list[object] = []
        self.out = io.StringIO()
        self.namespace["print"] = self._print

    def _print(self, *values: Any, **options: Any) -> None:
        self.shown += [value.copy() for value in values if isinstance(value, Board)]
        print(*values, **{**options, "file": self.out})

    def _record(self, value: object) -> None:
        from course.cursormap.svg import CursorMapPicture

        if isinstance(value, Board):
            self.shown.append(value.copy())
        elif isinstance(value, CursorMapPicture):
            self.shown.append(
                CursorMapPicture(copy.deepcopy(value.map), value.cursor, value.position)
            )

    def run(self, index: int, source: str) -> list[object]:
        """Run one cell; returns what it showed (``show`` calls, a last expression, a print)."""
        self.shown.clear()
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            raise WorksheetError(f"{self.where}, cell {index}: {error}") from error
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):  # the value Jupyter would show under the cell
            tree.body.pop()
        else:
            last = None
        try:
            with contextlib.redirect_stdout(self.out):
                exec(compile(tree, f"<{self.where} cell {index}>", "exec"), self.namespace)
                if last is not None:
                    expression = ast.Expression(last.value)
                    self._record(
                        eval(
                            compile(expression, f"<{self.where} cell {index}>", "eval"),
                            self.namespace,
                        )
                    )
        except Exception as error:
            raise WorksheetError(f"{self.where}, cell {index} fails: {error!r}") from error
        return list(self.shown)


@contextlib.contextmanager
def _recording_show(shown: list[object]) -> Iterator[None]:
    """``course.show`` draws as usual and also notes the board and its marks in ``shown``."""
    from course.pictures import svg

    original = svg.show

    def show(board: Board, **marks: Any) -> Any:
        picture = original(board, **marks)
        shown.append(Shown(
            board.copy(),
            tuple(board.square(s) for s in marks.get("highlight", ())),
            tuple(board.square(s) for s in marks.get("markers", ())),
            board.square(marks["last_move"]) if marks.get("last_move") is not None else None,
        ))  # fmt: skip
        return picture

    svg.show = show
    try:
        yield
    finally:
        svg.show = original


def read_lesson(notebook: Path) -> Lesson:
    """A lesson's prompts, each with the code and pictures it points to."""
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if not isinstance(cells, list):
            raise TypeError("'cells' is not a list")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise WorksheetError(f"{notebook} cannot be read as a notebook: {error}") from error
    prompts: list[Prompt] = []
    wanted: list[_Wanted] = []
    materials: dict[str, str] = {}
    for at, cell in enumerate(cells):
        if cell.get("cell_type") != "markdown":
            continue
        text = _source(cell)
        marked = cell.get("metadata", {}).get("worksheet", {})
        if isinstance(marked, dict) and isinstance(marked.get("material"), str):
            materials[marked["material"]] = text
        for kind, label, body in _prompts_of(text):
            prompt = Prompt(kind, label, body)
            prompts.append(prompt)
            wanted += _wanted(cells, at, prompt)
    _fill(cells, wanted, notebook.name)
    first = _source(cells[0]) if cells else ""
    title = (first.splitlines()[0] if first else "").lstrip("# ").strip() or notebook.stem
    return Lesson(notebook.stem, title, prompts, materials)


def _fill(cells: list[dict[str, Any]], wanted: list[_Wanted], where: str) -> None:
    """Put the code and pictures the prompts point to into them (running cells as needed)."""
    for item in wanted:
        if item.what == "code":
            getattr(item.prompt, item.side).append(_source(cells[item.cell]).strip())
    pictures = [item for item in wanted if item.what != "code"]
    if not pictures:
        return
    recorder = _Recorder(where)
    found: dict[int, tuple[int, object]] = {}  # id(prompt) -> the nearest cell and its picture
    looked_at = {
        item.cell for item in pictures if item.what == "picture"
    }  # a name is read, not shown
    with _recording_show(recorder.shown):
        for index, cell in enumerate(cells):
            still = [
                i
                for i in pictures
                if i.cell >= index and (i.side == "before" or id(i.prompt) not in found)
            ]
            if not still:
                break
            source = _source(cell)
            if cell.get("cell_type") != "code":
                continue
            runs = index in looked_at or not _only_calls(source)
            _note(pictures, found, index, recorder.run(index, source) if runs else [], recorder)
    for item in pictures:
        if id(item.prompt) in found:
            drawn_in, picture = found.pop(id(item.prompt))
            shelf = getattr(item.prompt, item.side)
            drawing = _source(cells[drawn_in]).strip()
            if drawing in shelf and _only_draws(drawing):
                # The picture stands for the cell that only draws it; the cell to run is the next.
                shelf.remove(drawing)
                following = next(
                    _code_cells(cells, drawn_in, 1 if item.side == "after" else -1), None
                )
                if following is not None:
                    shelf.append(_source(cells[following]).strip())
            shelf.append(picture)


def _only_calls(source: str) -> bool:
    """Whether a cell is one call of a function by its name (``play()``, ``join(...)``,
    ``heatmap(...)``): it shows a board or a chart and changes no name, so a sheet that does not
    look at it need not run it (a clickable board needs a browser)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False  # run, and so reported with its cell
    return (
        len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call)
        and isinstance(body[0].value.func, ast.Name)
    )  # fmt: skip


def _only_draws(source: str) -> bool:
    """Whether a cell is one expression (``show(board, ...)``): its picture says it all."""
    body = ast.parse(source).body
    return len(body) == 1 and isinstance(body[0], ast.Expr)


def _note(
    pictures: list[_Wanted],
    found: dict[int, tuple[int, object]],
    index: int,
    shown: list[object],
    recorder: _Recorder,
) -> None:
    """Keep, for each prompt pointing to cell ``index``, what that cell shows if it is nearer."""
    for item in (item for item in pictures if item.cell == index):
        seen = shown
        if item.what == "name" and item.name in recorder.namespace:
            value = recorder.namespace[item.name]
            seen = [value.copy() if isinstance(value, Board) else copy.deepcopy(value)]
        nearest = found.get(id(item.prompt))
        closer = nearest is None or (item.side == "before") == (index > nearest[0])
        if seen and closer:
            found[id(item.prompt)] = (index, seen[0])
