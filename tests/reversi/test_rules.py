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

from reversi import BLACK, WHITE, Board, Color, rules

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
