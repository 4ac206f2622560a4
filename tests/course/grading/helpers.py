"""Run exercise notebooks' code in this process, and build student notebooks for the grader."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from course.grading import checks
from course.grading import notebook as nbfile
from course.grading.checker import SOURCE_DIR, exercises

REPOSITORY = SOURCE_DIR.parents[1]
EXERCISE_DIR = SOURCE_DIR.parent
NAMES = list(exercises())
_CALL = re.compile(r"^checks\.(\w+)\((\w+)\)$", re.MULTILINE)


def source(name: str) -> dict[str, Any]:
    """The teacher's source notebook of exercise ``name``."""
    return nbfile.read(SOURCE_DIR / f"{name}.ipynb")


def student(name: str) -> dict[str, Any]:
    """The released student copy of exercise ``name``."""
    return nbfile.read(EXERCISE_DIR / f"{name}.ipynb")


def check_calls(name: str) -> list[tuple[str, str, str]]:
    """``(tag, check function, student function)`` of each check cell, as the cell calls it."""
    found = []
    for cell in source(name)["cells"]:
        tag = nbfile.tag_with(cell, nbfile.CHECK)
        if tag:
            match = _CALL.search(nbfile.source(cell))
            assert match, f"{name} {tag} does not read checks.NAME(FUNCTION)"
            found.append((tag, match.group(1), match.group(2)))
    return found


def namespace(
    name: str, answers: dict[str, str] | None = None, starter: bool = False
) -> dict[str, Any]:
    """Run the notebook's setup, demo and answer cells here; the names they define.

    ``answers`` replaces answer cells by tag; ``starter`` uses the student's starting code.
    """
    answers = answers or {}
    names: dict[str, Any] = {"__name__": "__notebook__"}
    for cell in source(name)["cells"]:
        if cell.get("cell_type") != "code" or nbfile.tag_with(cell, nbfile.CHECK):
            continue
        text, tag = nbfile.source(cell), nbfile.tag_with(cell, nbfile.ANSWER)
        if tag in answers:
            text = answers[tag]
        elif tag and starter:
            text = nbfile.strip_solutions(text)
        exec(compile(text, f"<{name} {cell.get('id')}>", "exec"), names)
    return names


def run_check(name: str, check: str, function: str, names: dict[str, Any]) -> None:
    """Call ``checks.CHECK(FUNCTION)`` as the check cell does."""
    getattr(checks, check)(names[function])


def with_answers(notebook: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """A copy of ``notebook`` with the sources of some answer cells replaced (by tag)."""
    changed = copy.deepcopy(notebook)
    for cell in changed["cells"]:
        tag = nbfile.tag_with(cell, nbfile.ANSWER)
        if tag in answers:
            cell["source"] = answers[tag]
    return changed


def write(notebook: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return path


def course(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``python -m course ARGS`` and capture what it prints."""
    return subprocess.run(
        [sys.executable, "-m", "course", *args],
        capture_output=True, text=True, timeout=timeout, cwd=REPOSITORY,
    )  # fmt: skip
