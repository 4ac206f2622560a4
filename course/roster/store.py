"""The roster on disk: ``class/roster.json``, readable by the teacher, written whole or not at all.

The file is read through :mod:`course.schema` (bounded in size, depth and count; every
field checked) and written to a temporary file that then replaces it, so a crash or a
full disk never leaves half a roster.  :class:`RosterFile` reads it again when it
changed on disk, so the class server sees a student the teacher added, renamed or
removed at once.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from course.roster.model import MAX_STUDENTS, MAX_TEXT, Roster, RosterError, Student
from course.schema import Field, Limits, Schema, SchemaError

#: Where the teacher's commands keep the roster (the ignored class/ folder).
ROSTER = Path("class/roster.json")
LIMITS = Limits(bytes=4_000_000, depth=4, items=MAX_STUDENTS * 8 + 10)
STUDENT = Schema(
    "a student of the roster",
    (
        Field("key", str, limit=64, what="the key"),
        Field("name", str, limit=MAX_TEXT, what="the name"),
        *(Field(name, str, required=False, limit=MAX_TEXT, what=f"the {name}", strip=False)
          for name in ("lms_id", "sis_id", "login", "email")),
    ),  # fmt: skip
    Student,
)


def _students(value: object) -> tuple[Student, ...]:
    if not isinstance(value, list):
        raise SchemaError("the roster's 'students' must be a list")
    students = tuple(STUDENT.read(item) for item in value)
    keys = [student.key for student in students]
    if len(set(keys)) != len(keys):
        raise SchemaError("the roster names one key twice")
    return students


FILE: Schema[dict[str, Any]] = Schema(
    "the roster file",
    (Field("version", int), Field("students", list, clean=_students)),
    dict,
)


class RosterFile:
    """``path``'s roster: :meth:`load` (an empty roster when there is no file), :meth:`save`."""

    def __init__(self, path: Path = ROSTER) -> None:
        self.path = Path(path)
        self._seen: tuple[int, int] | None = None
        self._roster = Roster()

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> Roster:
        """The roster as the file holds it now (read again only when the file changed)."""
        try:
            status = self.path.stat()
        except FileNotFoundError:
            self._seen, self._roster = None, Roster()
            return self._roster
        seen = (status.st_mtime_ns, status.st_size)
        if seen != self._seen:
            try:
                data = FILE.load(self.path.read_bytes(), LIMITS)
            except SchemaError as refused:
                raise RosterError(f"{self.path} is not a roster the kit wrote: {refused}") from None
            self._roster, self._seen = Roster(data["students"]), seen
        return self._roster

    def save(self, roster: Roster) -> None:
        """Write ``roster`` whole (to a temporary file that then replaces the old one)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(
            {"version": 1, "students": [{k: v for k, v in asdict(s).items() if v} for s in roster]},
            ensure_ascii=False,
            indent=1,
        )
        handle, temporary = tempfile.mkstemp(prefix=".roster-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


class Places:
    """Where one class's files are: the roster, its sign-ins beside it, the server's data, the grades."""

    def __init__(
        self,
        roster: Path = ROSTER,
        data: Path = Path("class/classroom-data"),
        grades: Path = Path("class/grades.csv"),
    ) -> None:
        self.roster, self.data, self.grades = Path(roster), Path(data), Path(grades)

    @property
    def signin(self) -> Path:
        """The sign-in database (codes, sessions, claims): ``signin.sqlite`` beside the roster."""
        return self.roster.with_name("signin.sqlite")

    @property
    def handins(self) -> Path:
        return self.data / "handins"

    @property
    def progress(self) -> Path:
        return self.data / "progress.jsonl"
