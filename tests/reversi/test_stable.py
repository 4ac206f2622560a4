"""Stable discs (``bitboard.stable``): no disc it names ever turns, whatever is played after."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import BLACK, Board
from reversi.bitboard import geometry, lines, stable
from tests.reversi.positions import random_position


def playouts_never_turn(board: Board, color, safe: dict, seed: int, games: int = 8) -> None:
    """Play ``games`` random games to the end from ``board``; the safe discs keep their colour."""
    rng = random.Random(seed)
    for _ in range(games):
        game, turn = board.copy(), color
        while not game.is_finished():
            moves = game.legal_moves(turn)
            if moves:
                game.play(rng.choice(moves), turn)
                for owner, discs in safe.items():
                    assert discs & game.bits(owner) == discs, f"a stable {owner} disc turned"
            turn = turn.opponent


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from([4, 6, 8]), plies=st.integers(0, 60), seed=st.integers(0, 10**6))
def test_stable_discs_never_turn_in_random_games_to_the_end(size, plies, seed):
    board, color = random_position(size, plies, seed)
    filled = board.bits(BLACK) | board.bits(BLACK.opponent)
    geo = geometry(size)
    safe = {owner: stable(board.bits(owner), filled, geo) for owner in (BLACK, BLACK.opponent)}
    for owner, discs in safe.items():
        assert discs & ~board.bits(owner) == 0  # only the owner's discs
    playouts_never_turn(board, color, safe, seed)


def test_a_full_board_is_all_stable_and_a_corner_holds_its_neighbour():
    geo = geometry(8)
    rng = random.Random(3)
    black = rng.getrandbits(64)
    white = geo.full & ~black
    assert stable(black, geo.full, geo) == black  # no move can be made any more
    assert stable(white, geo.full, geo) == white
    corner_and_neighbour = 1 | 1 << 1  # a1 and b1, the rest of the row empty
    assert stable(corner_and_neighbour, corner_and_neighbour, geo) == corner_and_neighbour
    assert stable(1 << 1, 1 << 1, geo) == 0  # b1 alone could still be taken from a1 or c1


def test_lines_cover_each_square_once_per_axis():
    for size in (4, 6, 8):
        for axis in lines(size):
            union = 0
            for line in axis:
                assert union & line == 0
                union |= line
            assert union == geometry(size).full
