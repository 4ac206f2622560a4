"""The examples in the docstrings of course.cursormap run as written."""

from __future__ import annotations

import doctest

import pytest

from course.cursormap import controller, scene, svg


@pytest.mark.parametrize("module", [scene, svg, controller], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
