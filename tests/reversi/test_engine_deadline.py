"""The exact end keeps the time limit: a solve that cannot finish gives way to the deepening's
move by the deadline, one that can is exact (against a slow minimax), and a search in slices
answers in time even when the loop's turns between slices are long."""

from __future__ import annotations

import pytest

from reversi.engine import think, thinking
from reversi.evaluation import FINAL_DISC_VALUE
from reversi.notation import BLACK, WHITE
from tests.reversi.test_endgame import position_with_empties, slow_solve


class TickingClock:
    """A fake clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_solve_that_cannot_finish_plays_the_deepenings_move_by_the_deadline(seed):
    board, color = position_with_empties(8, 16, seed)
    clock = TickingClock(0.002)  # a read every 64-256 positions: ~50,000 positions in the time
    thought = think(board, color, time_limit=0.4, clock=clock, solve_empties=16)
    assert clock.now <= 0.4  # the answer came before the deadline
    assert not thought.exact and thought.depth >= 4  # the solve started, then gave way
    assert board.is_legal(thought.move, color)
    # the fallback is the depth-limited search's move at the depth it finished
    assert thought.move == think(board, color, max_depth=thought.depth, solve_empties=0).move


@pytest.mark.parametrize(("size", "empties", "seed"), [(4, 9, 1), (6, 8, 2), (6, 8, 3), (8, 7, 4)])
def test_a_solve_that_finishes_in_time_is_exact(size, empties, seed):
    board, color = position_with_empties(size, empties, seed)
    if board.is_finished() or not board.legal_moves(color):
        pytest.fail("pick seeds whose game goes on with a move to play")
    thought = think(board, color, time_limit=60.0, solve_empties=empties)
    assert thought.exact and thought.value == slow_solve(board, color) * FINAL_DISC_VALUE
    # the move played keeps that value against perfect play
    child = board.copy()
    child.play(thought.move, color)
    assert -slow_solve(child, color.opponent) * FINAL_DISC_VALUE == thought.value


class PausingClock(TickingClock):
    """A clock that also jumps ``turn`` seconds while the search is paused (the loop's turn)."""

    def __init__(self, step: float, turn: float) -> None:
        super().__init__(step)
        self.turn = turn

    def pass_a_turn(self) -> None:
        self.now += self.turn


@pytest.mark.parametrize("turn", [0.05, 0.2])
def test_a_search_in_slices_answers_in_time_though_the_loops_turns_are_long(turn):
    board, color = position_with_empties(8, 16, 5)
    clock = PausingClock(0.002, turn)
    steps = thinking(
        board, color, time_limit=1.0, clock=clock, solve_empties=16, slice_seconds=0.04
    )
    while True:
        try:
            next(steps)
        except StopIteration as end:
            thought = end.value
            break
        clock.pass_a_turn()  # a click handled between two slices
    assert clock.now <= 1.0 and board.is_legal(thought.move, color) and not thought.exact


def test_the_fallback_also_holds_for_white_and_the_expert_limits():
    board, color = position_with_empties(8, 14, 7)
    color = color if board.legal_moves(color) else (WHITE if color is BLACK else BLACK)
    clock = TickingClock(0.01)
    thought = think(board, color, time_limit=3.0, clock=clock, solve_empties=14, wld_empties=18)
    assert clock.now <= 3.0 and board.is_legal(thought.move, color)
