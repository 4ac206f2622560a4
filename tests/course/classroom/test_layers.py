"""course.classroom is one chain of modules, each importing only those before it (imports inside
functions count too), and only the board that joins a room imports the widget library."""

from __future__ import annotations

from pathlib import Path

import pytest

import course.classroom
from tests.imports import imported_names

PACKAGE = Path(course.classroom.__file__).parent
CHAIN = [
    "protocol",  # the messages, their limits and the parser (through course.schema)
    "people",  # roles, settings, seats
    "state",  # a room's state and the steps its rules share, the state message
    "room",  # the rules: one handler per message kind
    "storage",  # SQLite; rebuilds rooms
    "progress",  # the class's self-checks, kept as JSON lines, the teacher's grid
    "overview",  # the teacher's page
    "connection",  # a WebSocket's outbox, rate limits, uvicorn
    "lobby",  # the rooms and who is connected where
    "server",  # the asyncio shell and the app
    "announce",  # run: what the teacher reads at the start
    "cli",  # python -m course serve
    "browser_socket",  # the page's WebSocket in a browser kernel
    "client",  # a connection to a room
    "lesson",  # lesson 06's server
    "board",  # the widget
    "",  # the package
]


def module_name(path: Path) -> str:
    return "" if path.stem == "__init__" else path.stem


def imports(path: Path) -> set[str]:
    """The course.classroom modules ``path`` imports, anywhere in it."""
    found = imported_names(path, "course.classroom")
    return {
        name.removeprefix("course.classroom").lstrip(".")
        for name in found
        if name.startswith("course.classroom")
    }


MODULES = {module_name(path): path for path in sorted(PACKAGE.glob("*.py"))}


def test_every_module_has_its_place_in_the_chain() -> None:
    assert set(MODULES) == set(CHAIN)


@pytest.mark.parametrize("module", CHAIN)
def test_a_module_imports_only_modules_before_it(module: str) -> None:
    earlier = set(CHAIN[: CHAIN.index(module)])
    for name in imports(MODULES[module]) - {module}:
        assert name in earlier, (
            f"course.classroom.{module or '__init__'} imports {name}, which comes after it"
        )


@pytest.mark.parametrize("module", CHAIN)
def test_only_the_board_imports_widgets(module: str) -> None:
    names = imported_names(MODULES[module])
    assert any(name.startswith(("ipywidgets", "ipycanvas")) for name in names) == (
        module == "board"
    )


@pytest.mark.parametrize("module", CHAIN)
def test_no_module_is_over_400_lines(module: str) -> None:
    assert MODULES[module].read_text(encoding="utf-8").count("\n") <= 400
