"""The cursor-map package is pure Python: the standard library, ``reversi.errors`` (and ``reversi.i18n``, its words) and its
own modules, each importing only the modules before it in the chain."""

import sys
from pathlib import Path

import pytest

import reversi.cursormap
from tests.imports import imported_names

PACKAGE = Path(reversi.cursormap.__file__).parent
CHAIN = ["errors", "model", "rules", "maplines", "mapfile", "samples", "game"]


def imports(path):
    return imported_names(path)


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_only_the_standard_library_and_reversi_errors(path):
    for name in imports(path):
        top = name.split(".")[0]
        if top == "reversi":
            # errors, files and the student surface are the package's leaves: they import nothing of reversi
            assert name in (
                "reversi.errors",
                "reversi.i18n",
                "reversi.files",
                "reversi.surface",
            ) or name.startswith("reversi.cursormap."), name
        else:
            assert top in sys.stdlib_module_names or top == "__future__", name


@pytest.mark.parametrize("module", CHAIN)
def test_modules_form_a_chain(module):
    earlier = set(CHAIN[: CHAIN.index(module)])
    for name in imports(PACKAGE / f"{module}.py"):
        if name.startswith("reversi.cursormap."):
            assert name.removeprefix("reversi.cursormap.") in earlier, name


def test_every_module_is_in_the_chain():
    assert {p.stem for p in PACKAGE.glob("*.py")} == set(CHAIN) | {"__init__"}
