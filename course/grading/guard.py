"""Notice when notebook code has replaced a function the checks rely on.

The checks compute their answers with ``reversi`` (the oracle).  An answer cell that
rebinds a name in the notebook cannot touch them, but one that assigns to
``reversi.Board.flips`` or to a check function could.  This module remembers, when it is
first imported, every function of the oracle and of the check modules; each check calls
:func:`check_untouched` first and fails if anything was swapped.  The grader imports the
checks in a teacher cell that runs before any answer cell, so the snapshot is clean.
"""

from __future__ import annotations

import sys
from typing import Any

_WATCHED_MODULES = (
    "reversi.notation",
    "reversi.board",
    "reversi.bitboard",
    "reversi.evaluation",
    "reversi.search",
    "reversi.players.computer",
    "reversi.cursormap.model",
    "reversi.cursormap.rules",
    "reversi.cursormap.mapfile",
    "reversi.players.base",
    "course.grading.views",
    "course.grading.runner",
    "course.grading.answers",
    "course.grading.cases",
    "course.grading.checks_board",
    "course.grading.checks_moves",
    "course.grading.checks_players",
    "course.grading.checks_search",
    "course.grading.checks_cursormap",
    "course.grading.checks",
)

_snapshot: dict[str, Any] = {}


def _attributes() -> dict[str, Any]:
    """Every module in the watch list, its functions and classes, and the classes' attributes."""
    found: dict[str, Any] = {}
    for name in _WATCHED_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        found[name] = module
        for attr, value in list(vars(module).items()):
            if callable(value) and not attr.startswith("__"):
                found[f"{name}.{attr}"] = value
            if isinstance(value, type) and value.__module__ == name:
                for key, member in list(vars(value).items()):
                    found[f"{name}.{attr}.{key}"] = member
    found["builtins.print"] = print
    return found


def take_snapshot() -> None:
    """Remember the current functions (the check modules call this once they are loaded)."""
    _snapshot.clear()
    _snapshot.update(_attributes())


def check_untouched() -> None:
    """Raise AssertionError naming the first watched function that is no longer the original."""
    if not _snapshot:
        take_snapshot()
    now = _attributes()
    for name, original in _snapshot.items():
        if now.get(name) is not original:
            raise AssertionError(
                f"the notebook replaced {name}, which the checks rely on: "
                "restart the kernel and do not change the reversi or course packages"
            )
