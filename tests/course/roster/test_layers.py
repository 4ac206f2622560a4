"""course.roster is one chain of modules, each importing only those before it (imports inside
functions count too), and none imports a server, a web framework or a widget library (the
hand-in store's layout, course.site.store, is read by the term view)."""

from __future__ import annotations

from pathlib import Path

import pytest

import course.roster
from tests.imports import imported_names

PACKAGE = Path(course.roster.__file__).parent
CHAIN = ["model", "codes", "store", "signin", "formats", "cards", "term", "cli", ""]
FORBIDDEN = ("course.classroom.server", "course.classroom.lobby", "course.site.serving", "course.site.routes",
             "course.site.signin_routes", "course.hub", "ipywidgets", "ipycanvas", "starlette", "uvicorn")


def module_name(path: Path) -> str:
    return "" if path.stem == "__init__" else path.stem


MODULES = {module_name(path): path for path in sorted(PACKAGE.glob("*.py"))}


def test_every_module_has_its_place_in_the_chain() -> None:
    assert set(MODULES) == set(CHAIN)


@pytest.mark.parametrize("module", CHAIN)
def test_a_module_imports_only_modules_before_it(module: str) -> None:
    earlier = set(CHAIN[: CHAIN.index(module)])
    found = imported_names(MODULES[module], "course.roster")
    for name in found:
        if name.startswith("course.roster."):
            inner = name.removeprefix("course.roster").lstrip(".").split(".")[0]
            assert inner in earlier or inner == module, f"{module} imports {name}, which comes after it"
    everything = imported_names(MODULES[module])
    assert not [name for name in everything if name.startswith(FORBIDDEN)], module
