"""What the students handed in: the notebooks of a class folder, who, which exercise, when.

Four layouts are read, and may be mixed in one folder:

* one folder per student: ``SUBMISSIONS/ann/04_flips.ipynb`` (a notebook downloaded by
  hand from JupyterLite, ``04_flips (1).ipynb``, dropped in works too);
* flat files named ``STUDENT__ANYTHING.ipynb``: ``SUBMISSIONS/ann__04_flips.ipynb``;
* nbgrader's ``submitted/STUDENT/ASSIGNMENT/*.ipynb`` (the course folder or its
  ``submitted/``), and its exchange's ``inbound/STUDENT+ASSIGNMENT+TIME[+RANDOM]/*.ipynb``
  (the exchange's course folder or its ``inbound/``), the hand-in time from nbgrader's
  ``timestamp.txt``;
* the kit's hand-in store, ``handins/STUDENT/EXERCISE/STAMP.ipynb`` beside a receipt
  ``STAMP.json`` (``{"student": name as typed, "received": ISO-8601 UTC, ...}``); the
  class server's data folder (the one holding ``handins/``) may be named instead.

Which exercise a notebook is comes from its metadata (released copies carry it), else
its file name, else a folder it sits in.  A student who handed an exercise in more than
once has a *history* (oldest first); the gradebook grades the last or the best.

Trust boundary: the folder is the students'.  Only regular files are read (never a
symlink, a FIFO or a device; folders behind symlinks are not entered), each opened
without following links and read up to a bound; a notebook whose JSON is nested too
deeply is that student's error, never the grader's crash.
"""

from __future__ import annotations

import datetime
import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from course import schema
from course.grading import notebook as nbfile
from course.grading.notebook import NotebookError
from reversi.errors import ReversiError

#: The largest notebook read (a notebook with many pictures in its outputs is a few MB).
MAX_NOTEBOOK = 20 << 20
#: The largest receipt or nbgrader timestamp read.
MAX_SIDE_FILE = 64 << 10
#: The most files and folders looked at in a class folder (``/`` or ``/proc`` is refused, not walked).
MAX_ENTRIES = 200_000
#: The hand-in store's file name for a hand-in: its UTC time.
STAMP = re.compile(r"\A(\d{8}T\d{6}\.\d{6})Z\Z")
#: A hand-in folder of nbgrader's exchange: student, assignment, time and (newer nbgrader) a
#: random URL-safe string, joined by ``+``.
INBOUND = re.compile(r"\A(?P<student>[^+]+)\+(?P<assignment>[^+]+)\+(?P<time>[^+]+)(?:\+[\w-]+)?\Z")
UTC = datetime.timezone.utc


class GradebookError(NotebookError, ReversiError):
    """A class folder, flag or teacher's file the gradebook cannot use (named, with the reason)."""


@dataclass(frozen=True)
class HandIn:
    """One notebook handed in: by whom (folder name and name as typed), which, when, where."""

    student: str
    exercise: str
    path: Path
    received: datetime.datetime
    name: str
    layout: str  # "store", "nbgrader", "folder" or "flat"


@dataclass(frozen=True)
class Submission:
    """Every hand-in of one student for one exercise, oldest first."""

    student: str
    exercise: str
    history: tuple[HandIn, ...]

    @property
    def last(self) -> HandIn:
        return self.history[-1]

    @property
    def path(self) -> Path:
        return self.last.path

    @property
    def name(self) -> str:
        """The student's name as typed in the last hand-in (the folder name elsewhere)."""
        return self.last.name


def read_regular(path: Path, limit: int = MAX_NOTEBOOK) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Opened without following a symlink and without blocking on a FIFO, then checked
    with ``fstat`` on what was opened, so a file swapped after listing is refused too.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        reason = "a symlink" if error.errno == errno.ELOOP else error.strerror
        raise GradebookError(f"{path}: cannot read it ({reason})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GradebookError(f"{path}: not a regular file")
        if info.st_size > limit:
            raise GradebookError(f"{path}: {info.st_size} bytes (at most {limit})")
        with os.fdopen(fd, "rb", closefd=False) as file:
            want = min(limit, info.st_size) + 1  # a read allocates what it is asked for
            data = file.read(want)
            if len(data) == want and want <= limit:  # the file grew after fstat
                data += file.read(limit + 1 - want)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise GradebookError(f"{path}: more than {limit} bytes")
    return data


def collect(folder: Path, known: list[str]) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (sorted by student, exercise), and what was left out."""
    root = root_of(folder)
    found, warnings = find(root, known)
    submissions, more = group(found, root)
    return submissions, warnings + more


def root_of(folder: Path) -> Path:
    """Where the hand-ins are: ``folder``, or its nbgrader ``submitted/`` or ``inbound/``, or
    ``handins/``."""
    # an nbgrader course folder, its exchange's course folder, the class server's data
    for inner in ("submitted", "inbound", "handins"):
        if (folder / inner).is_dir() and not (folder / inner).is_symlink():
            return folder / inner
    return folder


def find(root: Path, known: list[str]) -> tuple[list[HandIn], list[str]]:
    """Every hand-in under ``root`` (in the order of its files), and what was left out."""
    warnings: list[str] = []
    found = []
    for path in _notebooks(root, warnings):
        handin = _handin(root, path.relative_to(root), known, warnings)
        if handin is not None:
            found.append(handin)
    return found, warnings


def group(found: list[HandIn], root: Path) -> tuple[list[Submission], list[str]]:
    """The hand-ins as submissions, one per student and exercise (sorted), each history oldest
    first; a warning for each student who handed an exercise in more than once."""
    by_student: dict[tuple[str, str], list[HandIn]] = {}
    for handin in found:
        by_student.setdefault((handin.student, handin.exercise), []).append(handin)
    submissions, warnings = [], []
    for (student, exercise), handins in sorted(by_student.items()):
        history = tuple(sorted(handins, key=lambda h: (h.received, str(h.path))))
        submissions.append(Submission(student, exercise, history))
        if len(history) > 1:
            warnings.append(
                f"{student} handed in {exercise} {len(history)} times: the last is "
                f"{history[-1].path.relative_to(root)}"
            )
    return submissions, warnings


def _notebooks(folder: Path, warnings: list[str]) -> list[Path]:
    """Every ``*.ipynb`` under ``folder`` that is a regular file, hidden folders left out."""
    found = []
    seen = 0
    for root, folders, files in os.walk(folder, followlinks=False):
        seen += len(folders) + len(files)
        if seen > MAX_ENTRIES:
            raise GradebookError(
                f"{folder} holds more than {MAX_ENTRIES} files and folders: not a class's hand-ins"
            )
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(files):
            if not name.endswith(".ipynb") or name.startswith("."):
                continue
            path = Path(root, name)
            mode = path.lstat().st_mode
            if stat.S_ISREG(mode):
                found.append(path)
            else:
                kind = "a symlink" if stat.S_ISLNK(mode) else "not a regular file"
                warnings.append(f"skipped {path.relative_to(folder)}: {kind}")
    return found


def _handin(folder: Path, relative: Path, known: list[str], warnings: list[str]) -> HandIn | None:
    path = folder / relative
    parts = relative.parts
    inbound = INBOUND.match(parts[0]) if len(parts) > 1 else None
    if inbound:
        student = inbound["student"]
    elif len(parts) > 1:
        student = parts[0]
    elif "__" in path.stem:
        student = path.stem.split("__", 1)[0]
    else:
        warnings.append(
            f"skipped {relative}: put it in a folder named after the student or name it STUDENT__..."
        )
        return None
    try:
        notebook: dict[str, Any] = nbfile.parse(read_regular(path), str(path))
    except NotebookError:
        notebook = {}  # graded later, where its problem becomes the student's error
    exercise = nbfile.exercise_name(notebook, path, known)
    if exercise is None:
        exercise = next((p for p in reversed(parts[1:-1]) if p in known), None)
    if exercise is None and inbound and inbound["assignment"] in known:
        exercise = inbound["assignment"]
    if exercise is None:
        warnings.append(f"skipped {relative}: not one of the exercises")
        return None
    received, name, layout = _when(path, len(parts), inbound["time"] if inbound else None)
    return HandIn(student, exercise, path, received, name or student, layout)


def _when(path: Path, depth: int, inbound: str | None) -> tuple[datetime.datetime, str, str]:
    """The hand-in time, the name as typed (or ''), and the layout the file came in
    (``inbound``: the time in the name of an nbgrader exchange's hand-in folder)."""
    match = STAMP.match(path.stem)
    if match and depth == 3:
        receipt = _receipt(path.with_suffix(".json"))
        received = _time(receipt.get("received")) or _time(match.group(1) + "+00:00")
        student = receipt.get("student")
        if received:
            return received, student if isinstance(student, str) else "", "store"
    if depth >= 3 or inbound:
        try:
            text = read_regular(path.parent / "timestamp.txt", MAX_SIDE_FILE).decode()
        except (NotebookError, UnicodeDecodeError):
            text = ""
        received = _time(_nbgrader_time(text)) or _time(_nbgrader_time(inbound or ""))
        if received:
            return received, "", "nbgrader"
    mtime = datetime.datetime.fromtimestamp(path.lstat().st_mtime, UTC)
    return mtime, "", "folder" if depth > 1 else "flat"


_RECEIPT = schema.Limits(bytes=MAX_SIDE_FILE, depth=4, items=1000)


def _receipt(path: Path) -> dict[str, Any]:
    try:
        data = schema.read_json(read_regular(path, MAX_SIDE_FILE), str(path), _RECEIPT)
    except (NotebookError, schema.SchemaError):
        return {}
    return data if isinstance(data, dict) else {}


def _nbgrader_time(text: str) -> str:
    """nbgrader's ``2026-11-24 09:30:00.123456 UTC`` as ISO-8601 text."""
    return text.strip().removesuffix(" UTC").removesuffix("UTC")


def _time(text: Any) -> datetime.datetime | None:
    """A UTC time from ISO-8601 text (naive means UTC), or None."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
