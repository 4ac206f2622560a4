"""The grading's records, shared by the self-check, the grader, the feedback and the gradebook.

A check builds :class:`Case` lists and describes itself as a :class:`Spec`; a call gives a
:class:`Reply` (an answer, or :class:`Raised` for an error); a wrong answer is a
:class:`Failure`.  The grader holds each question as a :class:`Question` of
:class:`Part` (the notebook's cases, then the grade-time ones) and returns a
:class:`Report` of one :class:`CheckResult` per question.  Plain data, no behaviour
beyond reading itself: every other grading module imports this one, and it imports none
of them but the table and the notebook format.
"""

from __future__ import annotations

import linecache
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.grading.notebook import ANSWER
from course.grading.table import Partial
from course.i18n import gettext as _
from reversi import Board
from reversi.errors import ReversiError

Show = Callable[[Any], str]
Judge = Callable[[Any, tuple[Any, ...]], Any]


@dataclass(frozen=True)
class Case:
    """One call of the student's function and the answer the oracle expects.

    ``args`` are copied before each call (a :class:`~reversi.Board` or a view of one gets
    a fresh copy), so a function that changes its arguments cannot spoil later cases.
    ``board`` is drawn when the case fails, with ``highlight`` squares marked.
    """

    name: str
    args: tuple[Any, ...]
    expected: Any
    board: Board | None = None
    highlight: tuple[Any, ...] = ()
    picture: str | None = None  # a text picture for cases without a Reversi board
    #: ``(kind of mistake, the answer a function with that mistake gives)``, worked out by
    #: the check where only it can (see :mod:`course.grading.mistakes`).
    mistaken: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Raises:
    """The expected answer "raises ``kind``", and ``also`` what else should hold.

    >>> print(Raises(ValueError, "and leave the board as it was"))
    should raise ValueError and leave the board as it was
    """

    kind: type[BaseException]
    also: str = ""

    def __str__(self) -> str:
        said = _("should raise {error}").format(error=self.kind.__name__)
        return " ".join([said] + [_(self.also)] * bool(self.also))


@dataclass(frozen=True)
class Raised:
    """Stands for "the function raised this error" where an answer was expected.

    ``names`` are the qualified names of the error's classes (``builtins.ValueError``...),
    so that a subclass counts; ``line`` is the error's ``line`` when it is a whole number.
    """

    kind: str = ""
    message: str = ""
    names: tuple[str, ...] = field(default=(), compare=False)
    line: int | None = field(default=None, compare=False)
    where: str = field(default="", compare=False)  # the student's line that raised it

    @classmethod
    def of(cls, error: BaseException) -> Raised:
        """What ``error`` was: its class's name and names, its message, the student's line."""
        line = getattr(error, "line", None)
        names = tuple(f"{c.__module__}.{c.__qualname__}" for c in type(error).__mro__)
        message = str.__str__(str(error))[:500] if _plain_str(error) else "(unreadable)"
        return cls(type(error).__name__, message, names, line if type(line) is int else None,
                   _where(error))  # fmt: skip

    def is_a(self, kind: type[BaseException]) -> bool:
        """Whether the error raised was a ``kind`` (or a subclass of it)."""
        return f"{kind.__module__}.{kind.__qualname__}" in self.names

    def __str__(self) -> str:
        if self.message:
            return _("raised {error}: {message}").format(error=self.kind, message=self.message)
        return _("raised {error}").format(error=self.kind)


#: The kit's folders: frames there are the kit's, not the student's.
_KIT = (
    str(Path(__file__).resolve().parents[1]) + os.sep,
    str(Path(sys.modules[Board.__module__].__file__ or ".").resolve().parent) + os.sep,
)


def _where(error: BaseException) -> str:
    """``'line 5: return row[8]'``: the last line of the student's own code the error passed."""
    trace, found = error.__traceback__, ""
    while trace is not None:
        code = trace.tb_frame.f_code
        name = code.co_filename
        if (
            not name.startswith(_KIT)
            and not name.startswith(sys.prefix + os.sep)
            and "<frozen" not in name
        ):
            text = linecache.getline(name, trace.tb_lineno).strip()
            found = _("line {number} of your code, in {function}: {text}").format(
                number=trace.tb_lineno, function=code.co_name, text=text)[:300]  # fmt: skip
        trace = trace.tb_next
    return found


def _plain_str(error: BaseException) -> bool:
    try:
        return type(str(error)) is str
    except Exception:
        return False


@dataclass
class Failure:
    """A case whose answer was wrong, with what the function printed while it ran, and the
    likely cause when the check can tell (``cause``, from :mod:`course.grading.mistakes`).

    ``returned`` is what the function returned before it was judged, ``changed`` whether it
    changed a board it was given where it should not have.
    """

    case: Case
    actual: Any
    printed: str = ""
    problem: str = ""
    cause: str = ""
    returned: Any = field(default=None, repr=False, compare=False)
    changed: bool = field(default=False, compare=False)

    @property
    def raised(self) -> bool:
        """Whether the function raised an error instead of answering."""
        return isinstance(self.actual, Raised)


class NotAnAnswer(ReversiError, ValueError):
    """A returned value of the wrong kind (a normaliser raises it with the reason)."""


@dataclass
class Reply:
    """What one call gave: an answer or a raised error, its output, the arguments after it."""

    args: tuple[Any, ...]
    answer: Any = None
    raised: Raised | None = None
    printed: str = ""


@dataclass(frozen=True)
class Spec:
    """A check as data: its cases and how to judge an answer (what ``run`` was given)."""

    title: str
    cases: Sequence[Case]
    judge: Judge
    show: Show = repr
    call: str | None = None
    unchanged: bool = True
    catch: Callable[[Raised], Any] | None = None
    overall: Callable[[list[tuple[Any, ...]]], str | None] | None = None


@dataclass(frozen=True)
class Part:
    """One set of cases of a question (shown in the notebook, or grade-time), ready to send."""

    spec: Spec
    arguments: list[list[Any]]
    unseen: bool


@dataclass(frozen=True)
class Question:
    """A ``check:NAME`` cell: the check it calls, the student's function, its cases, its points."""

    tag: str
    check: str
    function: str
    parts: tuple[Part, ...]
    points: int = 1
    partial: Partial = Partial.NONE

    @property
    def answer_tag(self) -> str:
        return ANSWER + self.function

    @property
    def total(self) -> int:
        return sum(len(part.spec.cases) for part in self.parts)

    def part_of(self, case: Case) -> Part | None:
        """The part that holds ``case`` (the very object), or None."""
        return next((p for p in self.parts if any(c is case for c in p.spec.cases)), None)


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
    language: str = "en"  # of the notebook, its notes and reasons (course.i18n.notebook_language)

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
        lines = [_("{exercise}: {path} (graded by the teacher's grader)").format(
            exercise=self.exercise, path=self.path)]  # fmt: skip
        for result in self.checks:
            counts = _("{passed}/{total} cases").format(
                passed=result.cases_passed, total=result.cases_total)  # fmt: skip
            score = f"{result.earned:g}/{result.points} pt"
            verdict_text = (_("passed  {counts}").format(counts=counts) if result.passed
                            else _("FAILED  {reason}").format(reason=result.message))  # fmt: skip
            lines.append(f"  {result.tag:<{width}}  {score:>9}  {verdict_text}")
        lines += [_("  note: {note}").format(note=note) for note in self.notes]
        lines.append(_("Score: {passed}/{total} questions, {earned:g}/{points} points").format(
            passed=self.passed, total=self.total, earned=self.earned, points=self.points))  # fmt: skip
        return "\n".join(lines)
