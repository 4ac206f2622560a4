"""Run a student's function on cases, report the first failure with its board, and fail loudly.

Every check in :mod:`course.grading.checks` is a list of :class:`Case` handed to
:func:`run`.  The answers come from the ``reversi`` package (the oracle), never from the
notebook, so redefining a name in an answer cell changes nothing here.  A check prints one
deterministic line when it passes (``flips: 12/12 cases passed``), which nbval compares
with the teacher's output; when a case fails it also names the case, shows the expected
and the actual answer, draws the board and raises :class:`AssertionError`.

>>> run("double", lambda n: 2 * n, [Case("two", (2,), 4), Case("three", (3,), 6)])
double: 2/2 cases passed
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from course.grading import guard
from course.grading.views import BoardView, board_text
from reversi import Board

Show = Callable[[Any], str]


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


@dataclass(frozen=True)
class Raises:
    """The expected answer "raises ``kind`` and leaves the board as it was" (an illegal move)."""

    kind: type[BaseException]

    def __str__(self) -> str:
        return f"raises {self.kind.__name__}, board unchanged"


@dataclass
class Failure:
    """A case whose answer was wrong, with what the function printed while it ran."""

    case: Case
    actual: Any
    printed: str = ""
    problem: str = ""


@dataclass(frozen=True)
class Raised:
    """Stands for "the function raised this error" where an answer was expected."""

    error: BaseException = field(compare=False)
    kind: str = ""
    message: str = ""

    @classmethod
    def of(cls, error: BaseException) -> Raised:
        return cls(error, type(error).__name__, str(error))

    def __str__(self) -> str:
        return f"raised {self.kind}: {self.message}" if self.message else f"raised {self.kind}"


class NotAnAnswer(ValueError):
    """A returned value of the wrong kind (a normaliser raises it with the reason)."""


def run(
    title: str,
    function: Any,
    cases: Sequence[Case],
    normalise: Callable[[Any], Any] = lambda value: value,
    show: Show = repr,
    call: str | None = None,
    unchanged: bool = True,
    outcome: Callable[[Any, tuple[Any, ...]], Any] | None = None,
) -> None:
    """Call ``function`` on every case and compare its normalised answer with the expected one.

    ``normalise`` turns what the student returned into plain values (a list of squares,
    an int, ...) or raises :class:`NotAnAnswer`; comparing plain values means an object
    that claims to equal everything cannot pass.  ``unchanged`` also fails a case when
    the function changed a board it was given.  ``call`` describes the call in the report.
    ``outcome``, if given, replaces ``normalise`` and also sees the arguments after the
    call (to judge a function that changes its board).  A case whose expected answer is
    :class:`Raises` passes when the function raises that error and changes no board.
    """
    guard.check_untouched()
    if not callable(function):
        print(f"{title}: 0/{len(cases)} cases passed")
        raise AssertionError(f"{title}: expected a function, got {_short(repr(function))}")
    judge = outcome or (lambda answer, args: normalise(answer))
    failures = [f for f in (_try(function, case, judge, unchanged) for case in cases) if f]
    print(f"{title}: {len(cases) - len(failures)}/{len(cases)} cases passed")
    if failures:
        _report(title, failures, len(cases), show, call)


def _try(
    function: Any, case: Case, judge: Callable[[Any, tuple[Any, ...]], Any], unchanged: bool
) -> Failure | None:
    args = tuple(_fresh(arg) for arg in case.args)
    before = [_board_of(arg).copy() for arg in args if _board_of(arg) is not None]
    printed = io.StringIO()

    def changed() -> bool:
        after = [_board_of(arg) for arg in args if _board_of(arg) is not None]
        return any(a != b for a, b in zip(after, before, strict=True))

    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            answer = function(*args)
        actual = judge(answer, args)
    except NotAnAnswer as problem:
        return Failure(
            case, None, printed.getvalue(), f"it returned {_short(repr(answer))}: {problem}"
        )
    except (Exception, SystemExit) as error:  # KeyboardInterrupt passes: nbval's time-out uses it
        if isinstance(case.expected, Raises) and isinstance(error, case.expected.kind):
            if changed():
                return Failure(
                    case, None, printed.getvalue(), "it changed the board before raising"
                )
            return None
        return Failure(case, Raised.of(error), printed.getvalue())
    if unchanged and changed():
        return Failure(case, actual, printed.getvalue(), "it changed the board it was given")
    if actual != case.expected:
        return Failure(case, actual, printed.getvalue())
    return None


def _report(title: str, failures: list[Failure], total: int, show: Show, call: str | None) -> None:
    first = failures[0]
    case = first.case
    unwritten = (
        isinstance(f.actual, Raised) and f.actual.kind == "NotImplementedError" for f in failures
    )
    if len(failures) == total and all(unwritten):
        reason = "not written yet: the function raises NotImplementedError"
        print(f"{title} is {reason}.")
        raise AssertionError(f"{title}: {reason}")
    print(f"First failing case: {case.name}")
    if call:
        print(f"  call:     {call.format(*case.args)}")
    print(f"  expected: {show(case.expected)}")
    if first.problem:
        print(f"  but {first.problem}")
    elif isinstance(first.actual, Raised):
        print(f"  but it {first.actual}")
    else:
        print(f"  actual:   {show(first.actual)}")
    if first.printed:
        print("  it printed:", _short(first.printed.rstrip()))
    others = [f.case.name for f in failures[1:]]
    if others:
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        print(f"Also failing: {'; '.join(others[:3])}{more}")
    if case.board is not None:
        draw(case.board, case.highlight)
    elif case.picture is not None:
        print(case.picture)
    if first.problem:
        got = f"but {first.problem}"
    elif isinstance(first.actual, Raised):
        got = f"but it {first.actual}"
    else:
        got = f"got {show(first.actual)}"
    raise AssertionError(
        f"{title}: {len(failures)} of {total} cases failed; first: {case.name}: "
        f"expected {_short(show(case.expected), 120)}, {_short(got, 160)}"
    )


def draw(board: Board, highlight: Iterable[Any] = ()) -> None:
    """Show ``board`` with ``highlight`` squares marked: a picture in Jupyter, text elsewhere."""
    marked = [board.square(sq) for sq in highlight]
    if _in_ipython():
        from IPython.display import display

        from course import show

        display(show(board, highlight=marked))
    else:
        print(board_text(board, marked))


def _in_ipython() -> bool:
    shell = sys.modules.get("IPython")
    return shell is not None and getattr(shell, "get_ipython", lambda: None)() is not None


def _fresh(arg: Any) -> Any:
    if isinstance(arg, Board):
        return arg.copy()
    if isinstance(arg, BoardView):
        return arg.fresh()
    if isinstance(arg, list):
        return list(arg)
    return arg


def _board_of(arg: Any) -> Board | None:
    if isinstance(arg, Board):
        return arg
    if isinstance(arg, BoardView):
        return arg.underlying
    return None


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
