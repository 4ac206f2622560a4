"""The checks, run in this process: teachers pass, starting code fails, wrong answers fail.

Each wrong answer is a mistake a student could make; the test names the check that must
catch it and a piece of the report (the failing case) that must be shown.
"""

from __future__ import annotations

import pytest

from course.grading.runner import SELF_CHECK

from .helpers import NAMES, check_calls, namespace, run_check
from .wrong_answers import WRONG

CHECKS = [(name, *call) for name in NAMES for call in check_calls(name)]


def _id(case: tuple[str, ...]) -> str:
    return f"{case[0]}-{case[1]}"


@pytest.mark.parametrize("name, tag, check, function", CHECKS, ids=[_id(c) for c in CHECKS])
def test_teacher_solution_passes(name: str, tag: str, check: str, function: str, capsys) -> None:
    run_check(name, check, function, namespace(name))
    out = capsys.readouterr().out.splitlines()
    total = out[-1].split()[1].split("/")
    assert out[-1] == f"{check}: {total[1]}/{total[1]} cases passed {SELF_CHECK}", out


@pytest.mark.parametrize("name, tag, check, function", CHECKS, ids=[_id(c) for c in CHECKS])
def test_starting_code_fails(name: str, tag: str, check: str, function: str, capsys) -> None:
    with pytest.raises(AssertionError, match="not written yet|cases failed"):
        run_check(name, check, function, namespace(name, starter=True))
    assert f"{check}: 0/" in capsys.readouterr().out


@pytest.mark.parametrize("wrong", WRONG, ids=[w.id for w in WRONG])
def test_wrong_answer_fails(wrong, capsys) -> None:
    names = namespace(wrong.exercise, {wrong.tag: wrong.code})
    calls = {check: function for _, check, function in check_calls(wrong.exercise)}
    with pytest.raises(AssertionError):
        run_check(wrong.exercise, wrong.check, calls[wrong.check], names)
    out = capsys.readouterr().out
    assert wrong.shows in out, out


def test_every_exercise_has_two_wrong_answers() -> None:
    for name in NAMES:
        assert sum(w.exercise == name for w in WRONG) >= 2, name
