"""The release: student copies made from the teacher sources, and committed up to date."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from course.grading import notebook as nbfile
from course.grading import teacher

from .helpers import EXERCISE_DIR, NAMES, SOURCE_DIR


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Every exercise released from a copy of the sources into a temporary folder."""
    root = tmp_path_factory.mktemp("release")
    sources = root / "source"
    shutil.copytree(SOURCE_DIR, sources)
    teacher.release(sources, root)
    return sources, root


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_committed_student_copy_is_up_to_date(released: tuple[Path, Path], name: str) -> None:
    _, out = released
    fresh = json.loads((out / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert teacher.differences(EXERCISE_DIR / f"{name}.ipynb", fresh) == [], (
        "run: python -m course release"
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_committed_source_outputs_are_up_to_date(released: tuple[Path, Path], name: str) -> None:
    sources, _ = released
    fresh = json.loads((sources / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert teacher.differences(SOURCE_DIR / f"{name}.ipynb", fresh) == [], (
        "run: python -m course release"
    )


@pytest.mark.slow
def test_release_is_repeatable(released: tuple[Path, Path]) -> None:
    """A second release of released sources writes the very same bytes (nothing random)."""
    sources, out = released
    again = out / "again"
    teacher.release(sources, again, names=["04_flips"], update_sources=False)
    assert (again / "04_flips.ipynb").read_bytes() == (out / "04_flips.ipynb").read_bytes()


@pytest.mark.slow
def test_outdated_names_a_changed_student_copy(tmp_path: Path) -> None:
    sources = tmp_path / "source"
    sources.mkdir()
    shutil.copy(SOURCE_DIR / "01_squares.ipynb", sources)
    copy = json.loads((EXERCISE_DIR / "01_squares.ipynb").read_text(encoding="utf-8"))
    copy["cells"][0]["source"] = "# An old title"
    (tmp_path / "01_squares.ipynb").write_text(json.dumps(copy), encoding="utf-8")
    problems = teacher.outdated(sources, tmp_path, ["01_squares"])
    assert problems == [f"{tmp_path / '01_squares.ipynb'}: cell intro differs in its source"]


def test_a_solution_outside_an_answer_cell_is_refused() -> None:
    import nbformat

    notebook = nbformat.read(SOURCE_DIR / "01_squares.ipynb", as_version=4)
    notebook.cells[2].source += "\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"
    with pytest.raises(
        nbfile.NotebookError, match="solution markers belong in a cell tagged answer:"
    ):
        teacher.validate(notebook, "01_squares")


def test_a_check_cell_without_its_marker_is_refused() -> None:
    import nbformat

    notebook = nbformat.read(SOURCE_DIR / "01_squares.ipynb", as_version=4)
    check = next(cell for cell in notebook.cells if nbfile.tag_with(cell, nbfile.CHECK))
    check.source = check.source.replace("# NBVAL_CHECK_OUTPUT\n", "")
    with pytest.raises(nbfile.NotebookError, match="needs a line '# NBVAL_CHECK_OUTPUT'"):
        teacher.validate(notebook, "01_squares")
