"""Grade a folder of submissions into a CSV sheet: one row per student, one column per check.

Two layouts are read, and may be mixed:

* one folder per student: ``SUBMISSIONS/ann/04_flips.ipynb``;
* flat files named ``STUDENT__ANYTHING.ipynb``: ``SUBMISSIONS/ann__04_flips.ipynb``.

Which exercise a notebook is comes from its metadata (released copies carry it), else
from its file name.  The sheet has a column ``EXERCISE:CHECK`` (1 passed, 0 not) for every
check of every exercise that anyone submitted, then ``passed``, ``total`` and ``missing``
(the exercises a student did not hand in; their checks count as 0).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from course.grading import checker
from course.grading import notebook as nbfile
from course.grading.notebook import NotebookError


@dataclass(frozen=True)
class Submission:
    """One student's notebook for one exercise."""

    student: str
    exercise: str
    path: Path


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


def grade_folder(
    folder: Path,
    out: Path,
    source_dir: Path = checker.SOURCE_DIR,
    timeout: float = checker.DEFAULT_TIMEOUT,
    workers: int = 1,
) -> tuple[list[dict[str, str]], list[str]]:
    """Grade every submission in ``folder``, write the CSV to ``out``; the rows and warnings."""
    submissions, warnings = collect(folder, source_dir)
    reports = checker.grade(
        [(s.path, s.exercise) for s in submissions], source_dir, timeout, workers
    )
    rows = sheet(submissions, reports, source_dir)
    write_csv(rows, out)
    return rows, warnings


def sheet(
    submissions: Sequence[Submission], reports: Sequence[checker.Report], source_dir: Path
) -> list[dict[str, str]]:
    """The rows of the grade sheet (column name to text), one per student, sorted by name."""
    sources = checker.exercises(source_dir)
    handed_in = sorted({s.exercise for s in submissions}, key=list(sources).index)
    columns = {
        name: [
            tag.removeprefix(nbfile.CHECK) for tag in nbfile.check_tags(nbfile.read(sources[name]))
        ]
        for name in handed_in
    }
    by_student: dict[str, dict[str, checker.Report]] = {}
    for submission, report in zip(submissions, reports, strict=True):
        by_student.setdefault(submission.student, {})[submission.exercise] = report
    rows = []
    for student in sorted(by_student):
        row = {"student": student}
        passed = total = 0
        for exercise, checks in columns.items():
            report = by_student[student].get(exercise)
            results = (
                {r.tag.removeprefix(nbfile.CHECK): r.passed for r in report.checks}
                if report
                else {}
            )
            for check in checks:
                row[f"{exercise}:{check}"] = "1" if results.get(check) else "0"
                passed += bool(results.get(check))
                total += 1
        row["passed"], row["total"] = str(passed), str(total)
        row["missing"] = " ".join(e for e in columns if e not in by_student[student])
        rows.append(row)
    return rows


def write_csv(rows: Sequence[dict[str, str]], out: Path) -> None:
    """Write the rows with a header line (the columns of the first row)."""
    with open(out, "w", newline="", encoding="utf-8") as file:
        if not rows:
            file.write("student,passed,total,missing\n")
            return
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
