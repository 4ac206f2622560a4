"""An exercise as the grader sees it: its table entry, with every question's cases built.

The exercise table (:mod:`course.grading.table`) says what an exercise asks; each
question's check (:mod:`course.grading.checks`) builds its cases in this process, the
grader's: the cases the notebook shows and, when a teacher's seed is given, the same
recipes drawn again from it (:func:`course.grading.cases.grade_time`), which no student
has seen.  The arguments are encoded for the sandbox once, here, and reused for every
student; the expected answers never leave this process.

A student's copy can be checked without the teacher's folder (``python -m course check``
in a student copy): :func:`build` with no seed gives the notebook's own cases only.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from course.grading import checks, compose, wire
from course.grading import notebook as nbfile
from course.grading.cases import grade_time
from course.grading.notebook import ANSWER, CHECK, NotebookError
from course.grading.records import Case, Part, Question, Spec
from course.grading.runner import collect
from course.grading.table import ENTRIES, Entry
from course.i18n import gettext as _
from reversi.files import read_bounded

SEED_FILE = "grading_seed.txt"


@dataclass
class Exercise:
    """The teacher's side of one exercise."""

    name: str
    entry: Entry
    answers: list[str]  # the answer:NAME tags, in order
    questions: list[Question] = field(default_factory=list)
    runtime: dict[str, str] = field(default_factory=dict)  # the sandbox's files
    starters: dict[str, str] = field(default_factory=dict)  # answer tag: the starting code
    solutions: dict[str, str] = field(default_factory=dict)  # answer tag: the teacher's code

    @property
    def points(self) -> int:
        return sum(question.points for question in self.questions)


def load_seed(source_dir: Path, create: bool = True) -> int:
    """The teacher's seed, kept in the teacher's folder (made, once, when missing)."""
    path = source_dir / SEED_FILE
    try:
        if not path.exists():
            if not create:
                raise NotebookError(f"{path} is missing: the teacher's seed for grade-time cases")
            path.write_text(f"{secrets.randbelow(2**62)}\n", encoding="utf-8")
        text = read_bounded(path, 100).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not text"
        raise NotebookError(f"{path}: cannot read or make the teacher's seed ({reason})") from None
    if not (text.isascii() and text.isdigit() and len(text) <= 40):
        raise NotebookError(f"{path} must hold a whole number (the seed), not {text[:40]!r}")
    return int(text)


def _spec(check: str) -> Spec:
    function = checks.CHECKS.get(check)
    if function is None:
        raise NotebookError(f"there is no check named {check!r}")
    with collect() as found:
        function(None)
    if len(found) != 1:
        raise NotebookError(f"the check {check!r} did not describe its cases")
    return found[0]


def _part(spec: Spec, shown: Part | None = None) -> Part:
    """The spec's cases ready to send; with ``shown``, only the cases it does not have."""
    if shown is not None:
        seen = {json.dumps(arguments) for arguments in shown.arguments}
        unseen = _("{case} [grade-time case]")
        cases = [
            Case(unseen.format(case=c.name), c.args, c.expected, c.board, c.highlight, c.picture)
            for c in spec.cases
            if json.dumps([wire.dump_argument(arg) for arg in c.args]) not in seen
        ]
        spec = Spec(spec.title, cases, spec.judge, spec.show, spec.call, spec.unchanged,
                    spec.catch, spec.overall)  # fmt: skip
    arguments = [[wire.dump_argument(arg) for arg in case.args] for case in spec.cases]
    return Part(spec, arguments, shown is not None)


def build(name: str, seed: int | None) -> Exercise:
    """Exercise ``name`` from the table; with ``seed``, its grade-time cases too."""
    entry = ENTRIES.get(name)
    if entry is None:
        raise NotebookError(f"there is no exercise {name!r} (the exercises: {', '.join(ENTRIES)})")
    exercise = Exercise(name, entry, list(entry.answer_tags), runtime=compose.runtime(entry))
    for question in entry.questions:
        visible = _part(_spec(question.check))
        parts = [visible]
        if seed is not None:
            with grade_time(seed):
                parts.append(_part(_spec(question.check), shown=visible))
        exercise.questions.append(
            Question(question.tag, question.check, question.function, tuple(parts),
                     question.points, question.partial)
        )  # fmt: skip
    return exercise


def agrees(notebook: nbfile.Notebook, entry: Entry, where: str) -> None:
    """Refuse a notebook whose answer and check cells are not its table entry's."""
    cells = notebook["cells"]
    answers = [t for c in cells if (t := nbfile.tag_with(c, ANSWER))]
    checked = [t for c in cells if (t := nbfile.tag_with(c, CHECK))]
    if answers != list(entry.answer_tags):
        raise NotebookError(f"{where}: its answer cells {answers} are not the table's "
                            f"{list(entry.answer_tags)}")  # fmt: skip
    if checked != [q.tag for q in entry.questions]:
        raise NotebookError(f"{where}: its check cells {checked} are not the table's "
                            f"{[q.tag for q in entry.questions]}")  # fmt: skip
    for cell in cells:
        tag = nbfile.tag_with(cell, CHECK)
        question = next((q for q in entry.questions if q.tag == tag), None)
        if question and f"checks.{question.check}({question.function})" not in nbfile.source(cell):
            raise NotebookError(
                f"{where}: {tag} must call checks.{question.check}({question.function})"
            )


def load(path: Path, seed: int | None) -> Exercise:
    """The exercise of the teacher's source notebook ``path`` (checked against the table)."""
    name = path.stem
    if name not in ENTRIES:
        raise NotebookError(f"{path}: {name} is not in the exercise table")
    source = nbfile.read(path)
    agrees(source, ENTRIES[name], str(path))
    exercise = build(name, seed)
    for cell in source["cells"]:
        tag = nbfile.tag_with(cell, ANSWER)
        if tag:
            exercise.solutions[tag] = nbfile.source(cell)
            exercise.starters[tag] = nbfile.strip_solutions(exercise.solutions[tag])
    return exercise
