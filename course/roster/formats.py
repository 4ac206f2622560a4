"""Reading a class list as a school's gradebook exports it: Canvas, Moodle, or a plain CSV of names.

:func:`read_roster` takes the file's bytes and finds its layout from its header row:

* **Canvas** (Grades > Export): ``Student, ID, SIS User ID, SIS Login ID, Section, ...``
  (or ``LastName, FirstName`` first), names as ``Last, First``, then a row that says which
  assignments post grades by hand (first cell empty), a ``Points Possible`` row and the
  ``Student, Test`` of the student view, all skipped.  ``ID`` is Canvas's own user id.
* **Moodle**: the grader report's export (``First name, Last name, ID number, Institution,
  Department, Email address, ...``) or a user download (``id, username, email, firstname,
  lastname, idnumber, ...``), also with the German and French headers Moodle writes.
* **Plain**: a ``name`` column (or first and last name columns) with optional ``id``,
  ``username`` and ``email`` columns; or no header at all, one name a line.

UTF-8 with or without Excel's BOM, UTF-16 (Excel's "Unicode text"), else Windows-1252;
commas, semicolons or tabs; quoted fields with commas; at most :data:`MAX_BYTES`,
:data:`MAX_ROWS` rows and :data:`MAX_FIELDS` fields a row.  A refusal names the file,
the line and the reason.  :func:`merge` adds what is new to a roster and keeps the
students it already has.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from course.roster.model import Roster, RosterError, Student, clean, name_key

MAX_BYTES = 5_000_000
MAX_ROWS = 2_000
MAX_FIELDS = 200
#: Rows of a Canvas export that are not students (after "Last, First" became "First Last").
CANVAS_SKIP = frozenset({"points possible", "test student", "student, test", "muted", "manual posting"})
#: Header cells, compared case-folded, for each thing a row may give.
COLUMNS = {
    "full": ("name", "full name", "fullname", "student name", "student", "names", "students", "nom complet"),
    "first": ("first name", "firstname", "first", "given name", "vorname", "prénom"),
    "last": ("last name", "lastname", "last", "surname", "family name", "nachname", "nom"),
    "lms_id": ("id", "lms id", "student id", "student_id", "student number"),
    "sis_id": ("sis user id", "id number", "idnumber", "sis id", "sis_id", "id-nummer",
               "numéro d'identification"),
    "login": ("sis login id", "username", "login", "user name", "anmeldename", "nom d'utilisateur"),
    "email": ("email address", "email", "e-mail", "e-mail address", "mail", "e-mail-adresse",
              "adresse de courriel", "adresse courriel"),
}  # fmt: skip
EXPECTED = ("Give Canvas's or Moodle's export as it is, or a CSV with a 'name' column (or 'first "
            "name' and 'last name'), and optional 'id' and 'email' columns; or one name a line")


@dataclass(frozen=True)
class Imported:
    """One student as the file gives them."""

    name: str
    lms_id: str = ""
    sis_id: str = ""
    login: str = ""
    email: str = ""


IDS = tuple(field.name for field in fields(Imported) if field.name != "name")


@dataclass(frozen=True)
class Layout:
    """A file's kind and the column of each thing its rows give (None: not in the file)."""

    kind: str
    columns: dict[str, int]

    def read(self, row: list[str]) -> Imported | None:
        """The student of ``row``, or None for a row that is no student."""
        cell = {what: row[index] if index < len(row) else "" for what, index in self.columns.items()}
        name = cell.get("full") or f"{cell.get('first', '')} {cell.get('last', '')}".strip()
        if self.kind == "Canvas":
            name = _canvas_name(name)
            if not name or name.casefold() in CANVAS_SKIP:
                return None
        return Imported(name, **{what: cell.get(what, "") for what in IDS}) if name else None


def _canvas_name(name: str) -> str:
    """Canvas's ``Lovelace, Ada`` as ``Ada Lovelace`` (``="..."`` is how it quotes a leading ``=``)."""
    if name.startswith('="') and name.endswith('"'):
        name = name[2:-1]
    last, comma, first = name.partition(",")
    return f"{first.strip()} {last.strip()}" if comma and first.strip() else name.strip()


def layout(header: list[str]) -> Layout | None:
    """The layout a header row announces, or None when it names no column of students."""
    folded = [cell.casefold().strip() for cell in header]
    columns = {}
    for what, names in COLUMNS.items():
        found = next((folded.index(name) for name in names if name in folded), None)
        if found is not None:
            columns[what] = found
    if "first" in columns and "last" in columns:
        columns.pop("full", None)
    elif "full" in columns:
        columns.pop("first", None)
        columns.pop("last", None)
    else:
        return None
    if "lms_id" in columns and "sis login id" in folded:
        return Layout("Canvas", columns)
    if "full" not in columns and ("sis_id" in columns or "login" in columns):
        return Layout("Moodle", columns)
    return Layout("CSV", columns)


def _text(data: bytes, source: str) -> str:
    if len(data) > MAX_BYTES:
        raise RosterError(f"{source} is {len(data)} bytes; a class list of at most {MAX_BYTES} is read")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise RosterError(f"{source} begins like UTF-16 text but is not") from None
    if b"\x00" in data:
        raise RosterError(f"{source} is not a text file (a CSV export is)")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1")  # every byte is a character: odd ones are refused by name


def _delimiter(text: str) -> tuple[str, Layout | None]:
    """The separator whose first row is a header the kit knows (else the sniffed one: no header).

    Only the separator is sniffed: quotes are always ``"``, as spreadsheets write them.
    """
    try:
        sniffed = csv.Sniffer().sniff(text[:20_000], delimiters=",;\t").delimiter
    except csv.Error:
        sniffed = ","
    for delimiter in dict.fromkeys((sniffed, ",", ";", "\t")):
        try:
            reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
            header = next((row for row in reader if any(cell.strip() for cell in row)), [])
        except csv.Error:
            continue  # _rows names the line
        found = layout(header) if len(header) <= MAX_FIELDS else None
        if found is not None:
            return delimiter, found
    return sniffed, None


def _rows(text: str, delimiter: str, source: str) -> list[tuple[int, list[str]]]:
    """The non-blank rows and the line each ends on, bounded in fields and count."""
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for row in reader:
            if len(row) > MAX_FIELDS:
                raise RosterError(f"{source}, line {reader.line_num}: {len(row)} fields; at most "
                                  f"{MAX_FIELDS} are read")  # fmt: skip
            if any(cell.strip() for cell in row):
                rows.append((reader.line_num, [cell.strip() for cell in row]))
            if len(rows) > MAX_ROWS + 3:  # the header and Canvas's rows that are no students
                raise RosterError(f"{source}, line {reader.line_num}: more than {MAX_ROWS} rows; "
                                  f"a roster holds at most {MAX_ROWS} students")  # fmt: skip
    except csv.Error as error:
        raise RosterError(f"{source}, line {reader.line_num}: not CSV the kit can read: {error}") from None
    return rows


def read_class_list(data: bytes, source: str) -> tuple[str, list[Imported]]:
    """The kind of class list ``data`` is (``Canvas``, ``Moodle``, ``CSV``, ``list of names``) and
    its students in the file's order; ``source`` names the file in a refusal."""
    text = _text(data, source)
    delimiter, found = _delimiter(text)
    rows = _rows(text, delimiter, source)
    if not rows:
        raise RosterError(f"{source} is empty. {EXPECTED}")
    if found is None:
        line, first = rows[0]
        if any(len(row) > 1 for _, row in rows):
            raise RosterError(f"{source}, line {line}: its first line names no column of students "
                              f"({', '.join(first[:6])}). {EXPECTED}")  # fmt: skip
        kind, read = "list of names", [(number, Imported(row[0])) for number, row in rows]
    else:
        kind = found.kind
        read = [(number, student) for number, row in rows[1:] if (student := found.read(row)) is not None]
    if not read:
        raise RosterError(f"{source} has a header but no student in it. {EXPECTED}")
    students = []
    for number, student in read:
        try:
            students.append(Imported(**{what: clean(getattr(student, what), f"the {_said(what)}",
                                        required=what == "name") for what in ("name", *IDS)}))  # fmt: skip
        except RosterError as refused:
            raise RosterError(f"{source}, line {number}: {refused}") from None
    return kind, students


def read_roster(data: bytes, source: str) -> list[Imported]:
    """The students of a class list file (Canvas, Moodle or a CSV of names), in its order.

    >>> read_roster(b'Student,ID,SIS User ID,SIS Login ID,Section\\n"Lovelace, Ada",7,S7,ada,P3\\n', "x.csv")
    [Imported(name='Ada Lovelace', lms_id='7', sis_id='S7', login='ada', email='')]
    """
    return read_class_list(data, source)[1]


def merge(roster: Roster, imported: Sequence[Imported]) -> tuple[Roster, list[str]]:
    """``roster`` with the students it lacks added; the lines say what changed.

    A row is a student already on the roster when an id of theirs matches (Canvas's id,
    the SIS id, the login, then the email), else when the name matches a student whose
    ids do not contradict the row's (their missing ids are then taken from the file).  Two
    rows of one name with different ids are two students.
    """
    said: list[str] = []
    matched: set[str] = set()
    unchanged = 0
    for row in imported:
        known = _same(roster, row, matched)
        if known is None:
            roster = roster.add(row.name, **{what: getattr(row, what) for what in IDS})
            added = roster.students[-1]
            said.append(f"added {added.name} ({added.key}){_twins(roster, added)}")
            matched.add(added.key)
            continue
        matched.add(known.key)
        new_ids = {what: value for what in IDS if (value := getattr(row, what)) and not getattr(known, what)
                   and not any(getattr(s, what).casefold() == value.casefold() for s in roster)}
        notes = [f"the file names them {row.name!r}"] if name_key(row.name) != name_key(known.name) else []
        if new_ids:
            updated = replace(known, **new_ids)
            roster = Roster(tuple(updated if s.key == known.key else s for s in roster))
            notes.append("took " + ", ".join(f"{_said(what)} {value}" for what, value in new_ids.items()))
        if notes:
            said.append(f"kept {known.name} ({known.key}): {'; '.join(notes)}")
        else:
            unchanged += 1
    if unchanged:
        said.append(f"kept {unchanged} student{'s' if unchanged != 1 else ''} already on the list as they were")
    return roster, said


def _said(what: str) -> str:
    return {"lms_id": "id", "sis_id": "SIS id"}.get(what, what)


def _twins(roster: Roster, added: Student) -> str:
    """What tells ``added`` apart from students of the same name (nothing said when none)."""
    twins = [s.key for s in roster if name_key(s.name) == name_key(added.name) and s is not added]
    if not twins:
        return ""
    what = next((what for what in IDS if getattr(added, what)), None)
    apart = f"told apart by {_said(what)} {getattr(added, what)}" if what else "the file gives no id to tell them apart"
    return f": the same name as {', '.join(twins)}, {apart}"


def _same(roster: Roster, row: Imported, matched: set[str]) -> Student | None:
    """The roster's student ``row`` is, or None (a new student); ``matched``: keys already taken."""
    for what in IDS:
        value = getattr(row, what).casefold()
        found = next((s for s in roster if value and getattr(s, what).casefold() == value), None)
        if found is not None:
            return found
    return next((s for s in roster if s.key not in matched and name_key(s.name) == name_key(row.name)
                 and not any(getattr(s, what) and getattr(row, what) for what in IDS)), None)  # fmt: skip
