"""How the board's modules fit together: small, documented, and importing one way only.

These read the source files (``ast``), so they check what running cannot: no
import loop (type-hint imports included), the background runner knowing nothing
of the controller, widget libraries only where widgets are built, every module
small and opening with a docstring, and ``import course`` loading nothing else.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.imports import imported_names

ROOT = Path(__file__).resolve().parents[3]
OWNED = sorted(
    [*(ROOT / "course" / "board").glob("*.py"), *(ROOT / "course" / "pictures").glob("*.py")]
    + [ROOT / "course" / "__init__.py", ROOT / "course" / "tournament.py"]
)
WIDGET_LIBRARIES = ("ipywidgets", "ipycanvas", "IPython")
#: The modules that build widgets; every other board module works without them.
WIDGET_MODULES = {"view", "widget", "layout", "settings_panel", "sound", "pawns", "thinking", "keys"}
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top, inside functions or under TYPE_CHECKING."""
    return imported_names(path, "course", "course.board", "course.pictures")


def board_graph() -> dict[str, set[str]]:
    """course.board module -> the course.board modules it imports."""
    names = {module_name(p) for p in OWNED}
    return {
        module_name(p): {m for m in imports_of(p) if m in names and m != module_name(p)}
        for p in OWNED
        if module_name(p) != "course"
    }


def test_there_is_no_import_loop():
    graph = board_graph()
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                raise AssertionError(" -> ".join([*path, node, nxt]))
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def test_the_background_runner_knows_nothing_of_the_controller():
    imported = imports_of(ROOT / "course" / "board" / "background.py")
    assert {m for m in imported if m.startswith("course")} == set()


@pytest.mark.parametrize("path", OWNED, ids=module_name)
def test_each_module_is_small_and_says_what_it_owns(path):
    text = path.read_text()
    assert len(text.splitlines()) <= MAX_LINES
    docstring = ast.get_docstring(ast.parse(text))
    assert docstring and len(docstring) > 40, f"{path.name} has no docstring saying what it owns"
    for word in ("seed 0", "ZX-81", "ZX81"):
        assert word not in text, f"{path.name} speaks of {word!r}: that belongs in the lessons"


@pytest.mark.parametrize("path", OWNED, ids=module_name)
def test_widget_libraries_only_where_widgets_are_built(path):
    if path.stem in WIDGET_MODULES:
        return
    uses = {m.split(".")[0] for m in imports_of(path)} & set(WIDGET_LIBRARIES)
    assert uses <= ({"IPython"} if path.name == "__init__.py" else set()), path.name


def test_the_games_never_import_the_classroom():
    for path in (ROOT / "reversi").rglob("*.py"):
        assert not any(m.split(".")[0] == "course" for m in imports_of(path)), path


def test_importing_course_loads_nothing_else():
    code = (
        "import sys, course\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('course', 'reversi', 'ipywidgets', 'ipycanvas', 'IPython')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "['course']"


def test_an_ipython_shell_shows_boards_after_import_course_without_loading_the_pictures():
    code = (
        "import sys\n"
        "from IPython.testing.globalipapp import start_ipython\n"
        "shell = start_ipython()\n"
        "svg = 'image/svg+xml'\n"
        "shell.display_formatter.formatters[svg].enabled = True  # a kernel has it on\n"
        "import course\n"
        "print('course.pictures.svg' in sys.modules)\n"
        "from reversi import Board\n"
        "data, _ = shell.display_formatter.format(Board(), include=[svg])\n"
        "print(data.get(svg, '').startswith('<svg'), 'course.pictures.svg' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "True", "True"]
