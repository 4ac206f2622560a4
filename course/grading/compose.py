"""The student runtime of one exercise: the files the sandbox holds, and nothing else.

:func:`runtime` reads ``runtime/pieces.py`` and ``runtime/harness.py`` as text (they are
never imported here) and returns the two files a sandboxed run gets: ``harness.py`` and
``allowed.py``, made of the core pieces (colours, squares, a board that reads squares)
plus the pieces the exercise's table entry offers, each with every piece it uses, and
the board methods the entry lends.  A piece an exercise asks students to write is never
among them (:func:`check_entry` refuses a table entry that would offer one).

>>> from course.grading.table import ENTRIES
>>> sorted(pieces_for(ENTRIES["05_play"]) - CORE)
['flips', 'is_legal']
>>> "def flips" in runtime(ENTRIES["04_flips"])["allowed.py"]
False
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from course.grading.table import Entry
from reversi.errors import ArgumentError

RUNTIME = Path(__file__).resolve().parent / "runtime"

#: The pieces every runtime has.
CORE = frozenset(
    {"namedtuple", "COLORS", "COLUMNS", "LENT", "DIRECTIONS", "Color", "BLACK", "WHITE", "Square",
     "Pass", "PASS", "square", "Board", "_fill", "make_board", "lend", "NodeCounter",
     "MapFileError", "IllegalMoveError"}
)  # fmt: skip

#: The board methods a table entry may lend.
METHODS = ("flips", "is_legal", "legal_moves", "count", "play", "copy")


@functools.cache
def _pieces() -> dict[str, tuple[str, frozenset[str]]]:
    """Each piece of ``pieces.py`` by name: its source and the other pieces it uses."""
    text = (RUNTIME / "pieces.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    found: dict[str, tuple[str, frozenset[str]]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.asname or alias.name for alias in node.names]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        else:
            raise ValueError(f"pieces.py line {node.lineno}: a piece is a def, a class, an "
                             "import or NAME = VALUE")  # fmt: skip
        used = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        source = ast.get_source_segment(text, node, padded=True) or ""
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.decorator_list:
            raise ValueError(f"runtime piece {node.name} has a decorator")
        for name in names:
            found[name] = (source, used)
    return found


def pieces_for(entry: Entry) -> frozenset[str]:
    """The pieces of ``entry``'s runtime: the core, what it offers, and what those use."""
    known = _pieces()
    wanted = set(CORE) | {n for n in entry.names if n in known} | set(entry.lends)
    todo = list(wanted)
    while todo:
        _, used = known[todo.pop()]
        for name in used & known.keys():
            if name not in wanted:
                wanted.add(name)
                todo.append(name)
    return frozenset(wanted)


def check_entry(entry: Entry) -> None:
    """Refuse an entry whose runtime would hold a function the exercise asks for
    (:class:`~reversi.errors.ArgumentError`, a ValueError)."""
    known = _pieces()
    unknown = [n for n in (*entry.names, *entry.lends) if n not in known]
    if unknown:
        raise ArgumentError(f"{entry.name}: the student runtime has no {unknown[0]}")
    bad = [m for m in entry.lends if m not in METHODS]
    if bad:
        raise ArgumentError(f"{entry.name}: a board cannot lend {bad[0]}")
    given = pieces_for(entry) & set(entry.asked)
    if given:
        raise ArgumentError(f"{entry.name}: the runtime would hand students {sorted(given)[0]}")


def runtime(entry: Entry) -> dict[str, str]:
    """The files of ``entry``'s sandboxed runs: ``{"harness.py": ..., "allowed.py": ...}``."""
    check_entry(entry)
    chosen = pieces_for(entry)
    parts = ['"""What this exercise allows (composed by the grader)."""\n']
    seen: set[str] = set()
    for name, (source, _) in _pieces().items():  # in the file's order
        if name in chosen and source not in seen:
            seen.add(source)
            parts.append(source.rstrip() + "\n")
    parts.append(f"LENT = {tuple(entry.lends)!r}\n")
    parts += [f"Board.{name} = lend({name!r}, {name})\n" for name in entry.lends]
    harness = (RUNTIME / "harness.py").read_text(encoding="utf-8")
    return {"harness.py": harness, "allowed.py": "\n\n".join(parts)}
