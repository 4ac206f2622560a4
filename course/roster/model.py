"""The class list: who the students are, as the teacher's gradebook knows them.

A :class:`Student` has a ``key`` the kit makes once and never changes (the folder of
their hand-ins, the row of their progress; a rename keeps it), the ``name`` the
teacher sees, and the ids of the school's gradebook (``lms_id``, ``sis_id``,
``login``, ``email``), so grades go back to the same rows.  A :class:`Roster` is a
value: adding, renaming and removing give a new roster, checked whole first.

Names are matched as people type them: ``"Ada Lovelace"``, ``"ada lovelace"`` and
``"Ada  Lovelace "`` are one student (:func:`name_key`).

>>> roster = Roster().add("Ada Lovelace", lms_id="1001").add("Ada Lovelace", lms_id="1002")
>>> [student.key for student in roster.students]
['ada-lovelace', 'ada-lovelace-2']
>>> roster.find("ada  LOVELACE")
Traceback (most recent call last):
...
course.roster.model.RosterError: 2 students are called 'ada  LOVELACE' (ada-lovelace, ada-lovelace-2): give the key
>>> roster.find("ada-lovelace-2").lms_id
'1002'
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from reversi.errors import ReversiError

#: Longest name, id or email kept.
MAX_TEXT = 120
#: Most students on one roster (a lecture course; the class server's limits follow it).
MAX_STUDENTS = 2_000
#: Longest name a seat shows (the rooms' rule, from the ZX-81 program: 9 letters).
SEAT_NAME = 9


class RosterError(ReversiError, ValueError):
    """A roster file, a name or a change refused; the message says which and why."""


def name_key(name: str) -> str:
    """A name as it is compared: Unicode-normalised, case-folded, spaces collapsed.

    >>> name_key("  Zoë   MARTIN ") == name_key("zoë martin")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def folder_key(name: str) -> str:
    """A name as a folder: lowercase ASCII letters, digits and ``-``, the same for every spelling.

    >>> folder_key("Zoë  Martin "), folder_key("李雷")
    ('zoe-martin', 'student-3a47328a')
    """
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    folder = re.sub(r"[^a-z0-9_-]+", "-", ascii_text).strip("-_")[:32].strip("-_")
    if folder:
        return folder
    return "student-" + hashlib.sha256(name_key(name).encode()).hexdigest()[:8]


def clean(value: str, what: str, required: bool = False) -> str:
    """``value`` stripped, checked for length and control characters (empty allowed unless ``required``)."""
    text = " ".join(value.split()) if value else ""
    if required and not text:
        raise RosterError(f"{what} is blank")
    if len(text) > MAX_TEXT:
        raise RosterError(f"{what} {text[:30]!r}... has {len(text)} characters; at most {MAX_TEXT}")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in text):
        raise RosterError(f"{what} {text[:30]!r} contains a control character")
    return text


@dataclass(frozen=True)
class Student:
    """One student: the kit's ``key``, the ``name`` shown, and the gradebook's ids (may be empty)."""

    key: str
    name: str
    lms_id: str = ""
    sis_id: str = ""
    login: str = ""
    email: str = ""

    def ids(self) -> Iterator[str]:
        """Every id and the email, compared case-folded (what a hand-in folder may be named by)."""
        for value in (self.lms_id, self.sis_id, self.login, self.email):
            if value:
                yield value.casefold()


@dataclass(frozen=True)
class Roster:
    """The students of a class, in the order the teacher gave them."""

    students: tuple[Student, ...] = ()
    by_key: dict[str, Student] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_key.update((student.key, student) for student in self.students)

    def __len__(self) -> int:
        return len(self.students)

    def __iter__(self) -> Iterator[Student]:
        return iter(self.students)

    def get(self, key: str) -> Student | None:
        """The student whose key is ``key``, or None."""
        return self.by_key.get(key)

    def named(self, name: str) -> list[Student]:
        """The students whose name, folder key, id or email is ``name`` as a person would type it."""
        wanted, folded = name_key(name), name.strip().casefold()
        folder = folder_key(name)
        exact = self.by_key.get(name.strip())
        if exact is not None:
            return [exact]
        found = [s for s in self.students if name_key(s.name) == wanted]
        found = found or [s for s in self.students if folded in set(s.ids())]
        return found or [s for s in self.students if folder_key(s.name) == folder]

    def find(self, name: str) -> Student:
        """The one student ``name`` means (a key, a name, an id or an email); refuses none or several."""
        found = self.named(name)
        if not found:
            raise RosterError(f"no student {name!r} on the roster")
        if len(found) > 1:
            keys = ", ".join(student.key for student in found)
            raise RosterError(f"{len(found)} students are called {name!r} ({keys}): give the key")
        return found[0]

    def add(self, name: str, *, lms_id: str = "", sis_id: str = "", login: str = "", email: str = "") -> Roster:
        """A roster with one more student (a fresh key, even when the name is taken)."""
        if len(self.students) >= MAX_STUDENTS:
            raise RosterError(f"a roster holds at most {MAX_STUDENTS} students")
        name = clean(name, "the student's name", required=True)
        ids = {
            "lms_id": clean(lms_id, "the LMS id"), "sis_id": clean(sis_id, "the SIS id"),
            "login": clean(login, "the login"), "email": clean(email, "the email"),
        }  # fmt: skip
        for what, value in ids.items():
            clash = next((s for s in self.students if value and getattr(s, what) == value), None)
            if clash is not None:
                raise RosterError(f"{clash.name} ({clash.key}) already has the {what} {value!r}")
        base = folder_key(name)
        key, number = base, 1
        while key in self.by_key:
            number += 1
            key = f"{base}-{number}"
        return Roster((*self.students, Student(key, name, **ids)))

    def rename(self, name: str, new_name: str) -> Roster:
        """The roster with the student ``name`` means renamed (their key, hand-ins and progress stay)."""
        student = self.find(name)
        renamed = replace(student, name=clean(new_name, "the new name", required=True))
        return Roster(tuple(renamed if s is student else s for s in self.students))

    def remove(self, name: str) -> Roster:
        """The roster without the student ``name`` means (their sign-ins stop working)."""
        student = self.find(name)
        return Roster(tuple(s for s in self.students if s is not student))

    def seat_name(self, student: Student) -> str:
        """The name a seat shows (at most 9 letters): the first name, with an initial if two share it.

        >>> roster = Roster().add("Ada Lovelace").add("Ada Byron").add("Grace Hopper")
        >>> [roster.seat_name(s) for s in roster]
        ['Ada L', 'Ada B', 'Grace']
        """
        words = student.name.split()
        first = words[0][:SEAT_NAME]
        if sum(1 for s in self.students if s.name.split()[0][:SEAT_NAME] == first) > 1 and len(words) > 1:
            return f"{first[: SEAT_NAME - 2]} {words[-1][0]}"
        return first
