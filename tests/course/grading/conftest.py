"""Fixtures shared by the grading tests."""

from __future__ import annotations

import pytest

from course.grading import exercise
from course.grading.table import ENTRIES

#: The teacher's seed the tests build the grade-time cases with.
SEED = 20261124


@pytest.fixture(scope="session")
def built() -> dict[str, exercise.Exercise]:
    """Every exercise with its notebook's and its grade-time cases, as the grader builds it."""
    return {name: exercise.build(name, SEED) for name in ENTRIES}
