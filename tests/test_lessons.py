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

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
EXERCISES = ROOT / "exercises"
GUIDE = ROOT / "docs" / "teacher-guide.md"
README = ROOT / "README.md"

#: The course plan, in teaching order (the teacher guide sizes each for 45-minute periods).
LESSONS = [
    "00_welcome",
    "01_play",
    "02_rules",
    "03_rules_passing_and_end",
    "04_computer_players",
    "04b_game_trees",
    "05_cursormap",
    "06_class_play",
]
#: Optional notebooks: an extension for strong students and a short reference.
EXTRAS = ["extra_inside_the_package", "reference_saves_timers_pictures", "project_tournament"]
#: A code cell longer than this is a sign that logic should move into a package.
MAX_CODE_LINES = 15

PACKAGES = ("reversi", "course")

#: "**Predict, then run [02.1].**" and "**Check your understanding [02.4].**" in a lesson;
#: the teacher guide answers each question under the same label.
PREDICT = re.compile(r"\*\*Predict, then run \[(\w+\.\d+)\]\.\*\*")
CHECK = re.compile(r"\*\*Check your understanding \[(\w+\.\d+)\]\.\*\*")

#: A cell that shows a clickable board: a call of play(...), play_cursormap(...) or join(...).
WIDGET_CALL = re.compile(r"^\s*(?:\w+\s*=\s*)?(?:play|play_cursormap|join)\(", re.MULTILINE)
WIDGET_OUTPUT = "application/vnd.jupyter.widget-view+json"
SVG_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.svg)\)")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")


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
    data: set[int] = set()
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            data.update(range(node.lineno + 1, (node.end_lineno or node.lineno) + 1))
    return len(python.splitlines()) - len(data)


def is_private(name: str) -> bool:
    """``_name`` is private; ``__dunder__`` names such as ``__file__`` are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def text_of(path: Path) -> str:
    """All the text cells of a notebook, one after the other."""
    return "\n".join(cell.source for cell in cells_of(path, "markdown"))


def links_in(text: str) -> list[str]:
    """The targets of the markdown links in ``text`` (web links and anchors left out)."""
    return [target for target in LINK.findall(text) if "://" not in target]


def is_widget_cell(cell: nbformat.NotebookNode) -> bool:
    """A code cell that shows a clickable board, by what it calls or by what it saved."""
    if cell.cell_type != "code":
        return False
    saved = any(WIDGET_OUTPUT in output.get("data", {}) for output in cell.get("outputs", []))
    return saved or bool(WIDGET_CALL.search(cell.source))


def is_static_picture(cell: nbformat.NotebookNode, folder: Path) -> bool:
    """A cell that shows an SVG picture where widgets cannot run (GitHub, exported HTML).

    Either a code cell with a saved SVG output, or a text cell showing an SVG file that exists.
    """
    if cell.cell_type == "code":
        return any("image/svg+xml" in output.get("data", {}) for output in cell.get("outputs", []))
    if cell.cell_type == "markdown":
        return any((folder / target).is_file() for target in SVG_IMAGE.findall(cell.source))
    return False


def unpictured_widgets(path: Path) -> list[str]:
    """The first lines of the widget cells with no static picture just before or after them."""
    cells = read(path).cells
    lonely = []
    for i, cell in enumerate(cells):
        if is_widget_cell(cell):
            neighbours = cells[max(i - 1, 0) : i] + cells[i + 1 : i + 2]
            if not any(is_static_picture(other, path.parent) for other in neighbours):
                lonely.append(cell.source.splitlines()[0])
    return lonely


def nbval_tags() -> set[str]:
    """The cell tags the installed nbval honours (``nbval-check-output``, ``nbval-skip``, ...)."""
    from nbval.plugin import metadata_tags  # type: ignore[import-untyped]

    return set(metadata_tags)


def is_compared(cell: nbformat.NotebookNode) -> bool:
    """Whether nbval compares this cell's outputs under ``--nbval-lax``: its tag says so."""
    return "nbval-check-output" in cell.metadata.get("tags", [])


def broken_links(text: str, folder: Path) -> list[str]:
    """Links in ``text`` (read from ``folder``) to files that do not exist."""
    return [target for target in links_in(text) if not (folder / target).exists()]


# -- the tests ------------------------------------------------------------------------------


def test_the_helpers_can_fail():
    assert private_names("from reversi.board import _check_size") == ["reversi.board: _check_size"]
    assert private_names("import reversi._secret") == ["reversi._secret"]
    assert private_names("board._black = 0") == ["._black"]
    assert private_names("%matplotlib inline\nprint(reversi.__file__, Board.__mro__)") == []
    assert is_private("_x") and not is_private("__init__")
    assert code_lines("a = 1\nb = 2\n") == 2
    assert code_lines("board = Board.from_text('''\n. B\nW .\n''')\nboard") == 2
    assert PREDICT.findall("**Predict, then run [02.1].** Which discs?") == ["02.1"]
    assert CHECK.findall("**Check your understanding [X.4].** Why?") == ["X.4"]
    assert not PREDICT.findall("Predict, then run: which discs?")
    links = "[a](01_play.ipynb), [b](../docs/g.md#plan), [c](https://x.org/a.md)"
    assert links_in(links) == ["01_play.ipynb", "../docs/g.md"]
    assert broken_links(links, NOTEBOOKS) == ["../docs/g.md"]
    assert broken_links("[06](06_class_play.ipynb), [07](07_later.ipynb)", NOTEBOOKS) == [
        "07_later.ipynb"
    ]
    code_cell = nbformat.v4.new_code_cell
    assert is_widget_cell(code_cell("play(white='greedy')"))
    assert is_widget_cell(code_cell("board = play_cursormap('01_first_steps')"))
    assert is_widget_cell(code_cell('join(url, room="table-3", name="Fay", watch=True)'))
    assert not is_widget_cell(code_cell("board.play('d3', BLACK)"))
    assert not is_widget_cell(nbformat.v4.new_markdown_cell("play()"))
    picture = code_cell("show(board)")
    picture.outputs = [nbformat.v4.new_output("display_data", {"image/svg+xml": "<svg/>"})]
    assert is_static_picture(picture, NOTEBOOKS)
    assert not is_static_picture(code_cell("show(board)"), NOTEBOOKS)
    assert not is_static_picture(nbformat.v4.new_markdown_cell("![x](no-such.svg)"), NOTEBOOKS)
    assert is_static_picture(nbformat.v4.new_markdown_cell("![x](../docs/board.svg)"), NOTEBOOKS)
    assert "nbval-check-output" in nbval_tags() and "nbval_check_output" not in nbval_tags()


@pytest.mark.parametrize("name", LESSONS + EXTRAS)
def test_every_lesson_exists(name):
    assert (NOTEBOOKS / f"{name}.ipynb").is_file(), f"notebooks/{name}.ipynb is missing"


def test_every_notebook_is_in_the_plan():
    unplanned = sorted({path.stem for path in notebook_paths()} - set(LESSONS + EXTRAS))
    assert not unplanned, f"notebooks outside the course plan: {unplanned}"


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
def test_links_resolve(path):
    broken = broken_links(text_of(path), path.parent)
    assert not broken, f"{path.name} links to missing files: {broken}"


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
        if is_compared(cell)
        and any("image/png" in output.get("data", {}) for output in cell.get("outputs", []))
    ]
    assert not compared_pictures, f"{path.name} compares plot images: {compared_pictures}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_no_visible_nbval_comment(path):
    """nbval's instructions belong in cell tags, where a student does not see them."""
    visible = [
        cell.source.splitlines()[0] for cell in read(path).cells if "NBVAL" in cell.source.upper()
    ]
    assert not visible, f"{path.name} shows nbval instructions in cells: {visible}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_nbval_tags_are_ones_nbval_honours(path):
    tags = {tag for cell in read(path).cells for tag in cell.metadata.get("tags", [])}
    unknown = sorted(
        tag for tag in tags if tag.lower().startswith("nbval") and tag not in nbval_tags()
    )
    assert not unknown, f"{path.name} has cell tags nbval ignores: {unknown}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_lesson_asks_students_to_predict_and_check(path):
    text = text_of(path)
    predicts, checks = PREDICT.findall(text), CHECK.findall(text)
    assert len(predicts) >= 2, f"{path.name} has {len(predicts)} 'Predict, then run' prompts"
    assert checks, f"{path.name} has no 'Check your understanding' question"
    labels = predicts + checks
    assert len(labels) == len(set(labels)), f"{path.name} repeats a question label: {labels}"


def test_every_question_is_answered_in_the_guide():
    guide = GUIDE.read_text(encoding="utf-8")
    asked = {
        label: path.name
        for path in notebook_paths()
        for label in PREDICT.findall(text_of(path)) + CHECK.findall(text_of(path))
    }
    assert asked, "no questions found in the lessons"
    unanswered = sorted(
        f"[{label}] in {name}" for label, name in asked.items() if f"**[{label}]**" not in guide
    )
    assert not unanswered, f"the teacher guide does not answer: {unanswered}"


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda path: path.stem)
def test_every_widget_cell_has_a_static_picture(path):
    lonely = unpictured_widgets(path)
    assert not lonely, (
        f"{path.name}: these board cells have no SVG picture just before or after them, "
        f"so the lesson reads badly on GitHub: {lonely}"
    )


def test_every_exercise_is_linked_from_a_lesson_or_the_guide():
    pages = [(text_of(path), path.parent) for path in notebook_paths()]
    pages.append((GUIDE.read_text(encoding="utf-8"), GUIDE.parent))
    linked = {(folder / target).resolve() for text, folder in pages for target in links_in(text)}
    exercises = sorted(EXERCISES.glob("*.ipynb"))
    assert exercises, "no exercises found"
    missing = [path.name for path in exercises if path.resolve() not in linked]
    assert not missing, f"exercises that no lesson and not the guide link to: {missing}"


def test_the_guide_links_resolve_and_cover_the_course():
    guide = GUIDE.read_text(encoding="utf-8")
    broken = broken_links(guide, GUIDE.parent)
    assert not broken, f"docs/teacher-guide.md links to missing files: {broken}"
    targets = {Path(target).stem for target in links_in(guide)}
    missing = [name for name in LESSONS + EXTRAS if name not in targets]
    assert not missing, f"the teacher guide does not link to: {missing}"


def test_the_welcome_lesson_and_the_readme_link_the_guide():
    assert "../docs/teacher-guide.md" in links_in(text_of(NOTEBOOKS / "00_welcome.ipynb"))
    readme = README.read_text(encoding="utf-8")
    assert "docs/teacher-guide.md" in links_in(readme)
    listed = links_in(readme)
    missing = [name for name in LESSONS + EXTRAS if f"notebooks/{name}.ipynb" not in listed]
    assert not missing, f"the README does not list: {missing}"
    assert not broken_links(readme, README.parent)
