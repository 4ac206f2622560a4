"""What ``python -m course grade`` tells the teacher, in the teacher's language.

The lines come from the gradebook's rows as they are (the sheet keeps its English column
names and values: a spreadsheet or an import reads them); only the words around them follow
:func:`course.i18n.language`, so ``kit.py --lang fr grade`` says ``élèves`` and ``réussies``.
A name or a reason from outside (a hand-in's folder, a warning) may hold control characters:
``python -m course`` escapes every line before the terminal sees it.

>>> row = {"student_id": "ann", "name": "Ann", "points": "3", "max_points": "4", "passed": "2",
...        "total": "3", "missing": "", "late": "02_counting", "errors": "", "similar": ""}
>>> student_lines(row, named=False)
['ann: 3/4 points, 2/3 passed (late: 02_counting)']
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from course.i18n import gettext as _
from course.i18n import ngettext


def roster_line(path: object, count: int) -> str:
    """The roster the rows follow, said before grading starts."""
    said = ngettext("Roster: {path}, {count} student (--no-roster ignores it)",
                    "Roster: {path}, {count} students (--no-roster ignores it)", count)  # fmt: skip
    return said.format(path=path, count=count)


def student_lines(row: Mapping[str, str], named: bool) -> list[str]:
    """A student's result: points, questions passed, what is missing or late, then any
    errors and similar hand-ins (``named``: the roster's name before the id)."""
    missing = _(" (missing: {exercises})").format(exercises=row["missing"]) if row["missing"] else ""
    late = _(" (late: {exercises})").format(exercises=row["late"]) if row["late"] else ""
    who = f"{row['name']} ({row['student_id']})" if named else row["student_id"]
    found = [_("{who}: {points}/{max_points} points, {passed}/{total} passed{missing}{late}").format(
        who=who, points=row["points"], max_points=row["max_points"], passed=row["passed"],
        total=row["total"], missing=missing, late=late)]  # fmt: skip
    if row["errors"]:
        found.append(_("  errors: {errors}").format(errors=row["errors"]))
    if row["similar"]:
        found.append(_("  similar: {students}").format(students=row["similar"]))
    return found


def warning(text: str) -> str:
    """A warning of the gradebook (a hand-in it skipped, an override it could not place)."""
    return _("warning: {warning}").format(warning=text)


def error(text: str) -> str:
    """A hand-in that could not be graded, said as soon as it is known."""
    return _("error: {message}").format(message=text)


def written(out: Path, count: int, feedback: Path) -> str:
    """The last line: what was written, and where."""
    said = ngettext(
        "Wrote {out} ({count} student), its Canvas and Moodle copies, the summary page and "
        "the feedback pages in {feedback}",
        "Wrote {out} ({count} students), its Canvas and Moodle copies, the summary page and "
        "the feedback pages in {feedback}",
        count,
    )
    return said.format(out=out, count=count, feedback=feedback)


def stopped(out: Path) -> str:
    """Said when the teacher stops a grading (Ctrl+C): nothing finished is lost."""
    return _("Stopped: every student finished so far is in {out}; run the same command "
             "again to grade the rest.").format(out=out)  # fmt: skip


def unwritable(name: object, reason: str, out: Path) -> str:
    """Said when a sheet or page cannot be written."""
    return _("error: cannot write {name}: {reason}; every student finished so far is in "
             "{out}").format(name=name, reason=reason, out=out)  # fmt: skip
