"""The teacher's overrides: points and a comment per student and question, kept in a file.

Grading computes the points; the teacher has the last word.  An override file is read
before anything is graded and applied when the sheet is written, so it survives every
regrade.  Two formats, chosen by the file's extension:

``overrides.csv``, with a header line (column order free; ``points`` or ``comment`` may
be empty, an empty ``points`` keeps the grader's points)::

    student_id,question,points,comment
    ann,04_flips:flips,1,"right idea; the edge case was my example's fault"
    bob,01_squares:from_notation,,see me about the row numbers

``overrides.json``, the same as a list of objects::

    [{"student_id": "ann", "question": "04_flips:flips", "points": 1, "comment": "..."}]

``question`` is the question's column in ``grades.csv`` (``EXERCISE:QUESTION``).  Points
are a number from 0 to the question's points; anything else is refused with the file,
the line and the reason.

>>> book = parse_text("student_id,question,points,comment\\nann,04_flips:flips,0.5,late fix\\n", "o.csv")
>>> book.get("ann", "04_flips:flips")
Override(points=0.5, comment='late fix', where='o.csv line 2')
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course import schema
from course.grading.handins import GradebookError, read_regular

MAX_FILE = 4 << 20
MAX_COMMENT = 2000
COLUMNS = ("student_id", "question", "points", "comment")


@dataclass(frozen=True)
class Override:
    """The teacher's word on one question of one student: points (None: keep) and a comment."""

    points: float | None
    comment: str
    where: str  # the file and line, for messages


@dataclass
class Overrides:
    """Every override, by (student id, question column)."""

    entries: dict[tuple[str, str], Override] = field(default_factory=dict)

    def get(self, student: str, question: str) -> Override | None:
        """The override of ``question`` (its column) for ``student`` (their id), or None."""
        return self.entries.get((student, question))

    def __iter__(self) -> Iterator[tuple[str, str, Override]]:
        for (student, question), override in sorted(self.entries.items()):
            yield student, question, override

    def check(self, maximum: Mapping[str, float]) -> None:
        """Refuse an override of an unknown question or beyond the question's points."""
        for _, question, override in self:
            if question not in maximum:
                known = ", ".join(sorted(maximum)[:6]) or "none"
                raise GradebookError(
                    f"{override.where}: there is no question {question!r} among the graded "
                    f"exercises (for example {known})"
                )
            if override.points is not None and override.points > maximum[question]:
                raise GradebookError(
                    f"{override.where}: {override.points:g} points for {question}, which is "
                    f"worth {maximum[question]:g}"
                )


def load(path: Path) -> Overrides:
    """The overrides in the file at ``path`` (``.csv`` or ``.json``)."""
    data = read_regular(path, MAX_FILE)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GradebookError(f"{path}: an overrides file must be UTF-8 text") from None
    return parse_text(text, str(path))


def parse_text(text: str, name: str) -> Overrides:
    """The overrides in ``text``; ``name`` (its file name) chooses the format and names errors."""
    if name.lower().endswith(".json"):
        return _build(_json_rows(text, name), name)
    if name.lower().endswith(".csv"):
        return _build(_csv_rows(text, name), name)
    raise GradebookError(f"{name}: an overrides file is a .csv or a .json file")


def _csv_rows(text: str, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
        header = reader.fieldnames or []
        missing = [c for c in ("student_id", "question") if c not in header]
        if missing:
            raise GradebookError(
                f"{name} line 1: the header needs the columns {', '.join(COLUMNS)}"
            )
        for row in reader:
            if None in row:
                raise GradebookError(f"{name} line {reader.line_num}: more cells than columns")
            yield reader.line_num, row
    except csv.Error as error:
        raise GradebookError(f"{name}: not a CSV file ({error})") from None


_JSON = schema.Limits(bytes=4 * MAX_FILE, depth=3, items=MAX_FILE)


def _json_rows(text: str, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        data = schema.read_json(text, "the file", _JSON)
    except schema.SchemaError as error:
        raise GradebookError(f"{name}: not valid JSON for overrides ({error})") from None
    if isinstance(data, dict) and set(data) == {"overrides"}:
        data = data["overrides"]
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise GradebookError(
            f"{name}: must hold a list of objects with the keys {', '.join(COLUMNS)}"
        )
    yield from enumerate(data, start=1)


def _build(rows: Iterator[tuple[int, dict[str, Any]]], name: str) -> Overrides:
    book = Overrides()
    unit = "item" if name.lower().endswith(".json") else "line"
    for number, row in rows:
        where = f"{name} {unit} {number}"
        unknown = sorted(str(key)[:40] for key in row if key not in COLUMNS)
        if unknown:
            raise GradebookError(
                f"{where}: unknown column {unknown[0]!r} (the columns: {', '.join(COLUMNS)})"
            )
        student, question = (
            _word(row.get("student_id"), where, "student_id"),
            _word(row.get("question"), where, "question"),
        )
        comment = row.get("comment") or ""
        if not isinstance(comment, str) or len(comment) > MAX_COMMENT:
            raise GradebookError(
                f"{where}: the comment must be text of at most {MAX_COMMENT} characters"
            )
        if (student, question) in book.entries:
            raise GradebookError(f"{where}: a second override of {question} for {student}")
        book.entries[student, question] = Override(
            _points(row.get("points"), where), comment, where
        )
    return book


def _word(value: Any, where: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise GradebookError(f"{where}: {what} must be a non-empty name, not {str(value)[:40]!r}")
    return value.strip()


def _points(value: Any, where: str) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise GradebookError(f"{where}: points must be a number, not {str(value)[:40]!r}")
    try:
        points = float(value) if len(str(value)) <= 40 else math.nan
    except ValueError:
        points = math.nan
    if not math.isfinite(points) or points < 0:
        raise GradebookError(f"{where}: points must be a number from 0 up, not {str(value)[:40]!r}")
    return points
