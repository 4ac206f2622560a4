"""What a student calls refuses a wrong argument with the kit's own error, and the errors a
teacher's code catches stay what they were (an ``except OSError`` or ``except
AttributeError`` still sees the error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from course.grading import checks, notebook, runner, sandbox, sheet, table, views, wire
from course.grading.records import Case, NotAnAnswer
from reversi import BLACK, Board, ReversiError
from reversi.errors import ArgumentError


def test_a_view_lends_copy_only_when_its_exercise_allows_it() -> None:
    plain = views.BoardView(Board())
    with pytest.raises(AttributeError, match="board.copy is not allowed here"):
        plain.copy()
    lending = views.BoardView(Board(), allow=("copy", "count"))
    copy = lending.copy()
    assert copy == lending and copy is not lending and copy.count(BLACK) == 2


@pytest.mark.parametrize("name", sorted(checks.CHECKS))
@pytest.mark.parametrize("given", [3, "flips", None, [len]])
def test_a_check_cell_given_no_function_names_the_check_and_the_argument(
    name: str, given: object
) -> None:
    with pytest.raises(ArgumentError, match=f"^{name}\\(\\): function must be a function, not"):
        getattr(checks, name)(given)


def test_a_self_check_of_no_function_is_the_students_verdict() -> None:
    with pytest.raises(AssertionError, match="expected a function"):
        runner.run("double", None, [Case("two", (2,), 4)])
    assert issubclass(NotAnAnswer, ValueError) and issubclass(NotAnAnswer, ReversiError)


def test_a_file_that_cannot_be_written_is_still_an_oserror(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "grades.csv"
    with pytest.raises(OSError) as caught:
        sheet.write([], missing, ["student_id"])
    assert isinstance(caught.value, notebook.WriteError) and isinstance(caught.value, ReversiError)
    with pytest.raises(notebook.WriteError):
        sheet.write([], tmp_path / ("x" * 300), ["student_id"])


def test_limits_give_the_process_limits() -> None:
    assert ("RLIMIT_CPU", 2) in sandbox.Limits(wall=1.5, cpu=2).rlimits(None)


def test_the_table_and_the_wire_refuse_with_the_kits_errors() -> None:
    with pytest.raises(ArgumentError, match="a partial is one of 'none', 'cases', not 'some'"):
        table.Partial("some")
    assert table.Partial("Cases") is table.Partial.CASES
    with pytest.raises(ArgumentError, match="cannot be sent"):
        wire.dump_argument(object())
    assert wire.parse(b"[1]") == [1] and wire.parse(b"[" * 10_000) is None
