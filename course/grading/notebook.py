r"""Exercise notebooks as plain JSON: the tags that mark cells, and the solution markers.

An exercise notebook marks its code cells with tags (cell metadata), so that cells are
matched by what they are, never by where they are:

* ``answer:NAME``: a cell where the student writes code (``answer:flips``);
* ``check:NAME``: a teacher's check cell, marked ``# NBVAL_CHECK_OUTPUT``;
* ``setup``: a teacher's cell that prepares the notebook (imports);
* other code cells are teacher demos; markdown cells are instructions.

In the teacher's source, an answer cell holds the solution between ``### BEGIN SOLUTION``
and ``### END SOLUTION``; :func:`strip_solutions` swaps each such block for a stub:

>>> print(strip_solutions("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"))
def f():
    # YOUR CODE HERE
    raise NotImplementedError("write this part")
<BLANKLINE>

Notebooks are read with :mod:`json`, not nbformat: the grader must start fast and must
not trust a student's file to be a valid notebook beyond the little it reads.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from course import schema
from reversi.errors import ReversiError

ANSWER = "answer:"
CHECK = "check:"
SETUP = "setup"
BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"
STUB = ("# YOUR CODE HERE", 'raise NotImplementedError("write this part")')
CHECK_MARKER = "# NBVAL_CHECK_OUTPUT"
#: Notebook metadata key under which a released notebook names its exercise.
METADATA_KEY = "course"

Notebook = dict[str, Any]
Cell = dict[str, Any]


class NotebookError(ReversiError, ValueError):
    """A file that is not an exercise notebook, or a source that breaks the conventions."""


class WriteError(OSError, ReversiError):
    """A file the grading tools could not write: the :class:`OSError` (its ``errno``,
    ``strerror`` and ``filename`` kept, so ``except OSError`` still sees it), as the kit's error."""

    @classmethod
    def of(cls, error: OSError, path: str | os.PathLike[str]) -> WriteError:
        """``error`` as the kit's error, naming ``path`` if the error names no file."""
        return cls(error.errno, error.strerror or str(error), error.filename or os.fspath(path))


#: The biggest notebook file read, and the deepest nesting a notebook has (about 6).
MAX_BYTES = 20 << 20
MAX_NESTING = 64


def read(path: str | os.PathLike[str], links: bool = True) -> Notebook:
    """The notebook at ``path`` as a dict; :class:`NotebookError` if it is not one.

    Only a regular file is read (a FIFO or a device never blocks the reader), at most
    :data:`MAX_BYTES`, nested at most :data:`MAX_NESTING` deep (measured before parsing,
    without recursion); with ``links=False`` a symbolic link is refused too (a student's
    hand-in that points at the teacher's solution).
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags if links else flags | os.O_NOFOLLOW)
    except OSError as error:
        reason = "it is a symbolic link" if not links and os.path.islink(path) else error.strerror
        raise NotebookError(f"{name}: cannot read it ({reason})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotebookError(f"{name}: not a regular file")
    with os.fdopen(fd, "rb") as file:
        data = file.read(MAX_BYTES + 1)
    return parse(data, name)


#: How much of a notebook is read: its bytes, its nesting (about 6 in a real one), its items.
LIMITS = schema.Limits(bytes=MAX_BYTES, depth=MAX_NESTING, items=MAX_BYTES)


def parse(data: bytes, name: str) -> Notebook:
    """The format-4 notebook in ``data`` (the file ``name``), keeping only cells that are
    dicts; :class:`NotebookError` says why not (bounded: :func:`course.schema.read_json`)."""
    try:
        notebook = schema.read_json(data, "the file", LIMITS)
    except schema.SchemaError as error:
        raise NotebookError(f"{name}: not a notebook ({error})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError(f"{name}: not a notebook (it has no list of cells)")
    if notebook.get("nbformat") != 4:
        raise NotebookError(f"{name}: only notebook format 4 is supported")
    notebook["cells"] = [cell for cell in notebook["cells"] if isinstance(cell, dict)]
    return notebook


def write(notebook: Notebook, path: str | os.PathLike[str]) -> None:
    """Write ``notebook`` the way nbformat does (one-space indent, sorted keys)."""
    name = os.fspath(path)
    try:
        text = json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise NotebookError(f"{name}: the notebook is not plain JSON data ({error})") from None
    try:
        Path(name).write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise WriteError.of(error, name) from error


def write_atomic(path: Path, text: str) -> None:
    """Replace the file at ``path`` with ``text`` atomically (a reader never sees half of it)."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:200]}.", dir=path.parent)
    except OSError as error:
        raise WriteError.of(error, path) from error
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WriteError.of(error, path) from error
        raise


def source(cell: Cell) -> str:
    """The cell's text (notebooks store it as one string or as a list of lines)."""
    text = cell.get("source", "")
    if isinstance(text, list):
        return "".join(str(line) for line in text)
    return str(text)


def tags(cell: Cell) -> list[str]:
    """The cell's tags (an empty list if it has none or they are malformed)."""
    metadata = cell.get("metadata")
    found = metadata.get("tags", []) if isinstance(metadata, dict) else []
    return [tag for tag in found if isinstance(tag, str)] if isinstance(found, list) else []


def tag_with(cell: Cell, prefix: str) -> str | None:
    """The first tag of a code cell that starts with ``prefix`` (``answer:`` or ``check:``)."""
    if cell.get("cell_type") != "code":
        return None
    return next((tag for tag in tags(cell) if tag.startswith(prefix)), None)


def check_tags(notebook: Notebook) -> list[str]:
    """The ``check:`` tags of a notebook, in order."""
    return [tag for cell in notebook["cells"] if (tag := tag_with(cell, CHECK))]


def answer_tags(notebook: Notebook) -> list[str]:
    """The ``answer:`` tags of a notebook, in order."""
    return [tag for cell in notebook["cells"] if (tag := tag_with(cell, ANSWER))]


def exercise_name(
    notebook: Notebook, path: str | os.PathLike[str], known: Iterable[str]
) -> str | None:
    """Which of the ``known`` exercises a notebook is: from its metadata, else its file name.

    >>> exercise_name({"metadata": {}}, "ann__04_flips (1).ipynb", ["01_squares", "04_flips"])
    '04_flips'
    """
    known = sorted(known, key=len, reverse=True)
    metadata = notebook.get("metadata")
    named = metadata.get(METADATA_KEY, {}) if isinstance(metadata, dict) else {}
    if isinstance(named, dict) and named.get("exercise") in known:
        return str(named["exercise"])
    stem = Path(path).name
    return next((name for name in known if name in stem), None)


def strip_solutions(text: str) -> str:
    """``text`` with every solution block replaced by a stub that raises NotImplementedError."""
    lines, out, inside = text.splitlines(keepends=True), [], False
    for number, line in enumerate(lines, start=1):
        marker = line.strip()
        if marker == BEGIN_SOLUTION:
            if inside:
                raise NotebookError(f"line {number}: {BEGIN_SOLUTION} inside a solution block")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [indent + stub + "\n" for stub in STUB]
        elif marker == END_SOLUTION:
            if not inside:
                raise NotebookError(f"line {number}: {END_SOLUTION} without {BEGIN_SOLUTION}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise NotebookError(f"{BEGIN_SOLUTION} is never closed by {END_SOLUTION}")
    result = "".join(out)
    return result if text.endswith("\n") or not result.endswith("\n") else result[:-1]


def has_solution(text: str) -> bool:
    """Whether ``text`` holds a solution marker."""
    return any(line.strip() in (BEGIN_SOLUTION, END_SOLUTION) for line in text.splitlines())
