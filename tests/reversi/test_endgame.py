"""The exact endgame solver against a slow exact minimax on Boards, and on FFO positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import lastsquares
from reversi.board import Board
from reversi.endgame import Solver, solve
from reversi.errors import SearchStopped
from reversi.lastsquares import rays
from reversi.notation import BLACK, PASS, Color, Square
from reversi.players import PositionalPlayer, RandomPlayer
from reversi.watch import run_to_end


def slow_solve(board: Board, color: Color) -> int:
    """The exact final margin for ``color`` to move, read plainly on Boards: the oracle."""
    if board.is_finished():
        return board.count(color) - board.count(color.opponent)
    moves = board.legal_moves(color)
    if not moves:
        return -slow_solve(board, color.opponent)
    return max(-slow_solve(after(board, move, color), color.opponent) for move in moves)


def after(board: Board, move: Square, color: Color) -> Board:
    child = board.copy()
    child.play(move, color)
    return child


def position_with_empties(size: int, empties: int, seed: int) -> tuple[Board, Color]:
    """A position from a seeded half-random game, stopped at ``empties`` empty squares (or its end)."""
    board, color = Board(size), BLACK
    chooser, wild = PositionalPlayer(), RandomPlayer(seed=seed)
    while board.count(None) > empties and not board.is_finished():
        if board.legal_moves(color):
            player = wild if board.count(None) % 3 else chooser
            board.play(player.choose_move(board.copy(), color), color)
        color = color.opponent
    return board, color


positions = st.builds(
    position_with_empties,
    size=st.sampled_from([4, 6, 8]),
    empties=st.integers(0, 7),
    seed=st.integers(0, 10**6),
)


@settings(max_examples=120, deadline=None)
@given(positions)
def test_the_solver_finds_the_exact_margin_of_the_slow_search(position):
    board, color = position
    before = board.copy()
    solution = solve(board, color)
    assert solution.value == slow_solve(board, color)
    assert board == before
    if board.legal_moves(color):
        assert -slow_solve(after(board, solution.move, color), color.opponent) == solution.value
    else:
        assert solution.move is PASS


@settings(max_examples=60, deadline=None)
@given(positions)
def test_win_draw_loss_is_the_sign_of_the_exact_margin(position):
    board, color = position
    exact = slow_solve(board, color)
    solution = solve(board, color, wld=True)
    assert solution.value == (exact > 0) - (exact < 0)
    if board.legal_moves(color):  # the move chosen keeps the result
        child = -slow_solve(after(board, solution.move, color), color.opponent)
        assert (child > 0) - (child < 0) == solution.value


@pytest.mark.parametrize("seed", range(4))
def test_the_expected_line_is_legal_and_reaches_the_promised_score(seed):
    board, color = position_with_empties(8, 9, seed)
    first, solution = color, solve(board, color)
    for move in solution.line:
        if move is PASS:
            assert not board.legal_moves(color)
        else:
            board.play(move, color)
        color = color.opponent
    assert board.is_finished()
    assert board.count(first) - board.count(first.opponent) == solution.value


def test_flips_along_rays_equal_the_boards_flips_on_every_square():
    for seed in range(20):
        board, color = position_with_empties(8, 30, seed)
        solver = Solver(8)
        player, opponent = board.bits(color), board.bits(color.opponent)
        for index in range(64):
            square = Square(*divmod(index, 8))
            if board[square] is not None:
                continue
            expected = sum(1 << (s.row * 8 + s.col) for s in board.flips(square, color))
            assert solver.flips(index, player, opponent) == expected


def test_rays_leave_out_directions_too_short_to_flip():
    higher, lower = rays(8)[0]  # a1: right, down-right, down
    assert len(higher) == 3 and lower == ()
    higher, lower = rays(8)[9]  # b2: the rays towards a1, b1, a2, c1 and a3 are too short
    assert len(higher) == 3 and len(lower) == 0


def test_each_ray_starts_next_to_its_square():
    for square, (higher, lower) in enumerate(rays(8)):
        row, col = divmod(square, 8)
        for next_to, ray in higher + lower:
            assert next_to & ray
            near_row, near_col = divmod(next_to.bit_length() - 1, 8)
            assert max(abs(near_row - row), abs(near_col - col)) == 1


def test_a_stopped_solve_raises_and_a_deadline_stops_it():
    board, color = position_with_empties(8, 16, 1)
    with pytest.raises(SearchStopped):
        solve(board, color, should_stop=lambda: True)
    ticks = iter(range(10**6))
    with pytest.raises(SearchStopped):
        solve(board, color, time_limit=5.0, clock=lambda: next(ticks))



# -- FFO endgame test #40 -----------------------------------------------------------------------

#: FFO #40: Black to move wins by 38 with perfect play (20 empty squares, a2 the best move).
FFO_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------"

#: A best line from FFO #40 (found by the solver; where moves tie, another best move is as good).
FFO_40_LINE = "a2 b1 c1 pass b6 b7 a7 c7 b8 d7 f8 c6 g7 e8 a8 f7 a6 g8 c8 h8 d8"


def ffo_40_after(plies: int) -> tuple[Board, Color]:
    """FFO #40 after the first ``plies`` moves of the best line, and the side to move."""
    black = sum(1 << i for i, char in enumerate(FFO_40) if char == "X")
    white = sum(1 << i for i, char in enumerate(FFO_40) if char == "O")
    board, color = Board.from_bits(8, black, white), BLACK
    for name in FFO_40_LINE.split()[:plies]:
        if name == "pass":
            assert not board.legal_moves(color)
        else:
            board.play(name, color)
        color = color.opponent
    return board, color


@pytest.mark.parametrize(("plies", "empties"), [(9, 12), (8, 13), (7, 14), (5, 16)])
def test_ffo_40_played_down_its_best_line_keeps_its_known_score(plies, empties):
    board, color = ffo_40_after(plies)
    assert board.count(None) == empties
    known = 38 if color is BLACK else -38  # the published score, seen from the side to move
    solution = solve(board, color)
    assert solution.value == known
    child = after(board, solution.move, color)  # its move keeps the score (ties may differ from the line)
    assert -solve(child, color.opponent).value == known
    assert solve(board, color, wld=True).value == (1 if known > 0 else -1)


def test_a_full_table_forgets_the_positions_nearest_the_end_and_the_answer_stays_exact():
    board, color = position_with_empties(8, 12, 3)
    roomy = solve(board, color)
    solver = Solver(8)
    solver.table_limit = 50  # forget over and over
    player, opponent = board.bits(color), board.bits(color.opponent)
    bit, value = run_to_end(solver.root(player, opponent, -65, 65))
    assert value == roomy.value
    assert len(solver.table) <= 50
    assert solver.nodes > roomy.nodes  # it had to find some positions again


def test_the_order_of_moves_changes_the_effort_not_the_answer(monkeypatch):
    board, color = ffo_40_after(9)  # 12 empties, White to move
    fastest_first = solve(board, color)
    monkeypatch.setattr(lastsquares, "FASTEST_FIRST_EMPTIES", 64)  # the parity order everywhere
    parity = solve(board, color)
    assert fastest_first.value == parity.value == -38
    assert fastest_first.nodes != parity.nodes
