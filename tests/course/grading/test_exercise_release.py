"""The release: student copies made from the teacher sources, and committed up to date."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course.grading import notebook as nbfile
from course.grading import teacher
from course.grading.exercise import SEED_FILE, load

from .helpers import EXERCISE_DIR, NAMES, SOURCE_DIR


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Every exercise released from a copy of the sources into a temporary folder."""
    root = tmp_path_factory.mktemp("release")
    sources = root / "source"
    shutil.copytree(SOURCE_DIR, sources, ignore=shutil.ignore_patterns(SEED_FILE))
    (sources / SEED_FILE).write_text(f"{SECRET_SEED}\n", encoding="utf-8")
    teacher.release(sources, root)
    return sources, root


SECRET_SEED = 918273645546372819


@pytest.mark.slow
def test_student_copies_hold_no_solution_and_no_grade_time_case(
    released: tuple[Path, Path],
) -> None:
    sources, out = released
    written = sorted(p.name for p in out.iterdir() if p.is_file())
    assert written == [f"{name}.ipynb" for name in NAMES]  # the seed stays in the teacher folder
    exercise = load(sources / "04_flips.ipynb", SECRET_SEED)
    unseen = [case.name for q in exercise.questions for case in q.parts[1].spec.cases]
    for name in NAMES:
        text = (out / f"{name}.ipynb").read_text(encoding="utf-8")
        assert str(SECRET_SEED) not in text and "grade-time" not in text
        assert nbfile.BEGIN_SOLUTION not in text
        cells = {
            nbfile.tag_with(c, nbfile.ANSWER): nbfile.source(c)
            for c in nbfile.read(out / f"{name}.ipynb")["cells"]
        }
        for tag, solution in load(sources / f"{name}.ipynb", SECRET_SEED).solutions.items():
            assert cells[tag] == nbfile.strip_solutions(solution) != solution
    assert unseen and not any(name in (out / "04_flips.ipynb").read_text() for name in unseen[:20])


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
    assert problems == [
        f"{tmp_path / '01_squares.ipynb'}: cell intro differs in its source",
        f"{tmp_path / 'fr' / '01_squares.ipynb'} is missing",  # the copy in each other language
    ]


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


def test_a_source_that_disagrees_with_the_exercise_table_is_refused() -> None:
    import nbformat

    notebook = nbformat.read(SOURCE_DIR / "01_squares.ipynb", as_version=4)
    notebook.cells = [
        c for c in notebook.cells if nbfile.tag_with(c, nbfile.CHECK) != "check:to_notation"
    ]
    with pytest.raises(nbfile.NotebookError, match="are not the table's"):
        teacher.validate(notebook, "01_squares")
    with pytest.raises(nbfile.NotebookError, match="add the exercise to course/grading/table.py"):
        teacher.validate(nbformat.read(SOURCE_DIR / "01_squares.ipynb", as_version=4), "13_new")


@pytest.mark.slow
def test_released_notebooks_run_under_nbval_once_answered(tmp_path: Path) -> None:
    """nbval still runs the student copies: with the teacher's answers in, every self-check
    prints the committed output.  (This checks the notebooks, not students: it is no grade.)"""
    for name in NAMES:
        notebook = nbfile.read(EXERCISE_DIR / f"{name}.ipynb")
        solutions = {
            tag: nbfile.source(cell)
            for cell in nbfile.read(SOURCE_DIR / f"{name}.ipynb")["cells"]
            if (tag := nbfile.tag_with(cell, nbfile.ANSWER))
        }
        for cell in notebook["cells"]:
            if tag := nbfile.tag_with(cell, nbfile.ANSWER):
                cell["source"] = solutions[tag]
        nbfile.write(notebook, tmp_path / f"{name}.ipynb")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "nbval.plugin", "--nbval-lax", "--nbval-current-env",
         "-p", "no:cacheprovider", "-q", "-c", str(tmp_path / "pytest.ini"), str(tmp_path)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**env, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout and "failed" not in result.stdout
