"""The grading modules are one chain, each importing only those before it (function-level
imports and imports for type checking count), so no two of them import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import course.grading
from tests.imports import imported_names

PACKAGE = Path(course.grading.__file__).parent
CHAIN = [
    # what a notebook's self-check runs
    "notebook",
    "table",
    "limits",
    "views",
    "cases",
    "records",
    "mistakes",
    "reports",
    "runner",
    "answers",
    "checks_board",
    "checks_moves",
    "checks_players",
    "search_tree",
    "checks_search",
    "checks_mapfile",
    "checks_cursor",
    "precheck",
    "checks",
    # the grader, outside the sandbox
    "wire",
    "compose",
    "exercise",
    "pyodide_host",
    "runs",
    "sandbox",
    "judging",
    "checker",
    # the class
    "handins",
    "overrides",
    "matching",
    "sheet",
    "summary",
    "feedback",
    "similarity",
    "journal",
    "grader",
    "grade_lines",
    "gradebook",
    "teacher",
]


def imports(path: Path) -> set[str]:
    """The grading modules ``path`` imports (``from course.grading import wire`` counts)."""
    found = imported_names(path, "course.grading")
    return {name.split(".")[2] for name in found if name.startswith("course.grading.")}


MODULES = {path.stem: path for path in sorted(PACKAGE.glob("*.py")) if path.stem != "__init__"}


def test_every_module_has_its_place_in_the_chain() -> None:
    assert set(MODULES) == set(CHAIN)


@pytest.mark.parametrize("module", CHAIN)
def test_a_module_imports_only_modules_before_it(module: str) -> None:
    earlier = set(CHAIN[: CHAIN.index(module)])
    for name in imports(MODULES[module]) - {"runtime"}:
        assert name in earlier, f"course.grading.{module} imports {name}, which comes after it"


@pytest.mark.parametrize("module", CHAIN)
def test_a_module_imports_no_private_name_of_another(module: str) -> None:
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("course"):
            private = [
                a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
            ]
            assert not private, f"course.grading.{module} imports {private} from {node.module}"


def test_only_the_package_declares_its_names() -> None:
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        declared = [
            node for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
        ]  # fmt: skip
        assert not declared, (
            f"course.grading.{module} declares __all__ (only a package's __init__ does)"
        )
