"""The grading modules refuse what they cannot take with the kit's own errors, at the door.

The fuzz of ``tests/test_public_api.py`` calls everything with any value; these tests pin
a few refusals that matter to a teacher or a student, and that behaviour for valid input
stayed as it was (an ``except OSError`` or ``except AttributeError`` still sees the error).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course.grading import notebook, runner, sandbox, sheet, table, views, wire
from reversi import BLACK, Board, ReversiError
from reversi.errors import ArgumentError


def test_a_view_lends_copy_only_when_its_exercise_allows_it() -> None:
    plain = views.BoardView(Board())
    with pytest.raises(AttributeError, match="board.copy is not allowed here"):
        plain.copy()
    lending = views.BoardView(Board(), allow=("copy", "count"))
    copy = lending.copy()
    assert copy == lending and copy is not lending and copy.count(BLACK) == 2


@pytest.mark.parametrize("allow", [("bogus",), "flips", [None]])
def test_a_view_refuses_what_it_cannot_lend(allow: object) -> None:
    with pytest.raises(ArgumentError):
        views.BoardView(Board(), allow=allow)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="made from a Board"):
        views.BoardView("d3")  # type: ignore[arg-type]


def test_a_self_check_needs_cases_and_a_judge_it_can_call() -> None:
    with pytest.raises(ArgumentError, match="at least one case"):
        runner.run("double", lambda n: 2 * n, [])
    with pytest.raises(ArgumentError, match="cases must be a list of Case"):
        runner.run("double", lambda n: 2 * n, [1, 2])  # type: ignore[list-item]
    with pytest.raises(ArgumentError, match="normalise must be a function"):
        runner.run("double", lambda n: 2 * n, [runner.Case("two", (2,), 4)], normalise=3)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="expected a function"):  # the student's verdict
        runner.run("double", None, [runner.Case("two", (2,), 4)])
    assert issubclass(runner.NotAnAnswer, ValueError) and issubclass(runner.NotAnAnswer, ReversiError)


def test_a_file_that_cannot_be_written_is_still_an_oserror(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "grades.csv"
    with pytest.raises(OSError) as caught:
        sheet.write([], missing, ["student_id"])
    assert isinstance(caught.value, notebook.WriteError) and isinstance(caught.value, ReversiError)
    with pytest.raises(ArgumentError, match="longer than a file name"):
        sheet.write([], tmp_path / ("x" * 300), ["student_id"])


def test_limits_and_exit_codes_are_checked() -> None:
    with pytest.raises(ArgumentError, match="wall"):
        sandbox.Limits(wall=0)
    with pytest.raises(ArgumentError, match="memory_mb"):
        sandbox.Limits(memory_mb=True)
    with pytest.raises(ArgumentError, match="exit code"):
        sandbox.exit_reason("3")  # type: ignore[arg-type]
    assert sandbox.Limits(wall=1.5, cpu=2).rlimits(None)


def test_the_table_and_the_wire_refuse_with_the_kits_errors() -> None:
    with pytest.raises(ArgumentError, match="partial-credit rule"):
        table.Partial("some")
    with pytest.raises(ArgumentError, match="shown must be"):
        table.earned(table.Partial.CASES, 2, (3, 2), (1, 1))
    with pytest.raises(ArgumentError, match="cannot be sent"):
        wire.dump_argument(object())
    assert wire.parse(b"[1]") == [1]
    with pytest.raises(ArgumentError, match="bytes"):
        wire.parse("[1]")  # type: ignore[arg-type]
