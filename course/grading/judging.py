"""The verdict on a question, from the plain replies that came back from the sandbox.

The expected answers never left this process; a reply is JSON the student's code wrote,
so anything malformed in it is a wrong answer (never an error of the grader's).  The same
:func:`~course.grading.runner.verdict` as the notebook's self-check judges each case.
"""

from __future__ import annotations

from typing import Any

from course.grading.precheck import KIT, kit_import
from course.grading.records import Case, CheckResult, Failure, Question, Raised, Reply
from course.grading.runner import verdict
from course.grading.table import earned
from course.grading.views import BoardView, view_of
from course.grading.wire import Counter, load_answer, load_discs
from course.i18n import gettext as _
from reversi import Board
from reversi.cursormap import MapFileError
from reversi.errors import IllegalMoveError

#: The runtime's errors, as the checks know them (a check asks ``raised.is_a(MapFileError)``).
RUNTIME_ERRORS = {
    "allowed.MapFileError": MapFileError,
    "allowed.IllegalMoveError": IllegalMoveError,
}


def zero(question: Question, message: str) -> CheckResult:
    return CheckResult(question.tag, False, message, 0, question.total, [], question,
                       question.points, 0.0)  # fmt: skip


def judge(question: Question, replies: list[Any] | None) -> CheckResult:
    """The verdict on a question from the plain replies that came back (None: no function)."""
    total = question.total
    if replies is None:
        return zero(question, _("expected a function named {name}").format(name=question.function))
    if type(replies) is not list or len(replies) != total:
        return zero(question, _("its answers came back malformed"))
    cases = [case for part in question.parts for case in part.spec.cases]
    return scored(question, [_reply(c, data) for c, data in zip(cases, replies, strict=True)])


def scored(question: Question, replies: list[Reply]) -> CheckResult:
    """The verdict on a question from one :class:`Reply` per case, in the parts' order.

    :func:`judge` gives it the replies that came back from the sandbox; a test may give it
    replies made in its own process (:func:`course.grading.runner.call_here`).
    """
    total = question.total
    failures: list[Failure] = []
    message, start = "", 0
    counts: dict[bool, list[int]] = {False: [0, 0], True: [0, 0]}  # unseen: [passed, total]
    for part in question.parts:
        calls = []
        for case, reply in zip(
            part.spec.cases, replies[start : start + len(part.spec.cases)], strict=True
        ):
            calls.append(reply.args)
            failure = verdict(part.spec, case, reply)
            counts[part.unseen][1] += 1
            if failure:
                failures.append(failure)
            else:
                counts[part.unseen][0] += 1
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
        package = kit_reached(first)
        message = (
            _("not written yet: the function raises NotImplementedError")
            if unwritten and len(failures) == total
            else kit_import(question.function, package)
            if package
            else _("{failed} of {total} cases failed; first: {case}").format(
                failed=len(failures), total=total, case=first.case.name)
            + _explained(first)
        )  # fmt: skip
    visible, unseen = (counts[False][0], counts[False][1]), (counts[True][0], counts[True][1])
    points = (
        0.0
        if message and not failures
        else earned(question.partial, question.points, visible, unseen)
    )
    return CheckResult(question.tag, not failures and not message, message, passed, total,
                       failures, question, question.points, points)  # fmt: skip


def kit_reached(failure: Failure) -> str:
    """The kit package whose import failed in the sandbox (which has no kit), if that is the
    error: the self-check refuses such an answer with :func:`kit_import`'s words, and so does
    the grader.

    >>> kit_reached(Failure(None, Raised("ModuleNotFoundError", "No module named 'reversi.rules'")))
    'reversi'
    >>> kit_reached(Failure(None, Raised("ModuleNotFoundError", "No module named 'numpy'")))
    ''
    """
    raised = failure.actual
    if not isinstance(raised, Raised) or raised.kind != "ModuleNotFoundError":
        return ""
    package = raised.message.removeprefix("No module named ").strip("'").split(".")[0]
    return package if package in KIT else ""


def _explained(failure: Failure) -> str:
    """What the grader can say about a failure beyond its case: where, and the likely cause."""
    said = ""
    if isinstance(failure.actual, Raised) and failure.actual.where:
        said += _(" ({error} at {line})").format(error=failure.actual.kind, line=failure.actual.where)
    if failure.cause:
        said += _("; likely cause: {cause}").format(cause=failure.cause)
    return said


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
            kind, message, names, line, *more = raised
            where = str(more[0])[:300] if more and type(more[0]) is str else ""
            names = tuple(str(n)[:200] for n in names[:20])
            names += tuple(
                f"{c.__module__}.{c.__qualname__}"
                for name in names
                if name in RUNTIME_ERRORS
                for c in RUNTIME_ERRORS[name].__mro__
            )
            line = line if type(line) is int else None
            return Reply(
                args, None, Raised(str(kind)[:80], str(message)[:500], names, line, where), printed
            )
        except (TypeError, ValueError):
            return Reply(args, load_answer({"object": "malformed error"}), None, printed)
    return Reply(args, load_answer(data.get("answer", {"object": "no answer"})), None, printed)


def _after(original: Any, state: Any) -> Any:
    """An argument as it was after the call: a board rebuilt from its discs, a counter's count."""
    if isinstance(original, BoardView):  # made from the discs sent, no Board on the way
        rows = load_discs(state)
        if rows is None or len(rows) != original.size:
            return None  # a board that came back broken counts as changed
        return view_of(rows, original.allowed, original.writable)
    if isinstance(original, Board):
        board = load_answer(state)
        if not isinstance(board, Board) or board.size != original.size:
            return None
        return board
    if type(original).__name__ == "NodeCounter":
        counted = load_answer(state)
        return counted if isinstance(counted, Counter) else Counter(-1)
    return original
