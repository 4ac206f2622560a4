"""Grade a class: hand-ins in; sheets, a feedback page per student and a summary page out.

:mod:`~course.grading.handins` finds who handed in what and when (a folder per student,
flat files, nbgrader's layout, the kit's hand-in store); the :class:`Grader` grades one
notebook at a time in the sandbox; :func:`grade_folder` runs the class:

* every output path is checked before the first notebook is graded;
* each hand-in goes to a journal (``OUT-journal.jsonl``) the moment it is graded, and
  the student's row is appended to every sheet (flushed to disk) and the page written
  the moment a student is done, so a crash keeps every finished row and a rerun grades only what is left (``--regrade``
  starts afresh);
* a notebook that cannot be graded (not a notebook, nested too deeply, the grader's own
  failure) costs only that student, with the reason on the console and in the sheet;
* the last hand-in counts, or the best (``--pick best``); deadlines mark hand-ins late;
  the teacher's overrides (:mod:`~course.grading.overrides`) are applied to the sheet;
* out come ``OUT`` (:mod:`~course.grading.sheet`), ``OUT-canvas.csv``,
  ``OUT-moodle.csv``, ``OUT-summary.html`` (:mod:`~course.grading.summary`) and one page
  per student (:mod:`~course.grading.feedback`).

The :class:`Grader` keeps the teacher's folder safe: its files are read once, every
sandboxed run is refused access to it, and after each notebook their hashes are
compared; if anything changed, the files are put back and that notebook scores 0.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import itertools
import json
import math
import os
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, TextIO

from course.grading import checker, feedback, handins, sheet, similarity, summary
from course.grading import exercise as exercise_file
from course.grading import notebook as nbfile
from course.grading.checker import Report
from course.grading.exercise import Exercise
from course.grading.handins import GradebookError
from course.grading.notebook import NotebookError
from course.grading.overrides import Overrides
from course.grading.sandbox import KINDS, Sandbox
from reversi.callables import guarded_callback, require_callable
from reversi.errors import ArgumentError, shown

__all__ = [
    "Grader",
    "Marked",
    "Journal",
    "Outputs",
    "Choices",
    "Graded",
    "grade_folder",
    "summary_lines",
    "progress_bar",
    "collect",
]

#: The bounds of a grading's settings: seconds per notebook, parallel gradings, seed bits.
_MAX_TIMEOUT = 86400.0
_MAX_WORKERS = 256
_SEED_BITS = 128


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{what} must be text, not {shown(value)}")
    return value


def _settings(timeout: object, workers: object, seed: object, sandbox: object) -> None:
    """Refuse a timeout, a number of workers, a seed or a sandbox a grading cannot take."""
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= _MAX_TIMEOUT
    ):
        raise ArgumentError(
            f"timeout must be a number of seconds above 0 and at most {_MAX_TIMEOUT:g}, "
            f"not {shown(timeout)}"
        )
    if type(workers) is not int or not 1 <= workers <= _MAX_WORKERS:
        raise ArgumentError(
            f"workers must be a whole number from 1 to {_MAX_WORKERS}, not {shown(workers)}"
        )
    if seed is not None and (type(seed) is not int or seed.bit_length() > _SEED_BITS):
        raise ArgumentError(
            f"seed must be None or a whole number (of at most {_SEED_BITS} bits), not {shown(seed)}"
        )
    if sandbox not in KINDS:
        raise ArgumentError(f"sandbox must be one of {', '.join(KINDS)}, not {shown(sandbox)}")


class Grader:
    """Grades notebooks against the teacher's folder ``source_dir``, sandboxed, in parallel."""

    def __init__(
        self,
        source_dir: Path = checker.SOURCE_DIR,
        timeout: float = checker.DEFAULT_TIMEOUT,
        workers: int = 1,
        seed: int | None = None,
        sandbox: str = "auto",
        progress: Callable[[int, int, str], None] | None = None,
    ) -> None:
        source_dir = nbfile._as_path(source_dir, "source_dir")
        _settings(timeout, workers, seed, sandbox)
        if progress is not None:
            require_callable(progress, "progress", "taking (done, total, name)")
        self.source_dir = Path(source_dir)
        self.seed = exercise_file.load_seed(self.source_dir) if seed is None else seed
        self.timeout = timeout
        self.workers = max(1, workers)
        self.progress = progress
        self.sandbox = Sandbox(sandbox)
        self._exercises: dict[str, Exercise] = {}
        self._files = _snapshot(self.source_dir)
        self._lock = threading.Lock()

    def exercise(self, name: str) -> Exercise:
        """The teacher's exercise ``name``, loaded once (its cases built once)."""
        _text(name, "the exercise name")
        if name not in self._exercises:
            sources = checker.exercises(self.source_dir)
            if name not in sources:
                raise NotebookError(f"there is no exercise {name!r} in {self.source_dir}")
            self._exercises[name] = exercise_file.load(sources[name], self.seed)
        return self._exercises[name]

    def fingerprint(self, name: str) -> str:
        """What a grade of exercise ``name`` depends on besides the notebook (for the journal)."""
        _text(name, "the exercise name")
        source = self._files.get(f"{name}.ipynb", b"")
        settings = f"{self.seed}:{self.timeout}:{self.sandbox.kind}:"
        return hashlib.sha256(settings.encode() + source).hexdigest()

    def grade_one(self, path: Path, name: str) -> Report:
        """Grade the notebook at ``path`` as exercise ``name`` (loaded first)."""
        path = nbfile._as_path(path, "path")
        _text(name, "the exercise name")
        report = checker.grade_notebook(self.exercise(name), path, self.sandbox, self.timeout)
        with self._lock:
            changed = self._restore()
        if changed:
            report.notes.append(
                f"the teacher's files changed while this notebook ran ({changed}): "
                "they were put back, and this notebook scores 0"
            )
            for result in report.checks:
                result.passed, result.message = False, "the teacher's files were changed"
                result.cases_passed = 0
        return report

    def grade(self, submissions: Sequence[tuple[Path, str]]) -> list[Report]:
        """One report per ``(path, exercise)``, in the same order."""
        if isinstance(submissions, str | bytes) or not isinstance(submissions, Sequence) or not all(
            isinstance(item, tuple) and len(item) == 2
            and isinstance(item[0], str | os.PathLike) and isinstance(item[1], str)
            for item in submissions
        ):  # fmt: skip
            raise ArgumentError(
                f"submissions must be a list of (path, exercise name) pairs, not {shown(submissions)}"
            )
        for path, _ in submissions:
            nbfile._as_path(path, "a submission's path")
        names = list(dict.fromkeys(name for _, name in submissions))
        sources = checker.exercises(self.source_dir) if names else {}
        unknown = [name for name in names if name not in sources and name not in self._exercises]
        if unknown:
            raise NotebookError(f"there is no exercise {unknown[0]!r} in {self.source_dir}")
        for name in names:
            self.exercise(name)
        done = [0]

        def one(item: tuple[Path, str]) -> Report:
            path, name = item
            report = self.grade_one(path, name)
            with self._lock:
                done[0] += 1
                if self.progress:
                    self.progress(done[0], len(submissions), f"{Path(path).name}")
            return report

        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(one, submissions))

    def _restore(self) -> str:
        """Compare the teacher's files with the snapshot; put them back; what changed."""
        now = _snapshot(self.source_dir)
        changed = sorted(name for name in self._files.keys() | now.keys()
                         if _hash(self._files.get(name)) != _hash(now.get(name)))  # fmt: skip
        for name in changed:
            path = self.source_dir / name
            if name in self._files:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self._files[name])
            else:
                path.unlink()
        return ", ".join(changed)


def _is_points(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return abs(value) <= 10**15 if isinstance(value, int) else math.isfinite(value)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _hash(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


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

    def __post_init__(self) -> None:
        for name in ("key", "student", "exercise", "received", "error", "section"):
            _text(getattr(self, name), f"a marked hand-in's {name}")
        try:
            datetime.datetime.fromisoformat(self.received)
        except ValueError:
            raise ArgumentError(
                f"a marked hand-in's received must be an ISO-8601 time, not {shown(self.received)}"
            ) from None
        if not isinstance(self.questions, dict) or not all(
            isinstance(column, str) and type(q) is list and len(q) == 3
            and isinstance(q[0], bool) and all(_is_points(v) for v in q[1:])
            for column, q in self.questions.items()
        ):  # fmt: skip
            raise ArgumentError(
                "a marked hand-in's questions must map each column to [passed, earned, points], "
                f"not {shown(self.questions)}"
            )
        if not isinstance(self.answers, dict) or not all(
            isinstance(tag, str) and isinstance(text, str) for tag, text in self.answers.items()
        ):
            raise ArgumentError(
                f"a marked hand-in's answers must map answer tags to code, not {shown(self.answers)}"
            )
        if type(self.isolated) is not bool:
            raise ArgumentError(
                f"a marked hand-in's isolated must be True or False, not {shown(self.isolated)}"
            )

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


class Journal:
    """Graded hand-ins appended to a JSON-lines file as each finishes, read back on a rerun.

    A line is written and flushed to disk before the next one, so a crash keeps every
    finished hand-in; a line cut short by the crash is ignored.  An entry is reused only
    when its key matches: the same notebook bytes, exercise source, seed and settings.
    """

    VERSION = 1

    def __init__(self, path: Path, fresh: bool = False) -> None:
        path = nbfile._as_path(path, "the journal's path")
        if type(fresh) is not bool:
            raise ArgumentError(f"fresh must be True or False, not {shown(fresh)}")
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
            with open(self.path, encoding="utf-8", errors="replace") as file:
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

    def _entry(self, line: str) -> Marked | None:
        """The entry on one line, or None for anything malformed (a line cut short...)."""
        try:
            data = json.loads(line)
            if data.pop("version") != self.VERSION:
                return None
            marked = Marked(**data)
            marked.when  # noqa: B018 (a malformed time refuses the entry)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None
        texts = (marked.key, marked.student, marked.exercise, marked.error, marked.section)
        questions = marked.questions
        well_formed = (
            all(isinstance(text, str) for text in texts)
            and isinstance(questions, dict)
            and all(type(q) is list and len(q) == 3 and type(q[0]) is bool
                    and all(type(v) in (int, float) for v in q[1:]) for q in questions.values())
            and isinstance(marked.answers, dict)
            and all(isinstance(v, str) for v in marked.answers.values())
            and type(marked.isolated) is bool
        )  # fmt: skip
        return marked if well_formed else None

    def get(self, key: str) -> Marked | None:
        """The entry graded under ``key``, or None."""
        return self.entries.get(_text(key, "key"))

    def add(self, marked: Marked) -> None:
        """Keep ``marked`` and append it to the file, on disk before this returns."""
        if not isinstance(marked, Marked):
            raise ArgumentError(f"a journal takes Marked hand-ins, not {shown(marked)}")
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

    def __post_init__(self) -> None:
        self.sheet = nbfile._as_path(self.sheet, "the sheet's path")
        self.feedback = nbfile._as_path(self.feedback, "the feedback folder")
        if not self.sheet.name or self.sheet.name in (".", ".."):
            raise ArgumentError(f"the sheet's path must name a file, not {shown(str(self.sheet))}")

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


@dataclass
class Choices:
    """What the teacher chose: which hand-in counts, deadlines, overrides, a fresh start."""

    pick: str = "last"  # or "best"
    deadlines: dict[str, datetime.datetime] = field(default_factory=dict)  # "" for every
    overrides: Overrides = field(default_factory=Overrides)
    regrade: bool = False

    def __post_init__(self) -> None:
        if self.pick not in ("last", "best"):
            raise ArgumentError(f"pick must be 'last' or 'best', not {shown(self.pick)}")
        if not isinstance(self.deadlines, dict) or not all(
            isinstance(name, str) and isinstance(moment, datetime.datetime)
            for name, moment in self.deadlines.items()
        ):
            raise ArgumentError(
                f"deadlines must map exercise names ('' for every) to times, not {shown(self.deadlines)}"
            )
        if not isinstance(self.overrides, Overrides):
            raise ArgumentError(f"overrides must be Overrides, not {shown(self.overrides)}")
        if type(self.regrade) is not bool:
            raise ArgumentError(f"regrade must be True or False, not {shown(self.regrade)}")

    def deadline(self, exercise: str) -> datetime.datetime | None:
        """The deadline of ``exercise`` (the one for every exercise if it has none), or None."""
        return self.deadlines.get(_text(exercise, "exercise"), self.deadlines.get(""))


@dataclass
class Graded:
    """A graded class: the sheet's rows, warnings, errors, the summary and the pages written."""

    rows: list[dict[str, str]]
    warnings: list[str]
    errors: list[str]
    summary: list[str]
    pages: dict[str, Path]


def grade_folder(
    folder: Path,
    out: Path,
    source_dir: Path = checker.SOURCE_DIR,
    timeout: float = checker.DEFAULT_TIMEOUT,
    workers: int = 1,
    seed: int | None = None,
    feedback_dir: Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    sandbox: str = "auto",
    choices: Choices | None = None,
    say: Callable[[str], None] = print,
    grader: Grader | None = None,
) -> Graded:
    """Grade every submission in ``folder``: the sheets beside ``out``, pages in ``feedback_dir``.

    Every output path is checked before the first notebook is graded.  Each hand-in's
    result goes to the journal as it finishes, and each student's row is appended to the
    sheets and the page written as the student finishes, so a crash keeps every finished row and a rerun
    grades only what is left.  A notebook that cannot be graded costs only its student:
    its reason goes to the sheet's ``errors`` column and to ``say`` at once.
    """
    folder, out, source_dir = (
        nbfile._as_path(folder, "folder"), nbfile._as_path(out, "out"), nbfile._as_path(source_dir, "source_dir")
    )
    if feedback_dir is not None:
        feedback_dir = nbfile._as_path(feedback_dir, "feedback_dir")
    _settings(timeout, workers, seed, sandbox)
    progress = guarded_callback(progress, "progress", "taking (done, total, name)")  # type: ignore[assignment]
    if choices is not None and not isinstance(choices, Choices):
        raise ArgumentError(f"choices must be Choices or None, not {shown(choices)}")
    require_callable(say, "say", "taking a line of text")
    say = guarded_callback(say, "say", "taking a line of text")  # type: ignore[assignment]
    if grader is not None and not isinstance(grader, Grader):
        raise ArgumentError(f"grader must be a Grader or None, not {shown(grader)}")
    choices = choices or Choices()
    outputs = Outputs(
        Path(out), Path(feedback_dir or Path(out).with_name(Path(out).stem + "-feedback"))
    )
    outputs.check()
    known = list(checker.exercises(source_dir))
    submissions, warnings = handins.collect(Path(folder), known)
    if not submissions:  # a sheet of nobody is a wrong folder, not a grading
        raise GradebookError(
            f"{folder}: no hand-ins of the exercises ({', '.join(known)}) in it: give the folder "
            "of the students' notebooks (a folder per student, STUDENT__NAME.ipynb files, "
            "nbgrader's submitted/ or the class server's DATA/handins)"
            + (f"; also: {warnings[0]}" if warnings else "")
        )
    with tempfile.TemporaryDirectory(prefix="grading-copies-") as copies:
        if grader is None:
            grader = Grader(source_dir, timeout, workers, seed, sandbox)
        exercises = {name: grader.exercise(name) for name in known
                     if any(s.exercise == name for s in submissions)}  # fmt: skip
        columns = _columns(exercises)
        choices.overrides.check({c: p for q in columns.values() for c, p in q.items()})
        outputs.feedback.mkdir(parents=True, exist_ok=True)
        run = _Run(grader, outputs, columns, choices, Path(copies), say, progress)
        run.grade(submissions, max(1, workers))
    return Graded(run.rows, warnings, run.errors, summary_lines(run.rows, columns), run.pages)


def _columns(exercises: dict[str, Exercise]) -> dict[str, dict[str, float]]:
    """Each exercise's question columns and their points (1 each unless the exercise says)."""
    return {
        name: {_column(name, q.tag): float(getattr(q, "points", 1.0)) for q in exercise.questions}
        for name, exercise in exercises.items()
    }


def _column(exercise: str, tag: str) -> str:
    return f"{exercise}:{tag.removeprefix(nbfile.CHECK)}"


class _Run:
    """One grading of a class: hand-ins in, journal lines, rows and pages out as students finish."""

    def __init__(
        self,
        grader: Grader,
        outputs: Outputs,
        columns: dict[str, dict[str, float]],
        choices: Choices,
        copies: Path,
        say: Callable[[str], None],
        progress: Callable[[int, int, str], None] | None,
    ) -> None:
        self.grader, self.outputs, self.columns, self.choices = grader, outputs, columns, choices
        self.copies, self.say, self.progress = copies, say, progress
        self.journal = Journal(outputs.journal, fresh=choices.regrade)
        self.marks: dict[str, dict[str, list[tuple[handins.HandIn, Marked | None]]]] = {}
        self.rows: list[dict[str, str]] = []
        self.errors: list[str] = []
        self.pages: dict[str, Path] = {}
        self._pages: dict[str, str] = {}  # the text of each page written
        self._counter = itertools.count()

    def grade(self, submissions: Sequence[handins.Submission], workers: int) -> None:
        work = [(s, h) for s in submissions
                for h in (s.history if self.choices.pick == "best" else s.history[-1:])]  # fmt: skip
        left = Counter(s.student for s, _ in work)
        for submission in submissions:
            self.marks.setdefault(submission.student, {})[submission.exercise] = [
                (handin, None) for handin in submission.history
            ]
        done = 0
        self.start()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(self.mark, handin): handin for _, handin in work}
            try:
                for future in as_completed(futures):
                    handin = futures[future]
                    self.record(handin, future.result())
                    done += 1
                    if self.progress:
                        self.progress(done, len(work), handin.path.name)
                    left[handin.student] -= 1
                    if left[handin.student] == 0:
                        self.finish(handin.student)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)  # what is done stays written
                raise
        self.close()

    def record(self, handin: handins.HandIn, marked: Marked) -> None:
        """Keep a graded hand-in in its student's history; say its error at once."""
        history = self.marks[handin.student][handin.exercise]
        history[:] = [(h, marked if h is handin else m) for h, m in history]
        if marked.error:
            message = f"{handin.student} {handin.exercise}: {marked.error}"
            self.errors.append(message)
            self.say(f"error: {message}")

    def mark(self, handin: handins.HandIn) -> Marked:
        """Grade one hand-in (or take it from the journal); never raises for the notebook's sake."""
        received = handin.received.isoformat()
        try:
            data = handins.read_regular(handin.path)
        except NotebookError as error:
            return self._failed(handin, "", str(error))
        digest = hashlib.sha256(data).hexdigest()
        key = hashlib.sha256(
            f"{digest}:{self.grader.fingerprint(handin.exercise)}:{handin.exercise}:"
            f"{handin.student}:{received}".encode("utf-8", "surrogatepass")
        ).hexdigest()
        found = self.journal.get(key)
        if found is not None:
            return found
        copy = self.copies / f"{next(self._counter)}.ipynb"
        try:
            handins.parse_notebook(data, handin.path)
            copy.write_bytes(data)
            report = self.grader.grade_one(copy, handin.exercise)
            report.path = handin.path
            isolated = bool(getattr(getattr(self.grader, "sandbox", None), "isolated", True))
            marked = Marked(key, handin.student, handin.exercise, received,
                            {_column(handin.exercise, r.tag): [r.passed, r.earned, r.points]
                             for r in report.checks},
                            "", dict(report.answers), feedback.section(report), isolated)  # fmt: skip
        except NotebookError as error:
            marked = self._failed(handin, key, str(error).replace(str(copy), str(handin.path)))
        except Exception as error:  # the grader's own failure on one notebook costs only it
            reason = f"the grader could not grade it ({type(error).__name__}: {str(error)[:200]})"
            return self._failed(handin, "", reason)  # not kept: a rerun tries again
        finally:
            copy.unlink(missing_ok=True)
        self.journal.add(marked)
        return marked

    def _failed(self, handin: handins.HandIn, key: str, reason: str) -> Marked:
        questions = {column: [False, 0.0, points]
                     for column, points in self.columns[handin.exercise].items()}  # fmt: skip
        section = (f"<h2>{escape(handin.exercise)}: not graded</h2>"
                   f'<p class="failed">{escape(reason)}</p>')  # fmt: skip
        return Marked(key, handin.student, handin.exercise, handin.received.isoformat(),
                      questions, reason, {}, section)  # fmt: skip

    def chosen(self, student: str, exercise: str) -> tuple[handins.HandIn, Marked] | None:
        """The hand-in that counts: the last graded, or the best (the later of equals).

        The best is chosen among the hand-ins on time when there is one: a late hand-in
        counts only when every hand-in of the exercise is late (it is then marked late).
        """
        graded = [(h, m) for h, m in self.marks[student].get(exercise, []) if m is not None]
        if not graded:
            return None
        if self.choices.pick == "best":
            deadline = self.choices.deadline(exercise)
            on_time = [(h, m) for h, m in graded if deadline is None or h.received <= deadline]
            return max(on_time or graded, key=lambda hm: (hm[1].earned, hm[0].received))
        return graded[-1]

    def line(self, student: str, similar: Sequence[str] = ()) -> sheet.Student:
        """The student's line: the hand-in that counts of each exercise, late or not."""
        record = sheet.Student(student, student, similar=list(similar))
        for exercise in self.marks[student]:
            chosen = self.chosen(student, exercise)
            if chosen is None:
                continue
            handin, marked = chosen
            result = marked.result()
            deadline = self.choices.deadline(exercise)
            result.late = deadline is not None and handin.received > deadline
            record.exercises[exercise] = result
            record.name = handin.name
        return record

    def start(self) -> None:
        """Sheets with their headers only, before anything is graded (rows are appended)."""
        self.rows = []
        self._write_sheets()

    def finish(self, student: str) -> None:
        """A student is done: the row appended to every sheet (on disk at once), the page."""
        record = self.line(student)
        row = sheet.rows([record], self.columns, self.choices.overrides)[0]
        sheet.append([row], self.outputs.sheet, sheet.header(self.columns))
        canvas = sheet.canvas_rows([row], self.columns)
        sheet.append(canvas[1:], self.outputs.canvas, list(canvas[0]))
        sheet.append(sheet.moodle_rows([row], self.columns), self.outputs.moodle, self._moodle)
        self._write_page(record, row)

    def close(self) -> None:
        """After the last student: near copies flagged, sorted sheets, pages, the summary."""
        reports = {
            student: {
                exercise: Report(Path(), exercise, answers=chosen[1].answers)
                for exercise in self.marks[student]
                if (chosen := self.chosen(student, exercise)) is not None
            }
            for student in self.marks
        }
        exercises = {name: self.grader.exercise(name) for name in self.columns}
        flags = similarity.flag(reports, exercises)
        records = [self.line(student, flags.get(student, [])) for student in self.marks]
        self.rows = sheet.rows(records, self.columns, self.choices.overrides)
        self._write_sheets()
        by_id = {row["student_id"]: row for row in self.rows}
        for record in records:
            self._write_page(record, by_id[record.student_id])
        title = f"Class summary: {self.outputs.sheet.name}"
        _write_text(self.outputs.summary, summary.page(self.rows, self.columns, title))

    @property
    def _moodle(self) -> list[str]:
        return ["Username", "Full name", *self.columns, "Total", "Feedback"]

    def _write_sheets(self) -> None:
        sheet.write(self.rows, self.outputs.sheet, sheet.header(self.columns))
        canvas = sheet.canvas_rows(self.rows, self.columns)
        sheet.write(canvas, self.outputs.canvas, list(canvas[0]))
        sheet.write(sheet.moodle_rows(self.rows, self.columns), self.outputs.moodle, self._moodle)

    def _write_page(self, record: sheet.Student, row: sheet.Row) -> None:
        notes = [f"Student id: {record.student_id}"]
        if row["isolated"] == "no":
            notes.append("This grading ran without the sandbox's isolation (see docs/grading.md).")
        # which answer, never whose it is like: a page is handed to one student
        asked = dict.fromkeys(" ".join(line.split(" ")[:2]) for line in record.similar)
        notes += [f"Your teacher may ask about this answer: {answer}" for answer in asked]
        sections = []
        for exercise in self.columns:
            chosen = self.chosen(record.student_id, exercise)
            if chosen is None:
                continue
            handin, marked = chosen
            notes += self._history(record.student_id, exercise, handin)
            deadline = self.choices.deadline(exercise)
            if deadline is not None and handin.received > deadline:
                notes.append(f"{exercise} was handed in at {sheet.when(handin.received)}, after "
                             f"the deadline {sheet.when(deadline)}: it is marked late")  # fmt: skip
            for column in self.columns[exercise]:
                override = self.choices.overrides.get(record.student_id, column)
                if override is not None:
                    points = (
                        ""
                        if override.points is None
                        else f" {sheet.number(override.points)} points;"
                    )
                    notes.append(
                        f"Your teacher's word on {column}:{points} {override.comment}".rstrip()
                    )
            sections.append(marked.section)
        total = f"{row['points']} of {row['max_points']} points, {row['passed']} of {row['total']} questions passed"
        path = self.outputs.feedback / feedback.page_name(record.student_id)
        text = feedback.page(record.name, sections, notes, total)
        if self._pages.get(record.student_id) != text:
            _write_text(path, text)
            self._pages[record.student_id] = text
        self.pages[record.student_id] = path

    def _history(self, student: str, exercise: str, chosen: handins.HandIn) -> list[str]:
        history = self.marks[student][exercise]
        if len(history) < 2:
            return []
        times = []
        for handin, marked in history:
            score = f" ({sheet.number(marked.earned)} points)" if marked is not None else ""
            mark = " [graded]" if handin is chosen else ""
            times.append(f"{sheet.when(handin.received)}{score}{mark}")
        which = "best" if self.choices.pick == "best" else "last"
        return [f"{exercise}: {len(history)} hand-ins, the {which} counts: " + ", ".join(times)]


def _write_text(path: Path, text: str) -> None:
    """Replace the file at ``path`` with ``text`` atomically."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:200]}.", dir=path.parent)
    except OSError as error:
        raise nbfile.WriteError.of(error, path) from error
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise nbfile.WriteError.of(error, path) from error
        raise


def summary_lines(
    rows: Sequence[dict[str, str]], columns: dict[str, dict[str, float]]
) -> list[str]:
    """One line per exercise: how many of the students who handed it in passed each question."""
    sheet.check_columns(columns)
    sheet.check_rows(rows, columns)
    rates = summary.pass_rates(rows, columns)
    lines = []
    for exercise, questions in columns.items():
        counts = [f"{column.split(':', 1)[1]} {rates[column][0]}/{rates[column][1]}"
                  for column in questions]  # fmt: skip
        lines.append(f"{exercise}: " + ", ".join(counts))
    return lines


def progress_bar(stream: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int, str], None]:
    """A progress callback drawing ``[#####.....] 12/40 ann__04_flips.ipynb`` on one line."""
    if not all(callable(getattr(stream, name, None)) for name in ("write", "flush")):
        raise ArgumentError(f"stream must be a text stream (with write and flush), not {shown(stream)}")
    if type(width) is not int or not 1 <= width <= 1000:
        raise ArgumentError(f"width must be a whole number from 1 to 1000, not {shown(width)}")

    def show(done: int, total: int, what: str) -> None:
        filled = width * done // max(1, total)
        end = "\n" if done == total else ""
        stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what[:40]:<40}{end}"
        )
        stream.flush()

    return show


def collect(
    folder: Path, source_dir: Path = checker.SOURCE_DIR
) -> tuple[list[handins.Submission], list[str]]:
    """The submissions found in ``folder`` (see :mod:`course.grading.handins`), and warnings."""
    folder, source_dir = nbfile._as_path(folder, "folder"), nbfile._as_path(source_dir, "source_dir")
    return handins.collect(folder, checker.exercises(source_dir))
