"""Random positions for the search tests: a random game played for some plies, and a strategy."""

from __future__ import annotations

from hypothesis import strategies as st

from reversi import BLACK, PASS, Board, Color
from reversi.players import RandomPlayer


def random_position(size: int, plies: int, seed: int) -> tuple[Board, Color]:
    """The board and the side to move after ``plies`` random turns (passes included)."""
    board, color, chooser = Board(size), BLACK, RandomPlayer(seed=seed)
    for _ in range(plies):
        move = chooser.choose_move(board.copy(), color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return board, color


def positions(max_plies: int) -> st.SearchStrategy[tuple[Board, Color]]:
    """Random positions on 4x4, 6x6 and 8x8 boards after up to ``max_plies`` turns."""
    return st.builds(
        random_position,
        size=st.sampled_from([4, 6, 8]),
        plies=st.integers(0, max_plies),
        seed=st.integers(0, 10**6),
    )
