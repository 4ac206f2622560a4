"""The examples in the docstrings are part of the documentation: they must stay true."""

import doctest
import importlib

import pytest

MODULES = ["errors", "model", "rules", "mapfile", "samples", "game", ""]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("reversi.cursormap" + (f".{name}" if name else ""))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
