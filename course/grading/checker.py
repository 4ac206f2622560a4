"""Grade exercise notebooks with the teacher's own checks, under nbval.

A student's copy cannot be trusted: a check cell can be edited, skipped with
``# NBVAL_SKIP``, tagged ``raises-exception`` or deleted, and a saved wrong output
compares equal to itself.  So the grader keeps only the student's *answer* cells
(matched by their ``answer:NAME`` tag) and puts them into the teacher's source notebook,
whose check cells and expected outputs are the ones that count.  The merged notebook is
run by ``pytest --nbval-lax`` in a subprocess (with a time limit per cell), and each
``check:NAME`` cell passes or fails.  Student code only ever runs in that subprocess's
kernel: an answer that exits Python or loops forever fails its checks, nothing more.
"""

from __future__ import annotations

import copy
import os
import re
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from course.grading import notebook as nbfile
from course.grading.notebook import ANSWER, CHECK, Notebook, NotebookError

REPOSITORY = Path(__file__).resolve().parents[2]
SOURCE_DIR = REPOSITORY / "exercises" / "source"
DEFAULT_TIMEOUT = 30.0
_ANSI = re.compile(r"(\x1b|#x1B)\[[0-9;]*[A-Za-z]")


@dataclass(frozen=True)
class CheckResult:
    """One teacher check cell: its tag, whether it passed, and why not."""

    tag: str
    passed: bool
    message: str = ""


@dataclass
class Report:
    """The grading of one notebook: a result per check, and notes for the student."""

    path: Path
    exercise: str
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(result.passed for result in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    def render(self) -> str:
        """The report as the ``check`` command prints it."""
        width = max((len(result.tag) for result in self.checks), default=0)
        lines = [f"{self.exercise}: {self.path} (graded with the teacher's checks)"]
        for result in self.checks:
            verdict = "passed" if result.passed else f"FAILED  {result.message}"
            lines.append(f"  {result.tag:<{width}}  {verdict}")
        lines += [f"  note: {note}" for note in self.notes]
        lines.append(f"Score: {self.passed}/{self.total}")
        return "\n".join(lines)


def exercises(source_dir: Path = SOURCE_DIR) -> dict[str, Path]:
    """The teacher's source notebooks by exercise name (``'04_flips'``), in order."""
    return {path.stem: path for path in sorted(Path(source_dir).glob("[0-9][0-9]_*.ipynb"))}


def identify(student: Notebook, path: Path, source_dir: Path = SOURCE_DIR) -> str:
    """The exercise a student notebook is (its metadata, else its file name)."""
    name = nbfile.exercise_name(student, path, exercises(source_dir))
    if name is None:
        known = ", ".join(exercises(source_dir)) or "none found"
        raise NotebookError(f"{path}: cannot tell which exercise this is (the exercises: {known})")
    return name


def merge(teacher: Notebook, student: Notebook) -> tuple[Notebook, list[str]]:
    """The teacher's notebook with its answer cells replaced by the student's, and notes.

    Only code cells tagged ``answer:NAME`` are taken from the student, in their order
    (several cells with one tag are all kept); everything else, the check cells with
    their markers, tags and expected outputs above all, comes from the teacher.
    """
    answers: dict[str, list[str]] = {}
    for cell in student["cells"]:
        tag = nbfile.tag_with(cell, ANSWER)
        if tag:
            answers.setdefault(tag, []).append(nbfile.source(cell))
    merged, notes, cells = copy.deepcopy(teacher), [], []
    for cell in merged["cells"]:
        tag = nbfile.tag_with(cell, ANSWER)
        if tag is None:
            cells.append(cell)
            continue
        texts = answers.get(tag)
        if texts is None:
            notes.append(f"no cell tagged {tag} was found: graded with the starting code")
            texts = [nbfile.strip_solutions(nbfile.source(cell))]
        for number, text in enumerate(texts, start=1):
            answer = copy.deepcopy(cell)
            answer.update(source=text, outputs=[], execution_count=None)
            answer["id"] = f"{cell.get('id', 'answer')}-{number}"[:64]
            cells.append(answer)
    merged["cells"] = cells
    notes += _tampering(teacher, student)
    return merged, notes


def _tampering(teacher: Notebook, student: Notebook) -> list[str]:
    """Notes on check cells that the student's copy changed or lost (graded as the teacher's)."""
    theirs = {nbfile.tag_with(c, CHECK): c for c in student["cells"] if nbfile.tag_with(c, CHECK)}
    notes = []
    for cell in teacher["cells"]:
        tag = nbfile.tag_with(cell, CHECK)
        if tag is None:
            continue
        mine = theirs.get(tag)
        if mine is None:
            notes.append(f"{tag} is missing from your notebook: the teacher's check was used")
        elif nbfile.source(mine) != nbfile.source(cell) or nbfile.tags(mine) != nbfile.tags(cell):
            notes.append(f"{tag} was changed in your notebook: the teacher's check was used")
    return notes


def grade(
    submissions: Sequence[tuple[Path, str]],
    source_dir: Path = SOURCE_DIR,
    timeout: float = DEFAULT_TIMEOUT,
    workers: int = 1,
) -> list[Report]:
    """Grade each ``(notebook path, exercise name)``; one report each, in the same order.

    The merged notebooks are run by ``workers`` pytest processes side by side; each
    notebook gets a fresh kernel.  A notebook that cannot be read fails all its checks.
    """
    sources = exercises(source_dir)
    with tempfile.TemporaryDirectory(prefix="course-grade-") as temp:
        folder = Path(temp)
        jobs: list[tuple[Path, Notebook, Report]] = []
        for number, (path, name) in enumerate(submissions):
            teacher = nbfile.read(sources[name])
            report = Report(Path(path), name)
            try:
                merged, report.notes = merge(teacher, nbfile.read(path))
            except NotebookError as error:
                merged, _ = merge(teacher, {"cells": []})
                report.notes = [f"{error}; graded as the starting notebook"]
            target = folder / f"nb{number:04d}.ipynb"
            nbfile.write(merged, target)
            jobs.append((target, merged, report))
        (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # no project settings
        batches = [batch for i in range(max(1, workers)) if (batch := jobs[i::workers])]
        with ThreadPoolExecutor(max_workers=max(1, len(batches))) as pool:
            for done in [pool.submit(_run_batch, batch, folder, timeout) for batch in batches]:
                done.result()  # re-raise a failure of the grader itself
    return [report for _, _, report in jobs]


def _run_batch(batch: list[tuple[Path, Notebook, Report]], folder: Path, timeout: float) -> None:
    """Run one pytest --nbval-lax process over ``batch`` and fill in the reports."""
    xml = folder / f"{batch[0][0].stem}.xml"
    ini = folder / "pytest.ini"
    command = [
        sys.executable, "-m", "pytest", "-p", "nbval.plugin", "--nbval-lax", "--nbval-current-env",
        f"--nbval-cell-timeout={timeout:g}", "-p", "no:cacheprovider", "-q", "--color=no",
        "-c", str(ini), "--rootdir", str(folder), f"--junitxml={xml}",
        *[str(path) for path, _, _ in batch],
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    cells = sum(len(nb["cells"]) for _, nb, _ in batch)
    limit = 60 + len(batch) * 30 + cells * (timeout + 10)
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        output, _ = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
    results = _read_junit(xml) if xml.exists() else {}
    for path, merged, report in batch:
        _fill(report, merged, results.get(path.name, {}), timeout, output.decode(errors="replace"))


def _read_junit(xml: Path) -> dict[str, dict[int, tuple[str, str]]]:
    """``{notebook file: {code cell number: (outcome, message)}}`` from pytest's JUnit XML."""
    results: dict[str, dict[int, tuple[str, str]]] = {}
    for case in ElementTree.parse(xml).iter("testcase"):
        match = re.fullmatch(r"Cell (\d+)", case.get("name", ""))
        if not match:
            continue
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.text or child.get("message", "")
            elif child.tag == "skipped":
                outcome, message = "skipped", child.get("message", "")
        notebook = case.get("classname", "")
        notebook = notebook if notebook.endswith(".ipynb") else notebook + ".ipynb"
        results.setdefault(notebook, {})[int(match.group(1))] = (outcome, message)
    return results


def _fill(
    report: Report, merged: Notebook, cells: dict[int, tuple[str, str]], timeout: float, log: str
) -> None:
    code = [cell for cell in merged["cells"] if cell.get("cell_type") == "code"]
    for number, cell in enumerate(code):
        outcome, message = cells.get(number, ("missing", ""))
        check, answer = nbfile.tag_with(cell, CHECK), nbfile.tag_with(cell, ANSWER)
        if check:
            passed = outcome == "passed"
            report.checks.append(
                CheckResult(check, passed, "" if passed else _reason(outcome, message, timeout))
            )
        elif answer and outcome == "failed":
            report.notes.append(f"your {answer} cell failed: {_reason(outcome, message, timeout)}")
    if not cells and log.strip():
        report.notes.append(
            "the grader could not run the notebook: " + log.strip().splitlines()[-1]
        )


def _reason(outcome: str, message: str, timeout: float) -> str:
    """A one-line reason for a failed cell, from nbval's message."""
    text = _ANSI.sub("", message)
    if outcome == "missing":
        return "not run: grading stopped early (time limit or crash)"
    if outcome == "skipped":
        return "not run properly: an earlier cell timed out or the kernel stopped"
    if "Failed to interrupt kernel" in text or "Kernel dead" in text:
        return f"timed out after {timeout:g} s or the Python kernel stopped (an endless loop, or code that exits?)"
    if "Timeout of" in text:
        return f"timed out after {timeout:g} s (an endless loop?)"
    if "Cell outputs differ" in text:
        return "its output differs from the teacher's expected output"
    errors = re.findall(r"^(\w*(?:Error|Exception|Exit|Interrupt)\b.*)$", text, re.MULTILINE)
    if errors:
        return " ".join(errors[-1].removeprefix("AssertionError: ").split())[:300]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[1] if len(lines) > 1 else (lines[0] if lines else outcome)


def check(
    path: Path,
    exercise: str | None = None,
    source_dir: Path = SOURCE_DIR,
    timeout: float = DEFAULT_TIMEOUT,
) -> Report:
    """Grade one student notebook; see :func:`grade`."""
    name = exercise or identify(nbfile.read(path), Path(path), source_dir)
    if name not in exercises(source_dir):
        raise NotebookError(f"there is no exercise {name!r} in {source_dir}")
    return grade([(Path(path), name)], source_dir, timeout)[0]
