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

import itertools
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from reversi.errors import ArgumentError, ReversiError, shown

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


#: The most names :func:`exercise_name` compares a notebook with.
_MAX_KNOWN = 10_000


def _path_text(path: object, what: str) -> str:
    """``path`` (a str or a path) as text, if the system could take it as a file's name.

    The grading modules' one check of a path given to them: text or a path, no NUL, each
    part at most 255 bytes and the whole at most 4095 (longer, every file call fails).
    """
    if not isinstance(path, str | os.PathLike):
        raise ArgumentError(f"{what} must be a file name or a Path, not {shown(path)}")
    name = os.fspath(path)
    if not isinstance(name, str) or "\0" in name:
        raise ArgumentError(f"{what} must be a file name or a Path, not {shown(path)}")
    try:
        too_long = len(os.fsencode(name)) > 4095 or any(
            len(os.fsencode(part)) > 255 for part in Path(name).parts
        )
    except UnicodeEncodeError:
        raise ArgumentError(f"{what} has characters no file name can hold: {shown(path)}") from None
    if too_long:
        raise ArgumentError(f"{what} is longer than a file name can be: {shown(path)}")
    return name


def _as_path(path: object, what: str) -> Path:
    """``path`` checked by :func:`_path_text`, as a Path."""
    return Path(_path_text(path, what))


def _path(path: object, what: str = "path") -> str:
    """``path`` as text if it names a file (a str or a path), else the kit's error."""
    name = _path_text(path, what)
    if not name.strip():
        raise ArgumentError(f"{what} must name a file, not {shown(path)}")
    return name


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{what} must be text (a str), not {shown(value)}")
    return value


def _cell(cell: object) -> Mapping[str, Any]:
    if not isinstance(cell, Mapping):
        raise ArgumentError(f"a notebook cell is a dict, not {shown(cell)}")
    return cell


def _cells(notebook: object) -> list[Any]:
    if not isinstance(notebook, Mapping) or not isinstance(notebook.get("cells"), list):
        raise ArgumentError(f"a notebook is a dict with a list of cells, not {shown(notebook)}")
    return notebook["cells"]


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
    name = _path(path)
    if not isinstance(links, bool):
        raise ArgumentError(f"links must be True or False, not {shown(links)}")
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
    if len(data) > MAX_BYTES:
        raise NotebookError(f"{name}: bigger than {MAX_BYTES >> 20} MB, no notebook")
    if not nesting_within(data, MAX_NESTING):
        reason = "nested deeper than any notebook" if _balanced(data) else "not valid JSON"
        raise NotebookError(f"{name}: not a notebook ({reason})")
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotebookError(f"{name}: not a notebook (not valid JSON: {error})") from None
    return _checked(parsed, path)


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_INNERMOST = re.compile(rb"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")
_BRACKETS = re.compile(rb"[\[\]{}]")


def nesting_within(text: bytes, limit: int) -> bool:
    """Whether the JSON ``text`` nests at most ``limit`` deep (found without recursion).

    >>> nesting_within(b'[[1], {"a": "[[["}]', 2), nesting_within(b"[[[]]]", 2)
    (True, False)
    """
    if not isinstance(text, bytes | bytearray):
        raise ArgumentError(f"text must be bytes of JSON, not {shown(text)}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ArgumentError(f"limit must be a whole number from 0 up, not {shown(limit)}")
    text = _STRING.sub(b'""', text)
    for _ in range(limit):
        text, found = _INNERMOST.subn(b"0", text)
        if not found:
            break
    return _BRACKETS.search(text) is None


def _balanced(text: bytes) -> bool:
    """Whether every bracket of the JSON ``text`` (outside strings) is closed, in count.

    >>> _balanced(b'{"a": [1, "]"]}'), _balanced(b"{not json")
    (True, False)
    """
    text = _STRING.sub(b'""', text)
    return text.count(b"{") == text.count(b"}") and text.count(b"[") == text.count(b"]")


def _checked(data: Any, path: str | os.PathLike[str]) -> Notebook:
    """``data`` (parsed JSON) if it is a format-4 notebook, keeping only cells that are dicts."""
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError(f"{os.fspath(path)}: not a notebook (it has no list of cells)")
    if data.get("nbformat") != 4:
        raise NotebookError(f"{os.fspath(path)}: only notebook format 4 is supported")
    data["cells"] = [cell for cell in data["cells"] if isinstance(cell, dict)]
    return data


def write(notebook: Notebook, path: str | os.PathLike[str]) -> None:
    """Write ``notebook`` the way nbformat does (one-space indent, sorted keys)."""
    _cells(notebook)
    name = _path(path)
    try:
        text = json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise NotebookError(f"{name}: the notebook is not plain JSON data ({error})") from None
    try:
        Path(name).write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise WriteError.of(error, name) from error


def source(cell: Cell) -> str:
    """The cell's text (notebooks store it as one string or as a list of lines)."""
    text = _cell(cell).get("source", "")
    if isinstance(text, list):
        return "".join(str(line) for line in text)
    return str(text)


def tags(cell: Cell) -> list[str]:
    """The cell's tags (an empty list if it has none or they are malformed)."""
    metadata = _cell(cell).get("metadata")
    found = metadata.get("tags", []) if isinstance(metadata, dict) else []
    return [tag for tag in found if isinstance(tag, str)] if isinstance(found, list) else []


def tag_with(cell: Cell, prefix: str) -> str | None:
    """The first tag of a code cell that starts with ``prefix`` (``answer:`` or ``check:``)."""
    _text(prefix, "prefix")
    if _cell(cell).get("cell_type") != "code":
        return None
    return next((tag for tag in tags(cell) if tag.startswith(prefix)), None)


def check_tags(notebook: Notebook) -> list[str]:
    """The ``check:`` tags of a notebook, in order."""
    return [tag for cell in _cells(notebook) if (tag := tag_with(cell, CHECK))]


def answer_tags(notebook: Notebook) -> list[str]:
    """The ``answer:`` tags of a notebook, in order."""
    return [tag for cell in _cells(notebook) if (tag := tag_with(cell, ANSWER))]


def exercise_name(
    notebook: Notebook, path: str | os.PathLike[str], known: Iterable[str]
) -> str | None:
    """Which of the ``known`` exercises a notebook is: from its metadata, else its file name.

    >>> exercise_name({"metadata": {}}, "ann__04_flips (1).ipynb", ["01_squares", "04_flips"])
    '04_flips'
    """
    if not isinstance(notebook, Mapping):
        raise ArgumentError(f"a notebook is a dict, not {shown(notebook)}")
    name = _path(path)
    if isinstance(known, str | bytes) or not isinstance(known, Iterable):
        raise ArgumentError(f"known must be a list of exercise names, not {shown(known)}")
    listed = list(itertools.islice(known, _MAX_KNOWN + 1))
    if len(listed) > _MAX_KNOWN or not all(isinstance(item, str) for item in listed):
        raise ArgumentError(
            f"known must be a list of at most {_MAX_KNOWN} exercise names, not {shown(known)}"
        )
    known = sorted(listed, key=len, reverse=True)
    metadata = notebook.get("metadata")
    named = metadata.get(METADATA_KEY, {}) if isinstance(metadata, dict) else {}
    if isinstance(named, dict) and named.get("exercise") in known:
        return str(named["exercise"])
    stem = Path(name).name
    return next((name for name in known if name in stem), None)


def strip_solutions(text: str) -> str:
    """``text`` with every solution block replaced by a stub that raises NotImplementedError."""
    _text(text, "text")
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
    _text(text, "text")
    return any(line.strip() in (BEGIN_SOLUTION, END_SOLUTION) for line in text.splitlines())
