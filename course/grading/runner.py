"""Run a student's function on cases and judge each answer; report the first failure.

Every check in :mod:`course.grading.checks` builds a list of :class:`Case` and hands it to
:func:`run`.  The expected answers come from the ``reversi`` package, never from the
notebook.  In a notebook, :func:`run` is the student's *self-check*: it calls the
function here, prints one line (``flips: 12/12 cases passed (self-check; ...)``) and, when
a case fails, names it, shows expected and actual, draws the board and raises
:class:`AssertionError`.  The grade is computed elsewhere: the grader collects the same
cases as a :class:`Spec` (see :func:`collect`), has the student's function called in a
sandboxed process, and judges the plain answers that come back with :func:`verdict`, the
same function the self-check uses.

>>> run("double", lambda n: 2 * n, [Case("two", (2,), 4), Case("three", (3,), 6)])
double: 2/2 cases passed (self-check; the grade is computed separately)
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from course.grading.limits import Overrun, bounded, checking
from course.grading.mistakes import cause
from course.grading.records import (
    Case,
    Failure,
    Judge,
    NotAnAnswer,
    Raised,
    Raises,
    Reply,
    Show,
    Spec,
)
from course.grading.views import BoardView, board_differences, board_text, discs, view_discs
from course.i18n import N_
from course.i18n import gettext as _
from reversi import Board, Color

SELF_CHECK = N_("(self-check; the grade is computed separately)")
#: Why every case failed when the function is still the stub.
NOT_WRITTEN = N_("not written yet: the function raises NotImplementedError")


_COLLECTING: contextvars.ContextVar[list[Spec] | None] = contextvars.ContextVar(
    "collecting", default=None
)


@contextlib.contextmanager
def collect() -> Iterator[list[Spec]]:
    """Inside this block :func:`run` calls nothing: it records its :class:`Spec` in the list.

    >>> with collect() as found:
    ...     run("double", None, [Case("two", (2,), 4)])
    >>> found[0].title, len(found[0].cases)
    ('double', 1)
    """
    found: list[Spec] = []
    token = _COLLECTING.set(found)
    try:
        yield found
    finally:
        _COLLECTING.reset(token)


def collecting() -> bool:
    """Whether :func:`run` records its checks now (inside :func:`collect`) instead of running them."""
    return _COLLECTING.get() is not None


def run(
    title: str,
    function: Any,
    cases: Sequence[Case],
    normalise: Callable[[Any], Any] = lambda value: value,
    show: Show = repr,
    call: str | None = None,
    unchanged: bool = True,
    outcome: Judge | None = None,
    catch: Callable[[Raised], Any] | None = None,
    overall: Callable[[list[tuple[Any, ...]]], str | None] | None = None,
) -> None:
    """Call ``function`` on every case and compare its normalised answer with the expected one.

    ``normalise`` turns what the student returned into plain values (a list of squares,
    an int, ...) or raises :class:`NotAnAnswer`; comparing plain values means an object
    that claims to equal everything cannot pass.  ``unchanged`` also fails a case when
    the function changed a board it was given.  ``call`` describes the call in the report.
    ``outcome``, if given, replaces ``normalise`` and also sees the arguments after the
    call (to judge a function that changes its board).  A case whose expected answer is
    :class:`Raises` passes when the function raises that error and changes no board.
    ``catch`` turns a raised error into an answer (or None), ``overall`` judges all the
    calls together (a reason to fail, or None).
    """
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    judge = outcome or (lambda answer, args: normalise(answer))
    spec = Spec(title, cases, judge, show, call, unchanged, catch, overall)
    collecting = _COLLECTING.get()
    if collecting is not None:
        collecting.append(spec)
        return
    if not callable(function):
        print(_passed(title, 0, len(cases)))
        _failed(_("{title}: expected a function, got {value}").format(
            title=title, value=_short(repr(function))))  # fmt: skip
    replies: list[Reply] = []
    with checking():
        for case in cases:  # after a runaway call, the other cases are not run again
            stopped = replies and replies[-1].raised and replies[-1].raised.is_a(Overrun)
            replies.append(replace(replies[-1], args=case.args) if stopped else call_here(function, case))
    failures = [
        f for case, reply in zip(cases, replies, strict=True) if (f := verdict(spec, case, reply))
    ]
    print(_passed(title, len(cases) - len(failures), len(cases)))
    if failures:
        _report(title, failures, len(cases), show, call)
    reason = overall([reply.args for reply in replies]) if overall else None
    if reason:
        print(_("{title} failed: {reason}").format(title=title, reason=reason))
        _failed(f"{title}: {reason}")


def _passed(title: str, passed: int, total: int) -> str:
    """The self-check's first line: ``flips: 12/12 cases passed (self-check; ...)``."""
    line = _("{title}: {passed}/{total} cases passed {note}")
    return line.format(title=title, passed=passed, total=total, note=_(SELF_CHECK))


def call_here(function: Any, case: Case) -> Reply:
    """Call ``function`` on fresh copies of the case's arguments in this process."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    args = tuple(_fresh(arg) for arg in case.args)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), bounded(
            getattr(function, "__name__", "function")
        ):
            answer = function(*args)
    except (Exception, SystemExit) as error:  # KeyboardInterrupt passes: nbval's time-out uses it
        return Reply(args, raised=Raised.of(error), printed=printed.getvalue())
    return Reply(args, answer, printed=printed.getvalue())


def verdict(spec: Spec, case: Case, reply: Reply) -> Failure | None:
    """Judge one reply to ``case``: None when it is right, else the :class:`Failure`.

    The reply's arguments are the ones the function saw, after the call; the case's own
    arguments are the originals, never handed to student code.
    """
    before = [board for arg in case.args if (board := _discs_of(arg)) is not None]
    after = [board for arg in reply.args if (board := _discs_of(arg)) is not None]
    changed = len(before) != len(after) or any(a != b for a, b in zip(after, before, strict=False))
    answer, raised = reply.answer, reply.raised
    if raised is not None and spec.catch is not None:
        caught = spec.catch(raised)
        if caught is not None:
            answer, raised = caught, None
    mutated = changed and spec.unchanged
    if raised is not None:
        if isinstance(case.expected, Raises) and raised.is_a(case.expected.kind):
            if changed:
                said = _("it changed the board before raising")
                return Failure(case, None, reply.printed, said)
            return None
        return _caused(Failure(case, raised, reply.printed, changed=mutated))
    if mutated:
        said = _("it changed the board it was given")
        return _caused(Failure(case, None, reply.printed, said, returned=answer, changed=True))
    try:
        actual = spec.judge(answer, reply.args)
    except NotAnAnswer as problem:
        said = _("it returned {answer}: {problem}").format(answer=_short(repr(answer)), problem=problem)
        return _caused(Failure(case, None, reply.printed, said, returned=answer))
    except Exception as error:  # a judge refusing an answer that is no answer at all
        said = _("it returned an unusable answer ({error})").format(error=error)
        return _caused(Failure(case, None, reply.printed, said, returned=answer))
    if actual != case.expected:
        return _caused(Failure(case, actual, reply.printed, returned=answer))
    return None


def _caused(failure: Failure) -> Failure:
    """``failure`` with its likely cause filled in (:func:`course.grading.mistakes.cause`)."""
    if not failure.cause:
        failure.cause = cause(failure)
    return failure


def expected_text(show: Show, value: Any) -> str:
    """The expected answer as the report shows it: an expected error in words.

    >>> expected_text(repr, Raises(ValueError)), expected_text(repr, "d3")
    ('should raise ValueError', "'d3'")
    """
    if isinstance(value, Raises):
        return str(value)
    return show(value)


def _report(title: str, failures: list[Failure], total: int, show: Show, call: str | None) -> None:
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    first = failures[0]
    case = first.case
    unwritten = (
        isinstance(f.actual, Raised) and f.actual.kind == "NotImplementedError" for f in failures
    )
    if len(failures) == total and all(unwritten):
        reason = _(NOT_WRITTEN)
        print(_("{title} is {reason}.").format(title=title, reason=reason))
        _failed(f"{title}: {reason}")
    print(_("First failing case: {case}").format(case=case.name))
    if call:
        print(_("  call:     {call}").format(call=call.format(*case.args)))
    compared = compared_boards(show, first)  # two boards: the squares that differ, not both boards
    expected = expected_text(show, case.expected)
    if case.board is not None and str(case.board) in expected:  # drawn below: not twice
        expected = expected.replace(str(case.board), _(BELOW)).strip()
    for line in compared:
        print(f"  {line}")
    if not compared:
        print(_("  expected: {answer}").format(answer=expected))
        if first.problem:
            print(_("  but {problem}").format(problem=first.problem))
        elif isinstance(first.actual, Raised):
            print(_("  but it {raised}").format(raised=first.actual))
            if first.actual.where:
                print(_("  at:       {line}").format(line=first.actual.where))
        else:
            print(_("  actual:   {answer}").format(answer=show(first.actual)))
    if first.printed:
        print(_("  it printed: {output}").format(output=_short(first.printed.rstrip())))
    if first.cause:
        print(_("  likely cause: {cause}").format(cause=first.cause))
    others = [f.case.name for f in failures[1:]]
    if others:
        more = _(" and {count} more").format(count=len(others) - 3) if len(others) > 3 else ""
        print(_("Also failing: {cases}").format(cases="; ".join(others[:3]) + more))
    if case.board is not None:
        _draw(case.board, case.highlight)
    elif case.picture is not None:
        print(case.picture)
    if first.problem:
        got = _("but {problem}").format(problem=first.problem)
    elif isinstance(first.actual, Raised):
        got = _("but it {raised}").format(raised=first.actual)
    else:
        got = _("got {answer}").format(answer=show(first.actual))
    if compared:
        expected = compared[0].split(":", 1)[1].strip()
        got = (_("but {problem}").format(problem=compared[2].strip()) if len(compared) > 2
               else compared[1].replace(_("actual:"), _("got"), 1))  # fmt: skip
    expected = _short(expected.replace(_(BELOW), _("the board drawn above")), 120)
    _failed(_("{title}: {failed} of {total} cases failed; first: {case}: expected {answer}, {got}").format(
        title=title, failed=len(failures), total=total, case=case.name, answer=expected,
        got=_short(got, 160)), first.cause)  # fmt: skip


def compared_boards(show: Show, failure: Failure) -> list[str]:
    """The report's lines for answers that hold a board: expected and actual without their
    boards, then the squares that differ ([] when the answers hold no two boards).

    >>> from reversi import BLACK
    >>> before, after = Board(4), Board(4)
    >>> after.play("a2", BLACK)
    [b2]
    >>> for line in compared_boards(lambda text: "\\n" + text, Failure(Case("", (), str(after)), str(before))):
    ...     print(line)
    expected: the board
    actual:   a board where
      a2 should be Black; yours is empty
      b2 should be Black; yours is White
    """
    if failure.problem or failure.raised:
        return []
    case = failure.case
    kept = isinstance(case.expected, Raises) and case.board is not None  # the board as it was
    try:
        expected = f"{case.expected}\n{case.board}" if kept else show(case.expected)
        actual = show(failure.actual)
    except Exception:
        return []
    wanted, got = _board_in(expected), _board_in(actual)
    if not wanted or not got:
        return []
    differences = board_differences(wanted, got)
    if differences is None:
        return []
    said_expected = _short(expected.replace(wanted, "").strip().rstrip(":"))
    said_actual = _short(actual.replace(got, "").strip().rstrip(":"))
    drawn = failure.case.board is not None and str(failure.case.board) == wanted
    wanted_text = _("expected: {answer}").format(
        answer=said_expected or (_(BELOW) if drawn else _("the board")))  # fmt: skip
    if not differences:  # the boards agree: the rest of the answer is what differs
        same = _("unchanged") if kept else _("every square right")
        return [wanted_text, _("actual:   {answer}, {same}").format(
            answer=said_actual or _("a board"), same=same)]  # fmt: skip
    return [
        wanted_text,
        _("actual:   {answer}, where").format(answer=said_actual) if said_actual
        else _("actual:   a board where"),
        *(f"  {line}" for line in differences),
    ]


BELOW = N_("the board drawn below")


def _board_in(text: str) -> str:
    """The text board inside ``text`` (from its row of letters to its last row), or ''."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        letters = line.split()
        if len(letters) >= 2 and letters == list("abcdefghijklmnop"[: len(letters)]):
            rows = lines[start : start + 1 + len(letters)]
            return "\n".join(rows) if len(rows) == 1 + len(letters) else ""
    return ""


class CheckFailed(AssertionError):
    """A self-check that failed: Jupyter shows its one line, not a traceback through the kit
    (the report printed above says which case, why, and the student's own line)."""

    #: The first failing case's likely cause (a sentence of course.grading.mistakes), if any.
    cause = ""

    def _render_traceback_(self) -> list[str]:  # IPython's hook for how an error is shown
        failed = _("Self-check failed:")
        return [f"\x1b[0;31m{failed}\x1b[0m {self}"]


def _failed(message: str, cause: str = "") -> NoReturn:
    failed = CheckFailed(message)
    failed.cause = cause
    raise failed


def _draw(board: Board, highlight: Iterable[Any] = ()) -> None:
    """Show ``board`` with ``highlight`` squares marked: a picture in Jupyter, text elsewhere."""
    marked = [board.square(sq) for sq in highlight]
    if _in_ipython():
        from IPython.display import display

        from course import show

        display(show(board, highlight=marked))  # type: ignore[no-untyped-call]
    else:
        print(board_text(board, marked))


def _in_ipython() -> bool:
    shell = sys.modules.get("IPython")
    return shell is not None and getattr(shell, "get_ipython", lambda: None)() is not None


def _fresh(arg: Any) -> Any:
    """A copy of an argument that a function may change (a board, a view, a list)."""
    if isinstance(arg, Board):
        return arg.copy()
    if isinstance(arg, BoardView):
        return arg.fresh()
    if isinstance(arg, list):
        return list(arg)
    return arg


def _discs_of(arg: Any) -> list[list[Color | None]] | None:
    """The discs of the board in an argument (a Board or a view of one) row by row, else None."""
    if isinstance(arg, Board):
        return discs(arg)
    if isinstance(arg, BoardView):
        return view_discs(arg)
    return None


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
