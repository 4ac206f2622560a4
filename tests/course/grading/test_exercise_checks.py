"""The checks, run in this process: teachers pass, starting code fails, wrong answers fail.

Each wrong answer is a mistake a student could make; the test names the check that must
catch it and a piece of the report (the failing case) that must be shown.
"""

from __future__ import annotations

import pytest

from course.grading import checks
from course.grading.checks_players import _player_view
from course.grading.runner import SELF_CHECK
from course.grading.views import position
from reversi import PASS
from tests.reversi.test_players import has_tied_best_moves, seed_move, seed_test_positions

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


def test_exercise_07s_solution_and_checks_follow_seed_002s_computer_player(capsys) -> None:
    """The teacher's greedy_move, given boards as the check gives them, plays the move of
    seed 002's own rule (read in tests/reversi/test_players.py) on 5062 positions, 1259 of
    them decided by the tie rule alone; and the checks expect that rule's move on every case."""
    solution = namespace("07_greedy")["greedy_move"]
    positions = seed_test_positions()
    assert sum(has_tied_best_moves(board, color) for board, color in positions) > 1200
    for board, color in positions:
        chosen = solution(_player_view(board), color)  # the board as the check hands it over
        assert (None if chosen is PASS else tuple(chosen)) == seed_move(board, color), board

    def seed_answer(view, color):
        move = seed_move(position(view), color)
        return PASS if move is None else move

    # The seed's rule is the kit's own code, which a self-check refuses in an answer (the
    # grader runs answers without the kit): the table's checks themselves judge it.
    checks.CHECKS["greedy_move"](seed_answer)
    checks.CHECKS["greedy_games"](seed_answer)
    out = capsys.readouterr().out
    assert "greedy_move: 25/25 cases passed" in out and "cases failed" not in out, out
