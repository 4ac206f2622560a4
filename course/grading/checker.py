"""Grade exercise notebooks: the student's code runs sandboxed, the verdict is computed here.

Trust boundary: a student's answer code is hostile and has every right of the Python
that runs it.  So the grader takes only the student's *answer* cells (matched by their
``answer:NAME`` tag; check cells, outputs and anything else in the file are ignored),
reads them for what no answer needs (:mod:`course.grading.scan`: such a question scores
0 and its cell is not run), and has the rest run in a sandboxed process
(:mod:`course.grading.sandbox`) that calls the student's functions on the cases' plain
arguments and sends back plain answers.  The verdict is computed in this process, by
the same :func:`~course.grading.runner.verdict` as the notebook's self-check, on the
notebook's cases and on grade-time cases drawn from the teacher's seed.

One notebook is one sandboxed run; if the run stops (a crash, ``os._exit``, a memory
bomb, an endless loop), the question it was in scores 0 and the remaining questions
are run again in a new process, without the cell that stopped it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.grading import notebook as nbfile
from course.grading import scan
from course.grading.exercise import Exercise, Question
from course.grading.notebook import ANSWER, NotebookError
from course.grading.runner import Case, Failure, Raised, Reply, verdict
from course.grading.sandbox import Outcome, Sandbox
from course.grading.views import BoardView
from course.grading.wire import Counter, load_answer
from reversi import Board

REPOSITORY = Path(__file__).resolve().parents[2]
SOURCE_DIR = REPOSITORY / "exercises" / "source"
DEFAULT_TIMEOUT = 20.0
SHOWN_FAILURES = 3


@dataclass
class CheckResult:
    """One question: its tag, whether it passed, why not, its failing cases and its points.

    ``earned`` is the partial credit: ``points`` times the share of cases passed; a
    question failed as a whole with every case right (its overall check) earns 0.
    """

    tag: str
    passed: bool
    message: str = ""
    cases_passed: int = 0
    cases_total: int = 0
    failures: list[Failure] = field(default_factory=list)
    question: Question | None = None
    points: float = 1.0

    @property
    def earned(self) -> float:
        if self.passed:
            return self.points
        if self.cases_total <= 0 or self.cases_passed >= self.cases_total:
            return 0.0
        return self.points * max(0, self.cases_passed) / self.cases_total


@dataclass
class Report:
    """The grading of one notebook: a result per question, notes, and the answer cells."""

    path: Path
    exercise: str
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(result.passed for result in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    def render(self) -> str:
        """The report as the ``check`` command prints it."""
        width = max((len(result.tag) for result in self.checks), default=0)
        lines = [f"{self.exercise}: {self.path} (graded by the teacher's grader)"]
        for result in self.checks:
            counts = f"{result.cases_passed}/{result.cases_total} cases"
            verdict_text = f"passed  {counts}" if result.passed else f"FAILED  {result.message}"
            lines.append(f"  {result.tag:<{width}}  {verdict_text}")
        lines += [f"  note: {note}" for note in self.notes]
        lines.append(f"Score: {self.passed}/{self.total}")
        return "\n".join(lines)


def exercises(source_dir: Path = SOURCE_DIR) -> dict[str, Path]:
    """The teacher's source notebooks by exercise name (``'04_flips'``), in order."""
    return {path.stem: path for path in sorted(Path(source_dir).glob("[0-9][0-9]_*.ipynb"))}


def identify(student: nbfile.Notebook, path: Path, source_dir: Path = SOURCE_DIR) -> str:
    """The exercise a student notebook is (its metadata, else its file name)."""
    name = nbfile.exercise_name(student, path, exercises(source_dir))
    if name is None:
        known = ", ".join(exercises(source_dir)) or "none found"
        raise NotebookError(f"{path}: cannot tell which exercise this is (the exercises: {known})")
    return name


def answer_cells(exercise: Exercise, student: nbfile.Notebook) -> tuple[dict[str, str], list[str]]:
    """The student's code for each answer tag of ``exercise`` (starting code if missing), and notes."""
    found: dict[str, list[str]] = {}
    for cell in student.get("cells", []):
        tag = nbfile.tag_with(cell, ANSWER)
        if tag in exercise.starters:
            found.setdefault(tag, []).append(nbfile.source(cell))
    answers, notes = {}, []
    for tag in exercise.answers:
        if tag not in found:
            notes.append(f"no cell tagged {tag} was found: graded with the starting code")
        answers[tag] = "\n\n".join(found.get(tag, [exercise.starters[tag]]))
    return answers, notes


def grade_notebook(
    exercise: Exercise, path: Path, sandbox: Sandbox, use_scan: bool = True
) -> Report:
    """Grade the student notebook at ``path`` against ``exercise``."""
    report = Report(Path(path), exercise.name)
    try:
        student = nbfile.read(path)
    except NotebookError as error:
        student = {"cells": []}
        report.notes.append(f"{error}; graded as the starting notebook")
    report.answers, notes = answer_cells(exercise, student)
    report.notes += notes
    results: dict[str, CheckResult] = {}
    skipped: set[int] = set()
    for index, tag in enumerate(exercise.answers):
        reasons = scan.flags(report.answers[tag], exercise.name)
        if use_scan and reasons:
            skipped.add(index)
            report.notes.append(f"{tag} was not run: {reasons[0]}")
            for question in exercise.questions:
                if question.answer_tag == tag:
                    results[question.tag] = _zero(question, f"flagged: {reasons[0]}")
    pending = [q for q in exercise.questions if q.tag not in results]
    while pending:
        cells = [
            {"index": i, "tag": tag, "source": report.answers[tag]}
            for i, tag in enumerate(exercise.answers)
            if i not in skipped
        ]
        jobs = [
            {
                "tag": q.tag,
                "function": q.function,
                "cases": [a for p in q.parts for a in p.arguments],
            }
            for q in pending
        ]
        outcome = sandbox.run(exercise.setup, cells, jobs)
        for question in pending:
            replies = outcome.replies.get(question.tag, "missing")
            if replies != "missing":
                results[question.tag] = judge(question, replies)  # type: ignore[arg-type]
        _note_cells(report, exercise, outcome)
        if outcome.setup_problem or outcome.stopped_in is None:
            for question in pending:
                if question.tag not in results:
                    reason = outcome.setup_problem or outcome.stopped or "no answer came back"
                    results[question.tag] = _zero(question, f"not run: {reason}")
            break
        kind, where = outcome.stopped_in
        if kind == "cell":
            skipped.add(where)
            tag = exercise.answers[where] if 0 <= where < len(exercise.answers) else "?"
            report.notes.append(f"your {tag} cell stopped Python: {outcome.stopped}")
            for question in pending:
                if question.answer_tag == tag and question.tag not in results:
                    results[question.tag] = _zero(
                        question, f"its cell stopped Python: {outcome.stopped}"
                    )
        elif kind == "question":
            stopped = next((q for q in pending if q.tag == where), None)
            if stopped is not None:
                results[stopped.tag] = _zero(stopped, f"stopped: {outcome.stopped}")
        else:  # stopped while starting: nothing more to learn by trying again
            for question in pending:
                results.setdefault(question.tag, _zero(question, f"not run: {outcome.stopped}"))
        pending = [q for q in pending if q.tag not in results]
    report.checks = [results[q.tag] for q in exercise.questions]
    return report


def _note_cells(report: Report, exercise: Exercise, outcome: Outcome) -> None:
    for index, problem in sorted(outcome.cells.items()):
        if problem and 0 <= index < len(exercise.answers):
            note = f"your {exercise.answers[index]} cell failed: {problem}"
            if note not in report.notes:
                report.notes.append(note)


def _zero(question: Question, message: str) -> CheckResult:
    return CheckResult(question.tag, False, message, 0, question.total, [], question)


def judge(question: Question, replies: list[Any] | None) -> CheckResult:
    """The verdict on a question from the plain replies that came back (None: no function)."""
    total = question.total
    if replies is None:
        return _zero(question, f"expected a function named {question.function}")
    if type(replies) is not list or len(replies) != total:
        return _zero(question, "its answers came back malformed")
    failures: list[Failure] = []
    message, start = "", 0
    for part in question.parts:
        calls = []
        for case, data in zip(
            part.spec.cases, replies[start : start + len(part.spec.cases)], strict=True
        ):
            reply = _reply(case, data)
            calls.append(reply.args)
            failure = verdict(part.spec, case, reply)
            if failure:
                failures.append(failure)
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
        )
    return CheckResult(question.tag, not failures and not message, message, passed, total,
                       failures, question)  # fmt: skip


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
            kind, message, names, line = raised
            names = tuple(str(n) for n in names)
            line = line if type(line) is int else None
            return Reply(
                args, None, Raised(str(kind)[:80], str(message)[:500], names, line), printed
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
) -> Report:
    """Grade one student notebook (see :mod:`course.grading.gradebook` for a class)."""
    from course.grading.gradebook import Grader

    name = exercise or identify(nbfile.read(path), Path(path), source_dir)
    if name not in exercises(source_dir):
        raise NotebookError(f"there is no exercise {name!r} in {source_dir}")
    grader = Grader(source_dir, timeout=timeout, seed=seed, refused=[Path(path).parent])
    return grader.grade([(Path(path), name)])[0]


def grade(
    submissions: Sequence[tuple[Path, str]],
    source_dir: Path = SOURCE_DIR,
    timeout: float = DEFAULT_TIMEOUT,
    workers: int = 1,
    seed: int | None = None,
) -> list[Report]:
    """Grade each ``(notebook path, exercise name)``; one report each, in the same order."""
    from course.grading.gradebook import Grader

    folders = sorted({Path(path).parent for path, _ in submissions})
    grader = Grader(source_dir, timeout=timeout, workers=workers, seed=seed, refused=folders)
    return grader.grade(submissions)
