"""The reversi package is one chain of modules, each importing only those before it,
and it imports nothing from the classroom layer or from Jupyter, widget or plotting libraries."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import reversi
from tests.imports import imported_names

PACKAGE = Path(reversi.__file__).parent
CHAIN = [
    "i18n",
    "errors",
    "typecheck",
    "surface",
    "callables",
    "files",
    "arguments",
    "notation",
    "rules",
    "bitboard",
    "board",
    "outcome",
    "evaluation",
    "search",
    "watch",
    "lastsquares",
    "endgame",
    "engine",
    "players.base",
    "players.naming",
    "players.human",
    "players.computer",
    "players.searching",
    "players.levels",
    "players.registry",
    "players",
    "clock",
    "actions",
    "history",
    "gamestate",
    "game",
    "scores",
    "saves",
    "terminal",
    "__main__",
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (``from reversi import bitboard`` counts reversi.bitboard)."""
    return imported_names(path, "reversi")


MODULES = {
    module_name(path): path
    for path in sorted(PACKAGE.rglob("*.py"))
    if "cursormap" not in path.parts and module_name(path)
}


def test_every_module_has_its_place_in_the_chain():
    assert set(MODULES) == set(CHAIN)


@pytest.mark.parametrize("module", CHAIN)
def test_a_module_imports_only_modules_before_it(module):
    earlier = {f"reversi.{name}" for name in CHAIN[: CHAIN.index(module)]}
    for name in imports(MODULES[module]):
        if name.startswith("reversi.") and not name.startswith("reversi.cursormap"):
            assert name in earlier, f"reversi.{module} imports {name}, which comes after it"


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: module_name(p) or "reversi"
)
def test_only_the_standard_library_and_reversi(path):
    for name in imports(path):
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or top in ("__future__", "reversi"), name
