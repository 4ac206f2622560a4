"""A student's term across the exercises; and all the kit keeps about one student, to export or erase.

:func:`term` reads the class's files each time (so it is right after a restart or an erase):
the self-checks (``DATA/progress.jsonl``), the hand-in folders (listed, not opened) and the
grade sheet (``class/grades.csv``) once graded.  For 300 students with 10 exercises, 100
self-checks and 3 hand-ins of each apiece (30,000 lines, 9,000 notebooks) and a graded sheet
it takes 0.3 to 0.6 s of CPU on a busy 2-core machine (measured once, best and median of 20),
so the overview reads it again every :data:`REFRESH` seconds, not at each of its updates.

:func:`export_student` gathers everything kept about one student as JSON-able data;
:func:`erase_student` removes it (hand-ins, self-checks, grade rows, feedback page, grading
journal lines, sign-ins), computing everything before it writes; every other student's line
is kept byte for byte.  The files are the kit's own, but a teacher may edit a sheet: a sheet
is read bounded in size, receipts and notebooks through :mod:`course.schema`, and a line
that does not read is passed over (and kept by an erase).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from course.grading.journal import Outputs
from course.grading.sheet import cell, number, uncell
from course.i18n import gettext as _
from course.roster.model import Roster, RosterError, Student
from course.roster.signin import SignIns
from course.roster.store import Places, RosterFile
from course.schema import Limits, SchemaError, read_json
from course.site.store import EXERCISE_NAME, NOTEBOOK_LIMITS, STAMP

#: The largest grade sheet read (a class of 2,000 fills a few hundred kB).
MAX_SHEET = 20_000_000
#: A receipt beside a hand-in is a few short fields.
RECEIPT = Limits(bytes=10_000, depth=2, items=50)
#: The columns that name a student (their key or gradebook ids) in the kit's sheet, Canvas's, Moodle's.
ID_COLUMNS = ("student_id", "ID", "SIS User ID", "SIS Login ID", "Username", "ID number", "Email address")
#: How often the overview's section reads the files again, in seconds.
REFRESH = 10.0

#: A student's self-checks: by exercise and question, (last try passed, its time, failed tries since a pass).
Questions = dict[str, dict[str, tuple[bool, float, int]]]


@dataclass(frozen=True)
class Stuck:
    """Where a student is stuck: the question failed most recently and not passed since."""

    exercise: str
    question: str
    tries: int  # failed tries since it was last passed (or since the first try)

    def __str__(self) -> str:
        return f"{self.exercise}/{self.question} ({self.tries} {'try' if self.tries == 1 else 'tries'})"


@dataclass(frozen=True)
class ExerciseTerm:
    """One student on one exercise: self-check questions passed (last try) of those tried, hand-ins, points."""

    passed: int = 0
    tried: int = 0
    handed_in: int = 0
    last_handed_in: str = ""  # UTC, as the grade sheet writes times
    points: float | None = None  # None until the sheet has the exercise

    def __str__(self) -> str:
        parts = (f"{self.passed}/{self.tried} passed" if self.tried else "",
                 _count(self.handed_in, "hand-in") if self.handed_in else "",
                 "" if self.points is None else f"{number(self.points)} points")  # fmt: skip
        return "; ".join(part for part in parts if part)


@dataclass(frozen=True)
class TermRow:
    """One student's term: each exercise (in the order asked), where stuck, the sheet's total."""

    student: Student
    exercises: dict[str, ExerciseTerm]
    stuck: Stuck | None = None
    points: str = ""  # '' until graded

    @property
    def missing(self) -> list[str]:
        """The exercises not handed in."""
        return [name for name, done in self.exercises.items() if not done.handed_in]


def term(roster: Roster, places: Places, exercises: Sequence[str]) -> list[TermRow]:
    """A row per student on ``roster`` (no roster: per key in the data), per exercise of ``exercises``
    and then of any other exercise the data names."""
    questions = _questions(places.progress)
    handins = {key: _handins(places.handins / key) for key in _folders(places.handins)}
    header, _, records = _read_sheet(places.grades)
    graded = {row["student_id"]: row for row in (_by_column(header, r) for r, _ in records)
              if row.get("student_id")}  # fmt: skip
    points = _point_columns(header)
    students = list(roster) or [Student(key, graded.get(key, {}).get("name") or key)
                                for key in sorted({*questions, *handins, *graded})]  # fmt: skip
    seen = {exercise for found in questions.values() for exercise in found}
    seen |= {exercise for found in handins.values() for exercise in found} | set(points)
    names = [*dict.fromkeys(exercises), *sorted(seen - set(exercises))]
    return [_row(s, names, questions.get(s.key, {}), handins.get(s.key, {}), graded.get(s.key), points)
            for s in students]  # fmt: skip


def _row(student: Student, exercises: list[str], questions: Questions, handins: dict[str, list[str]],
         graded: dict[str, str] | None, points: dict[str, list[str]]) -> TermRow:  # fmt: skip
    found = {}
    for exercise in exercises:
        mine = [ok for ok, _, _ in questions.get(exercise, {}).values()]
        stamps = handins.get(exercise, [])
        earned = sum(_float(graded.get(c, "")) for c in points[exercise]) \
            if graded is not None and exercise in points else None  # fmt: skip
        at = stamps[-1] if stamps else ""  # YYYYMMDDTHHMMSS.ffffffZ, written as the sheet writes times
        last = f"{at[:4]}-{at[4:6]}-{at[6:8]}T{at[9:11]}:{at[11:13]}:{at[13:15]}Z" if at else ""
        found[exercise] = ExerciseTerm(sum(mine), len(mine), len(stamps), last, earned)
    failing = [(t, exercise, question, tries) for exercise, asked in questions.items()
               for question, (ok, t, tries) in asked.items() if not ok]  # fmt: skip
    stuck = Stuck(*max(failing)[1:]) if failing else None
    return TermRow(student, found, stuck, graded.get("points", "") if graded else "")


def term_csv(rows: Sequence[TermRow]) -> str:
    """The term as CSV: a row per student, a group of columns per exercise; no cell is a formula."""
    exercises = list(rows[0].exercises) if rows else []
    parts = ("passed", "tried", "hand-ins", "last hand-in", "points")
    header = ["key", "name", *(f"{name} {part}" for name in exercises for part in parts)]
    writer = csv.writer(out := io.StringIO())
    writer.writerow([cell(name) for name in [*header, "stuck", "stuck tries", "missing", "points"]])
    for row in rows:
        cells: list[object] = [row.student.key, row.student.name]
        for done in row.exercises.values():
            points = "" if done.points is None else number(done.points)
            cells += [done.passed, done.tried, done.handed_in, done.last_handed_in, points]
        stuck = row.stuck
        cells += [f"{stuck.exercise}/{stuck.question}", stuck.tries] if stuck else ["", ""]
        writer.writerow([cell(value) for value in [*cells, " ".join(row.missing), row.points]])
    return out.getvalue()


def term_section(roster_file: RosterFile, places: Places, exercises: Sequence[str],
                 clock: Callable[[], float] = time.monotonic) -> Callable[[], dict[str, Any]]:  # fmt: skip
    """The term as a section of the teacher's overview, read from the files every :data:`REFRESH` s."""
    made: list[tuple[float, dict[str, Any]]] = []

    def section() -> dict[str, Any]:
        if made and clock() - made[0][0] < REFRESH:
            return made[0][1]
        rows = term(roster_file.load(), places, exercises)
        names = list(rows[0].exercises) if rows else list(exercises)
        made[:] = [(clock(), {
            "title": _("The term: per exercise, self-check questions passed/tried, hand-ins, points"),
            "columns": [_("Student"), _("Stuck at"), *names, _("Points")],
            "rows": [[row.student.name, str(row.stuck or ""), *map(str, row.exercises.values()),
                      row.points] for row in rows],  # fmt: skip
        })]
        return made[0][1]

    return section


def export_student(student: Student, places: Places, signins: SignIns) -> dict[str, Any]:
    """Everything the kit keeps about ``student``, as JSON-able data (never a sign-in code)."""
    kept = _Kept.find(student, places)
    handins = [
        {"exercise": exercise, "notebook_path": str(notebook),
         "receipt": _json_file(notebook.with_suffix(".json"), RECEIPT),
         "notebook": _json_file(notebook, NOTEBOOK_LIMITS)}
        for exercise, stamps in kept.stamps.items()
        for notebook in (kept.folder / exercise / f"{stamp}.ipynb" for stamp in stamps)
    ]  # fmt: skip
    return {
        "student": asdict(student),
        "sign_in": signins.export(student.key),
        "self_checks": [line for _, line in kept.self_checks],
        "hand_ins": handins,
        "grades": {str(path): rows for path, (rows, _, _) in kept.sheets.items() if rows},
        "grading_journal": [line for _, line in kept.journal],
        "feedback_page": {"path": str(kept.page), "html": kept.page.read_text(encoding="utf-8",
                          errors="replace")} if kept.page.is_file() else None,
    }  # fmt: skip


def erase_student(student: Student, places: Places, signins: SignIns) -> list[str]:
    """Remove all kept about ``student`` but the roster entry; returns what was removed, line by line.

    Every new file is made before the first is written, so a file that does not read stops
    the erase with nothing changed; if the disk fails half way, erasing again finishes it.
    """
    kept = _Kept.find(student, places)
    signed = signins.export(student.key)
    said = []
    for path, lines, what in ((places.progress, kept.self_checks, "self-check"),
                              (kept.outputs.journal, kept.journal, "graded hand-in")):  # fmt: skip
        if lines:
            _replace(path, _lines_but(path, {n for n, _ in lines}))
            said.append(f"removed {_count(len(lines), what)} from {path}")
    for path, (rows, text, notes) in kept.sheets.items():
        if rows or notes:
            _replace(path, [text])
        said += [f"removed their row from {path}"] if rows else []
        said += [f"removed their key from {_count(notes, 'near-copy note')} of others in {path}"] if notes else []
    if kept.page.is_file():
        kept.page.unlink()
        said.append(f"removed their feedback page {kept.page}")
    if kept.folder.exists():
        count = _count(sum(len(stamps) for stamps in kept.stamps.values()), "hand-in")
        shutil.rmtree(kept.folder)
        said.append(f"removed {count} of {_count(len(kept.stamps), 'exercise')}: {kept.folder}")
    if kept.sheets[kept.outputs.sheet][0] and kept.outputs.summary.is_file():
        said.append(f"{kept.outputs.summary} still counts them in its totals until the next grading")
    signins.db.execute("PRAGMA secure_delete = ON")  # else deleted rows stay readable in the file
    signins.forget(student.key)
    if signed["code_issued"] or signed["browsers"] or signed["claimed_name"]:
        said.append(f"removed their sign-in (a card's code: {'yes' if signed['code_issued'] else 'no'}, "
                    f"{_count(len(signed['browsers']), 'browser')} signed in) from {places.signin}")  # fmt: skip
    return said or [f"nothing was kept about {student.name} ({student.key}) beyond the roster"]


@dataclass
class _Kept:
    """Where ``student``'s data is: hand-ins, progress lines, sheet rows, journal lines, page."""

    folder: Path
    stamps: dict[str, list[str]]
    self_checks: list[tuple[int, Any]]
    outputs: Outputs
    sheets: dict[Path, tuple[list[dict[str, str]], bytes, int]]
    journal: list[tuple[int, Any]]
    page: Path

    @classmethod
    def find(cls, student: Student, places: Places) -> _Kept:
        from course.grading.feedback import page_name  # the grader's pages (a heavier import)

        key = student.key
        folder = places.handins / key
        if folder.resolve().parent != places.handins.resolve():
            raise RosterError(f"{key!r} is not a student key the kit made: it names no hand-in folder")
        sheet = places.grades  # the other files' names as `python -m course grade` makes them
        outputs = Outputs(sheet, sheet.with_name(sheet.stem + "-feedback"))
        sheets = {path: _split_sheet(path, student) for path in (outputs.sheet, outputs.canvas, outputs.moodle)}
        return cls(folder, _handins(folder), _their_lines(places.progress, key), outputs, sheets,
                   _their_lines(outputs.journal, key), outputs.feedback / page_name(key))  # fmt: skip


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _json_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """Each line of a JSON-lines file: its number and its JSON (None where it does not read)."""
    with path.open(encoding="utf-8", errors="replace", newline="\n") if path.is_file() else io.StringIO() as lines:
        for index, line in enumerate(lines):
            try:
                yield index, json.loads(line)
            except (ValueError, RecursionError):
                yield index, None


def _their_lines(path: Path, key: str) -> list[tuple[int, Any]]:
    """The lines of a JSON-lines file whose ``student`` is ``key``: (line number, the JSON)."""
    return [(n, data) for n, data in _json_lines(path) if isinstance(data, dict) and data.get("student") == key]


def _questions(path: Path) -> dict[str, Questions]:
    """Each student's self-checks, oldest first, as :data:`Questions`."""
    found: dict[str, Questions] = {}
    for data in (d for _number, d in _json_lines(path) if _self_check(d)):
        questions = found.setdefault(data["student"], {}).setdefault(data["exercise"], {})
        failed = 0 if data["passed"] else questions.get(data["question"], (False, 0.0, 0))[2] + 1
        questions[data["question"]] = (data["passed"], float(data["time"]), failed)
    return found


def _self_check(data: Any) -> bool:
    """Whether a line's JSON is a self-check as course.classroom.progress writes it."""
    return isinstance(data, dict) and all(isinstance(data.get(n), str) for n in ("student", "exercise", "question")) \
        and type(data.get("passed")) is bool and type(data.get("time")) in (int, float)  # fmt: skip


def _folders(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    with os.scandir(root) as entries:  # os.scandir: a tenth of pathlib's glob's time
        return sorted(entry.name for entry in entries if entry.is_dir(follow_symlinks=False))


def _handins(folder: Path) -> dict[str, list[str]]:
    """A student's hand-in folder: each exercise's hand-ins (``STAMP.ipynb``), by stamp, oldest first."""
    found = {}
    for exercise in filter(EXERCISE_NAME.fullmatch, _folders(folder)):
        with os.scandir(folder / exercise) as entries:
            stamps = sorted(stem for stem, _, kind in (e.name.rpartition(".") for e in entries)
                            if kind == "ipynb" and STAMP.fullmatch(stem))  # fmt: skip
        if stamps:
            found[exercise] = stamps
    return found


def _json_file(path: Path, limits: Limits) -> Any:
    """The JSON in ``path`` (None if there is none; the reason if it does not read)."""
    try:
        return read_json(path.read_bytes(), str(path), limits) if path.is_file() else None
    except SchemaError as refused:
        return {"unreadable": str(refused)}


def _lines_but(path: Path, numbers: set[int]) -> Iterator[bytes]:
    with path.open("rb") as lines:  # read while the new file is written
        yield from (line for index, line in enumerate(lines) if index not in numbers)


def _replace(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` to a temporary file beside ``path`` that then replaces it (same mode)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.writelines(chunks)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _float(text: str) -> float:
    return float(text) if re.fullmatch(r"[0-9]+(\.[0-9]*)?", text) else 0.0


def _records(text: str) -> Iterator[tuple[list[str], str]]:
    """Each record of CSV ``text``, with the exact text it was read from."""
    source, start = io.StringIO(text, newline=""), 0  # untranslated: a position is an index in text
    for record in csv.reader(source):
        yield record, text[start : source.tell()]
        start = source.tell()


def _read_sheet(path: Path) -> tuple[list[str], str, list[tuple[list[str], str]]]:
    """A CSV file's header, the header's exact text, and its other records with theirs."""
    if not path.is_file():
        return [], "", []
    if path.stat().st_size > MAX_SHEET:
        raise RosterError(f"{path} is over {MAX_SHEET} bytes: it is not a sheet the kit wrote")
    try:
        records = list(_records(path.read_bytes().decode("utf-8", "surrogateescape")))
    except csv.Error as error:
        raise RosterError(f"{path} is not a CSV file: {error}") from None
    header, head = records[0] if records else ([], "")
    return [uncell(name).removeprefix("\ufeff") for name in header], head, records[1:]  # a BOM


def _by_column(header: list[str], record: list[str]) -> dict[str, str]:
    return {name: uncell(value) for name, value in zip(header, record, strict=False)}


def _point_columns(header: list[str]) -> dict[str, list[str]]:
    """The sheet's question columns (``EXERCISE:QUESTION``) by exercise."""
    found: dict[str, list[str]] = {}
    for exercise, _colon, question in (column.partition(":") for column in header):
        if question and question not in ("handed_in", "late"):
            found.setdefault(exercise, []).append(f"{exercise}:{question}")
    return found


def _split_sheet(path: Path, student: Student) -> tuple[list[dict[str, str]], bytes, int]:
    """``student``'s rows of a sheet, the sheet without them, and how many others' near-copy notes named them."""
    header, head, records = _read_sheet(path)
    columns, wanted = [n for n, name in enumerate(header) if name in ID_COLUMNS], {student.key, *student.ids()}
    mention = re.compile(rf"\blike {re.escape(student.key)}(?=;|$)")
    theirs, kept, notes = [], [head], 0
    for record, raw in records:
        if any(n < len(record) and uncell(record[n]).casefold() in wanted for n in columns):
            theirs.append(_by_column(header, record))
        elif any(mention.search(value) for value in record):
            csv.writer(line := io.StringIO()).writerow([cell(mention.sub("like a student since erased", v))
                                                        for v in record])  # fmt: skip
            kept.append(line.getvalue())
            notes += 1
        else:
            kept.append(raw)
    return theirs, "".join(kept).encode("utf-8", "surrogateescape"), notes
