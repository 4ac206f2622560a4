"""What a check looks at before it calls the student's function.

First, the answer must not use the kit's own implementations.  The grader runs answer
cells without the kit (``import reversi`` there is an error), so a ``flips`` that calls
``reversi.rules`` would pass here and score 0 there; the self-check refuses it with the
grader's own words (:func:`kit_import`).

Then, the student's own functions that the answer calls are checked first.

The commonest reason a later answer fails is an earlier one: a ``must_pass`` built on a
wrong ``legal_moves`` fails every case, and its own report only shows the symptom.  So a
check first looks at the names the student's function uses; each one that is another
exercise answer of the student's (a function defined in the notebook, with a check of the
same name) is checked quietly, and a failing one is named before the report:

    Check your legal_moves first: it fails 3 of 9 of its own cases, and must_pass calls it.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from course.grading.reports import report
from course.grading.runner import (
    NOT_WRITTEN,
    CheckFailed,
    call_here,
    collect,
    collecting,
    verdict,
)
from course.grading.table import TABLE
from course.i18n import gettext as _

#: The kit's own packages, which answer cells may not import.
KIT = ("reversi", "course")


def kit_import(answer: str, package: str) -> str:
    """The one sentence the self-check and the grader give for an answer that uses the kit."""
    return _(
        "your {answer} answer uses {package}, the kit's own code: answers are graded without "
        "the kit, so write it with what the exercise's first cell gives you"
    ).format(answer=answer, package=package)


def _offered(check: str) -> set[str]:
    """The names the exercise of ``check`` gives its answer cells (as the grader's sandbox does)."""
    for entry in TABLE:
        if any(question.check == check for question in entry.questions):
            return {*entry.names, *entry.lends, *entry.asked, *entry.modules}
    return set()


def kit_used(function: Any, check: str) -> str | None:
    """The kit package ``function`` reaches beyond what its exercise offers, if any."""
    offered = _offered(check)
    namespace = getattr(function, "__globals__", {})
    for name in sorted(used_names(function) - offered):
        if name.split(".")[0] in KIT:
            return name.split(".")[0]  # ``import reversi.rules`` inside the function
        value = namespace.get(name)
        module = (
            value.__name__
            if isinstance(value, types.ModuleType)
            else getattr(value, "__module__", None)
        )
        package = str(module or "").split(".")[0]
        if package in KIT and not isinstance(value, (str, int, float, tuple)):
            return package
    return None


Check = Callable[[Any], None]


def used_names(function: Any) -> set[str]:
    """The global names ``function``'s code (and the code nested in it) refers to."""
    code = getattr(function, "__code__", None)
    found: set[str] = set()
    stack = [code] if isinstance(code, types.CodeType) else []
    while stack:
        current = stack.pop()
        found.update(current.co_names)
        stack.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
    return found


def _students(function: Any, name: str) -> Any:
    """The student's own function called ``name`` beside ``function``, if there is one."""
    candidate = getattr(function, "__globals__", {}).get(name)
    module = getattr(candidate, "__module__", "") or ""
    if not isinstance(candidate, types.FunctionType) or module.split(".")[0] in (
        "course",
        "reversi",
    ):
        return None
    return candidate


def failing_earlier(function: Any, title: str, checks: Mapping[str, Check]) -> Iterator[str]:
    """A line for each of the student's functions used by ``function`` that fails its own check."""
    for name in sorted(used_names(function) & checks.keys() - {title}):
        helper = _students(function, name)
        if helper is None or helper is function:
            continue
        with collect() as specs:
            checks[name](helper)
        failed = total = 0
        for spec in specs:
            for case in spec.cases:
                total += 1
                failed += verdict(spec, case, call_here(helper, case)) is not None
        if failed:
            yield _(
                "Check your {name} first: it fails {failed} of {total} of its own cases, "
                "and {title} calls it: its own check cell shows which."
            ).format(name=name, failed=failed, total=total, title=title)


def checking_earlier_first(check: Check, checks: Mapping[str, Check]) -> Check:
    """``check``, which first names the student's failing earlier functions (see the module)."""

    @functools.wraps(check)
    def checked(function: Any) -> None:
        __tracebackhide__ = True  # IPython shows the student's cell, not the kit
        if not collecting():
            package = kit_used(function, check.__name__)
            if package is not None:
                reason = kit_import(getattr(function, "__name__", check.__name__), package)
                print(_("{check}: not checked: {reason}.").format(check=check.__name__, reason=reason))
                report(check.__name__, False, "uses the kit")
                raise CheckFailed(f"{check.__name__}: {reason}")
            for line in failing_earlier(function, check.__name__, checks):
                print(line)
        try:
            check(function)
        except CheckFailed as failed:
            if not collecting():
                unwritten = _(NOT_WRITTEN) in str(failed)
                report(check.__name__, False, failed.cause or ("not written" if unwritten else ""))
            raise
        if not collecting():
            report(check.__name__, True, "")

    return checked
