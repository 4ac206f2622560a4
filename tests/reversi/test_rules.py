"""reversi.rules, the readable rules, against the fast bitboard Board: two independent codes.

The readable module shares no code with ``reversi.bitboard``; on random positions of every
size both must name the same legal moves and turn the same discs, and from the start both
must count the known perft numbers.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import BLACK, WHITE, ArgumentError, Board, Color, IllegalMoveError, rules

#: Move sequences from the 8x8 start (a published, independent oracle).
PERFT = [1, 4, 12, 56, 244, 1396, 8200]


def random_game_positions(size: int, seed: int) -> list[tuple[Board, Color]]:
    """Every position of one random game on a ``size`` board, with the side to move."""
    chooser = random.Random(seed)
    board, color = Board(size), BLACK
    seen: list[tuple[Board, Color]] = []
    while True:
        seen.append((board.copy(), color))
        moves = board.legal_moves(color)
        if not moves:
            if not board.legal_moves(color.opponent):
                return seen
            color = color.opponent
            continue
        board.play(chooser.choice(moves), color)
        color = color.opponent


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([4, 6, 8, 10]), seed=st.integers(0, 2**32 - 1))
def test_readable_rules_agree_with_the_bitboard(size, seed):
    for board, _mover in random_game_positions(size, seed):
        grid = rules.from_board(board)
        for color in (BLACK, WHITE):
            assert rules.legal_moves(grid, color) == [tuple(m) for m in board.legal_moves(color)]
            for row in range(size):
                for col in range(size):
                    expected = sorted(tuple(s) for s in board.flips((row, col), color))
                    assert sorted(rules.flips(grid, (row, col), color)) == expected


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_playing_a_move_gives_the_same_board(seed):
    chooser = random.Random(seed)
    board, color = Board(), BLACK
    for _ in range(20):
        moves = board.legal_moves(color)
        if not moves:
            break
        move = chooser.choice(moves)
        after = rules.play(rules.from_board(board), (move.row, move.col), color)
        board.play(move, color)
        assert after == rules.from_board(board)
        color = color.opponent


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft_counts_from_the_start(depth):
    assert rules.perft(rules.start(), BLACK, depth) == PERFT[depth]


def test_an_illegal_move_is_refused_and_changes_nothing():
    grid = rules.start()
    before = [line[:] for line in grid]
    with pytest.raises(ValueError, match="not a legal move"):
        rules.play(grid, (0, 0), BLACK)
    assert grid == before


def test_text_round_trip():
    text = "B W .\n. . .\nW . B"
    assert rules.to_text(rules.from_text(text)) == text


@settings(max_examples=15, deadline=None)
@given(size=st.sampled_from([4, 6, 8]), seed=st.integers(0, 2**32 - 1))
def test_next_player_and_score_agree_with_the_board(size, seed):
    for board, mover in random_game_positions(size, seed):
        grid = rules.from_board(board)
        assert rules.score(grid) == (board.count(BLACK), board.count(WHITE))
        if board.has_legal_move(mover.opponent):
            expected = mover.opponent
        elif board.has_legal_move(mover):
            expected = mover
        else:
            expected = None
        assert rules.next_player(grid, mover) is expected


def test_an_illegal_move_raises_the_same_error_as_the_board():
    with pytest.raises(IllegalMoveError):
        Board().play((0, 0), BLACK)
    with pytest.raises(IllegalMoveError, match=r"\(0, 0\) is not a legal move for Black"):
        rules.play(rules.start(), (0, 0), BLACK)


def test_a_square_off_the_grid_flips_nothing_and_is_not_a_legal_move():
    grid = rules.start(4)
    assert rules.flips(grid, (-1, 0), BLACK) == [] and rules.flips(grid, (4, 9), BLACK) == []
    with pytest.raises(IllegalMoveError):
        rules.play(grid, (-1, -1), BLACK)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rules.legal_moves(rules.start(), "purple"), "legal_moves(): color must be BLACK or WHITE, not 'purple'"),
        (lambda: rules.walk(rules.start(), (0, 0), (0, 0), BLACK), "walk(): step must be one of the eight DIRECTIONS"),
        (lambda: rules.perft(rules.start(), BLACK, 9), "perft(): depth must be a whole number from 0 to 6, not 9"),
        (lambda: rules.flips([[None] * 3] * 2, (0, 0), BLACK), "flips(): grid must be a grid: a list of n rows of n"),
        (lambda: rules.play(rules.start(), "d3", BLACK), "play(): square must be a pair, not 'd3'"),
        (lambda: rules.start(10**9), "start(): size must be a whole number from 1 to 16"),
    ],
)
def test_the_student_surface_names_a_wrong_argument(call, message):
    with pytest.raises(ArgumentError) as refused:
        call()
    assert str(refused.value).startswith(message)


def test_calls_inside_the_rules_are_not_checked_calls_from_outside_are():
    from reversi.rules import legal_moves

    assert legal_moves is rules.legal_moves and legal_moves.__wrapped__ is vars(rules)["legal_moves"]
