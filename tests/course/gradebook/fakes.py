"""A stand-in for the sandboxed grading step, for tests about the gradebook itself.

:class:`FakeGrader` has the :class:`~course.grading.grader.Grader` methods the
gradebook calls, loads the teacher's real exercises (their questions, cases and points),
and takes each question's result from the notebook's own metadata instead of running
it: ``{"fake": {"check:to_notation": 23}}`` passes 23 cases of ``to_notation``
(missing: 0), ``{"fake": {"raise": "RecursionError"}}`` makes the grading step fail,
``{"fake": {"broken_report": true}}`` returns a result its page cannot render.
Tests about rows, sheets and pages then know every expected number independently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from course.grading import exercise as exercise_file
from course.grading import notebook as nbfile
from course.grading.checker import exercises
from course.grading.exercise import Exercise
from course.grading.grader import Grader
from course.grading.records import CheckResult, Report

from ..grading.helpers import student

SEED = 5
#: The cheapest exercises to load (a few hundredths of a second each).
CHEAP = ("01_squares", "02_counting", "03_lines")


class Crash(BaseException):
    """Stands for the grader process dying (not an Exception: nothing may catch it)."""


class FakeGrader(Grader):
    def __init__(self, crash_on: str | None = None) -> None:  # no sandbox, no teacher copy
        self._exercises: dict[str, Exercise] = {}
        self.graded: list[tuple[str, str]] = []
        self.crash_on = crash_on

    def exercise(self, name: str) -> Exercise:
        if name not in self._exercises:
            self._exercises[name] = exercise_file.load(exercises()[name], SEED)
        return self._exercises[name]

    def fingerprint(self, name: str) -> str:
        return f"fake:{name}"

    def grade_one(self, path: Path, name: str) -> Report:
        notebook = nbfile.read(path)
        script = notebook["metadata"].get("fake", {})
        who = str(notebook["metadata"].get("who", ""))
        self.graded.append((who, name))
        if self.crash_on is not None and who == self.crash_on:
            raise Crash(who)
        if "raise" in script:
            raise {"RecursionError": RecursionError, "MemoryError": MemoryError}[script["raise"]](
                "maximum recursion depth exceeded"
            )
        report = Report(path, name, answers={"answer:x": f"# by {who}"})
        if script.get("broken_report"):  # a result the page cannot render
            report.checks.append(CheckResult(None, False, "", 0, 1))  # type: ignore[arg-type]
            return report
        for question in self.exercise(name).questions:
            passed = int(script.get(question.tag, 0))
            points = question.points
            report.checks.append(
                CheckResult(question.tag, passed == question.total, "" if passed == question.total
                            else "some cases failed", passed, question.total, [], question,
                            points, points * passed / question.total)
            )  # fmt: skip
        return report


def notebook(exercise: str, who: str, **passed: int) -> dict[str, Any]:
    """The released notebook of ``exercise`` whose fake grade passes ``passed`` cases per check."""
    data = student(exercise)
    data["metadata"]["fake"] = {f"check:{tag}": count for tag, count in passed.items()}
    data["metadata"]["who"] = who
    return data


def write(data: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def total(exercise: str, tag: str) -> int:
    """How many cases question ``check:TAG`` of ``exercise`` has."""
    grader = FakeGrader()
    return next(q.total for q in grader.exercise(exercise).questions if q.tag == f"check:{tag}")
