"""Running a lesson's code cells, as Jupyter does, to find the boards, trees and maps its
prompts point to (:func:`read_lesson`).

``course.show`` is recorded while the cells run (the board and its marks, drawn again for
paper), and so is the value a cell ends with and a board it prints.  Only the cells up to the
last picture a prompt needs run, and of those not a cell that is one call such as ``play()`` (a
clickable board) unless a prompt looks at it.  The lessons are the kit's own files (or a
teacher's, with ``--notebooks``): running them is what Jupyter does with them too.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from course.charts import Chart
from course.cursormap.svg import CursorMapPicture
from course.i18n import gettext as _
from course.i18n import notebook_language
from course.pictures import svg
from reversi import Board

from .lesson import (
    Lesson,
    Prompt,
    Shown,
    Wanted,
    WorksheetError,
    code_cells,
    pointed_to,
    prompts_of,
    source_of,
)


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
        if isinstance(value, Board):
            self.shown.append(value.copy())
        elif isinstance(value, Chart):
            self.shown.append(value)
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
            raise WorksheetError(_("{lesson}, cell {index}: {error}").format(
                lesson=self.where, index=index, error=error)) from error  # fmt: skip
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):  # the value Jupyter would show under the cell
            tree.body.pop()
        else:
            last = None
        name = f"<{self.where} cell {index}>"
        try:
            with contextlib.redirect_stdout(self.out):
                exec(compile(tree, name, "exec"), self.namespace)
                if last is not None:
                    value = eval(compile(ast.Expression(last.value), name, "eval"), self.namespace)
                    self._record(value)
        except Exception as error:
            raise WorksheetError(_("{lesson}, cell {index} fails: {error!r}").format(
                lesson=self.where, index=index, error=error)) from error  # fmt: skip
        return list(self.shown)


@contextlib.contextmanager
def _recording_show(shown: list[object]) -> Iterator[None]:
    """``course.show`` draws as usual and also notes the board and its marks in ``shown``."""
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
        read = json.loads(notebook.read_text(encoding="utf-8"))
        cells = read["cells"]
        if not isinstance(cells, list):
            raise TypeError("'cells' is not a list")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise WorksheetError(_("{notebook} cannot be read as a notebook: {error}").format(
            notebook=notebook, error=error)) from error  # fmt: skip
    prompts: list[Prompt] = []
    wanted: list[Wanted] = []
    materials: dict[str, str] = {}
    for at, cell in enumerate(cells):
        if cell.get("cell_type") != "markdown":
            continue
        text = source_of(cell)
        marked = cell.get("metadata", {}).get("worksheet", {})
        if isinstance(marked, dict) and isinstance(marked.get("material"), str):
            materials[marked["material"]] = text
        for kind, label, body in prompts_of(text):
            prompt = Prompt(kind, label, body)
            prompts.append(prompt)
            wanted += pointed_to(cells, at, prompt)
    _fill(cells, wanted, notebook.name)
    first = source_of(cells[0]) if cells else ""
    title = (first.splitlines()[0] if first else "").lstrip("# ").strip() or notebook.stem
    return Lesson(notebook.stem, title, prompts, materials, notebook_language(read))


def _fill(cells: list[dict[str, Any]], wanted: list[Wanted], where: str) -> None:
    """Put the code and pictures the prompts point to into them (running cells as needed)."""
    for item in wanted:
        if item.what == "code":
            getattr(item.prompt, item.side).append(source_of(cells[item.cell]).strip())
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
            source = source_of(cell)
            if cell.get("cell_type") != "code":
                continue
            runs = index in looked_at or not _only_calls(source)
            _note(pictures, found, index, recorder.run(index, source) if runs else [], recorder)
    for item in pictures:
        if id(item.prompt) in found:
            drawn_in, picture = found.pop(id(item.prompt))
            shelf = getattr(item.prompt, item.side)
            drawing = source_of(cells[drawn_in]).strip()
            if drawing in shelf and _only_draws(drawing):
                # The picture stands for the cell that only draws it; the cell to run is the next.
                shelf.remove(drawing)
                following = next(
                    code_cells(cells, drawn_in, 1 if item.side == "after" else -1), None
                )
                if following is not None:
                    shelf.append(source_of(cells[following]).strip())
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
    pictures: list[Wanted],
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
