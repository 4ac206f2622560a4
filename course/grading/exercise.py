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
from typing import Any

from course.grading import checks, compose, wire
from course.grading import notebook as nbfile
from course.grading.cases import grade_time
from course.grading.notebook import ANSWER, CHECK, NotebookError, _as_path
from course.grading.runner import Case, Spec, collect
from course.grading.table import ENTRIES, Entry, Partial
from reversi.errors import ArgumentError, shown
from reversi.files import read_bounded

__all__ = [
    "SEED_FILE",
    "Part",
    "Question",
    "Exercise",
    "load_seed",
    "build",
    "agrees",
    "load",
]

SEED_FILE = "grading_seed.txt"
#: Seeds are whole numbers of at most this many bits (the teacher's is made below 2**62).
_SEED_BITS = 128


def _seed(value: object) -> int | None:
    if value is not None and (type(value) is not int or value.bit_length() > _SEED_BITS):
        raise ArgumentError(f"seed must be None or a whole number (of at most {_SEED_BITS} "
                            f"bits), not {shown(value)}")  # fmt: skip
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{what} must be text, not {shown(value)}")
    return value


def _texts(value: object, what: str) -> None:
    if type(value) is not list or not all(isinstance(item, str) for item in value):
        raise ArgumentError(f"{what} must be a list of text, not {shown(value)}")


def _text_dict(value: object, what: str) -> None:
    if type(value) is not dict or not all(
        isinstance(key, str) and isinstance(item, str) for key, item in value.items()
    ):
        raise ArgumentError(f"{what} must be a dict of text to text, not {shown(value)}")


def _notebook(value: object, what: str = "notebook") -> list[dict[str, Any]]:
    """The cells of the notebook ``value`` (the dicts among them), or the kit's error."""
    if not isinstance(value, dict) or not isinstance(value.get("cells"), list):
        raise ArgumentError(f"{what} must be a notebook (a dict with a list of cells), "
                            f"not {shown(value)}")  # fmt: skip
    return [cell for cell in value["cells"] if isinstance(cell, dict)]


@dataclass(frozen=True)
class Part:
    """One set of cases of a question (shown in the notebook, or grade-time), ready to send."""

    spec: Spec
    arguments: list[list[Any]]
    unseen: bool

    def __post_init__(self) -> None:
        if not isinstance(self.spec, Spec):
            raise ArgumentError(f"a part's spec must be a Spec, not {shown(self.spec)}")
        if type(self.arguments) is not list or not all(type(a) is list for a in self.arguments):
            raise ArgumentError("a part's arguments must be a list of lists, "
                                f"not {shown(self.arguments)}")  # fmt: skip
        if type(self.unseen) is not bool:
            raise ArgumentError(f"a part's unseen must be True or False, not {shown(self.unseen)}")


@dataclass(frozen=True)
class Question:
    """A ``check:NAME`` cell: the check it calls, the student's function, its cases, its points."""

    tag: str
    check: str
    function: str
    parts: tuple[Part, ...]
    points: int = 1
    partial: Partial = Partial.NONE

    def __post_init__(self) -> None:
        for name in ("tag", "check", "function"):
            _text(getattr(self, name), f"a question's {name}")
        if type(self.parts) is not tuple or not all(isinstance(p, Part) for p in self.parts):
            raise ArgumentError(f"a question's parts must be a tuple of Part, not {shown(self.parts)}")
        if type(self.points) is not int or not 0 <= self.points <= 1000:
            raise ArgumentError("a question's points must be a whole number from 0 to 1000, "
                                f"not {shown(self.points)}")  # fmt: skip
        if not isinstance(self.partial, Partial):
            raise ArgumentError(f"a question's partial must be a Partial, not {shown(self.partial)}")

    @property
    def answer_tag(self) -> str:
        return ANSWER + self.function

    @property
    def total(self) -> int:
        return sum(len(part.spec.cases) for part in self.parts)


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

    def __post_init__(self) -> None:
        _text(self.name, "an exercise's name")
        if not isinstance(self.entry, Entry):
            raise ArgumentError(f"an exercise's entry must be a table Entry, not {shown(self.entry)}")
        _texts(self.answers, "an exercise's answers")
        if type(self.questions) is not list or not all(
            isinstance(q, Question) for q in self.questions
        ):
            raise ArgumentError("an exercise's questions must be a list of Question, "
                                f"not {shown(self.questions)}")  # fmt: skip
        _text_dict(self.runtime, "an exercise's runtime")
        _text_dict(self.starters, "an exercise's starters")
        _text_dict(self.solutions, "an exercise's solutions")

    @property
    def points(self) -> int:
        return sum(question.points for question in self.questions)


def load_seed(source_dir: Path, create: bool = True) -> int:
    """The teacher's seed, kept in the teacher's folder (made, once, when missing)."""
    path = _as_path(source_dir, "source_dir") / SEED_FILE
    if type(create) is not bool:
        raise ArgumentError(f"create must be True or False, not {shown(create)}")
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
    function = getattr(checks, check, None)
    if function is None or check not in checks.__all__:
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
        cases = [
            Case(f"{c.name} [grade-time case]", c.args, c.expected, c.board, c.highlight, c.picture)
            for c in spec.cases
            if json.dumps([wire.dump_argument(arg) for arg in c.args]) not in seen
        ]
        spec = Spec(spec.title, cases, spec.judge, spec.show, spec.call, spec.unchanged,
                    spec.catch, spec.overall)  # fmt: skip
    arguments = [[wire.dump_argument(arg) for arg in case.args] for case in spec.cases]
    return Part(spec, arguments, shown is not None)


def build(name: str, seed: int | None) -> Exercise:
    """Exercise ``name`` from the table; with ``seed``, its grade-time cases too."""
    _text(name, "name")
    _seed(seed)
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
    cells = _notebook(notebook)
    if not isinstance(entry, Entry):
        raise ArgumentError(f"entry must be an exercise table Entry, not {shown(entry)}")
    _text(where, "where")
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
    _seed(seed)
    name = _as_path(path, "path").stem
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
