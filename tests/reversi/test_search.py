"""Search: alpha-beta against plain minimax and against a slow search on Boards, passes,
final scores, the time limit, and a short match."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi.board import Board
from reversi.evaluation import FINAL_DISC_VALUE, evaluate, largest_heuristic
from reversi.notation import BLACK, PASS, WHITE, Color, Square
from reversi.players import AlphaBetaPlayer, GreedyPlayer, Player, RandomPlayer
from reversi.search import INFINITY, alphabeta, iterative_deepening, minimax, move_order
from tests.reversi.positions import positions as random_positions
from tests.reversi.positions import random_position

# Black has no legal move; White has (a2).  Found by hand, checked in the tests.
BLACK_STUCK = """
. . . .
. B W W
. . . .
. . . .
"""


def slow_negamax(board: Board, color: Color, depth: int) -> int:
    """The search rule read plainly on Boards: the oracle the fast searches must agree with."""
    if board.is_finished():
        return evaluate(board, color)
    if depth == 0:
        return evaluate(board, color)
    moves = board.legal_moves(color)
    if not moves:
        return -slow_negamax(board, color.opponent, depth - 1)
    values = []
    for move in moves:
        child = board.copy()
        child.play(move, color)
        values.append(-slow_negamax(child, color.opponent, depth - 1))
    return max(values)


positions = random_positions(60)


# -- alpha-beta equals minimax ---------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(positions, st.integers(1, 3))
def test_alphabeta_finds_the_minimax_value_and_move_with_no_more_nodes(position, depth):
    board, color = position
    before = board.copy()
    full, pruned = minimax(board, color, depth), alphabeta(board, color, depth)
    assert pruned.value == full.value
    assert pruned.move == full.move
    assert pruned.nodes <= full.nodes
    assert board == before


def slow_best_move(board: Board, color: Color, depth: int):
    """The tie rule read plainly: of the moves worth the most, the last in reading order."""
    best, best_value = PASS, None
    for move in board.legal_moves(color):  # reading order
        child = board.copy()
        child.play(move, color)
        value = -slow_negamax(child, color.opponent, depth - 1)
        if best_value is None or value >= best_value:
            best, best_value = move, value
    return best


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(1, 2))
def test_minimax_agrees_with_a_slow_search_on_boards(position, depth):
    board, color = position
    result = minimax(board, color, depth)
    assert result.value == slow_negamax(board, color, depth)
    assert result.move == slow_best_move(board, color, depth)


def test_both_searches_break_ties_for_the_last_move_in_reading_order_on_many_positions():
    tied = 0
    for size, seed in itertools.product((4, 6, 8), range(60)):
        board, color = random_position(size, seed % (size * size - 6), seed)
        for depth in (1, 2):
            values = []
            for move in board.legal_moves(color):
                child = board.copy()
                child.play(move, color)
                values.append(-slow_negamax(child, color.opponent, depth - 1))
            tied += len(values) > 1 and values.count(max(values)) > 1
            expected = slow_best_move(board, color, depth)
            assert minimax(board, color, depth).move == expected
            assert alphabeta(board, color, depth).move == expected
    assert tied >= 20  # the positions do test the tie rule (31 of 360 have tied best moves)


@pytest.mark.parametrize(("plies", "seed"), [(0, 0), (12, 1), (24, 2), (36, 3)])
def test_alphabeta_visits_clearly_fewer_positions_than_minimax(plies, seed):
    board, color = random_position(8, plies, seed)
    full, pruned = minimax(board, color, 4), alphabeta(board, color, 4)
    assert (pruned.value, pruned.move) == (full.value, full.move)
    assert pruned.nodes < full.nodes * 0.6


@pytest.mark.parametrize("search", [minimax, alphabeta])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_equal_moves_go_to_the_last_in_reading_order(search, depth):
    # The four opening moves are equal by symmetry: the last in reading order, e6, is chosen
    # although d3 is searched first.
    assert move_order(Board(), BLACK)[0] == Square(2, 3)
    assert search(Board(), BLACK, depth).move == Square(5, 4)


def test_moves_are_searched_heaviest_square_first_then_in_reading_order():
    board = Board.from_text("""
    . . . . . . . .
    W . . . . . . W
    B . . . . . . B
    . B W W W W W .
    . . . . . . . .
    B . . . . . . B
    W . . . . . . W
    . . . . . . . .
    """)
    assert [str(s) for s in board.legal_moves(BLACK)] == ["a1", "h1", "h4", "f5", "a8", "h8"]
    assert [str(s) for s in move_order(board, BLACK)] == ["a1", "h1", "a8", "h8", "h4", "f5"]


@pytest.mark.parametrize("depth", [0, -1, 17, 2.5, True])
def test_a_depth_out_of_range_is_refused(depth):
    with pytest.raises(ValueError, match="depth must be a whole number from 1 to 16"):
        minimax(Board(), BLACK, depth)


# -- passes and the end of the game ---------------------------------------------------------


@pytest.mark.parametrize("search", [minimax, alphabeta])
def test_a_side_without_a_move_passes_and_the_search_goes_on(search):
    board = Board.from_text(BLACK_STUCK)
    assert board.legal_moves(BLACK) == [] and board.legal_moves(WHITE) == [(1, 0)]
    result = search(board, BLACK, 3)
    assert result.move is PASS
    assert result.value == -search(board, WHITE, 2).value == slow_negamax(board, BLACK, 3)


def test_a_pass_deep_in_the_tree_is_searched_like_the_slow_search():
    # Random 4x4 positions where some move leaves the opponent without a reply.
    found = 0
    for seed in range(200):
        board, color = random_position(4, 12, seed)
        if board.is_finished() or not board.legal_moves(color):
            continue
        if any(not _after(board, m, color).legal_moves(color.opponent)
               and not _after(board, m, color).is_finished()
               for m in board.legal_moves(color)):
            found += 1
            for depth in (1, 2, 3):
                assert alphabeta(board, color, depth).value == slow_negamax(board, color, depth)
    assert found >= 3


def _after(board: Board, move: Square, color: Color) -> Board:
    child = board.copy()
    child.play(move, color)
    return child


@pytest.mark.parametrize("search", [minimax, alphabeta])
@pytest.mark.parametrize("depth", [1, 3])
def test_a_finished_game_scores_its_disc_margin(search, depth):
    board = Board.from_text("""
    B B B B
    B B B B
    B B B .
    . . . W
    """)
    assert board.is_finished()  # empty squares left, but neither side can move
    assert search(board, BLACK, depth).value == 10 * FINAL_DISC_VALUE
    assert search(board, WHITE, depth).value == -10 * FINAL_DISC_VALUE
    assert search(board, BLACK, depth).move is PASS


def test_a_narrow_win_beats_any_unfinished_position():
    assert all(largest_heuristic(size) < FINAL_DISC_VALUE for size in range(4, 17, 2))
    assert 256 * FINAL_DISC_VALUE < INFINITY


def solve(board: Board, color: Color) -> int:
    """The exact final margin for ``color`` with perfect play by both sides."""
    if board.is_finished():
        return board.count(color) - board.count(color.opponent)
    moves = board.legal_moves(color)
    if not moves:
        return -solve(board, color.opponent)
    return max(-solve(_after(board, m, color), color.opponent) for m in moves)


@pytest.mark.parametrize("seed", range(6))
def test_searching_to_the_end_finds_the_exact_result(seed):
    board, color = random_position(4, 6, seed)
    assert not board.is_finished()  # fixed seeds: these games are still going
    empties = board.count(None)
    result = alphabeta(board, color, 2 * empties)  # room for every move and a pass between each
    assert result.value == solve(board, color) * FINAL_DISC_VALUE


# -- the time limit -----------------------------------------------------------------------


class TickingClock:
    """A fake clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float = 0.001) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_a_time_limited_search_stops_at_the_deadline_with_a_legal_move():
    board, color = random_position(8, 20, 7)
    clock = TickingClock(0.001)
    result = iterative_deepening(board, color, max_depth=10, time_limit=0.5, clock=clock)
    assert board.is_legal(result.move, color)
    assert 1 <= result.depth < 10
    assert clock.now <= 0.5 + 0.0015  # one read past the deadline, then it stops
    full_depth = alphabeta(board, color, result.depth)
    assert (result.move, result.value) == (full_depth.move, full_depth.value)


def test_with_no_time_at_all_the_first_move_in_search_order_is_returned():
    board, color = random_position(8, 20, 7)
    result = iterative_deepening(board, color, max_depth=6, time_limit=1e-9, clock=TickingClock(1.0))
    assert result.depth == 0 and board.is_legal(result.move, color)


def test_with_time_to_spare_iterative_deepening_equals_a_fixed_depth_search():
    board, color = random_position(8, 30, 8)
    result = iterative_deepening(board, color, max_depth=4, time_limit=1000.0, clock=TickingClock(0.0))
    fixed = alphabeta(board, color, 4)
    assert (result.move, result.value, result.depth) == (fixed.move, fixed.value, 4)


def test_the_alphabeta_player_uses_its_clock_and_reports_its_search():
    clock = TickingClock(0.01)
    player = AlphaBetaPlayer(depth=8, time_limit=2.0, clock=clock)
    board, color = random_position(8, 16, 9)
    move = player.choose_move(board, color)
    assert board.is_legal(move, color)
    assert player.last_result is not None and player.last_result.move == move
    assert 1 <= player.last_result.depth < 8
    assert clock.now <= 2.0 + 2 * 0.01


# -- strength ------------------------------------------------------------------------------


def play_out(players: dict[Color, Player], board: Board, color: Color) -> Board:
    while not board.is_finished():
        move = players[color].choose_move(board.copy(), color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return board


@pytest.mark.parametrize(
    "rival", [lambda number: GreedyPlayer(), lambda number: RandomPlayer(seed=100 + number)]
)
def test_alphabeta_at_depth_4_wins_most_games(rival):
    wins = 0
    for number, hero_color in zip(range(8), itertools.cycle([BLACK, WHITE])):
        board, color = random_position(8, 4, number)  # a different opening each game
        players = {hero_color: AlphaBetaPlayer(depth=4), hero_color.opponent: rival(number)}
        board = play_out(players, board, color)
        wins += board.count(hero_color) > board.count(hero_color.opponent)
    assert wins >= 7
