"""The grade sheet: one row per student, written as CSV for a spreadsheet, Canvas and Moodle.

``grades.csv`` (the kit's sheet) has, per student: ``student_id`` (the student's folder
name, or their key on the class's roster), ``name`` (as typed at hand-in, or the
roster's), then for every exercise anyone handed in, one
column per question ``EXERCISE:QUESTION`` holding the points earned (partial credit:
a share of the cases passed; the teacher's override where there is one), then
``EXERCISE:handed_in`` (UTC) and ``EXERCISE:late``; then ``points``, ``max_points``,
``passed`` (questions fully passed), ``total`` (questions), ``missing`` (exercises not
handed in, 0 points), ``late``, ``errors`` (notebooks that could not be graded, with the
reason), ``comments`` (the teacher's), ``similar`` (near copies, a hint for the teacher),
``isolated`` (``no`` when a notebook was graded without the sandbox's namespaces).

:func:`canvas_rows` and :func:`moodle_rows` are the same grades per exercise in the
columns those gradebooks import (see ``docs/grades-canvas-sample.csv`` and
``docs/grades-moodle-sample.csv``); given the roster, they carry its gradebook ids, so
they import into the course the roster came from.  Every cell of every file goes through
:func:`cell`, so nothing a student chose (a name starting with ``=``...) becomes a
spreadsheet formula, and every file is replaced atomically.
"""

from __future__ import annotations

import csv
import datetime
import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.grading import notebook as nbfile
from course.grading.overrides import Overrides
from course.roster.model import Roster
from course.roster.model import Student as Person
from reversi.errors import ArgumentError, shown

#: First characters a spreadsheet reads as the start of a formula (OWASP's list, and LF).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
#: First characters :func:`cell` quotes: a formula start, and the quote itself, so that
#: :func:`uncell` can tell the quote it added from one the value had.
QUOTED_STARTS = (*FORMULA_STARTS, "'")

Row = dict[str, str]


def cell(value: Any) -> str:
    """``value`` as text a spreadsheet shows as text: a formula start gets a leading ``'``.

    >>> cell("=HYPERLINK(1)"), cell("-2"), cell("ann"), cell(0.5), cell("'=")
    ("'=HYPERLINK(1)", "'-2", 'ann', '0.5', "''=")
    """
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception as error:  # a value whose text cannot be made (a 5,000-digit number...)
        raise ArgumentError(f"{shown(value)} cannot be written in a cell ({error})") from None
    if type(text) is not str:  # noqa: E721 (a str subclass could change its own startswith)
        text = str.__str__(text)
    return "'" + text if text.startswith(QUOTED_STARTS) else text


def uncell(text: str) -> str:
    """A cell as it was before :func:`cell` made it safe.

    >>> all(uncell(cell(text)) == text for text in ("=1", "'=", "''", "'a", "a'", ""))
    True
    """
    return text[1:] if text.startswith("'") and text[1:].startswith(QUOTED_STARTS) else text


def number(value: float) -> str:
    """Points as a teacher writes them.

    >>> number(1.0), number(2 / 3), number(0.0)
    ('1', '0.67', '0')
    """
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def when(moment: datetime.datetime | None) -> str:
    """A UTC time as ``2026-11-24T10:40:55Z`` ('' for none)."""
    if moment is None:
        return ""
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Question:
    """One question's result for one student, as the sheet needs it."""

    passed: bool
    earned: float
    points: float


@dataclass
class ExerciseResult:
    """One exercise of one student: its questions by column, when, late, an error."""

    questions: dict[str, Question]
    handed_in: datetime.datetime | None = None
    late: bool = False
    error: str = ""
    isolated: bool = True


@dataclass
class Student:
    """One student's line: id, name as typed, and results by exercise."""

    student_id: str
    name: str
    exercises: dict[str, ExerciseResult] = field(default_factory=dict)
    similar: list[str] = field(default_factory=list)


def rows(
    students: Sequence[Student],
    columns: Mapping[str, Mapping[str, float]],
    overrides: Overrides | None = None,
    sort: bool = True,
) -> list[Row]:
    """The sheet's rows, sorted by student id (in the order given unless ``sort``).

    ``columns`` is every exercise handed in, in order, with each question's column and
    its points.
    """
    overrides = overrides or Overrides()
    result = []
    for student in sorted(students, key=lambda s: s.student_id) if sort else students:
        row: Row = {"student_id": student.student_id, "name": student.name}
        earned = maximum = 0.0
        passed = total = 0
        comments, late, errors = [], [], []
        for exercise, questions in columns.items():
            done = student.exercises.get(exercise)
            for column, points in questions.items():
                graded = done.questions.get(column) if done else None
                got = graded.earned if graded else 0.0
                ok = bool(graded and graded.passed)
                override = overrides.get(student.student_id, column)
                if override is not None:
                    if override.points is not None:
                        got, ok = override.points, override.points >= points
                    if override.comment:
                        comments.append(f"{column}: {override.comment}")
                row[column] = number(got)
                earned, maximum = earned + got, maximum + points
                passed, total = passed + ok, total + 1
            row[f"{exercise}:handed_in"] = when(done.handed_in) if done else ""
            row[f"{exercise}:late"] = "late" if done and done.late else ""
            if done and done.late:
                late.append(exercise)
            if done and done.error:
                errors.append(f"{exercise}: {done.error}")
        row["points"], row["max_points"] = number(earned), number(maximum)
        row["passed"], row["total"] = str(passed), str(total)
        row["missing"] = " ".join(e for e in columns if e not in student.exercises)
        row["late"] = " ".join(late)
        row["errors"] = "; ".join(errors)
        row["comments"] = "; ".join(comments)
        row["similar"] = "; ".join(student.similar)
        isolated = all(done.isolated for done in student.exercises.values())
        row["isolated"] = "yes" if isolated else "no"
        result.append(row)
    return result


def header(columns: Mapping[str, Mapping[str, float]]) -> list[str]:
    """The sheet's columns (the same as the keys of every row)."""
    names = ["student_id", "name"]
    for exercise, questions in columns.items():
        names += [*questions, f"{exercise}:handed_in", f"{exercise}:late"]
    return names + ["points", "max_points", "passed", "total", "missing", "late", "errors",
                    "comments", "similar", "isolated"]  # fmt: skip


def _person(row: Row, roster: Roster | None) -> Person | None:
    """The roster's student of ``row`` if they have a gradebook id or email (else the student
    id stands in, as without a roster: a blank id matches nobody, a made-up one might)."""
    person = roster.get(row["student_id"]) if roster is not None else None
    return person if person is not None and any(person.ids()) else None


def canvas_rows(
    sheet: Sequence[Row], columns: Mapping[str, Mapping[str, float]], roster: Roster | None = None
) -> list[Row]:
    """The grades as Canvas imports them: one column per exercise, a Points Possible row.

    Canvas matches a student by ``ID`` (its user id), ``SIS User ID`` or ``SIS Login ID``:
    the roster's ``lms_id``, ``sis_id`` and ``login``; a student without a roster or
    without gradebook ids has the student id in both SIS columns (name the folders after
    the logins the school uses).  An exercise column that Canvas does not know yet
    becomes a new assignment when imported.
    """
    fixed = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    possible = {name: "" for name in fixed}
    possible["Student"] = "Points Possible"
    for exercise, questions in columns.items():
        possible[exercise] = number(sum(questions.values()))
    result = [possible]
    for row in sheet:
        line = {"Student": row["name"], "ID": "", "SIS User ID": row["student_id"],
                "SIS Login ID": row["student_id"], "Section": ""}  # fmt: skip
        person = _person(row, roster)
        if person is not None:
            line |= {
                "ID": person.lms_id,
                "SIS User ID": person.sis_id,
                "SIS Login ID": person.login,
            }
        for exercise, questions in columns.items():
            line[exercise] = number(sum(float(row[column]) for column in questions))
        result.append(line)
    return result


def moodle_header(
    columns: Mapping[str, Mapping[str, float]], roster: Roster | None = None
) -> list[str]:
    """The columns of :func:`moodle_rows`: with a roster, also the ids Moodle matches on."""
    ids = ["ID number", "Email address"] if roster is not None else []
    return ["Username", *ids, "Full name", *columns, "Total", "Feedback"]


def moodle_rows(
    sheet: Sequence[Row], columns: Mapping[str, Mapping[str, float]], roster: Roster | None = None
) -> list[Row]:
    """The grades as Moodle's "Import grades: CSV file" reads them (columns: :func:`moodle_header`).

    In the import page, map ``Username`` to the user field ``username`` (or ``idnumber``),
    each exercise column to its grade item (or a new one), and ``Feedback`` to the
    feedback of the item you choose.  With a roster, ``Username`` is the roster's login,
    ``ID number`` its SIS id (else its LMS id) and ``Email address`` its email: map the
    one your Moodle holds to ``username``, ``idnumber`` or ``email``.
    """
    result = []
    for row in sheet:
        line = {"Username": row["student_id"], "Full name": row["name"]}
        person = _person(row, roster)
        if person is not None:
            line |= {"Username": person.login, "ID number": person.sis_id or person.lms_id,
                     "Email address": person.email}  # fmt: skip
        for exercise, questions in columns.items():
            line[exercise] = number(sum(float(row[column]) for column in questions))
        line["Total"] = row["points"]
        line["Feedback"] = "; ".join(text for text in (row["comments"], row["errors"]) if text)
        result.append(line)
    return result


def append(rows: Sequence[Row], path: Path, fieldnames: Sequence[str]) -> None:
    """Add ``rows`` at the end of the CSV file at ``path`` and flush them to disk."""
    cells = [[cell(row.get(name, "")) for name in fieldnames] for row in rows]
    try:
        with open(path, "a", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerows(cells)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        raise nbfile.WriteError.of(error, path) from error


def write(rows: Sequence[Row], path: Path, fieldnames: Sequence[str]) -> None:
    """Write ``rows`` as CSV to ``path`` atomically, every cell made safe by :func:`cell`."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([cell(name) for name in fieldnames])
    writer.writerows([cell(row.get(name, "")) for name in fieldnames] for row in rows)
    nbfile.write_atomic(path, text.getvalue())
