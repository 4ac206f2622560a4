"""Grade a class: submissions in, a CSV sheet, a feedback page per student and a summary out.

Two layouts are read, and may be mixed:

* one folder per student: ``SUBMISSIONS/ann/04_flips.ipynb``;
* flat files named ``STUDENT__ANYTHING.ipynb``: ``SUBMISSIONS/ann__04_flips.ipynb``.

Which exercise a notebook is comes from its metadata (released copies carry it), else
from its file name.  The sheet has a column ``EXERCISE:QUESTION`` (1 passed, 0 not) for
every question of every exercise that anyone submitted, then ``passed``, ``total``,
``missing`` (exercises not handed in count as 0) and ``similar`` (answers that are near
copies, for the teacher to look at).

The :class:`Grader` keeps the teacher's folder safe: its files are read once, every
sandboxed run is refused access to it, and after each notebook their hashes are
compared; if anything changed, the files are put back and that notebook scores 0.
"""

from __future__ import annotations

import csv
import hashlib
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from course.grading import checker, similarity
from course.grading import exercise as exercise_file
from course.grading import notebook as nbfile
from course.grading.checker import CheckResult, Report
from course.grading.exercise import Exercise
from course.grading.notebook import NotebookError
from course.grading.sandbox import Sandbox


@dataclass(frozen=True)
class Submission:
    """One student's notebook for one exercise."""

    student: str
    exercise: str
    path: Path


class Grader:
    """Grades notebooks against the teacher's folder ``source_dir``, sandboxed, in parallel."""

    def __init__(
        self,
        source_dir: Path = checker.SOURCE_DIR,
        timeout: float = checker.DEFAULT_TIMEOUT,
        workers: int = 1,
        seed: int | None = None,
        isolate: bool = True,
        progress: Callable[[int, int, str], None] | None = None,
    ) -> None:
        self.source_dir = Path(source_dir)
        self.seed = exercise_file.load_seed(self.source_dir) if seed is None else seed
        self.workers = max(1, workers)
        self.timeout = timeout
        self.progress = progress
        self.sandbox = Sandbox(isolate)
        self._exercises: dict[str, Exercise] = {}
        self._files = _snapshot(self.source_dir)
        self._lock = threading.Lock()

    def exercise(self, name: str) -> Exercise:
        """The teacher's exercise ``name``, loaded once (its cases built once)."""
        if name not in self._exercises:
            sources = checker.exercises(self.source_dir)
            if name not in sources:
                raise NotebookError(f"there is no exercise {name!r} in {self.source_dir}")
            self._exercises[name] = exercise_file.load(sources[name], self.seed)
        return self._exercises[name]

    def grade(self, submissions: Sequence[tuple[Path, str]]) -> list[Report]:
        """One report per ``(path, exercise)``, in the same order."""
        for name in dict.fromkeys(name for _, name in submissions):
            self.exercise(name)
        done = [0]

        def one(item: tuple[Path, str]) -> Report:
            path, name = item
            report = checker.grade_notebook(self._exercises[name], path, self.sandbox, self.timeout)
            with self._lock:
                changed = self._restore()
                if changed:
                    report.notes.append(
                        f"the teacher's files changed while this notebook ran ({changed}): "
                        "they were put back, and this notebook scores 0"
                    )
                    for result in report.checks:
                        result.passed, result.message = False, "the teacher's files were changed"
                done[0] += 1
                if self.progress:
                    self.progress(done[0], len(submissions), f"{Path(path).name}")
            return report

        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(one, submissions))

    def _restore(self) -> str:
        """Compare the teacher's files with the snapshot; put them back; what changed."""
        now = _snapshot(self.source_dir)
        changed = sorted(name for name in self._files.keys() | now.keys()
                         if _hash(self._files.get(name)) != _hash(now.get(name)))  # fmt: skip
        for name in changed:
            path = self.source_dir / name
            if name in self._files:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self._files[name])
            else:
                path.unlink()
        return ", ".join(changed)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _hash(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


def collect(
    folder: Path, source_dir: Path = checker.SOURCE_DIR
) -> tuple[list[Submission], list[str]]:
    """The submissions found in ``folder``, and warnings about files that were left out."""
    known = checker.exercises(source_dir)
    found: dict[tuple[str, str], Submission] = {}
    warnings = []
    for path in sorted(Path(folder).rglob("*.ipynb")):
        relative = path.relative_to(folder)
        if ".ipynb_checkpoints" in relative.parts:
            continue
        if len(relative.parts) > 1:
            student = relative.parts[0]
        elif "__" in path.stem:
            student = path.stem.split("__", 1)[0]
        else:
            warnings.append(
                f"skipped {relative}: put it in a folder named after the student or name it STUDENT__..."
            )
            continue
        try:
            exercise = nbfile.exercise_name(nbfile.read(path), path, known)
        except NotebookError:
            exercise = nbfile.exercise_name({}, path, known)
        if exercise is None:
            warnings.append(f"skipped {relative}: not one of the exercises")
            continue
        if (student, exercise) in found:
            warnings.append(f"{student} handed in {exercise} twice: graded {relative}")
        found[student, exercise] = Submission(student, exercise, path)
    return sorted(found.values(), key=lambda s: (s.student, s.exercise)), warnings


def progress_bar(stream: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int, str], None]:
    """A progress callback drawing ``[#####.....] 12/40 ann__04_flips.ipynb`` on one line."""

    def show(done: int, total: int, what: str) -> None:
        filled = width * done // max(1, total)
        end = "\n" if done == total else ""
        stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what[:40]:<40}{end}"
        )
        stream.flush()

    return show


@dataclass
class Graded:
    """A graded class: the sheet's rows, the reports by student, warnings and the summary."""

    rows: list[dict[str, str]]
    reports: dict[str, dict[str, Report]]
    warnings: list[str]
    summary: list[str]


def grade_folder(
    folder: Path,
    out: Path,
    source_dir: Path = checker.SOURCE_DIR,
    timeout: float = checker.DEFAULT_TIMEOUT,
    workers: int = 1,
    seed: int | None = None,
    feedback_dir: Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    isolate: bool = True,
) -> Graded:
    """Grade every submission in ``folder``: the CSV to ``out``, feedback pages to ``feedback_dir``."""
    from course.grading import feedback

    submissions, warnings = collect(folder, source_dir)
    grader = Grader(source_dir, timeout, workers, seed, isolate, progress)
    reports = grader.grade([(s.path, s.exercise) for s in submissions])
    by_student: dict[str, dict[str, Report]] = {}
    for submission, report in zip(submissions, reports, strict=True):
        by_student.setdefault(submission.student, {})[submission.exercise] = report
    exercises = {name: grader.exercise(name) for name in {s.exercise for s in submissions}}
    flags = similarity.flag(by_student, exercises)
    rows = sheet(by_student, exercises, list(checker.exercises(source_dir)), flags)
    write_csv(rows, out)
    if feedback_dir:
        feedback.write_pages(by_student, flags, Path(feedback_dir))
    return Graded(rows, by_student, warnings, summary(by_student, exercises))


def sheet(
    by_student: dict[str, dict[str, Report]],
    exercises: dict[str, Exercise],
    order: list[str],
    flags: dict[str, list[str]] | None = None,
) -> list[dict[str, str]]:
    """The rows of the grade sheet (column name to text), one per student, sorted by name."""
    handed_in = sorted(exercises, key=order.index)
    rows = []
    for student in sorted(by_student):
        row = {"student": student}
        passed = total = 0
        for name in handed_in:
            report = by_student[student].get(name)
            results: dict[str, CheckResult] = {r.tag: r for r in report.checks} if report else {}
            for question in exercises[name].questions:
                ok = question.tag in results and results[question.tag].passed
                row[f"{name}:{question.tag.removeprefix(nbfile.CHECK)}"] = "1" if ok else "0"
                passed, total = passed + ok, total + 1
        row["passed"], row["total"] = str(passed), str(total)
        row["missing"] = " ".join(e for e in handed_in if e not in by_student[student])
        row["similar"] = "; ".join((flags or {}).get(student, []))
        rows.append(row)
    return rows


def summary(by_student: dict[str, dict[str, Report]], exercises: dict[str, Exercise]) -> list[str]:
    """One line per exercise: how many students passed each question."""
    lines = []
    for name in sorted(exercises):
        reports = [r[name] for r in by_student.values() if name in r]
        counts = []
        for question in exercises[name].questions:
            passed = sum(1 for r in reports for c in r.checks if c.tag == question.tag and c.passed)
            counts.append(f"{question.tag.removeprefix(nbfile.CHECK)} {passed}/{len(reports)}")
        lines.append(f"{name}: " + ", ".join(counts))
    return lines


def write_csv(rows: Sequence[dict[str, str]], out: Path) -> None:
    """Write the rows with a header line (the columns of the first row)."""
    with open(out, "w", newline="", encoding="utf-8") as file:
        if not rows:
            file.write("student,passed,total,missing,similar\n")
            return
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
