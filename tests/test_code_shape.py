"""The shape an outside code review reads off the kit (scripts/code_review.py prints the figures):
no private name imported from another module (gettext's ``_`` of course.i18n is not private), ``__all__`` only in package ``__init__`` files,
no module over 400 lines, and no import cycle at run time inside either package."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("code_review", ROOT / "scripts" / "code_review.py")
assert _spec is not None and _spec.loader is not None
review = importlib.util.module_from_spec(_spec)
sys.modules["code_review"] = review
_spec.loader.exec_module(review)

MODULES = {review.module_name(path): path for path in review.sources()}


def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [
        f"{name} imports {source}.{imported}"
        for name in MODULES
        for source, imported in review.imports(_tree(name), name, MODULES[name].name == "__init__.py")
        if imported.startswith("_") and not imported.startswith("__") and imported != "_" and source != name
    ]
    assert found == []


def test_all_is_declared_only_by_packages() -> None:
    declaring = [
        name
        for name, path in MODULES.items()
        if path.name != "__init__.py"
        and any(
            isinstance(node, ast.Assign | ast.AnnAssign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in getattr(node, "targets", [getattr(node, "target", None)]))
            for node in _tree(name).body
        )
    ]
    assert declaring == []


def test_no_module_is_over_400_lines() -> None:
    long = {name: path.read_text(encoding="utf-8").count("\n") for name, path in MODULES.items()}
    assert {name: lines for name, lines in long.items() if lines > review.LONGEST} == {}


def test_no_import_cycle_at_run_time() -> None:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        edges = graph.setdefault(name, set())
        for source, imported in review.imports(_tree(name), name, path.name == "__init__.py"):
            for candidate in (f"{source}.{imported}", source):
                if candidate in MODULES and candidate != name:
                    if not name.startswith(candidate + ".") and not candidate.startswith(name + "."):
                        edges.add(candidate)
                    break
    assert review.cycles(graph) == []
