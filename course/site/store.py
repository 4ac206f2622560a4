"""The hand-in store: every notebook a student hands in, kept on disk, never overwritten.

Layout (shared with the grader, which reads it)::

    DATA/handins/<student>/<exercise>/<stamp>.ipynb
    DATA/handins/<student>/<exercise>/<stamp>.json   {"student", "exercise", "received", "bytes", "sha256"}

``<student>`` is a safe folder name made from the name as typed (lowercase ASCII
letters, digits, ``-`` and ``_``), ``<stamp>`` the UTC time ``YYYYMMDDTHHMMSS.ffffffZ``.
The store checks everything before it writes anything: the names, the size, that the
file is a notebook, the student's count and byte limits.  It never writes outside its
folder (every path is made from checked names and checked again), and it keeps no
state but the files, so it survives a restart.  A :class:`Flood` guard limits how
often one address may hand in.  Every refusal is a :class:`HandInError` whose message
is written for the student.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from course.i18n import N_
from course.i18n import gettext as _
from course.schema import Limits, SchemaError, read_json
from course.schema import text as schema_text
from course.site import SiteError

#: Largest notebook taken (bytes).
MAX_NOTEBOOK = 2_000_000
#: Most hand-ins kept per student, and most bytes.
MAX_PER_STUDENT = 200
MAX_BYTES_PER_STUDENT = 50_000_000
MAX_NAME = 40
#: How much JSON a notebook may hold (a lesson's notebook nests about 8 levels).
NOTEBOOK_LIMITS = Limits(bytes=MAX_NOTEBOOK, depth=64, items=200_000)
STAMP = re.compile(r"[0-9]{8}T[0-9]{6}\.[0-9]{6}Z")
EXERCISE_NAME = re.compile(r"(?:[0-9]{2}|project)_[a-z0-9_]{1,40}")
#: The names a hand-in gives, as its refusals name them (translated where shown).
STUDENT_NAME, EXERCISE = N_("the student name"), N_("the exercise name")


class HandInError(SiteError):
    """A hand-in refused; the message says why, for the student who sent it."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _check_text(value: object, what: str) -> str:
    """``value`` as text, refused if it is not a short line of text without a path separator;
    ``what`` is :data:`STUDENT_NAME` or :data:`EXERCISE`."""
    if not isinstance(value, str):
        raise HandInError(_("{what} is missing: give it as text").format(what=_(what)))
    try:  # course.schema says the name (marked with N_) in the reader's language
        text = schema_text(value, what, MAX_NAME)
    except SchemaError as refused:
        raise HandInError(str(refused)) from None
    if any(ch in "/\\" for ch in text) or text in (".", ".."):
        separator = _("{what} {text!r} contains a path separator ('/' or '\\')")
        raise HandInError(separator.format(what=_(what), text=text))
    return text


def student_folder(name: object) -> str:
    """The safe folder name for a student's name as typed.

    >>> student_folder("Zoë Martin")
    'zoe-martin'
    >>> student_folder("../etc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    course.site.store.HandInError: the student name '../etc' contains a path separator ...
    """
    text = _check_text(name, STUDENT_NAME)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    folder = re.sub(r"[^a-z0-9_-]+", "-", ascii_text).strip("-_")
    if not folder:
        empty = _("the student name {text!r} needs at least one letter or digit (a-z, 0-9)")
        raise HandInError(empty.format(text=text))
    return folder


def exercise_name(name: object, known: frozenset[str] | None = None) -> str:
    """The exercise's name as in exercises/ (``04_flips``) or a project's, checked.

    >>> exercise_name("project_tournament")
    'project_tournament'
    """
    text = _check_text(name, EXERCISE)
    if not EXERCISE_NAME.fullmatch(text):
        unlike = _("{text!r} is not an exercise name such as '04_flips' or 'project_tournament'")
        raise HandInError(unlike.format(text=text))
    if known is not None and text not in known:
        raise HandInError(_("there is no exercise {text!r} in this class (known: {known})").format(
            text=text, known=", ".join(sorted(known))))  # fmt: skip
    return text


def check_notebook(data: bytes) -> dict[str, Any]:
    """The notebook in ``data``, or a refusal saying why it is not one."""
    if len(data) > MAX_NOTEBOOK:
        raise HandInError(_("the notebook is {size} bytes; at most {limit} are taken").format(
            size=len(data), limit=MAX_NOTEBOOK), 413)  # fmt: skip
    try:
        notebook = read_json(data, "the notebook", NOTEBOOK_LIMITS)
    except SchemaError as refused:
        raise HandInError(_("that is not a notebook: {reason}").format(reason=refused)) from None
    if (
        not isinstance(notebook, dict)
        or not isinstance(notebook.get("cells"), list)
        or notebook.get("nbformat") != 4
    ):
        raise HandInError(_("that is not a notebook: it has no 'cells' list or is not nbformat 4"))
    return notebook


def _utc_stamp(moment: datetime) -> str:
    """``YYYYMMDDTHHMMSS.ffffffZ`` for a UTC time."""
    return moment.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


@dataclass(frozen=True)
class Receipt:
    """What the store kept: the receipt shown to the student and saved beside the notebook."""

    student: str
    exercise: str
    received: str
    bytes: int
    sha256: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class HandInStore:
    """The hand-ins under ``DATA/handins``; ``clock`` returns the current UTC time."""

    def __init__(
        self,
        data: Path,
        known_exercises: frozenset[str] | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
        max_per_student: int = MAX_PER_STUDENT,
        max_bytes_per_student: int = MAX_BYTES_PER_STUDENT,
    ) -> None:
        self.root = (Path(data) / "handins").resolve()
        self.known = known_exercises
        self.clock = clock
        self.max_per_student = max_per_student
        self.max_bytes_per_student = max_bytes_per_student
        self._lock = threading.Lock()

    def hand_in(self, student: object, exercise: object, data: bytes, key: str | None = None) -> Receipt:
        """Keep ``data`` as a new hand-in of ``exercise`` by ``student``; refuses with the reason.

        ``key`` is the signed-in student's folder (course.roster); without one, the name's.
        """
        with self._lock:  # one at a time (the server calls it from threads): quotas hold exactly
            return self._hand_in(student, exercise, data, key)

    def _hand_in(self, student: object, exercise: object, data: bytes, key: str | None) -> Receipt:
        folder_name = student_folder(key if key is not None else student)
        exercise = exercise_name(exercise, self.known)
        check_notebook(data)
        student_dir = self._inside(self.root / folder_name)
        count, used = self._usage(student_dir)
        if count >= self.max_per_student:
            raise HandInError(_("{student} has handed in {count} times, the most this class keeps").format(
                student=student, count=count), 429)  # fmt: skip
        if used + len(data) > self.max_bytes_per_student:
            raise HandInError(_("{student} has no room left for hand-ins ({used} bytes kept)").format(
                student=student, used=used), 413)  # fmt: skip
        target = self._inside(student_dir / exercise)
        target.mkdir(parents=True, exist_ok=True)
        moment = self.clock()
        latest = max((p.stem for p in target.glob("*.ipynb") if STAMP.fullmatch(p.stem)), default="")
        if _utc_stamp(moment) <= latest:  # the clock went back: a later hand-in still sorts last
            moment = datetime.strptime(latest, "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=timezone.utc)
            moment += timedelta(microseconds=1)
        # Written whole before it has its name, so a crash or a restart mid-write keeps nothing
        # half: the grader reads only named notebooks, and the student, with no receipt, hands in again.
        handle, part = tempfile.mkstemp(prefix=".part-", dir=target)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            while True:
                stamp = _utc_stamp(moment)
                try:
                    os.link(part, target / f"{stamp}.ipynb")  # the name, taken only if free
                    break
                except FileExistsError:
                    moment += timedelta(microseconds=1)
        finally:
            Path(part).unlink(missing_ok=True)
        receipt = Receipt(
            str(student).strip(),
            exercise,
            moment.isoformat(),
            len(data),
            hashlib.sha256(data).hexdigest(),
        )
        written = target / f".{stamp}.json.part"
        written.write_text(json.dumps(receipt.as_dict(), indent=1), encoding="utf-8")
        os.replace(written, target / f"{stamp}.json")
        return receipt

    def _inside(self, path: Path) -> Path:
        resolved = path.resolve()
        if resolved.parent != self.root and resolved.parent.parent != self.root:
            raise HandInError(_("that name would leave the hand-in folder"))
        return resolved

    def _usage(self, student_dir: Path) -> tuple[int, int]:
        notebooks = list(student_dir.glob("*/*.ipynb")) if student_dir.is_dir() else []
        return len(notebooks), sum(path.stat().st_size for path in notebooks)

    def receipts(self) -> list[dict[str, Any]]:
        """Every receipt in the store, oldest first."""
        if not self.root.is_dir():
            return []
        found = []
        for path in self.root.glob("*/*/*.json"):
            try:
                receipt = json.loads(path.read_text(encoding="utf-8")[:10_000])
            except (OSError, ValueError):
                continue
            if isinstance(receipt, dict):
                receipt["folder"] = path.parent.parent.name
                found.append(receipt)
        return sorted(found, key=lambda r: str(r.get("received", "")))

    def summary(self) -> list[dict[str, Any]]:
        """One row per student and exercise: how many hand-ins and when the last arrived."""
        rows: dict[tuple[str, str], dict[str, Any]] = {}
        for receipt in self.receipts():
            key = (receipt["folder"], str(receipt.get("exercise")))
            row = rows.setdefault(
                key, {"student": receipt.get("student"), "exercise": key[1], "count": 0}
            )
            row["count"] += 1
            row["last"] = receipt.get("received")
            row["student"] = receipt.get("student")
        return [rows[key] for key in sorted(rows)]


class Flood:
    """At most ``limit`` hand-ins from one address in ``window`` seconds (``clock``: monotonic s)."""

    def __init__(
        self, limit: int = 20, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.seen: dict[str, deque[float]] = {}

    def check(self, address: str) -> None:
        """Count one request from ``address``; refuses when it has sent too many lately."""
        now = self.clock()
        times = self.seen.setdefault(address, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            wait = times[0] + self.window - now
            raise HandInError(_("too many hand-ins from this computer: wait {wait} s and try again").format(
                wait=f"{wait:.0f}"), 429)  # fmt: skip
        times.append(now)
        if len(self.seen) > 10_000:  # forget the quiet addresses, so the table stays small
            for quiet in [a for a, t in self.seen.items() if not t or t[-1] <= now - self.window]:
                del self.seen[quiet]
