"""Grade a class: hand-ins in; sheets, a feedback page per student and a summary page out.

:mod:`~course.grading.handins` finds who handed in what and when (a folder per student, flat
files, nbgrader's layout, the kit's store); :class:`~course.grading.grader.Grader` grades
one notebook at a time in the sandbox; :func:`grade_folder` runs the class:

* every output path is checked before the first notebook is graded;
* each hand-in goes to a journal (:mod:`~course.grading.journal`) the moment it is graded,
  and the student's row is appended to every sheet (flushed to disk) and the page written
  the moment a student is done, so a crash keeps every finished row and a rerun grades
  only what is left (``--regrade`` starts afresh);
* a notebook that cannot be graded (not a notebook, nested too deeply, the grader's own
  failure) costs only that student, with the reason on the console and in the sheet;
* the last hand-in counts, or the best (``--pick best``); deadlines mark hand-ins late;
  the teacher's overrides (:mod:`~course.grading.overrides`) are applied to the sheet;
* given the class's roster, each hand-in is its student's (:mod:`~course.grading.matching`),
  the sheets have a row per student on it, in its order, and carry its gradebook ids;
* out come ``OUT`` (:mod:`~course.grading.sheet`), ``OUT-canvas.csv``,
  ``OUT-moodle.csv``, ``OUT-summary.html`` (:mod:`~course.grading.summary`) and one page
  per student (:mod:`~course.grading.feedback`).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import itertools
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TextIO

from course.grading import checker, feedback, handins, matching, sheet, similarity, summary
from course.grading import notebook as nbfile
from course.grading.exercise import Exercise
from course.grading.grade_lines import error as error_line
from course.grading.grader import Grader
from course.grading.handins import GradebookError
from course.grading.journal import Journal, Marked, Outputs
from course.grading.notebook import NotebookError
from course.grading.overrides import Overrides
from course.grading.records import Report
from course.i18n import gettext as _
from course.i18n import notebook_language, speaking
from course.roster.model import Roster


@dataclass
class Choices:
    """What the teacher chose: which hand-in counts, deadlines, overrides, a fresh start."""

    pick: str = "last"  # or "best"
    deadlines: dict[str, datetime.datetime] = field(default_factory=dict)  # "" for every
    overrides: Overrides = field(default_factory=Overrides)
    regrade: bool = False

    def deadline(self, exercise: str) -> datetime.datetime | None:
        """The deadline of ``exercise`` (the one for every exercise if it has none), or None."""
        return self.deadlines.get(exercise, self.deadlines.get(""))


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
    roster: Roster | None = None,
) -> Graded:
    """Grade every submission in ``folder``: the sheets beside ``out``, pages in ``feedback_dir``.

    Every output path is checked before the first notebook is graded.  Each hand-in's
    result goes to the journal as it finishes, and each student's row is appended to the
    sheets and the page written as the student finishes, so a crash keeps every finished row and a rerun
    grades only what is left.  A notebook that cannot be graded costs only its student:
    its reason goes to the sheet's ``errors`` column and to ``say`` at once.  Given the
    ``roster``, the rows are its students' (keyed by their keys) and the overrides may
    name a student as the roster does.
    """
    choices = choices or Choices()
    outputs = Outputs(out, feedback_dir or out.with_name(out.stem + "-feedback"))
    outputs.check()
    known = list(checker.exercises(source_dir))
    submissions, warnings = matching.submissions(folder, known, roster)
    if roster is not None:
        overrides, more = matching.keyed(choices.overrides, roster)
        choices, warnings = dataclasses.replace(choices, overrides=overrides), warnings + more
    if not submissions:  # a sheet of nobody is a wrong folder, not a grading
        raise GradebookError(
            f"{folder}: no hand-ins of the exercises ({', '.join(known)}) in it: give the folder "
            "of the students' notebooks (a folder per student, STUDENT__NAME.ipynb files, "
            "nbgrader's submitted/ or the class server's DATA/handins)"
            + (f"; also: {warnings[0]}" if warnings else "")
        )
    with tempfile.TemporaryDirectory(prefix="grading-copies-") as copies:
        own = grader is None  # a grader given is its giver's to close
        grader = grader or Grader(source_dir, timeout, workers, seed, sandbox)
        exercises = {name: grader.exercise(name) for name in known
                     if any(s.exercise == name for s in submissions)}  # fmt: skip
        columns = _columns(exercises)
        choices.overrides.check({c: p for q in columns.values() for c, p in q.items()})
        outputs.feedback.mkdir(parents=True, exist_ok=True)
        run = _Run(grader, outputs, columns, choices, Path(copies), say, progress, roster)
        try:
            run.grade(submissions, max(1, workers))
        finally:
            if own:
                grader.sandbox.close()
    lines = summary.exercise_lines(run.rows, columns)
    return Graded(run.rows, warnings, run.errors, lines, run.pages)


def _columns(exercises: dict[str, Exercise]) -> dict[str, dict[str, float]]:
    """Each exercise's question columns and their points (1 each unless the exercise says)."""
    return {
        name: {_column(name, q.tag): float(q.points) for q in exercise.questions}
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
        roster: Roster | None = None,
    ) -> None:
        self.grader, self.outputs, self.columns, self.choices = grader, outputs, columns, choices
        self.copies, self.say, self.progress, self.roster = copies, say, progress, roster
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
            self.say(error_line(message))

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
            spoken = notebook_language(nbfile.parse(data, str(handin.path)))
            copy.write_bytes(data)
            with speaking(spoken):  # the student's language: the reasons, the cases, the page
                report, section = self._graded(copy, handin)
            isolated = bool(getattr(getattr(self.grader, "sandbox", None), "isolated", True))
            marked = Marked(key, handin.student, handin.exercise, received,
                            {_column(handin.exercise, r.tag): [r.passed, r.earned, r.points]
                             for r in report.checks},
                            "", dict(report.answers), section, isolated)  # fmt: skip
        except NotebookError as error:
            marked = self._failed(handin, key, str(error).replace(str(copy), str(handin.path)))
        except Exception as error:  # the grader's own failure on one notebook costs only it
            reason = f"the grader could not grade it ({type(error).__name__}: {str(error)[:200]})"
            return self._failed(handin, "", reason)  # not kept: a rerun tries again
        finally:
            copy.unlink(missing_ok=True)
        self.journal.add(marked)
        return marked

    def _graded(self, copy: Path, handin: handins.HandIn) -> tuple[Report, str]:
        report = self.grader.grade_one(copy, handin.exercise)
        report.path = handin.path
        return report, feedback.section(report)

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
        history = self.marks.get(student, {}).get(exercise, [])
        graded = [(h, m) for h, m in history if m is not None]
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
        for exercise in self.marks.get(student, {}):
            chosen = self.chosen(student, exercise)
            if chosen is None:
                continue
            handin, marked = chosen
            result = marked.result()
            deadline = self.choices.deadline(exercise)
            result.late = deadline is not None and handin.received > deadline
            record.exercises[exercise] = result
            record.name = handin.name
        if self.roster is not None and (person := self.roster.get(student)) is not None:
            record.name = person.name
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
        canvas = sheet.canvas_rows([row], self.columns, self.roster)
        sheet.append(canvas[1:], self.outputs.canvas, list(canvas[0]))
        moodle = sheet.moodle_rows([row], self.columns, self.roster)
        sheet.append(moodle, self.outputs.moodle, sheet.moodle_header(self.columns, self.roster))
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
        students = [s.key for s in self.roster] if self.roster is not None else self.marks
        records = [self.line(student, flags.get(student, [])) for student in students]
        self.rows = sheet.rows(records, self.columns, self.choices.overrides, self.roster is None)
        self._write_sheets()
        by_id = {row["student_id"]: row for row in self.rows}
        for record in records:
            self._write_page(record, by_id[record.student_id])
        title = _("Class summary: {sheet}").format(sheet=self.outputs.sheet.name)
        nbfile.write_atomic(self.outputs.summary, summary.page(self.rows, self.columns, title))

    def _write_sheets(self) -> None:
        sheet.write(self.rows, self.outputs.sheet, sheet.header(self.columns))
        canvas = sheet.canvas_rows(self.rows, self.columns, self.roster)
        sheet.write(canvas, self.outputs.canvas, list(canvas[0]))
        moodle = sheet.moodle_rows(self.rows, self.columns, self.roster)
        sheet.write(moodle, self.outputs.moodle, sheet.moodle_header(self.columns, self.roster))

    def _write_page(self, record: sheet.Student, row: sheet.Row) -> None:
        """The student's page, in the language of their hand-ins (English if none says one)."""
        chosen = (self.chosen(record.student_id, exercise) for exercise in self.columns)
        with speaking(feedback.language_of(found[1].section for found in chosen if found)):
            self._page(record, row)

    def _page(self, record: sheet.Student, row: sheet.Row) -> None:
        notes = [_("Student id: {id}").format(id=record.student_id)]
        if row["isolated"] == "no":
            notes.append(_("This grading ran without the sandbox's isolation (see docs/grading.md)."))
        # which answer, never whose it is like: a page is handed to one student
        asked = dict.fromkeys(" ".join(line.split(" ")[:2]) for line in record.similar)
        notes += [_("Your teacher may ask about this answer: {answer}").format(answer=a) for a in asked]
        if not record.exercises:  # a student on the roster who handed nothing in
            notes.append(_("No hand-in of yours was found: {exercises} missing").format(
                exercises=", ".join(self.columns)))  # fmt: skip
        sections = []
        for exercise in self.columns:
            chosen = self.chosen(record.student_id, exercise)
            if chosen is None:
                continue
            handin, marked = chosen
            history = self.marks[record.student_id][exercise]
            notes += feedback.history(exercise, history, handin, self.choices.pick)
            deadline = self.choices.deadline(exercise)
            if deadline is not None and handin.received > deadline:
                notes.append(_("{exercise} was handed in at {when}, after the deadline {deadline}: it "
                               "is marked late").format(exercise=exercise, when=sheet.when(
                                   handin.received), deadline=sheet.when(deadline)))  # fmt: skip
            for column in self.columns[exercise]:
                override = self.choices.overrides.get(record.student_id, column)
                if override is not None:
                    points = "" if override.points is None else _(" {points} points;").format(
                        points=sheet.number(override.points))  # fmt: skip
                    notes.append(_("Your teacher's word on {column}:{points} {comment}").format(
                        column=column, points=points, comment=override.comment).rstrip())  # fmt: skip
            sections.append(marked.section)
        total = _("{points} of {max_points} points, {passed} of {total} questions passed").format(**row)
        path = self.outputs.feedback / feedback.page_name(record.student_id)
        text = feedback.page(record.name, sections, notes, total)
        if self._pages.get(record.student_id) != text:
            nbfile.write_atomic(path, text)
            self._pages[record.student_id] = text
        self.pages[record.student_id] = path


def progress_bar(stream: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int, str], None]:
    """A progress callback drawing ``[#####.....] 12/40 ann__04_flips.ipynb`` on one line."""

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
    return handins.collect(folder, list(checker.exercises(source_dir)))
