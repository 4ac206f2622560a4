"""The class's self-checks, live: who passed which question, who is stuck, and for how long.

Each self-check a student runs in the browser classroom reports one :class:`Attempt`
(student, exercise, question, passed or not, the kind of mistake; never the code).
:class:`Progress` keeps them in the class data folder as JSON lines (``progress.jsonl``),
so they survive a restart and make the CSV after the lesson, and holds the grid the
teacher's overview shows: students by questions, the one stuck longest first.

Sans-I/O apart from its file: the time comes in as a value.  The attempts were read by
:data:`ATTEMPT` (course.site.progress_routes) before they reach here; the bounds
(attempts per student, students, rate) are kept here, in one place.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from course.i18n import gettext as _

#: At most this many attempts are kept per student, and this many students per class.
MAX_PER_STUDENT = 1_000
MAX_STUDENTS = 300
#: At most this many reports per student in :data:`RATE_WINDOW` seconds.
RATE_LIMIT = 30
RATE_WINDOW = 60.0
#: The file in the class data folder.
FILE = "progress.jsonl"
#: The CSV's columns, in order.
COLUMNS = ("time", "student", "exercise", "question", "passed", "mistake")


class ProgressRefused(ValueError):
    """A report not kept: ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Attempt:
    """One self-check run: who, which exercise and question, the verdict and the mistake's kind."""

    time: float
    student: str
    exercise: str
    question: str
    passed: bool
    mistake: str = ""


@dataclass
class Cell:
    """One student's state on one question: attempts, passed, and since when failing."""

    attempts: int = 0
    passed: bool = False
    failing_since: float | None = None
    mistake: str = ""

    def add(self, attempt: Attempt) -> None:
        self.attempts += 1
        if attempt.passed:
            self.passed, self.failing_since, self.mistake = True, None, ""
        else:
            if self.failing_since is None or self.passed:
                self.failing_since = attempt.time
            self.passed, self.mistake = False, attempt.mistake

    def text(self, now: float) -> str:
        """``ok`` or ``stuck 4 min (off by one), 5 tries`` as the grid shows it."""
        if self.passed:
            return f"ok ({self.attempts})"
        minutes = (now - (self.failing_since or now)) / 60
        mistake = f", {self.mistake}" if self.mistake else ""
        return f"failing {minutes:.0f} min{mistake} ({self.attempts})"


@dataclass
class Progress:
    """The attempts of a class, kept in ``folder/progress.jsonl`` and as a grid in memory."""

    folder: Path
    clock: Callable[[], float] = time.time
    #: The name the teacher sees for a student's key (the roster's; the key itself without one).
    names: Callable[[str], str] = str
    cells: dict[str, dict[str, Cell]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    recent: dict[str, deque[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        for attempt in self.attempts():
            self._take(attempt)

    @property
    def path(self) -> Path:
        return self.folder / FILE

    def record(self, student: str, exercise: str, question: str, passed: bool, mistake: str = "") -> Attempt:
        """Keep one attempt (refused when the student or the class is over its bounds)."""
        now = self.clock()
        if student not in self.counts and len(self.counts) >= MAX_STUDENTS:
            raise ProgressRefused(f"this class already has {MAX_STUDENTS} students' progress", 507)
        if self.counts.get(student, 0) >= MAX_PER_STUDENT:
            raise ProgressRefused(f"{student} already has {MAX_PER_STUDENT} self-checks kept", 507)
        times = self.recent.setdefault(student, deque())
        while times and times[0] <= now - RATE_WINDOW:
            times.popleft()
        if len(times) >= RATE_LIMIT:
            raise ProgressRefused(f"too many self-checks from {student}: wait a little", 429)
        times.append(now)
        attempt = Attempt(now, student, exercise, question, passed, mistake)
        self.folder.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(attempt)) + "\n")
        self._take(attempt)
        return attempt

    def attempts(self) -> Iterator[Attempt]:
        """Every attempt kept, oldest first (a line this module did not write is passed over)."""
        if not self.path.is_file():
            return
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                try:
                    yield Attempt(**json.loads(line))
                except (ValueError, TypeError):
                    continue

    def _take(self, attempt: Attempt) -> None:
        self.counts[attempt.student] = self.counts.get(attempt.student, 0) + 1
        questions = self.cells.setdefault(attempt.student, {})
        questions.setdefault(f"{attempt.exercise}/{attempt.question}", Cell()).add(attempt)

    def stuck_for(self, student: str, now: float) -> float:
        """How long ``student`` has been failing their longest-failing question (0 if none)."""
        since = [c.failing_since for c in self.cells[student].values() if c.failing_since is not None]
        return now - min(since) if since else 0.0

    def grid(self) -> dict[str, Any]:
        """The overview section: a row per student (stuck longest first), a column per question."""
        now = self.clock()
        questions = sorted({q for cells in self.cells.values() for q in cells})
        students = sorted(self.cells, key=lambda s: (-self.stuck_for(s, now), s))
        rows = [
            [self.names(student), f"{self.stuck_for(student, now) / 60:.0f} min"]
            + [self.cells[student][q].text(now) if q in self.cells[student] else "" for q in questions]
            for student in students
        ]
        return {
            "title": _("Self-checks (students stuck longest first; the CSV: /teacher/progress.csv?key=KEY)"),
            "columns": [_("Student"), _("Stuck"), *questions],
            "rows": rows,
        }

    def csv(self) -> str:
        """Every attempt as CSV, one row each (time in UTC, ISO 8601)."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for a in self.attempts():
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(a.time))
            cells = [self.names(a.student), a.exercise, a.question, "yes" if a.passed else "no", a.mistake]
            writer.writerow([stamp, *map(_inert, cells)])
        return out.getvalue()


def _inert(cell: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula (a name may start with ``=``)."""
    return f"'{cell}" if cell.startswith(("=", "+", "-", "@")) else cell
