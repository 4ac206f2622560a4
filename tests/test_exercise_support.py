"""Support and extension in every exercise: a hint ladder before each answer, one extension task,
and the ungraded warm-ups of exercise 09 that check themselves.

Read from both the teacher sources and the released student copies, so a release that drops
them fails. The warm-up checks are run here with a correct and a wrong answer: a check that
praises both would fail.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
COPIES = sorted((ROOT / "exercises").glob("*.ipynb"))
SUMMARY = re.compile(r"<details><summary>Hint (\d+)")


def cells(path: Path) -> list[nbformat.NotebookNode]:
    return nbformat.read(path, as_version=4).cells


def tags(cell: nbformat.NotebookNode) -> list[str]:
    return list(cell.metadata.get("tags", []))


def test_both_folders_hold_the_twelve_exercises():
    assert len(SOURCES) == 12 and [p.name for p in SOURCES] == [p.name for p in COPIES]


@pytest.mark.parametrize("path", SOURCES + COPIES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_answer_has_a_ladder_of_hints_just_before_it(path):
    found = cells(path)
    answers = [
        i for i, cell in enumerate(found) if any(t.startswith("answer:") for t in tags(cell))
    ]
    assert answers
    for i in answers:
        before = found[i - 1]
        assert "hints" in tags(before), f"{path.name}: no hints before cell {i}"
        numbers = [int(n) for n in SUMMARY.findall(before.source)]
        assert numbers == list(range(1, len(numbers) + 1)) and 2 <= len(numbers) <= 3
        # nested: each hint opens inside the one before, so they open one at a time
        assert before.source.count("</details>") == len(numbers)
        assert before.source.rindex("<summary>") < before.source.index("</details>")


@pytest.mark.parametrize("path", SOURCES + COPIES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_exercise_ends_with_one_extension(path):
    found = [cell for cell in cells(path) if "extension" in tags(cell)]
    assert len(found) == 1, f"{path.name}: {len(found)} extension cells"
    assert found[0].source.startswith("## Extension (optional, not graded)")
    assert len(found[0].source.split()) >= 15


def test_no_solution_is_written_with_is_for_a_colour():
    for path in SOURCES:
        for cell in cells(path):
            if "### BEGIN SOLUTION" in cell.source:
                for line in cell.source.splitlines():
                    code = line.split("#")[0]
                    assert not re.search(r"\bis (not )?(color|PASS|BLACK|WHITE)\b", code), line


def run_warmups(answer: str) -> str:
    """Exercise 09's warm-up cells run after ``answer`` (code replacing the stubs)."""
    found = cells(ROOT / "exercises" / "source" / "09_minimax.ipynb")
    start = next(i for i, c in enumerate(found) if c.source.startswith("## Warm-up 1"))
    end = next(i for i, c in enumerate(found) if c.source.startswith("## From the tiny tree"))
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for cell in found[start:end]:
            if cell.cell_type == "code":
                exec(cell.source, namespace)  # noqa: S102 - the kit's own notebook
                if "# Practice" in cell.source:
                    exec(answer, namespace)  # noqa: S102 - this test's own code
    return printed.getvalue()


RIGHT = """
def count_leaves(tree):
    return sum(count_leaves(child) for child in tree) if isinstance(tree, list) else 1
def tree_value(tree, maximizing):
    if not isinstance(tree, list):
        return tree
    values = [tree_value(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)
"""
WRONG = """
def count_leaves(tree):
    return len(tree) if isinstance(tree, list) else 1
def tree_value(tree, maximizing):
    if not isinstance(tree, list):
        return tree
    return max(tree_value(child, maximizing) for child in tree)
"""


def test_the_warmups_praise_a_right_answer_and_only_that():
    assert run_warmups(RIGHT).splitlines() == ["Right!", "Right!"]
    wrong = run_warmups(WRONG).splitlines()
    assert len(wrong) == 2 and all(line.startswith("Not yet") for line in wrong)
    assert run_warmups("").count("Not written yet") == 2


TIE_RULE = re.compile(  # the bold line, up to a blank line or the next item of a list
    r"^(?:\d+\. )?(\*\*Tie rule.*?)(?=\n\s*\n|\n\d+\. |\Z)", re.MULTILINE | re.DOTALL
)
#: The exercises whose answer chooses a move among equally good ones.
CHOOSING = {"07_greedy", "08_positional", "09_minimax"}


def tie_rules(path: Path) -> list[str]:
    """Every bold tie-rule paragraph of a notebook, its lines joined and spaces collapsed."""
    found = []
    for cell in cells(path):
        if cell.cell_type == "markdown":
            found += [" ".join(text.split()) for text in TIE_RULE.findall(cell.source)]
    return found


def test_every_exercise_states_the_one_tie_rule_in_the_same_words():
    rules = {path: tie_rules(path) for path in SOURCES + COPIES}
    stated = {f"{p.parent.name}/{p.stem}" for p, found in rules.items() if found}
    assert stated == {f"{folder}/{name}" for folder in ("source", "exercises") for name in CHOOSING}
    assert all(len(found) == 1 for found in rules.values() if found)
    (rule,) = {found[0] for found in rules.values() if found}
    # Seed 002's computer player: "farthest to the right and down" of equally good moves.
    assert "the *last* in reading order" in rule and "farthest down" in rule and "(`>=`)" in rule


def test_no_notebook_or_guide_breaks_ties_for_the_first_move():
    texts = [*SOURCES, *COPIES, *sorted((ROOT / "notebooks").glob("*.ipynb"))]
    pattern = re.compile(  # the old rule stated ("takes the first of them"), not a mention of it
        r"\b(takes?|keeps?|picks?|plays?|chooses?)\s+the\s+\*?first\*?"
        r"(\s+of\s+(them|equal\w*|ties)|\s+in\s+reading\s+order)",
        re.IGNORECASE,
    )
    for path in texts:
        for cell in cells(path):
            assert not pattern.search(cell.source), f"{path.name}: {cell.source[:80]!r}"
    guide = (ROOT / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
    assert not pattern.search(guide), pattern.search(guide)
