"""Whose hand-in is it: each hand-in matched to exactly one student of the class's roster.

A hand-in names its student by the folder it is in (or the part of its file name before
``__``) and, in the class server's store, by the name typed at hand-in (its receipt).
The folder is looked up as :meth:`~course.roster.model.Roster.named` does: a key, then a
name in any case and spacing, then an id or an email, then the folder form of a name, so
``Ada Lovelace/``, ``ada lovelace/`` and ``ada-lovelace/`` are one student and their
hand-ins one history.  The typed name is asked only when the folder matches nobody.

A hand-in that matches nobody, or several students (a folder ``Ada Lovelace`` when two
students have that name), goes into no one's row: the warnings list it, with what to do.
The teacher's overrides name their students the same way and are keyed alike.

>>> import datetime, pathlib
>>> when = datetime.datetime(2026, 11, 30, 17, tzinfo=datetime.timezone.utc)
>>> roster = Roster().add("Ada Lovelace", lms_id="1001").add("Ada Lovelace", lms_id="1002")
>>> def by(folder): return HandIn(folder, "01_squares", pathlib.Path(folder), when, folder, "folder")
>>> matched = match([by("ada-lovelace-2"), by("1001"), by("ada lovelace"), by("bob")], roster)
>>> [handin.student for handin in matched.handins]
['ada-lovelace-2', 'ada-lovelace']
>>> print("\\n".join(matched.warnings))
not on the roster, so not graded: 'bob' (1 hand-in); add them to the roster or name the folder by their key
could be several students, so not graded: 'ada lovelace' (ada-lovelace or ada-lovelace-2; 1 hand-in); name the folder by the student's key
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from course.grading.handins import GradebookError, HandIn, Submission, find, group, root_of
from course.grading.overrides import Overrides
from course.roster.model import Roster, Student


@dataclass(frozen=True)
class Matched:
    """The hand-ins of students on the roster (``student`` is the roster's key), and warnings."""

    handins: list[HandIn]
    warnings: list[str]


def submissions(
    folder: Path, known: list[str], roster: Roster | None
) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (:func:`course.grading.handins.collect`), each the roster
    student's when there is a ``roster``; refuses a folder of which no hand-in is on it."""
    root = root_of(folder)
    found, warnings = find(root, known)
    if roster is not None:
        matched = match(found, roster)
        if found and not matched.handins:  # the wrong roster, or the wrong folder
            raise GradebookError(f"{folder}: no hand-in is by a student on the roster "
                                 f"({len(roster)} students): {matched.warnings[0]}")  # fmt: skip
        found, warnings = matched.handins, warnings + matched.warnings
    grouped, more = group(found, root)
    return grouped, warnings + more


def whose(handin: HandIn, roster: Roster) -> list[Student]:
    """The students ``handin`` may be by: one, none or several."""
    return roster.named(handin.student) or (
        roster.named(handin.name) if handin.name != handin.student else []
    )


def match(found: Sequence[HandIn], roster: Roster) -> Matched:
    """Each hand-in of ``found`` given to its one student (the key as its ``student``)."""
    kept: list[HandIn] = []
    unknown: Counter[str] = Counter()
    several: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for handin in found:
        students = whose(handin, roster)
        if len(students) == 1:
            kept.append(replace(handin, student=students[0].key))
        elif students:
            several[handin.student, tuple(student.key for student in students)] += 1
        else:
            unknown[handin.student] += 1
    warnings = []
    if unknown:
        listed = ", ".join(f"{spelling!r} ({_count(n)})" for spelling, n in sorted(unknown.items()))
        warnings.append(f"not on the roster, so not graded: {listed}; "
                        "add them to the roster or name the folder by their key")  # fmt: skip
    if several:
        listed = ", ".join(f"{spelling!r} ({' or '.join(keys)}; {_count(n)})"
                           for (spelling, keys), n in sorted(several.items()))  # fmt: skip
        warnings.append(f"could be several students, so not graded: {listed}; "
                        "name the folder by the student's key")  # fmt: skip
    return Matched(kept, warnings)


def _count(handins: int) -> str:
    return f"{handins} hand-in" + ("s" if handins > 1 else "")


def keyed(book: Overrides, roster: Roster) -> tuple[Overrides, list[str]]:
    """``book`` with each student named by the roster's key (a name, an id or an email works
    in the file); an override of nobody or of several students is left out with a warning."""
    keyed_book, warnings = Overrides(), []
    for (student, question), override in book.entries.items():  # in the file's order
        found = roster.named(student)
        if len(found) != 1:
            keys = " or ".join(s.key for s in found)
            why = f"could be several students ({keys})" if found else "is not on the roster"
            warnings.append(f"{override.where}: {student!r} {why}: the override is left out")
            continue
        key = found[0].key
        if (key, question) in keyed_book.entries:
            raise GradebookError(f"{override.where}: a second override of {question} for {key}")
        keyed_book.entries[key, question] = override
    return keyed_book, warnings
