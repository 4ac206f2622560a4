"""The figures an outside code review reads off reversi/ and course/, printed in one table.

    python scripts/code_review.py

Source lines (.py files, blank lines included), hand-written guards (an ``if`` whose
block is only a ``raise``), top-level private definitions, private names imported from
another module, modules over 400 lines, and import cycles at run time between the
modules of one package (function-level imports count).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reversi", "course")
LONGEST = 400


def sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "runtime" not in path.relative_to(ROOT).parts
    )


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def guards(tree: ast.Module) -> int:
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and len(node.body) == 1 and isinstance(node.body[0], ast.Raise)
    )


def private_definitions(tree: ast.Module) -> int:
    return sum(
        1
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.name.startswith("_")
        and not node.name.startswith("__")
    )


def imports(tree: ast.Module, name: str, is_package: bool) -> list[tuple[str, str]]:
    """(module, imported name) for every ``from X import y`` anywhere in the module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.extend((source, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((alias.name, "") for alias in node.names)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list the long modules, private imports and cycles")
    verbose = parser.parse_args().verbose
    paths = sources()
    modules = {module_name(path): path for path in paths}
    lines = guard_count = private_count = 0
    long_modules = []
    private_imports = []
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        count = text.count("\n")
        lines += count
        if count > LONGEST:
            long_modules.append((count, name))
        guard_count += guards(tree)
        private_count += private_definitions(tree)
        edges = graph.setdefault(name, set())
        for source, imported in imports(tree, name, path.name == "__init__.py"):
            if imported.startswith("_") and not imported.startswith("__") and imported != "_" and source != name:
                private_imports.append(f"{name} imports {source}.{imported}")
            for candidate in (f"{source}.{imported}", source):
                if candidate in modules and candidate != name:
                    # a package's __init__ re-exporting its modules is not a dependency back
                    if not name.startswith(candidate + ".") and not candidate.startswith(name + "."):
                        edges.add(candidate)
                    break
    loops = cycles(graph)
    print(f"{'source lines (reversi/ and course/)':45} {lines:>7,}")
    print(f"{'modules':45} {len(modules):>7,}")
    print(f"{'guards (if ...: raise)':45} {guard_count:>7,}")
    print(f"{'top-level private definitions':45} {private_count:>7,}")
    print(f"{'private names imported from another module':45} {len(private_imports):>7,}")
    print(f"{'modules over 400 lines':45} {len(long_modules):>7,}")
    print(f"{'import cycles':45} {len(loops):>7,}")
    if verbose:
        for count, name in sorted(long_modules, reverse=True):
            print(f"  {name}: {count} lines")
        for line in private_imports:
            print(f"  {line}")
        for group in loops:
            print(f"  cycle: {' <-> '.join(group)}")


if __name__ == "__main__":
    main()
