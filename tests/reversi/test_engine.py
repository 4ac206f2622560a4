"""The strong search: the same values as plain minimax, the time limit on a fake clock,
stopping at once, its reports, and the exact end."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import bitboard
from reversi.board import Board
from reversi.endgame import solve
from reversi.engine import Thought, think, thinking
from reversi.evaluation import FINAL_DISC_VALUE, final_score, score, strong_score
from reversi.notation import BLACK, PASS
from reversi.search import minimax
from tests.reversi.positions import positions as random_positions
from tests.reversi.positions import random_position


def plain_negamax(player: int, opponent: int, depth: int, geo: bitboard.Geometry) -> int:
    """Minimax with the strong evaluation, every line to the full depth: the oracle."""
    if depth == 0:
        return strong_score(player, opponent, geo)
    moves = bitboard.legal_moves(player, opponent, geo)
    if not moves:
        if not bitboard.legal_moves(opponent, player, geo):
            return final_score(player, opponent)
        return -plain_negamax(opponent, player, depth - 1, geo)
    return max(
        -plain_negamax(opponent & ~flipped, player | move | flipped, depth - 1, geo)
        for move in bitboard.bits_of(moves)
        for flipped in [bitboard.flips(move, player, opponent, geo)]
    )


positions = random_positions(56)


@settings(max_examples=120, deadline=None)
@given(positions, st.integers(1, 4))
def test_with_the_lessons_evaluation_the_value_is_the_minimax_value(position, depth):
    board, color = position
    before = board.copy()
    thought = think(board, color, max_depth=depth, solve_empties=0, score=score)
    assert board == before
    if board.legal_moves(color):
        assert thought.value == minimax(board, color, depth).value
        assert thought.depth == min(depth, thought.depth) and board.is_legal(thought.move, color)
    else:
        assert thought.move is PASS


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 3))
def test_with_the_strong_evaluation_the_value_is_the_plain_negamax_value(position, depth):
    board, color = position
    if not board.legal_moves(color):
        return
    thought = think(board, color, max_depth=depth, solve_empties=0)
    geo = bitboard.geometry(board.size)
    assert thought.value == plain_negamax(board.bits(color), board.bits(color.opponent), depth, geo)
    child = board.copy()
    child.play(thought.move, color)  # the move chosen is worth what the search says
    value = -plain_negamax(child.bits(color.opponent), child.bits(color), depth - 1, geo)
    assert value == thought.value


def test_the_principal_variation_is_a_legal_line_of_the_searched_depth():
    board, color = random_position(8, 20, 3)
    thought = think(board, color, max_depth=5, solve_empties=0)
    assert thought.depth == 5 and len(thought.line) == 5 and thought.line[0] == thought.move
    for move in thought.line:
        if move is PASS:
            assert not board.legal_moves(color)
        else:
            board.play(move, color)
        color = color.opponent


def test_every_finished_depth_is_reported_in_order():
    board, color = random_position(8, 16, 4)
    seen: list[Thought] = []
    final = think(board, color, max_depth=4, solve_empties=0, on_thought=seen.append)
    assert [t.depth for t in seen] == [1, 2, 3, 4]
    assert [t.nodes for t in seen] == sorted(t.nodes for t in seen)
    assert (final.move, final.value, final.line) == (seen[-1].move, seen[-1].value, seen[-1].line)
    assert "depth 4:" in final.summary()


# -- one search in slices -------------------------------------------------------------------


def in_slices(board: Board, color, slice_seconds: float = 0.0, **options) -> tuple[Thought, int]:
    """:func:`thinking` run to its end, every pause taken (by default a slice of no time at all)."""
    steps = thinking(board, color, slice_seconds=slice_seconds, **options)
    pauses = 0
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value, pauses
        pauses += 1


def same(sliced: Thought, whole: Thought) -> bool:
    """The same answer, line, value and effort (only the time differs)."""
    return (sliced.depth, sliced.move, sliced.value, sliced.line, sliced.nodes, sliced.exact,
            sliced.outcome) == (whole.depth, whole.move, whole.value, whole.line, whole.nodes,
                                whole.exact, whole.outcome)


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 6))
def test_a_search_in_slices_finds_what_one_search_finds_at_every_depth(position, depth):
    board, color = position
    reports: tuple[list[Thought], list[Thought]] = ([], [])
    sliced, _ = in_slices(board, color, max_depth=depth, solve_empties=0, on_thought=reports[0].append)
    whole = think(board, color, max_depth=depth, solve_empties=0, on_thought=reports[1].append)
    assert same(sliced, whole)
    assert len(reports[0]) == len(reports[1])
    assert all(same(*pair) for pair in zip(*reports, strict=True))


@pytest.mark.parametrize("seed", range(6))
def test_a_deep_search_pauses_and_still_finds_the_minimax_move_and_value(seed):
    board, color = random_position(8, 12 + 2 * seed, seed)
    sliced, pauses = in_slices(board, color, max_depth=4, solve_empties=0, score=score)
    assert pauses > 10  # it handed back control between many moves near the root
    oracle = minimax(board, color, 4)
    assert sliced.value == oracle.value
    child = board.copy()
    child.play(sliced.move, color)  # the move chosen is worth the minimax value
    assert -minimax(child, color.opponent, 3).value == oracle.value


@pytest.mark.parametrize(("plies", "seed", "options"), [
    (50, 0, {"solve_empties": 14}), (50, 3, {"solve_empties": 14}),
    (47, 100, {"max_depth": 2, "solve_empties": 0, "wld_empties": 20}),
    (47, 101, {"max_depth": 2, "solve_empties": 0, "wld_empties": 20}),
])
def test_the_exact_end_and_the_proof_in_slices_equal_one_search(plies, seed, options):
    board, color = random_position(8, plies, seed)
    sliced, pauses = in_slices(board, color, **options)
    assert pauses > 0 and same(sliced, think(board, color, **options))
    assert sliced.exact or sliced.outcome is not None


@pytest.mark.parametrize(("plies", "options"), [(20, {"max_depth": 5, "solve_empties": 0}),
                                                 (48, {"solve_empties": 14})])
def test_a_search_pauses_when_asked_before_its_slice_ends_and_finds_the_same(plies, options):
    board, color = random_position(8, plies, 3)
    ticks = itertools.count()
    answers: list[bool] = []

    def clock() -> float:  # a millisecond a reading: the loop is asked every second reading
        return next(ticks) * 0.001

    def should_pause() -> bool:  # the page asks for the loop's turn every third time
        answers.append(len(answers) % 3 == 2)
        return answers[-1]

    sliced, pauses = in_slices(board, color, 60.0, clock=clock, should_pause=should_pause, **options)
    assert pauses == answers.count(True) > 3  # a pause for each "yes", none for the 60 s slice
    assert same(sliced, think(board, color, **options))


def test_the_loop_is_asked_for_its_wish_to_pause_at_most_every_two_milliseconds():
    board, color = random_position(8, 20, 3)
    readings: list[float] = []
    ticks = itertools.count()

    def clock() -> float:
        readings.append(next(ticks) * 0.0001)  # a tenth of a millisecond a reading
        return readings[-1]

    asked: list[float] = []

    def should_pause() -> bool:  # never "yes": the search runs to its end without a pause
        asked.append(readings[-1])
        return False

    _, pauses = in_slices(board, color, 60.0, clock=clock, should_pause=should_pause, max_depth=5,
                          solve_empties=0)  # fmt: skip
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked)]
    assert pauses == 0 and len(asked) > 3 and min(gaps) >= 0.002 - 1e-9


def test_without_a_slice_the_search_never_pauses():
    board, color = random_position(8, 20, 3)
    steps = thinking(board, color, max_depth=5, solve_empties=0)
    with pytest.raises(StopIteration):
        next(steps)


# -- the exact end --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_near_the_end_the_exact_solver_takes_over(seed):
    board, color = random_position(8, 50, seed)
    if board.is_finished() or not board.legal_moves(color):
        pytest.fail("pick seeds whose games go on after 50 moves")
    thought = think(board, color, solve_empties=14)
    exact = solve(board, color)
    assert thought.exact and thought.value == exact.value * FINAL_DISC_VALUE
    assert thought.discs == exact.value
    verdict = "wins" if exact.value > 0 else "loses" if exact.value < 0 else "draws"
    assert verdict in thought.summary()


# -- time and stopping ----------------------------------------------------------------------


class TickingClock:
    """A fake clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


@pytest.mark.parametrize(("plies", "limit"), [(10, 1.0), (24, 3.0), (46, 1.0)])
def test_the_time_limit_is_kept_within_ten_percent_on_a_fake_clock(plies, limit):
    board, color = random_position(8, plies, 11)
    clock = TickingClock(0.02)
    thought = think(board, color, time_limit=limit, clock=clock, solve_empties=14)
    assert clock.now <= limit * 1.1
    # it used its time (but for the last gap between two clock readings) unless it solved the game
    assert clock.now >= limit - 2 * clock.step or thought.exact
    assert board.is_legal(thought.move, color) and thought.depth >= 1


class SlowingClock(TickingClock):
    """A clock whose readings drift further apart, as on a machine that gets busier."""

    def __call__(self) -> float:
        self.step *= 1.01
        return super().__call__()


def test_a_search_stops_before_the_deadline_when_its_polls_drift_apart():
    board, color = random_position(8, 20, 12)
    clock = SlowingClock(0.005)
    thought = think(board, color, time_limit=1.0, clock=clock, solve_empties=0)
    # the next poll would have been late, so it stopped in time (the last reading only
    # measures how long it took)
    assert 0.8 <= thought.seconds <= 1.01 and thought.depth >= 1


def test_with_no_time_at_all_the_first_move_in_search_order_is_played():
    board, color = random_position(8, 20, 7)
    thought = think(board, color, time_limit=1e-9, clock=TickingClock(1.0))
    assert thought.depth == 0 and board.is_legal(thought.move, color)


def test_a_stop_from_another_thread_ends_the_search_at_once():
    board, color = random_position(8, 12, 5)
    stop = threading.Event()
    answers: list[Thought] = []
    worker = threading.Thread(
        target=lambda: answers.append(think(board, color, should_stop=stop.is_set))
    )
    worker.start()  # no time limit, no depth limit: only the stop can end it in time
    time.sleep(0.3)
    asked = time.perf_counter()
    stop.set()
    worker.join(timeout=5)
    assert not worker.is_alive() and time.perf_counter() - asked < 0.2
    assert board.is_legal(answers[0].move, color)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_limit": 0}, "time_limit must be a positive number of seconds or None, not 0"),
        ({"time_limit": -1.0}, "time_limit must be a positive number of seconds or None, not -1.0"),
        ({"max_depth": 0}, "max_depth must be a whole number from 1 to 60, not 0"),
        ({"max_depth": 2.5}, "max_depth must be a whole number from 1 to 60, not 2.5"),
    ],
)
def test_bad_settings_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        think(Board(), BLACK, **options)


# -- win, draw or loss before the exact end -------------------------------------------------


def exact_after(board: Board, move, color) -> int:
    """The exact disc difference for ``color`` after playing ``move``: the oracle."""
    after = board.copy()
    after.play(move, color)
    if after.is_finished():
        return after.count(color) - after.count(color.opponent)
    if not after.legal_moves(color.opponent):
        return solve(after, color).value
    return -solve(after, color.opponent).value


@pytest.mark.parametrize("seed", range(8))
def test_the_proof_plays_a_move_that_keeps_the_best_outcome(seed):
    board, color = random_position(8, 47, 100 + seed)
    if board.is_finished() or not board.legal_moves(color):
        pytest.fail("pick seeds whose games go on after 47 moves")
    best = solve(board, color).value
    thought = think(board, color, max_depth=2, solve_empties=0, wld_empties=20)
    outcome = (best > 0) - (best < 0)
    assert thought.outcome == outcome and not thought.exact
    if outcome >= 0:  # the move played keeps the win (or the draw)
        played = exact_after(board, thought.move, color)
        assert (played > 0) - (played < 0) == outcome
        assert thought.line[0] == thought.move
    proved = {1: "a sure win", 0: "a sure draw", -1: "lost with perfect play"}[outcome]
    assert proved in thought.summary()


def test_without_wld_empties_or_with_few_empties_no_proof_is_tried():
    board, color = random_position(8, 47, 100)
    assert think(board, color, max_depth=2, solve_empties=0).outcome is None
    assert think(board, color, max_depth=2, solve_empties=0, wld_empties=12).outcome is None
    solved = think(board, color, solve_empties=14, wld_empties=20)
    assert solved.exact and solved.outcome is None


@pytest.mark.parametrize(("plies", "seed", "limit", "step", "proved"), [
    (42, 1, 3.0, 0.005, False), (42, 2, 1.0, 0.005, False), (42, 3, 3.0, 0.005, False),
    (44, 0, 3.0, 0.0005, True), (44, 1, 3.0, 0.0005, True),
])
def test_the_proof_keeps_the_time_limit_on_a_fake_clock(plies, seed, limit, step, proved):
    board, color = random_position(8, plies, seed)
    clock = TickingClock(step)
    seen: list[Thought] = []
    thought = think(board, color, time_limit=limit, clock=clock, solve_empties=10,
                    wld_empties=20, on_thought=seen.append)
    assert clock.now <= limit * 1.1
    assert board.is_legal(thought.move, color) and thought.depth >= 1
    assert seen and seen[-1].move == thought.move
    # out of time, the deepening's move is played; in time, the proof is reported
    assert (thought.outcome is not None) == proved
    if not proved:
        assert clock.now >= limit - 2 * clock.step
