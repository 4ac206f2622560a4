"""What a class grading writes: each graded hand-in as a journal line, and the files it names.

A :class:`Marked` hand-in is plain data, enough for the sheet, the page and the journal.
The :class:`Journal` (``OUT-journal.jsonl``) is a file from an earlier run, so each line
is read through :mod:`course.schema` (bounded, never recursing); a line that does not
read is simply graded again.  :class:`Outputs` names every file a grading writes and
refuses, before anything is graded, one that cannot be written.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course import schema
from course.grading import notebook as nbfile
from course.grading import sheet
from course.grading.handins import GradebookError


@dataclass
class Marked:
    """One graded hand-in, as plain data: enough for the sheet, the page and the journal."""

    key: str
    student: str
    exercise: str
    received: str  # ISO-8601 UTC
    questions: dict[str, list[Any]]  # column: [passed, earned, points]
    error: str = ""
    answers: dict[str, str] = field(default_factory=dict)
    section: str = ""  # the exercise's part of the feedback page (HTML)
    isolated: bool = True  # whether the sandbox ran in namespaces of its own

    @property
    def earned(self) -> float:
        return sum(float(q[1]) for q in self.questions.values())

    @property
    def when(self) -> datetime.datetime:
        return datetime.datetime.fromisoformat(self.received)

    def result(self) -> sheet.ExerciseResult:
        questions = {column: sheet.Question(bool(q[0]), float(q[1]), float(q[2]))
                     for column, q in self.questions.items()}  # fmt: skip
        return sheet.ExerciseResult(questions, self.when, error=self.error, isolated=self.isolated)


def _time(value: str) -> str:
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        raise schema.SchemaError(f"{value[:40]!r} is not an ISO-8601 time") from None
    return value


def _questions(value: dict[str, Any]) -> dict[str, list[Any]]:
    for column, q in value.items():
        if not (type(q) is list and len(q) == 3 and type(q[0]) is bool
                and all(type(v) in (int, float) for v in q[1:])):  # fmt: skip
            raise schema.SchemaError(f"question {column[:40]!r} is not [passed, earned, points]")
    return value


def _answers(value: dict[str, Any]) -> dict[str, str]:
    if not all(isinstance(code, str) for code in value.values()):
        raise schema.SchemaError("answers must map answer tags to code")
    return value


_TEXT = 1000
#: A journal line: the fields of :class:`Marked` but its texts that may be blank or hold
#: lines (``error``, ``section``: read by :meth:`Journal._entry`), and the journal's version.
MARKED = schema.Schema(
    "a journal line",
    (
        schema.Field("key", str, limit=_TEXT, strip=False),
        schema.Field("student", str, limit=_TEXT, strip=False),
        schema.Field("exercise", str, limit=_TEXT, strip=False),
        schema.Field("received", str, limit=100, clean=_time),
        schema.Field("questions", dict, limit=1000, clean=_questions),
        schema.Field("answers", dict, limit=1000, clean=_answers),
        schema.Field("isolated", bool),
    ),
    Marked,
    ignored=frozenset({"version"}),
)
#: How much of one journal line is read.
LINE = schema.Limits(bytes=64 << 20, depth=4, items=100_000)


class Journal:
    """Graded hand-ins appended to a JSON-lines file as each finishes, read back on a rerun.

    A line is written and flushed to disk before the next one, so a crash keeps every
    finished hand-in; a line cut short by the crash is ignored.  An entry is reused only
    when its key matches: the same notebook bytes, exercise source, seed and settings.
    """

    VERSION = 1

    def __init__(self, path: Path, fresh: bool = False) -> None:
        self.path = path
        self.entries: dict[str, Marked] = {}
        try:
            self._load(fresh)
        except OSError as error:
            raise nbfile.WriteError.of(error, self.path) from error
        self._lock = threading.Lock()

    def _load(self, fresh: bool) -> None:
        if fresh:
            self.path.unlink(missing_ok=True)
        elif self.path.is_file() and not self.path.is_symlink():
            with open(self.path, "rb") as file:
                for line in file:
                    marked = self._entry(line)
                    if marked is not None:
                        self.entries[marked.key] = marked
            with open(self.path, "rb+") as file:
                size = file.seek(0, os.SEEK_END)
                if size:
                    file.seek(size - 1)
                    if file.read(1) != b"\n":
                        file.write(b"\n")  # a line cut short by a crash ends here

    def _entry(self, line: bytes) -> Marked | None:
        """The entry on one line, or None for anything malformed (a line cut short...)."""
        try:
            data = schema.read_json(line, "a journal line", LINE)
            if not isinstance(data, dict) or data.get("version") != self.VERSION:
                return None
            texts = {name: data.pop(name, "") for name in ("error", "section")}
            if not all(isinstance(text, str) for text in texts.values()):
                return None
            return dataclasses.replace(MARKED.read(data), **texts)
        except schema.SchemaError:
            return None

    def get(self, key: str) -> Marked | None:
        """The entry graded under ``key``, or None."""
        return self.entries.get(key)

    def add(self, marked: Marked) -> None:
        """Keep ``marked`` and append it to the file, on disk before this returns."""
        line = json.dumps({"version": self.VERSION, **dataclasses.asdict(marked)})
        with self._lock:
            try:
                with open(self.path, "a", encoding="utf-8") as file:
                    file.write(line + "\n")
                    file.flush()
                    os.fsync(file.fileno())
            except OSError as error:
                raise nbfile.WriteError.of(error, self.path) from error
            self.entries[marked.key] = marked


@dataclass
class Outputs:
    """Every file a class grading writes, named from ``--out`` and ``--feedback``."""

    sheet: Path
    feedback: Path

    @property
    def canvas(self) -> Path:
        return self.sheet.with_name(f"{self.sheet.stem}-canvas.csv")

    @property
    def moodle(self) -> Path:
        return self.sheet.with_name(f"{self.sheet.stem}-moodle.csv")

    @property
    def summary(self) -> Path:
        return self.sheet.with_name(f"{self.sheet.stem}-summary.html")

    @property
    def journal(self) -> Path:
        return self.sheet.with_name(f"{self.sheet.stem}-journal.jsonl")

    def files(self) -> list[Path]:
        return [self.sheet, self.canvas, self.moodle, self.summary, self.journal]

    def check(self) -> None:
        """Refuse, before any grading, a file that exists and is not a regular file."""
        if not self.sheet.name or self.sheet.name in (".", ".."):
            raise GradebookError(f"the sheet's path must name a file, not {str(self.sheet)!r}")
        for path in self.files():
            if len(os.fsencode(path.name)) > 255:
                raise GradebookError(f"{path.name[:60]}...: a file name longer than 255 bytes")
            if path.is_symlink() or (path.exists() and not path.is_file()):
                raise GradebookError(
                    f"{path} exists and is not a regular file: it cannot be written"
                )
        if self.feedback.exists() and not self.feedback.is_dir():
            raise GradebookError(f"{self.feedback} exists and is not a folder")
        for folder in (self.sheet.absolute().parent, _existing(self.feedback)):
            if not os.access(folder, os.W_OK | os.X_OK):
                raise GradebookError(f"{folder} is not a folder the grader may write in")


def _existing(path: Path) -> Path:
    probe = path.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe
