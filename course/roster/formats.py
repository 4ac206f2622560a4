"""Reading a class list as a school's gradebook exports it: Canvas, Moodle, or a plain CSV of names.

:func:`read_roster` takes the file's bytes and finds its layout from its header row:

* **Canvas** (Grades > Export): ``Student, ID, SIS User ID, SIS Login ID, Section, ...``,
  names as ``Last, First``, then a ``Points Possible`` row (and sometimes ``Muted``) and a
  ``Student, Test`` row, both skipped.  ``ID`` is Canvas's own id, kept for its grade file.
* **Moodle**: the grader report's export (``First name, Last name, ID number, ...,
  Email address``) or a user export (``username, email, firstname, lastname, idnumber``).
* **Plain**: a ``name`` column (or first and last name columns) with optional ``id`` and
  ``email`` columns; or no header at all, one name per line.

UTF-8 with or without Excel's BOM, or Windows-1252; commas, semicolons or tabs; quoted
fields with commas; at most :data:`MAX_BYTES`, :data:`MAX_ROWS` rows and
:data:`MAX_FIELDS` fields a row.  A refusal names the file, the line and the reason.
:func:`merge` adds what is new to a roster and keeps the students it already has.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from course.roster.model import Roster, RosterError, Student, clean, name_key

MAX_BYTES = 5_000_000
MAX_ROWS = 2_000
MAX_FIELDS = 200
#: Canvas rows that are not students.
CANVAS_SKIP = ("points possible", "muted", "student, test", "test student")


@dataclass(frozen=True)
class Imported:
    """One student as the file gives them."""

    name: str
    lms_id: str = ""
    sis_id: str = ""
    login: str = ""
    email: str = ""


def _text(data: bytes, source: str) -> str:
    if len(data) > MAX_BYTES:
        raise RosterError(f"{source} is {len(data)} bytes; a class list of at most {MAX_BYTES} is read")
    if b"\x00" in data:
        raise RosterError(f"{source} is not a text file (a CSV export is)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _rows(text: str, source: str) -> list[list[str]]:
    sample = text[:20_000]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = []
    try:
        for number, row in enumerate(csv.reader(io.StringIO(text, newline=""), dialect), start=1):
            if len(row) > MAX_FIELDS:
                raise RosterError(f"{source}, line {number}: {len(row)} fields; at most {MAX_FIELDS} are read")
            if any(cell.strip() for cell in row):
                rows.append([cell.strip() for cell in row])
            if len(rows) > MAX_ROWS + 3:
                raise RosterError(f"{source} has more than {MAX_ROWS} rows; a roster holds at most {MAX_ROWS}")
    except csv.Error as error:
        raise RosterError(f"{source} is not a CSV file the kit can read: {error}") from None
    return rows


def _column(header: list[str], *names: str) -> int | None:
    folded = [cell.casefold().strip() for cell in header]
    return next((folded.index(name) for name in names if name in folded), None)


def _canvas_name(sortable: str) -> str:
    """``Lovelace, Ada`` as ``Ada Lovelace`` (a name without a comma stays as it is)."""
    last, comma, first = sortable.partition(",")
    return f"{first.strip()} {last.strip()}" if comma and first.strip() else sortable


def _layout(header: list[str]) -> tuple[str, Callable[[list[str]], Imported | None]] | None:
    """The file's kind and how to read one of its rows, from its header (None: no header)."""
    def at(index: int | None, row: list[str]) -> str:
        return row[index] if index is not None and index < len(row) else ""

    student, canvas_id = _column(header, "student"), _column(header, "id")
    sis_user, sis_login = _column(header, "sis user id"), _column(header, "sis login id")
    if student is not None and canvas_id is not None and (sis_user is not None or sis_login is not None):
        def canvas(row: list[str]) -> Imported | None:
            name = at(student, row)
            if not name or name.strip().casefold().startswith(CANVAS_SKIP):
                return None
            return Imported(_canvas_name(name), at(canvas_id, row), at(sis_user, row), at(sis_login, row))

        return "Canvas", canvas
    first = _column(header, "first name", "firstname", "first", "given name")
    last = _column(header, "last name", "lastname", "surname", "last", "family name")
    moodle_id = _column(header, "id number", "idnumber")
    email = _column(header, "email address", "email", "e-mail", "mail")
    if first is not None and last is not None:
        user = _column(header, "username")
        kind = "Moodle" if moodle_id is not None or user is not None else "CSV"
        plain_id = _column(header, "id", "student id", "student_id", "sis id")

        def named(row: list[str]) -> Imported | None:
            name = f"{at(first, row)} {at(last, row)}".strip()
            if not name:
                return None
            if kind == "Moodle":
                return Imported(name, at(plain_id, row), at(moodle_id, row), at(user, row), at(email, row))
            return Imported(name, at(plain_id, row), "", "", at(email, row))

        return kind, named
    full = _column(header, "name", "student name", "full name", "student", "fullname")
    if full is not None:
        plain_id = _column(header, "id", "student id", "student_id", "sis id", "sis_id", "lms id", "number")

        def plain(row: list[str]) -> Imported | None:
            name = at(full, row)
            return Imported(name, at(plain_id, row), "", "", at(email, row)) if name else None

        return "CSV", plain
    return None


def read_roster(data: bytes, source: str) -> tuple[str, list[Imported]]:
    """The students of a class list file (its kind, then the students in its order)."""
    rows = _rows(_text(data, source), source)
    if not rows:
        raise RosterError(f"{source} is empty: export the class list from your gradebook, or write one name a line")
    found = _layout(rows[0])
    if found is None:
        if max(len(row) for row in rows) > 1:
            raise RosterError(
                f"{source}: its first line names no column of students ({', '.join(rows[0][:6])}). "
                "Give Canvas's or Moodle's export as it is, or a CSV with a 'name' column "
                "(or 'first name' and 'last name'), and optional 'id' and 'email' columns"
            )
        kind, students = "list of names", [Imported(row[0]) for row in rows]
    else:
        kind, read = found
        students = [student for row in rows[1:] if (student := read(row)) is not None]
    if not students:
        raise RosterError(f"{source} has a header but no student in it")
    checked = []
    for number, student in enumerate(students, start=2 if found else 1):
        try:
            checked.append(replace(student, name=clean(student.name, "the name", required=True)))
        except RosterError as refused:
            raise RosterError(f"{source}, student {number - 1}: {refused}") from None
    return kind, checked


def merge(roster: Roster, students: Sequence[Imported]) -> tuple[Roster, list[str]]:
    """``roster`` with the new students added (the ones it has, by id, email or name, kept)."""
    said: list[str] = []
    seen: dict[str, int] = {}  # a name the file gives twice is two students
    for student in students:
        known = _same(roster, student, seen)
        if known is not None:
            said.append(f"kept {known.name} ({known.key})")
            continue
        roster = roster.add(student.name, lms_id=student.lms_id, sis_id=student.sis_id,
                            login=student.login, email=student.email)  # fmt: skip
        added = roster.students[-1]
        twin = [s.key for s in roster if name_key(s.name) == name_key(added.name) and s is not added]
        also = f"; also called so: {', '.join(twin)}" if twin else ""
        said.append(f"added {added.name} ({added.key}{also})")
    return roster, said


def _same(roster: Roster, student: Imported, seen: dict[str, int]) -> Student | None:
    """The roster's student this row is: by an id or the email, else (a row with no id) the next
    student of that name the file has not matched yet."""
    for what in ("lms_id", "sis_id", "login", "email"):
        value = getattr(student, what)
        found = next((s for s in roster if value and getattr(s, what) == value), None)
        if found is not None:
            return found
    if any((student.lms_id, student.sis_id, student.login, student.email)):
        return None
    key = name_key(student.name)
    named = [s for s in roster if name_key(s.name) == key]
    index = seen.get(key, 0)
    seen[key] = index + 1
    return named[index] if index < len(named) else None
