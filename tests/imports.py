"""What a module imports, read from its source (``ast``): the one reader the layer tests share.

Imports inside functions and under ``TYPE_CHECKING`` count, so a loop that only running
would hide (a function-level import closing it) is seen.
"""

from __future__ import annotations

import ast
from pathlib import Path


def imported_names(path: Path, *packages: str) -> set[str]:
    """Every module name ``path`` imports, anywhere in it.

    ``from MODULE import name`` counts MODULE, and also ``MODULE.name`` when MODULE is one
    of ``packages`` (``from course.grading import wire`` is the module ``course.grading.wire``).
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module in packages:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found
