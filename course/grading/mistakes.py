"""The mistakes a failed case can point to, in one table: each kind, how to see it, its sentence.

A failed case's *likely cause* is the sentence of the first kind in :data:`MISTAKES` whose
detector sees it in the failure.  The order is the order of likelihood, most telling first:
a board played on is the cause of whatever answer came with it; an answer printed instead of
returned explains a missing answer; a move the check knows to be exactly as good as the
expected one points to the tie rule, before any guess from where the two squares lie; a
swapped row and column is checked before off by one
(``'c4'`` for ``'d3'`` is a swap, though the two squares are also diagonal neighbours); a
value of the wrong sign before a value that is merely wrong.

The self-check (:func:`course.grading.runner.verdict`) and the grader's feedback
(:mod:`course.grading.checker`, :mod:`course.grading.feedback`) both call :func:`cause`, so
a student reads the same sentence in the notebook and on the feedback page.

>>> [kind.name for kind in MISTAKES]
['board changed', 'printed', 'tie rule', 'swapped', 'wrong sign', 'off by one', 'bit order']
>>> from course.grading.records import Case, Failure
>>> cause(Failure(Case("row 2, column 3", (2, 3), "d3"), "c4"))
'row and column swapped: a square is (row, col); the letter names the column, the number the row'
>>> cause(Failure(Case("the start, depth 3", (), 3), -3))
'the value has the wrong sign: whose point of view is it?'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from course.grading.records import Failure
from course.i18n import N_
from course.i18n import gettext as _


@dataclass(frozen=True)
class Mistake:
    """One kind of mistake: its short ``name``, ``detect(expected, actual, failure)`` and
    the ``sentence`` a student reads after "likely cause:" (in English: ``_(sentence)`` is
    the reader's language)."""

    name: str
    sentence: str
    detect: Callable[[Any, Any, Failure], bool]


def _changed(expected: Any, actual: Any, failure: Failure) -> bool:
    return failure.changed


def _printed(expected: Any, actual: Any, failure: Failure) -> bool:
    return failure.returned is None and bool(failure.printed.strip()) and not failure.raised


def _swapped(expected: Any, actual: Any, failure: Failure) -> bool:
    """Every square of ``actual`` is the square of ``expected`` read as (col, row), and
    at least one of them is off the diagonal (a1 swapped is still a1).  One square counts
    only when the function was given it (to name or to read it): a player choosing h1
    instead of a8 has not swapped anything."""
    pairs = _pairs(expected, actual)
    if not pairs:
        return False
    if isinstance(expected, list | tuple) and _pair(expected) is None and len(pairs) > 1:
        wanted = sorted((c, r) for (r, c), _ in pairs)
        got = sorted(a for _, a in pairs)
        return wanted == got and any(r != c for (r, c), _ in pairs)
    given = failure.case is None or any(_pair(arg) == pairs[0][0] for arg in _inputs(failure))
    return given and all(a == (e[1], e[0]) for e, a in pairs) and any(e != a for e, a in pairs)


def _inputs(failure: Failure) -> list[Any]:
    """The case's arguments, and all of them as one (``to_notation(2, 3)`` is given (2, 3))."""
    return [failure.case.args, *failure.case.args]


def _wrong_sign(expected: Any, actual: Any, failure: Failure) -> bool:
    return _number(expected) and _number(actual) and expected != 0 and actual == -expected


def _at_an_end(expected: Any, actual: Any) -> str:
    """Which end of a list has one too many or one too few ('' if the lists differ otherwise).

    >>> _at_an_end(["e4", "f4", "g4", "h4"], ["e4", "f4", "g4"]), _at_an_end([1, 2], [0, 1, 2])
    ('one too few at the end', 'one too many at the start')
    """
    if not isinstance(expected, list | tuple) or not isinstance(actual, list | tuple):
        return ""
    wanted, got = list(expected), list(actual)
    ends = {
        N_("one too few at the end"): got == wanted[:-1],
        N_("one too few at the start"): got == wanted[1:],
        N_("one too many at the end"): got[:-1] == wanted,
        N_("one too many at the start"): got[1:] == wanted,
    }
    if abs(len(wanted) - len(got)) != 1 or min(len(wanted), len(got)) < 2:
        return ""  # [] for [x] says nothing of where a loop stops
    return next((_(end) for end, seen in ends.items() if seen), "")


def _off_by_one(expected: Any, actual: Any, failure: Failure) -> bool:
    if _at_an_end(expected, actual):
        return True
    if _number(expected) and _number(actual):
        return type(expected) is int and type(actual) is int and abs(expected - actual) == 1
    pairs = _pairs(expected, actual)
    shifts = {(a[0] - e[0], a[1] - e[1]) for e, a in pairs}
    return (
        len(shifts) == 1
        and (0, 0) not in shifts
        and all(max(abs(dr), abs(dc)) == 1 for dr, dc in shifts)
    )


def _made(name: str) -> Callable[[Any, Any, Failure], bool]:
    """A detector for a mistake the check worked out itself: the case's ``mistaken``
    answers name what a function with that mistake returns."""

    def detect(expected: Any, actual: Any, failure: Failure) -> bool:
        case = failure.case
        return case is not None and any(
            kind == name and answer == actual for kind, answer in case.mistaken
        )

    return detect


REAL_BOARD = N_(
    "it played on the board it was given instead of on a copy: "
    "make one with board.copy() and play on that"
)
OFF_BY_ONE = N_("off by one: rows and columns count from 0 (row 0 is row 1 on the board)")
#: What an answer with one too many or too few at an end of its list should look at.
LIST_END = N_(
    "where does the loop start and stop? The first square is one step from the start; "
    "the last row or column is size - 1, and range(a, b) stops before b"
)

#: Every kind of mistake a likely cause can name, most telling first.
MISTAKES: tuple[Mistake, ...] = (
    Mistake("board changed", REAL_BOARD, _changed),
    Mistake("printed", N_("it printed its answer instead of returning it: use return"), _printed),
    Mistake(
        "tie rule",
        N_("the tie rule: among equally good moves, take the last in reading order "
           "(farthest down, then farthest right)"),
        _made("tie rule"),
    ),
    Mistake(
        "swapped",
        N_("row and column swapped: a square is (row, col); "
           "the letter names the column, the number the row"),
        _swapped,
    ),
    Mistake(
        "wrong sign",
        N_("the value has the wrong sign: whose point of view is it?"),
        lambda expected, actual, failure: (
            _wrong_sign(expected, actual, failure) or _made("wrong sign")(expected, actual, failure)
        ),
    ),
    Mistake("off by one", OFF_BY_ONE, _off_by_one),
    Mistake(
        "bit order",
        N_("the cursor's bits are in the wrong order: they go clockwise from the top-left "
           "(the top row left to right, down the right side, back along the bottom, up the left)"),
        _made("bit order"),
    ),
)


def sentence(name: str) -> str:
    """The sentence of the kind called ``name``, in the reader's language."""
    return _(next(kind.sentence for kind in MISTAKES if kind.name == name))


def cause(failure: Failure, expected: Any = None) -> str:
    """The sentence of the first kind of mistake seen in ``failure`` ('' if none is).

    ``expected`` is the case's expected answer (read from the failure's case when it has one).
    Whole numbers one apart are off by one in a count, not in a square:

    >>> cause(Failure(None, 13), 12), cause(Failure(None, "a0"), "a1") == OFF_BY_ONE
    ('off by one: a count or an index one too high', True)
    >>> cause(Failure(None, 14), 12), cause(Failure(None, "f3"), "d3")
    ('', '')

    A list with one too many or too few at an end is off by one where a loop starts or stops:

    >>> cause(Failure(None, [(3, 4), (3, 5), (3, 6)]), [(3, 4), (3, 5), (3, 6), (3, 7)])[:40]
    'off by one: one too few at the end: wher'
    """
    if failure.case is not None:
        expected = failure.case.expected
    for kind in MISTAKES:
        try:
            seen = kind.detect(expected, failure.actual, failure)
        except Exception:  # an odd answer that a detector cannot read is no sign of it
            seen = False
        if seen:
            if kind.name == "off by one" and _number(expected):
                return _direction(expected, failure)
            end = _at_an_end(expected, failure.actual) if kind.name == "off by one" else ""
            if end:
                return _("off by one: {end}: {advice}").format(end=end, advice=_(LIST_END))
            return _(kind.sentence)
    return ""


def _direction(expected: Any, failure: Failure) -> str:
    if failure.actual > expected:
        return _("off by one: a count or an index one too high")
    return _("off by one: a count or an index one too low")


def _number(value: Any) -> bool:
    return type(value) in (int, float)


_NAME = re.compile(r"([a-z])(-?\d{1,3})")


def _pair(value: Any) -> tuple[int, int] | None:
    """A square as (row, col): from ``'d3'`` (also ``'a0'`` or ``'q1'``, one off the board)
    or a pair of whole numbers; None for anything else."""
    if isinstance(value, str):
        match = _NAME.fullmatch(value.strip().lower())
        if match is None:
            return None
        return int(match.group(2)) - 1, ord(match.group(1)) - ord("a")
    if isinstance(value, tuple | list) and len(value) == 2 and all(type(v) is int for v in value):
        return (value[0], value[1])
    return None


def _pairs(expected: Any, actual: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """``(expected, actual)`` squares side by side, for one square or two lists of as many
    squares; [] when the answers are not squares."""
    one, other = _pair(expected), _pair(actual)
    if one is not None and other is not None:
        return [(one, other)]
    if not isinstance(expected, list | tuple) or not isinstance(actual, list | tuple):
        return []
    if len(expected) != len(actual) or not expected:
        return []
    found = [(_pair(e), _pair(a)) for e, a in zip(expected, actual, strict=True)]
    return (
        [(e, a) for e, a in found if e is not None and a is not None]
        if all(e is not None and a is not None for e, a in found)
        else []
    )
