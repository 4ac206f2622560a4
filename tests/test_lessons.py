"""The lesson notebooks: the structural rules nbval does not check.

nbval runs the notebooks (``pytest --nbval-lax notebooks``); these tests read them as
files and check what running cannot: every lesson is there and links to lessons that
exist, the text is written, code cells stay short (logic belongs in the packages), only
public names are used, and the saved outputs, which a student sees before running
anything, come from one clean run with no error in them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

LESSONS = [
    "00_welcome",
    "01_play",
    "02_rules",
    "03_inside_the_package",
    "04_computer_players",
    "05_cursormap",
    "06_class_play",
]

#: A code cell longer than this is a sign that logic should move into a package.
MAX_CODE_LINES = 15

PACKAGES = ("reversi", "course")


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def cells_of(path: Path, kind: str) -> list[nbformat.NotebookNode]:
    return [cell for cell in read(path).cells if cell.cell_type == kind]


def python_of(source: str) -> str:
    """A cell's source as plain Python: IPython syntax (``%magic``, ``!command``) translated."""
    return TransformerManager().transform_cell(source)


def private_names(source: str) -> list[str]:
    """The private (``_name``) names a cell imports from our packages or reads as attributes."""
    found = []
    for node in ast.walk(ast.parse(python_of(source))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in PACKAGES:
                parts = node.module.split(".") + [alias.name for alias in node.names]
                found += [f"{node.module}: {part}" for part in parts if is_private(part)]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in PACKAGES:
                    found += [alias.name for part in parts if is_private(part)]
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            found.append(f".{node.attr}")
    return found


def code_lines(source: str) -> int:
    """The lines of a cell, not counting the inside of multi-line strings.

    A board diagram or a map file written out as text is data, not logic, so it may be long.
    """
    python = python_of(source)
    data = set()
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            data.update(range(node.lineno + 1, (node.end_lineno or node.lineno) + 1))
    return len(python.splitlines()) - len(data)


def is_private(name: str) -> bool:
    """``_name`` is private; ``__dunder__`` names such as ``__file__`` are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# -- the tests ------------------------------------------------------------------------------


def test_the_helpers_can_fail():
    assert private_names("from reversi.board import _check_size") == ["reversi.board: _check_size"]
    assert private_names("import reversi._secret") == ["reversi._secret"]
    assert private_names("board._black = 0") == ["._black"]
    assert private_names("%matplotlib inline\nprint(reversi.__file__, Board.__mro__)") == []
    assert is_private("_x") and not is_private("__init__")
    assert code_lines("a = 1\nb = 2\n") == 2
    assert code_lines("board = Board.from_text('''\n. B\nW .\n''')\nboard") == 2


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_exists(name):
    assert (NOTEBOOKS / f"{name}.ipynb").is_file(), f"notebooks/{name}.ipynb is missing"


def test_every_notebook_is_a_lesson():
    assert sorted(path.stem for path in notebook_paths()) == sorted(LESSONS)


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_lesson_starts_with_a_title_and_has_no_empty_text(path):
    markdown = cells_of(path, "markdown")
    assert markdown, f"{path.name} has no text cells"
    assert read(path).cells[0].cell_type == "markdown", f"{path.name} should open with text"
    assert markdown[0].source.startswith("# "), f"{path.name} should open with a '# ' title"
    empty = [i for i, cell in enumerate(markdown) if not cell.source.strip()]
    assert not empty, f"{path.name}: text cells {empty} are empty"
    words = sum(len(cell.source.split()) for cell in markdown)
    assert words >= 150, f"{path.name} explains too little: {words} words of text"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_code_cells_are_short(path):
    long_cells = [
        (cell.source.splitlines()[0], code_lines(cell.source))
        for cell in cells_of(path, "code")
        if code_lines(cell.source) > MAX_CODE_LINES
    ]
    assert not long_cells, f"{path.name}: cells over {MAX_CODE_LINES} lines: {long_cells}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_only_public_names_are_used(path):
    used = {
        cell.source.splitlines()[0]: names
        for cell in cells_of(path, "code")
        if (names := private_names(cell.source))
    }
    assert not used, f"{path.name} uses private names: {used}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_links_to_other_notebooks_resolve(path):
    text = "\n".join(cell.source for cell in cells_of(path, "markdown"))
    for target in re.findall(r"\]\(([^)#\s]+\.ipynb)", text):
        assert (path.parent / target).is_file(), f"{path.name} links to missing {target}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_saved_outputs_have_no_errors(path):
    problems = []
    for cell in cells_of(path, "code"):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                problems.append(f"{output.ename}: {output.evalue}")
            elif output.output_type == "stream" and "Traceback (most recent call" in output.text:
                problems.append(output.text.splitlines()[0])
    assert not problems, f"{path.name} was saved with errors: {problems}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_saved_outputs_come_from_one_run_from_the_top(path):
    counts = [cell.execution_count for cell in cells_of(path, "code")]
    ran = [count for count in counts if count is not None]
    if ran:  # a notebook saved without outputs is allowed; a half-run one is not
        assert ran == list(range(1, len(counts) + 1)), (
            f"{path.name} was saved after running cells out of order or only some of them "
            f"(execution counts {counts}); run it from the top, e.g. with "
            "jupyter nbconvert --to notebook --execute --inplace"
        )
    assert "widgets" not in read(path).metadata, f"{path.name} keeps stale widget state"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_compared_outputs_are_text(path):
    compared_pictures = [
        cell.source.splitlines()[0]
        for cell in cells_of(path, "code")
        if "NBVAL_CHECK_OUTPUT" in cell.source
        and any("image/png" in output.get("data", {}) for output in cell.get("outputs", []))
    ]
    assert not compared_pictures, f"{path.name} compares plot images: {compared_pictures}"
