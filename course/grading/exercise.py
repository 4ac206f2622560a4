"""An exercise as the grader sees it: the teacher's setup, answer cells and questions with their cases.

Read from the teacher's source notebook.  Each ``check:NAME`` cell calls
``checks.CHECK(FUNCTION)``; that call is a *question*, graded on two sets of cases built
by the check (see :func:`course.grading.runner.collect`): the ones the notebook shows,
and the same recipes drawn again from the teacher's seed
(:func:`course.grading.cases.grade_time`), which no student has seen.  The arguments are
encoded for the sandbox once, here, and reused for every student.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.grading import checks, wire
from course.grading import notebook as nbfile
from course.grading.cases import grade_time
from course.grading.notebook import ANSWER, CHECK, SETUP, NotebookError
from course.grading.runner import Case, Spec, collect

SEED_FILE = "grading_seed.txt"
_CALL = re.compile(r"^checks\.(\w+)\((\w+)\)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Part:
    """One set of cases of a question (shown in the notebook, or grade-time), ready to send."""

    spec: Spec
    arguments: list[list[Any]]
    unseen: bool


@dataclass(frozen=True)
class Question:
    """A ``check:NAME`` cell: the check it calls, the student's function, its cases."""

    tag: str
    check: str
    function: str
    parts: tuple[Part, ...]

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
    setup: list[str]
    answers: list[str]  # the answer:NAME tags, in order
    starters: dict[str, str]  # answer tag: the student's starting code
    solutions: dict[str, str]  # answer tag: the teacher's code
    questions: list[Question] = field(default_factory=list)


def load_seed(source_dir: Path, create: bool = True) -> int:
    """The teacher's seed, kept in the teacher's folder (made, once, when missing)."""
    path = Path(source_dir) / SEED_FILE
    if not path.exists():
        if not create:
            raise NotebookError(f"{path} is missing: the teacher's seed for grade-time cases")
        path.write_text(f"{secrets.randbelow(2**62)}\n", encoding="utf-8")
    text = path.read_text(encoding="utf-8").strip()
    if not text.isdigit():
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


def load(path: Path, seed: int) -> Exercise:
    """The exercise in the teacher's source notebook ``path``, its cases drawn with ``seed``."""
    source = nbfile.read(path)
    exercise = Exercise(Path(path).stem, [], [], {}, {})
    for cell in source["cells"]:
        if cell.get("cell_type") != "code":
            continue
        text = nbfile.source(cell)
        answer, check = nbfile.tag_with(cell, ANSWER), nbfile.tag_with(cell, CHECK)
        if SETUP in nbfile.tags(cell):
            exercise.setup.append(text)
        elif answer:
            exercise.answers.append(answer)
            exercise.starters[answer] = nbfile.strip_solutions(text)
            exercise.solutions[answer] = text
        elif check:
            match = _CALL.search(text)
            if not match:
                raise NotebookError(f"{path}: {check} does not call checks.NAME(FUNCTION)")
            name, function = match.groups()
            visible = _part(_spec(name))
            with grade_time(seed):
                unseen = _part(_spec(name), shown=visible)
            exercise.questions.append(Question(check, name, function, (visible, unseen)))
    return exercise
