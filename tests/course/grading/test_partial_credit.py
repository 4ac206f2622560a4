"""Partial credit where it is fair, and never for a trivial answer.

Every question of the exercise table is built as the grader builds it (the notebook's cases
and the grade-time ones drawn from a teacher's seed) and scored by the grader's own
:func:`course.grading.judging.scored`, with answers called in this process.  A family of
trivial answers (a constant, the first argument, an error) must earn 0 points on every
question; when one does not, the check lacks cases (04_flips needed the legal moves of
more positions, since most squares turn nothing).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest

from course.grading import exercise, judging
from course.grading.records import CheckResult, Question
from course.grading.runner import call_here
from course.grading.table import ENTRIES, Partial, earned

from .helpers import namespace


def _raises(*args: Any) -> Any:
    raise ValueError("a trivial answer")


TRIVIAL: dict[str, Callable[..., Any]] = {
    "returns None": lambda *args: None,
    "returns 0": lambda *args: 0,
    "returns False": lambda *args: False,
    "returns True": lambda *args: True,
    "returns []": lambda *args: [],
    "returns {}": lambda *args: {},
    "returns its first argument": lambda *args: args[0],
    "raises ValueError": _raises,
    "returns 'a1'": lambda *args: "a1",
    "returns (0, 0)": lambda *args: (0, 0),
}

QUESTIONS = [
    (name, question.check) for name, entry in ENTRIES.items() for question in entry.questions
]


def _question(built: dict[str, exercise.Exercise], name: str, check: str) -> Question:
    return next(q for q in built[name].questions if q.check == check)


def _score(question: Question, function: Callable[..., Any]) -> CheckResult:
    cases = [case for part in question.parts for case in part.spec.cases]
    with contextlib.redirect_stdout(io.StringIO()):
        replies = [call_here(function, case) for case in cases]
    return judging.scored(question, replies)


@pytest.mark.parametrize("name, check", QUESTIONS, ids=[f"{n}:{c}" for n, c in QUESTIONS])
def test_no_trivial_answer_earns_a_point(built, name: str, check: str) -> None:
    question = _question(built, name, check)
    assert question.total >= 8, "too few cases to judge an answer"
    for why, function in TRIVIAL.items():
        result = _score(question, function)
        assert result.earned == 0.0, f"{why}: {result.cases_passed}/{result.cases_total} cases"
        if question.partial is Partial.CASES:  # below the floor by a margin, not by luck
            assert result.cases_passed < 0.45 * result.cases_total, why


def _expected_values(question: Question) -> set[str]:
    return {repr(case.expected) for part in question.parts for case in part.spec.cases}


@pytest.mark.parametrize("name, check", QUESTIONS, ids=[f"{n}:{c}" for n, c in QUESTIONS])
def test_a_question_a_guess_can_pass_is_all_or_nothing(built, name: str, check: str) -> None:
    """Few different answers (yes/no, a colour, a field's character): no partial credit,
    since guessing one of them passes many cases.  Many different answers: partial credit,
    except the two questions that are one fact each."""
    question = _question(built, name, check)
    values = _expected_values(question)
    one_fact = {"figure2", "alphabeta_prunes"}  # one figure; "does it prune at all"
    if len(values) <= 4 or check in one_fact:
        assert question.partial is Partial.NONE, (check, len(values))
    else:
        assert question.partial is Partial.CASES, (check, len(values))


def test_a_right_answer_to_most_cases_earns_its_share(built) -> None:
    """Most cases right is worth most of the points, not 0 (the issue: 1430 of 1635 cases
    passed scored 0).  The replies are made per case: one case in eight gets a wrong answer."""
    question = _question(built, "04_flips", "flips")
    cases = [case for part in question.parts for case in part.spec.cases]
    with contextlib.redirect_stdout(io.StringIO()):
        replies = [
            call_here(lambda *args, right=case.expected, n=number: [(0, 0), (9, 9)] if n % 8 == 0
                      else right, case)
            for number, case in enumerate(cases)
        ]  # fmt: skip
    result = judging.scored(question, replies)
    share = result.cases_passed / result.cases_total
    assert result.cases_total - result.cases_passed == len(cases[::8])
    assert result.earned == pytest.approx(question.points * share, abs=0.01)
    assert result.earned > 1.5
    assert earned(Partial.NONE, 2, (1, 2), (2, 2)) == 0.0


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_teachers_solution_earns_every_point_at_grade_time(built, name: str) -> None:
    """The other end of the scale, on the grade-time cases too (the rules a notebook states
    and the oracle agree on positions no notebook shows)."""
    with contextlib.redirect_stdout(io.StringIO()):
        names = namespace(name)
    for question in built[name].questions:
        result = _score(question, names[question.function])
        assert result.earned == question.points, (question.check, result.message)
