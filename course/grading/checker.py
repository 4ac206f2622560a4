"""Grade exercise notebooks: the student's code runs sandboxed, the verdict is computed here.

Trust boundary: a student's answer code is hostile and has every right of the Python
that runs it.  So the grader takes only the student's *answer* cells (matched by their
``answer:NAME`` tag; check cells, outputs and anything else in the file are ignored) and
has them run in a sandbox (:mod:`course.grading.sandbox`) that holds nothing but the
exercise's student runtime (:mod:`course.grading.compose`): no module of the kit, no
teacher file, no other submission.  There the harness calls the student's functions on
the cases' plain arguments and sends back plain answers.  The verdict is computed in
this process, by the same :func:`~course.grading.runner.verdict` as the notebook's
self-check, on the notebook's cases and on grade-time cases drawn from the teacher's seed.

A notebook is graded in one sandboxed run with one wall clock (:func:`budget`), which
nothing the answer sends can extend.  A cell that runs too long costs only its own
questions and the cells after it; a question that runs too long costs only itself.  Where
the harness can fork (bubblewrap) it stops them itself, each question in a child process of
its own; where it cannot (Pyodide), the grader's clock ends the run and the run starts again
without that cell or question (:func:`_attempts`).  A cell that stops Python (a crash,
``os._exit``) is left out the same way; a run that stops while a forked question runs
leaves the questions with no answer yet at 0.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.grading import notebook as nbfile
from course.grading import wire
from course.grading.exercise import Exercise, Question
from course.grading.notebook import ANSWER, NotebookError, _as_path
from course.grading.runner import Case, Failure, Raised, Reply, verdict
from course.grading.sandbox import Limits, Sandbox
from course.grading.table import ENTRIES, earned
from course.grading.views import BoardView
from course.grading.wire import Counter, load_answer
from reversi import Board
from reversi.cursormap import MapFileError
from reversi.errors import ArgumentError, IllegalMoveError, shown

__all__ = [
    "REPOSITORY",
    "SOURCE_DIR",
    "DEFAULT_TIMEOUT",
    "SHOWN_FAILURES",
    "RUNTIME_ERRORS",
    "STOPPED",
    "NOT_ISOLATED",
    "STARTUP",
    "CheckResult",
    "Report",
    "exercises",
    "identify",
    "read_submission",
    "answer_cells",
    "budget",
    "grade_notebook",
    "judge",
    "scored",
    "check",
    "grade",
]

REPOSITORY = Path(__file__).resolve().parents[2]
SOURCE_DIR = REPOSITORY / "exercises" / "source"
DEFAULT_TIMEOUT = 20.0
SHOWN_FAILURES = 3


#: The runtime's errors, as the checks know them (a check asks ``raised.is_a(MapFileError)``).
RUNTIME_ERRORS = {
    "allowed.MapFileError": MapFileError,
    "allowed.IllegalMoveError": IllegalMoveError,
}
#: The reasons the harness gives for a stopped question; other text is not shown (it could
#: carry anything, a grade-time case's arguments included).
STOPPED = re.compile(
    r"timed out after [0-9.]+ s|it used up its CPU time \(an endless loop\?\)"
    r"|Python was killed \(out of memory\?\)|Python was stopped by signal [0-9]+"
    r"|Python stopped before the end \(os\._exit or exit\?\)"
    r"|Python stopped with exit code [0-9]+ \(os\._exit, memory\?\)"
)
NOT_ISOLATED = "this notebook ran WITHOUT isolation (--no-isolation): its results are not safe"
#: The longest time limit of a cell or a question, in seconds.
_MAX_TIMEOUT = 86400.0
#: The most notebooks graded side by side.
_MAX_WORKERS = 256
_SEED_BITS = 128


def _timeout(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= _MAX_TIMEOUT:
        raise ArgumentError(f"timeout must be a number of seconds above 0 and at most "
                            f"{_MAX_TIMEOUT:g}, not {shown(value)}")  # fmt: skip
    return float(value)


def _seed(value: object) -> None:
    if value is not None and (type(value) is not int or value.bit_length() > _SEED_BITS):
        raise ArgumentError(f"seed must be None or a whole number (of at most {_SEED_BITS} "
                            f"bits), not {shown(value)}")  # fmt: skip


def _flag(value: object, what: str) -> None:
    if type(value) is not bool:
        raise ArgumentError(f"{what} must be True or False, not {shown(value)}")


def _exercise(value: object) -> Exercise:
    if not isinstance(value, Exercise):
        raise ArgumentError(f"exercise must be an Exercise (course.grading.exercise.build), "
                            f"not {shown(value)}")  # fmt: skip
    return value


def _question(value: object) -> Question:
    if not isinstance(value, Question):
        raise ArgumentError(f"question must be a Question of an Exercise, not {shown(value)}")
    return value


def _cells(student: object) -> list[dict[str, Any]]:
    """The cells (the dicts among them) of a student's notebook, or the kit's error."""
    cells = student.get("cells", []) if isinstance(student, dict) else None
    if not isinstance(cells, list):
        raise ArgumentError(f"student must be a notebook (a dict with a list of cells), "
                            f"not {shown(student)}")  # fmt: skip
    return [cell for cell in cells if isinstance(cell, dict)]


@dataclass
class CheckResult:
    """One question: whether it passed, why not, its points and first failing cases.

    ``points`` is the question's maximum (from the exercise table), ``earned`` what this
    answer earned of it (partial credit where the table allows it).
    """

    tag: str
    passed: bool
    message: str = ""
    cases_passed: int = 0
    cases_total: int = 0
    failures: list[Failure] = field(default_factory=list)
    question: Question | None = None
    points: int = 1
    earned: float = 0.0


@dataclass
class Report:
    """The grading of one notebook: a result per question, notes, and the answer cells."""

    path: Path
    exercise: str
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)
    isolated: bool = True

    def __post_init__(self) -> None:
        _as_path(self.path, "a report's path")
        if not isinstance(self.exercise, str):
            raise ArgumentError(f"a report's exercise must be its name, not {shown(self.exercise)}")
        if type(self.checks) is not list or not all(isinstance(c, CheckResult) for c in self.checks):
            raise ArgumentError(f"a report's checks must be a list of CheckResult, "
                                f"not {shown(self.checks)}")  # fmt: skip
        if type(self.notes) is not list or not all(isinstance(n, str) for n in self.notes):
            raise ArgumentError(f"a report's notes must be a list of text, not {shown(self.notes)}")
        if type(self.answers) is not dict or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.answers.items()
        ):
            raise ArgumentError(f"a report's answers must be a dict of text to text, "
                                f"not {shown(self.answers)}")  # fmt: skip
        _flag(self.isolated, "a report's isolated")

    @property
    def passed(self) -> int:
        return sum(result.passed for result in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def earned(self) -> float:
        return sum(result.earned for result in self.checks)

    @property
    def points(self) -> int:
        return sum(result.points for result in self.checks)

    def render(self) -> str:
        """The report as the ``check`` command prints it."""
        width = max((len(result.tag) for result in self.checks), default=0)
        lines = [f"{self.exercise}: {self.path} (graded by the teacher's grader)"]
        for result in self.checks:
            counts = f"{result.cases_passed}/{result.cases_total} cases"
            score = f"{result.earned:g}/{result.points} pt"
            verdict_text = f"passed  {counts}" if result.passed else f"FAILED  {result.message}"
            lines.append(f"  {result.tag:<{width}}  {score:>9}  {verdict_text}")
        lines += [f"  note: {note}" for note in self.notes]
        lines.append(f"Score: {self.passed}/{self.total} questions, "
                     f"{self.earned:g}/{self.points} points")  # fmt: skip
        return "\n".join(lines)


def exercises(source_dir: Path = SOURCE_DIR) -> dict[str, Path]:
    """The teacher's source notebooks by exercise name (``'04_flips'``), in order."""
    folder = _as_path(source_dir, "source_dir")
    try:
        return {path.stem: path for path in sorted(folder.glob("[0-9][0-9]_*.ipynb"))}
    except OSError as error:
        raise NotebookError(f"{folder}: cannot list its notebooks ({error.strerror})") from None


def identify(student: nbfile.Notebook, path: Path, source_dir: Path | None = None) -> str:
    """The exercise a student notebook is (its metadata, else its file name)."""
    _cells(student)
    path = _as_path(path, "path")
    if source_dir is not None:
        _as_path(source_dir, "source_dir")
    known = list(ENTRIES) if source_dir is None else list(exercises(source_dir))
    name = nbfile.exercise_name(student, path, known)
    if name is None:
        raise NotebookError(
            f"{path}: cannot tell which exercise this is (the exercises: {', '.join(known) or 'none found'})"
        )
    return name


def read_submission(path: Path) -> nbfile.Notebook:
    """A student's notebook file, read as a regular file only (no symbolic link, no device,
    no folder), bounded in size and nesting; :class:`NotebookError` says why not."""
    return nbfile.read(_as_path(path, "path"), links=False)


def answer_cells(exercise: Exercise, student: nbfile.Notebook) -> tuple[dict[str, str], list[str]]:
    """The student's code for each answer tag of ``exercise``, and notes on missing ones."""
    _exercise(exercise)
    found: dict[str, list[str]] = {}
    for cell in _cells(student):
        tag = nbfile.tag_with(cell, ANSWER)
        if tag in exercise.answers:
            found.setdefault(tag, []).append(nbfile.source(cell))
    answers, notes = {}, []
    for tag in exercise.answers:
        if tag not in found:
            notes.append(f"no cell tagged {tag} was found: its questions score 0")
        answers[tag] = "\n\n".join(found.get(tag, []))
    return answers, notes


def budget(exercise: Exercise, timeout: float) -> float:
    """The one wall clock of a notebook's run: a start, its cells, then each question."""
    _exercise(exercise)
    timeout = _timeout(timeout)
    return STARTUP + timeout * (1 + len(exercise.questions))


STARTUP = 10.0


def grade_notebook(
    exercise: Exercise, path: Path, sandbox: Sandbox, timeout: float = 20.0
) -> Report:
    """Grade the student notebook at ``path`` against ``exercise`` (one sandboxed run)."""
    _exercise(exercise)
    _as_path(path, "path")
    if not isinstance(sandbox, Sandbox):
        raise ArgumentError(f"sandbox must be a Sandbox, not {shown(sandbox)}")
    _timeout(timeout)
    report = Report(Path(path), exercise.name, isolated=sandbox.isolated)
    if not sandbox.isolated:
        report.notes.append(NOT_ISOLATED)
    try:
        student = read_submission(path)
    except NotebookError as error:
        student = {"cells": []}
        report.notes.append(f"{error}; graded as an empty notebook")
    report.answers, notes = answer_cells(exercise, student)
    report.notes += notes
    cells = [{"index": i, "tag": tag, "source": report.answers[tag]}
             for i, tag in enumerate(exercise.answers)]  # fmt: skip
    job = {"timeout": timeout, "names": list(exercise.entry.names),
           "modules": list(exercise.entry.modules), "cells": cells}  # fmt: skip
    questions = [{"tag": q.tag, "function": q.function,
                  "cases": [a for p in q.parts for a in p.arguments]}
                 for q in exercise.questions]  # fmt: skip
    replies, problems, stopped = _attempts(sandbox, exercise, job, questions, timeout)
    for index, problem in sorted(problems.items()):
        report.notes.append(f"your {exercise.answers[index]} cell failed: {problem}")
    results = []
    for question in exercise.questions:
        cell = (
            exercise.answers.index(question.answer_tag)
            if question.answer_tag in exercise.answers
            else -1
        )
        answer = replies.get(question.tag)
        if isinstance(answer, str):
            results.append(_zero(question, f"stopped: {answer}"))
        elif question.tag in replies and not (answer is None and cell in problems):
            results.append(judge(question, answer))
        else:  # no answer, or no function because its cell failed: say why
            reason = problems.get(cell) or stopped or "no answer came back"
            results.append(_zero(question, f"not run: {reason.removeprefix('not run: ')}"))
    report.checks = results
    return report


def _attempts(
    sandbox: Sandbox,
    exercise: Exercise,
    job: dict[str, Any],
    questions: list[dict[str, Any]],
    timeout: float,
) -> tuple[dict[str, Any], dict[int, str], str]:
    """Run the notebook's job, and where the harness cannot stop a cell or a question itself
    (Pyodide cannot fork), run it again without the one that stopped the run.

    Each run has its own wall clock (:func:`budget`); a run again only ever leaves out
    more, so there are at most as many runs as cells and questions, plus one."""
    cells, asked = list(job["cells"]), list(questions)
    replies: dict[str, Any] = {}
    problems: dict[int, str] = {}
    while True:
        limits = Limits(wall=budget(exercise, timeout), cpu=int(budget(exercise, timeout)) + 1)
        with sandbox.start(exercise.runtime, "harness.py", limits) as run:
            run.send(json.dumps({**job, "cells": cells}).encode() + b"\n")
            cells_done = functools.partial(_send_questions, run, asked)
            reading = _Reading(run, [c["index"] for c in cells], [q["tag"] for q in asked],
                               timeout, cells_done)  # fmt: skip
            reading.read()
        replies.update(reading.replies)
        problems.update(reading.problems)
        if reading.ended or reading.stuck is None:
            return replies, problems, reading.stopped
        kind, which = reading.stuck
        if kind == "cell":  # the cells after it would not have run either
            later = [c["index"] for c in cells if c["index"] > which]
            why = (f"the answer cells had run for {timeout:g} s" if reading.timed_out
                   else "an earlier answer cell stopped Python")  # fmt: skip
            problems.update({i: f"not run: {why}" for i in later})
            cells = [c for c in cells if c["index"] < which]
        else:
            asked = [q for q in asked if q["tag"] in reading.tags]
        if not asked and kind != "cell":
            return replies, problems, ""


def _send_questions(run: Any, questions: list[dict[str, Any]]) -> None:
    """Only once the cells have run may the cases' arguments go in."""
    run.send(json.dumps(questions).encode() + b"\n")
    run.close_input()


class _Reading:
    """What one run sent: replies (or why a question stopped) by tag, cells' problems, why
    the run ended early, and which cell or question it was on when it stopped (``stuck``).

    Messages out of order, repeated, unknown or malformed are dropped.  The run's wall
    clock never moves; a cell phase or a question timed by the grader (``asking``) gets
    ``timeout`` seconds of it, and a little more, since a harness that forks stops them itself.
    """

    def __init__(self, run: Any, cells: list[int], tags: list[str], timeout: float,
                 cells_done: Callable[[], None]) -> None:  # fmt: skip
        self.run, self.cells, self.tags, self.timeout = run, cells, tags, timeout
        self.cells_done = cells_done
        self.replies: dict[str, Any] = {}
        self.problems: dict[int, str] = {}
        self.ready = self.ended = self.timed_out = False
        self.stopped = ""
        self.stuck: tuple[str, Any] | None = None
        self._timing: tuple[str, Any] | None = None  # the cells or the question on the clock
        self._started = 0.0

    def read(self) -> None:
        if not self.cells:
            self.cells_done()
        run, whole = self.run, self.run.deadline
        while not self.ended:
            if self._timing is not None:
                run.deadline = min(whole, self._started + self.timeout + _GRACE)
            line = run.next_line()
            run.deadline = whole
            if line is None:
                break
            message = wire.parse(line) if line.strip() else None
            if type(message) is dict:
                self._take(message)
        if self.ended:
            return
        self.stopped = run.stopped if run.stopped != "ended" else run.exit_reason()
        timed_out = self.timed_out = (
            self._timing is not None and run.stopped.startswith("timed out")
        )
        if self.cells and self.ready:
            self.stuck = ("cell", self.cells[0])
            self.problems[self.cells[0]] = (
                f"the answer cells ran longer than {self.timeout:g} s"
                if timed_out
                else f"it stopped Python: {self.stopped}"
            )
        elif self._timing is not None and self._timing[0] == "question":
            tag = self._timing[1]
            self.stuck = ("question", tag)
            self.tags.remove(tag)
            # the reason is the grader's own (its clock, its bounds, the exit status)
            self.replies[tag] = f"timed out after {self.timeout:g} s" if timed_out else self.stopped

    def _take(self, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "ready" and not self.ready:
            self.ready = True
            self._time("cells", None)
        elif event == "cell" and self.ready and self.cells and message.get("index") == self.cells[0]:
            self.cells.pop(0)
            problem = message.get("problem")
            if problem is not None:
                self.problems[message["index"]] = str(problem)[:500]
            if not self.cells:
                self._timing = None
                self.cells_done()
        elif event == "asking" and self.ready and not self.cells and message.get("tag") in self.tags:
            self._time("question", message["tag"])
        elif event == "question" and self.ready and not self.cells and message.get("tag") in self.tags:
            tag = message["tag"]
            self.tags.remove(tag)
            self._timing = None
            if "stopped" in message:
                said = str(message["stopped"])
                self.replies[tag] = said if STOPPED.fullmatch(said) else "it stopped Python"
            else:
                self.replies[tag] = message.get("replies")
        elif event == "end" and self.ready and not self.cells:
            self.ended = True

    def _time(self, kind: str, which: Any) -> None:
        self._timing, self._started = (kind, which), time.monotonic()


#: What the grader's clock adds to a cell phase or a question (the harness's own stops first).
_GRACE = 2.0


def _zero(question: Question, message: str) -> CheckResult:
    return CheckResult(question.tag, False, message, 0, question.total, [], question,
                       question.points, 0.0)  # fmt: skip


def judge(question: Question, replies: list[Any] | None) -> CheckResult:
    """The verdict on a question from the plain replies that came back (None: no function)."""
    _question(question)
    total = question.total
    if replies is None:
        return _zero(question, f"expected a function named {question.function}")
    if type(replies) is not list or len(replies) != total:
        return _zero(question, "its answers came back malformed")
    cases = [case for part in question.parts for case in part.spec.cases]
    return scored(question, [_reply(c, data) for c, data in zip(cases, replies, strict=True)])


def scored(question: Question, replies: list[Reply]) -> CheckResult:
    """The verdict on a question from one :class:`Reply` per case, in the parts' order.

    :func:`judge` gives it the replies that came back from the sandbox; a test may give it
    replies made in its own process (:func:`course.grading.runner.call_here`).
    """
    total = _question(question).total
    if type(replies) is not list or len(replies) != total or not all(
        isinstance(reply, Reply) for reply in replies
    ):
        raise ArgumentError(f"replies must be a list of {total} Reply, one per case, "
                            f"not {shown(replies)}")  # fmt: skip
    failures: list[Failure] = []
    message, start = "", 0
    counts: dict[bool, list[int]] = {False: [0, 0], True: [0, 0]}  # unseen: [passed, total]
    for part in question.parts:
        calls = []
        for case, reply in zip(
            part.spec.cases, replies[start : start + len(part.spec.cases)], strict=True
        ):
            calls.append(reply.args)
            failure = verdict(part.spec, case, reply)
            counts[part.unseen][1] += 1
            if failure:
                failures.append(failure)
            else:
                counts[part.unseen][0] += 1
        start += len(part.spec.cases)
        reason = part.spec.overall(calls) if part.spec.overall else None
        if reason and not message:
            message = reason
    passed = total - len(failures)
    if failures:
        first = failures[0]
        unwritten = all(
            isinstance(f.actual, Raised) and f.actual.kind == "NotImplementedError"
            for f in failures
        )
        message = (
            "not written yet: the function raises NotImplementedError"
            if unwritten and len(failures) == total
            else f"{len(failures)} of {total} cases failed; first: {first.case.name}"
            + _explained(first)
        )
    visible, unseen = (counts[False][0], counts[False][1]), (counts[True][0], counts[True][1])
    points = (
        0.0
        if message and not failures
        else earned(question.partial, question.points, visible, unseen)
    )
    return CheckResult(question.tag, not failures and not message, message, passed, total,
                       failures, question, question.points, points)  # fmt: skip


def _explained(failure: Failure) -> str:
    """What the grader can say about a failure beyond its case: where, and the likely cause."""
    said = ""
    if isinstance(failure.actual, Raised) and failure.actual.where:
        said += f" ({failure.actual.kind} at {failure.actual.where})"
    if failure.cause:
        said += f"; likely cause: {failure.cause}"
    return said


def _reply(case: Case, data: Any) -> Reply:
    """A :class:`Reply` from the JSON of one call; anything malformed is a wrong answer."""
    if type(data) is not dict:
        data = {"answer": {"object": "malformed reply"}}
    after = data.get("after")
    after = (
        after if type(after) is list and len(after) == len(case.args) else [None] * len(case.args)
    )
    args = tuple(_after(arg, state) for arg, state in zip(case.args, after, strict=True))
    printed = data.get("printed", "")
    printed = printed[:2000] if type(printed) is str else ""
    raised = data.get("raised")
    if raised is not None:
        try:
            kind, message, names, line, *more = raised
            where = str(more[0])[:300] if more and type(more[0]) is str else ""
            names = tuple(str(n)[:200] for n in names[:20])
            names += tuple(
                f"{c.__module__}.{c.__qualname__}"
                for name in names
                if name in RUNTIME_ERRORS
                for c in RUNTIME_ERRORS[name].__mro__
            )
            line = line if type(line) is int else None
            return Reply(
                args, None, Raised(str(kind)[:80], str(message)[:500], names, line, where), printed
            )
        except (TypeError, ValueError):
            return Reply(args, load_answer({"object": "malformed error"}), None, printed)
    return Reply(args, load_answer(data.get("answer", {"object": "no answer"})), None, printed)


def _after(original: Any, state: Any) -> Any:
    """An argument as it was after the call: a board rebuilt from its discs, a counter's count."""
    if isinstance(original, (Board, BoardView)):
        board = load_answer(state)
        if not isinstance(board, Board) or board.size != original.size:
            return None  # a board that came back broken counts as changed
        if isinstance(original, BoardView):
            return BoardView(board, original.allowed, original.writable)
        return board
    if type(original).__name__ == "NodeCounter":
        counted = load_answer(state)
        return counted if isinstance(counted, Counter) else Counter(-1)
    return original


def check(
    path: Path,
    exercise: str | None = None,
    source_dir: Path = SOURCE_DIR,
    timeout: float = DEFAULT_TIMEOUT,
    seed: int | None = None,
    sandbox: str = "auto",
) -> Report:
    """Grade one student notebook, with or without the teacher's folder.

    With the teacher's seed (``seed``, or the one in ``source_dir``) the grade-time cases
    count too; in a student's copy, with no teacher folder, only the notebook's cases do.
    """
    from course.grading import exercise as exercise_file

    path = _as_path(path, "path")
    if exercise is not None and not isinstance(exercise, str):
        raise ArgumentError(f"exercise must be None or an exercise's name, not {shown(exercise)}")
    source_dir = _as_path(source_dir, "source_dir")
    _timeout(timeout)
    _seed(seed)
    name = exercise or identify(read_submission(path), path)
    try:
        has_seed = (source_dir / exercise_file.SEED_FILE).is_file()
    except OSError as error:
        raise NotebookError(f"{source_dir}: cannot look for the teacher's seed "
                            f"({error.strerror})") from None  # fmt: skip
    if seed is None and has_seed:
        seed = exercise_file.load_seed(source_dir, create=False)
    report = grade_notebook(exercise_file.build(name, seed), Path(path), Sandbox(sandbox), timeout)
    if seed is None:
        report.notes.append("no teacher's seed: only the notebook's own cases were checked")
    return report


def grade(
    submissions: Sequence[tuple[Path, str]],
    source_dir: Path = SOURCE_DIR,
    timeout: float = DEFAULT_TIMEOUT,
    workers: int = 1,
    seed: int | None = None,
    sandbox: str = "auto",
) -> list[Report]:
    """Grade each ``(notebook path, exercise name)``; one report each, in the same order."""
    from course.grading.gradebook import Grader

    if not isinstance(submissions, list | tuple) or not all(
        isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], str)
        for pair in submissions
    ):
        raise ArgumentError("submissions must be a list of (notebook path, exercise name), "
                            f"not {shown(submissions)}")  # fmt: skip
    for notebook, _ in submissions:
        _as_path(notebook, "a submission's path")
    source_dir = _as_path(source_dir, "source_dir")
    _timeout(timeout)
    if type(workers) is not int or not 1 <= workers <= _MAX_WORKERS:
        raise ArgumentError(f"workers must be a whole number from 1 to {_MAX_WORKERS}, "
                            f"not {shown(workers)}")  # fmt: skip
    _seed(seed)
    if not exercises(source_dir):
        raise NotebookError(f"{source_dir}: no exercise notebooks (NN_name.ipynb) in it")
    grader = Grader(source_dir, timeout=timeout, workers=workers, seed=seed, sandbox=sandbox)
    return grader.grade(submissions)
