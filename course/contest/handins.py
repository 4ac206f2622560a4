"""Find the players handed in: the hand-in store, or a folder of notebooks as ``grade`` reads.

Three layouts, one player per student (the last hand-in wins):

* the hand-in store, ``HANDINS/<student>/<project>/<stamp>.ipynb`` (stamps sort in time);
* a folder per student, ``FOLDER/<student>/NN_player.ipynb``;
* flat files, ``FOLDER/<student>__player.ipynb``.

``<project>`` (and the notebook's name after the number) is one of :data:`PROJECT_NAMES`.
A student's player is the code cells of the notebook: the cells tagged ``player`` if
any cell is, else every code cell.  Files are read with bounds (:data:`MAX_BYTES`) and
never run here: the cells go to the sandbox as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from course.grading import notebook as nbfile
from course.grading.notebook import NotebookError
from reversi.errors import ArgumentError, shown

#: The names of the project's notebook (``player.ipynb``, ``12_player.ipynb`` ...).
PROJECT_NAMES = ("player", "project_tournament", "tournament")
_PROJECT = re.compile(r"(?:\d\d_)?(?:" + "|".join(PROJECT_NAMES) + r")")
#: A notebook bigger than this is refused (a player is a few kilobytes).
MAX_BYTES = 2 << 20
#: At most this many code cells are taken from a notebook.
MAX_CELLS = 200


@dataclass(frozen=True)
class Entrant:
    """One tournament entrant: a kit level (``level``) or a student's code cells."""

    name: str
    level: str | None = None
    cells: tuple[str, ...] = ()
    source: str = ""

    @property
    def is_level(self) -> bool:
        """Whether the entrant is one of the kit's levels (not a student)."""
        return self.level is not None


def collect(folder: str | Path) -> tuple[list[Entrant], list[str]]:
    """The students' players found in ``folder`` (by name), and warnings about what was skipped."""
    folder = Path(folder)
    found: dict[str, Path] = {}
    warnings: list[str] = []
    try:
        notebooks = sorted(folder.rglob("*.ipynb"))
    except (OSError, ValueError) as error:
        raise ArgumentError(
            f"cannot look through the folder {shown(str(folder))}: {error}"
        ) from None
    for path in notebooks:
        relative = path.relative_to(folder)
        if ".ipynb_checkpoints" in relative.parts:
            continue
        student = _student(relative)
        if student is None:
            continue
        if student in found and len(relative.parts) != 3:
            warnings.append(f"{student} handed in more than one player: took {relative}")
        found[student] = path  # sorted paths: a later stamp replaces an earlier one
    entrants = []
    for student, path in sorted(found.items()):
        try:
            cells = player_cells(path)
        except NotebookError as error:
            warnings.append(f"skipped {student}: {error}")
            continue
        entrants.append(Entrant(student, cells=cells, source=str(path.relative_to(folder))))
    return entrants, warnings


def _student(relative: Path) -> str | None:
    """The student a notebook belongs to, if it is a project notebook."""
    parts = relative.parts
    if len(parts) == 3 and _PROJECT.fullmatch(parts[1]):
        return parts[0]
    if len(parts) == 2 and _PROJECT.fullmatch(relative.stem):
        return parts[0]
    if len(parts) == 1 and "__" in relative.stem:
        student, name = relative.stem.split("__", 1)
        return student if student and _PROJECT.fullmatch(name) else None
    return None


def player_cells(path: str | Path) -> tuple[str, ...]:
    """The code a notebook hands in: its ``player`` cells if tagged, else every code cell."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except (OSError, ValueError) as error:
        raise NotebookError(f"{shown(str(path))}: cannot read it ({error})") from None
    if size > MAX_BYTES:
        raise NotebookError(f"{path.name} is {size} bytes, more than a player needs ({MAX_BYTES})")
    code = [cell for cell in nbfile.read(path)["cells"] if cell.get("cell_type") == "code"]
    tagged = [cell for cell in code if "player" in nbfile.tags(cell)]
    chosen = [nbfile.source(cell) for cell in (tagged or code)][:MAX_CELLS]
    return tuple(_no_magics(text) for text in chosen if text.strip())


def _no_magics(text: str) -> str:
    """A cell without its IPython lines (``%matplotlib``, ``!pip``), which plain Python refuses."""
    return "\n".join(
        "pass" if line.lstrip().startswith(("%", "!")) else line for line in text.split("\n")
    )
