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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from course.grading import exercise as exercise_file
from course.grading import notebook as nbfile
from course.grading import wire
from course.grading.exercise import Exercise
from course.grading.judging import judge, zero
from course.grading.notebook import ANSWER, NotebookError
from course.grading.precheck import KIT, kit_import
from course.grading.records import Report
from course.grading.sandbox import Limits, Sandbox
from course.grading.table import ENTRIES
from course.i18n import N_, language, notebook_language, speaking
from course.i18n import gettext as _

REPOSITORY = Path(__file__).resolve().parents[2]
SOURCE_DIR = REPOSITORY / "exercises" / "source"
DEFAULT_TIMEOUT = 20.0
SHOWN_FAILURES = 3


#: The reasons the harness gives for a stopped question; other text is not shown (it could
#: carry anything, a grade-time case's arguments included).
STOPPED = re.compile(
    r"timed out after [0-9.]+ s|it used up its CPU time \(an endless loop\?\)"
    r"|Python was killed \(out of memory\?\)|Python was stopped by signal [0-9]+"
    r"|Python stopped before the end \(os\._exit or exit\?\)"
    r"|Python stopped with exit code [0-9]+ \(os\._exit, memory\?\)"
)
#: Every reason the harness (:data:`STOPPED`) or a run (:func:`course.grading.runs.exit_reason`)
#: gives for a stop, as sent (English), and its words for the reader (:func:`spoken_reason`).
_REASONS = tuple((re.compile(sent), words) for sent, words in (
    (r"timed out after ([0-9.]+) s", N_("timed out after {0} s")),
    (r"it used up its CPU time \(an endless loop\?\)", N_("it used up its CPU time (an endless loop?)")),
    (r"Python was killed \(out of memory\?\)", N_("Python was killed (out of memory?)")),
    (r"Python was killed \(out of memory or time\?\)", N_("Python was killed (out of memory or time?)")),
    (r"Python was stopped by signal ([0-9]+)", N_("Python was stopped by signal {0}")),
    (r"Python was stopped by (\w+)", N_("Python was stopped by {0}")),
    (r"Python stopped before the end \(os\._exit or exit\?\)", N_("Python stopped before the end (os._exit or exit?)")),
    (r"Python stopped with exit code (-?[0-9]+) \(os\._exit, memory\?\)",
     N_("Python stopped with exit code {0} (os._exit, memory?)")),
    (r"Python stopped with exit code (-?[0-9]+) \(out of memory, os\._exit or a crash\?\)",
     N_("Python stopped with exit code {0} (out of memory, os._exit or a crash?)")),
    (r"it did not finish", N_("it did not finish")),
    (r"it stopped Python", N_("it stopped Python")),
))  # fmt: skip


def spoken_reason(reason: str) -> str:
    """A stop's reason as sent, in the reader's language (another text as it is).

    >>> spoken_reason("timed out after 5 s"), spoken_reason("Python was stopped by SIGTERM")
    ('timed out after 5 s', 'Python was stopped by SIGTERM')
    """
    for sent, words in _REASONS:
        found = sent.fullmatch(reason)
        if found:
            return _(words).format(*found.groups())
    return reason


NOT_ISOLATED = N_("this notebook ran WITHOUT isolation (--no-isolation): its results are not safe")


def exercises(source_dir: Path = SOURCE_DIR) -> dict[str, Path]:
    """The teacher's source notebooks by exercise name (``'04_flips'``), in order."""
    try:
        return {path.stem: path for path in sorted(source_dir.glob("[0-9][0-9]_*.ipynb"))}
    except OSError as error:
        raise NotebookError(f"{source_dir}: cannot list its notebooks ({error.strerror})") from None


def identify(student: nbfile.Notebook, path: Path, source_dir: Path | None = None) -> str:
    """The exercise a student notebook is (its metadata, else its file name)."""
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
    return nbfile.read(path, links=False)


def answer_cells(exercise: Exercise, student: nbfile.Notebook) -> tuple[dict[str, str], list[str]]:
    """The student's code for each answer tag of ``exercise``, and notes on missing ones."""
    found: dict[str, list[str]] = {}
    for cell in student["cells"]:
        tag = nbfile.tag_with(cell, ANSWER)
        if tag in exercise.answers:
            found.setdefault(tag, []).append(nbfile.source(cell))
    answers, notes = {}, []
    for tag in exercise.answers:
        if tag not in found:
            notes.append(_("no cell tagged {tag} was found: its questions score 0").format(tag=tag))
        answers[tag] = "\n\n".join(found.get(tag, []))
    return answers, notes


def budget(exercise: Exercise, timeout: float) -> float:
    """The one wall clock of a notebook's run: a start, its cells, then each question."""
    return STARTUP + timeout * (1 + len(exercise.questions))


STARTUP = 10.0


def grade_notebook(
    exercise: Exercise, path: Path, sandbox: Sandbox, timeout: float = 20.0
) -> Report:
    """Grade the student notebook at ``path`` against ``exercise`` (one sandboxed run); its
    notes and reasons are in the language of now (:func:`course.i18n.language`: a caller
    grades a notebook inside ``speaking(notebook_language(notebook))``)."""
    report = Report(path, exercise.name, isolated=sandbox.isolated, language=language())
    if not sandbox.isolated:
        report.notes.append(_(NOT_ISOLATED))
    try:
        student = read_submission(path)
    except NotebookError as error:
        student = {"cells": []}
        report.notes.append(_("{error}; graded as an empty notebook").format(error=error))
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
        problems[index] = cell_problem(exercise.answers[index], problem)
        report.notes.append(  # the kit's sentence says which cell itself
            problems[index]
            if problems[index] != problem
            else _("your {cell} cell failed: {problem}").format(cell=exercise.answers[index], problem=problem)
        )
    results = []
    for question in exercise.questions:
        cell = (
            exercise.answers.index(question.answer_tag)
            if question.answer_tag in exercise.answers
            else -1
        )
        answer = replies.get(question.tag)
        if isinstance(answer, str):
            results.append(zero(question, _("stopped: {reason}").format(reason=spoken_reason(answer))))
        elif question.tag in replies and not (answer is None and cell in problems):
            results.append(judge(question, answer))
        else:  # no answer, or no function because its cell failed: say why
            reason = problems.get(cell) or spoken_reason(stopped) or _("no answer came back")
            reason = reason.removeprefix("not run: ").removeprefix(_("not run: {reason}").format(reason=""))
            results.append(zero(question, _("not run: {reason}").format(reason=reason)))
    report.checks = results
    return report


#: An answer cell's error when it imports a package the sandbox does not have.
_NO_MODULE = re.compile(r"raised ModuleNotFoundError(?: \(line \d+\))?: No module named '([\w.]+)'")


def cell_problem(tag: str, problem: str) -> str:
    """An answer cell's ``problem`` as the student reads it: an import of the kit's own code
    in the self-check's words (:func:`course.grading.precheck.kit_import`).

    >>> cell_problem("answer:flips", "raised ModuleNotFoundError (line 1): No module named 'reversi'")
    "your flips answer uses reversi, the kit's own code: answers are graded without the kit, so write it with what the exercise's first cell gives you"
    >>> cell_problem("answer:flips", "raised NameError (line 2): name 'x' is not defined")
    "raised NameError (line 2): name 'x' is not defined"
    """
    found = _NO_MODULE.fullmatch(problem)
    package = found.group(1).split(".")[0] if found else ""
    if package not in KIT:
        return problem
    return kit_import(tag.removeprefix(ANSWER), package)


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
            why = (_("the answer cells had run for {seconds:g} s").format(seconds=timeout)
                   if reading.timed_out else _("an earlier answer cell stopped Python"))  # fmt: skip
            problems.update({i: _("not run: {reason}").format(reason=why) for i in later})
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
        timed_out = self.timed_out = self._timing is not None and run.stopped.startswith(
            "timed out"
        )
        if self.cells and self.ready:
            self.stuck = ("cell", self.cells[0])
            self.problems[self.cells[0]] = (
                _("the answer cells ran longer than {seconds:g} s").format(seconds=self.timeout)
                if timed_out
                else _("it stopped Python: {reason}").format(reason=spoken_reason(self.stopped))
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
        elif (
            event == "cell" and self.ready and self.cells and message.get("index") == self.cells[0]
        ):
            self.cells.pop(0)
            problem = message.get("problem")
            if problem is not None:
                self.problems[message["index"]] = str(problem)[:500]
            if not self.cells:
                self._timing = None
                self.cells_done()
        elif (
            event == "asking" and self.ready and not self.cells and message.get("tag") in self.tags
        ):
            self._time("question", message["tag"])
        elif (
            event == "question"
            and self.ready
            and not self.cells
            and message.get("tag") in self.tags
        ):
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
    try:
        student = read_submission(path)
    except NotebookError:
        if exercise is None:
            raise
        student = {}  # graded as an empty notebook, in English: grade_notebook says why
    name = exercise or identify(student, path)
    with speaking(notebook_language(student)):  # the report in the notebook's language
        return _check(path, name, source_dir, timeout, seed, sandbox)


def _check(path: Path, name: str, source_dir: Path, timeout: float, seed: int | None,
           sandbox: str) -> Report:  # fmt: skip
    try:
        has_seed = (source_dir / exercise_file.SEED_FILE).is_file()
    except OSError as error:
        raise NotebookError(f"{source_dir}: cannot look for the teacher's seed "
                            f"({error.strerror})") from None  # fmt: skip
    if seed is None and has_seed:
        seed = exercise_file.load_seed(source_dir, create=False)
    box = Sandbox(sandbox)
    try:
        report = grade_notebook(exercise_file.build(name, seed), path, box, timeout)
    finally:
        box.close()
    if seed is None:
        report.notes.append(_("no teacher's seed: only the notebook's own cases were checked"))
    return report
