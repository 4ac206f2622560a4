"""A check names the student's own earlier function that fails, before its report."""

from __future__ import annotations

import pytest

from course.grading import checks
from course.grading.precheck import kit_import, kit_used
from course.grading.runner import collect
from reversi import BLACK, WHITE


def wrong_legal_moves(board, color):  # type: ignore[no-untyped-def]
    return []  # never finds a move


def right_legal_moves(board, color):  # type: ignore[no-untyped-def]
    size = board.size
    return [(row, col) for row in range(size) for col in range(size) if board.is_legal((row, col), color)]


MUST_PASS = """
def must_pass(board, color):
    other = WHITE if color == BLACK else BLACK
    return not legal_moves(board, color) and bool(legal_moves(board, other))
"""


def make_must_pass(legal_moves):  # type: ignore[no-untyped-def]
    namespace = {"legal_moves": legal_moves, "BLACK": BLACK, "WHITE": WHITE}
    exec(MUST_PASS, namespace)  # noqa: S102 - the test's own text
    return namespace["must_pass"]


def test_a_wrong_earlier_function_is_named_before_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AssertionError):
        checks.must_pass(make_must_pass(wrong_legal_moves))
    printed = capsys.readouterr().out
    first, second = printed.splitlines()[:2]
    assert first.startswith("Check your legal_moves first: it fails ")
    assert "and must_pass calls it" in first
    assert second.startswith("must_pass: ")


def test_a_right_earlier_function_is_not_mentioned(capsys: pytest.CaptureFixture[str]) -> None:
    checks.must_pass(make_must_pass(right_legal_moves))
    printed = capsys.readouterr().out
    assert "first" not in printed and printed.startswith("must_pass: ")


def test_a_function_that_uses_no_answer_of_the_students_is_checked_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def must_pass(board, color):  # type: ignore[no-untyped-def]
        other = WHITE if color == BLACK else BLACK
        return not right_legal_moves(board, color) and bool(right_legal_moves(board, other))

    checks.must_pass(must_pass)
    assert capsys.readouterr().out.startswith("must_pass: ")


def test_the_grader_collecting_checks_runs_no_earlier_check() -> None:
    calls = []

    def counting_legal_moves(board, color):  # type: ignore[no-untyped-def]
        calls.append(1)
        return []

    with collect() as found:
        checks.must_pass(make_must_pass(counting_legal_moves))
    assert [spec.title for spec in found] == ["must_pass"] and calls == []


KIT_FLIPS = """
from reversi import rules

def flips(board, square, color):
    return rules.flips(board, square, color)
"""

LOCAL_IMPORT_FLIPS = """
def flips(board, square, color):
    import reversi.rules
    return reversi.rules.flips(board, square, color)
"""


@pytest.mark.parametrize("source", [KIT_FLIPS, LOCAL_IMPORT_FLIPS])
def test_an_answer_using_the_kit_is_refused_with_the_graders_words(
    source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    namespace: dict[str, object] = {"BLACK": BLACK, "WHITE": WHITE}
    exec(source, namespace)  # noqa: S102 - the test's own text
    with pytest.raises(AssertionError) as refused:
        checks.flips(namespace["flips"])
    assert str(refused.value) == f"flips: {kit_import('flips', 'reversi')}"
    assert capsys.readouterr().out.startswith("flips: not checked: your flips answer uses reversi")


def test_what_the_exercise_offers_is_not_the_kit_s_implementation() -> None:
    from reversi import Board

    def count_discs(board, color):  # type: ignore[no-untyped-def]
        size = board.size
        return sum(board[row, col] == color for row in range(size) for col in range(size))

    assert kit_used(count_discs, "count_discs") is None
    assert kit_used(lambda: Board, "count_discs") is None  # Board is offered to every exercise
