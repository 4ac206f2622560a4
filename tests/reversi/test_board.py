"""The Board and the bitboard move generator, checked against independent oracles.

The oracles are the published perft counts and a slow, direct reading of the
rules written here on a plain list grid, sharing no code with the package.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import bitboard
from reversi.board import Board
from reversi.errors import ArgumentError, BoardSizeError, IllegalMoveError, NotationError
from reversi.notation import BLACK, WHITE, Color, Square

PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216]
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]

# -- the slow oracle: the rules walked square by square on a list of lists ----------------


def grid_of(board: Board) -> list[list[Color | None]]:
    return [[board[row, col] for col in range(board.size)] for row in range(board.size)]


def slow_flips(grid: list[list[Color | None]], row: int, col: int, color: Color) -> set[tuple]:
    """Walk each of the 8 directions from an empty square over opponent discs to an own disc."""
    if grid[row][col] is not None:
        return set()
    size, turned = len(grid), set()
    for dr, dc in STEPS:
        r, c, run = row + dr, col + dc, []
        while 0 <= r < size and 0 <= c < size and grid[r][c] is color.opponent:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < size and 0 <= c < size and grid[r][c] is color:
            turned.update(run)
    return turned


def slow_legal_moves(grid: list[list[Color | None]], color: Color) -> list[tuple[int, int]]:
    size = len(grid)
    return [(r, c) for r in range(size) for c in range(size) if slow_flips(grid, r, c, color)]


def slow_perft(grid: list[list[Color | None]], color: Color, depth: int) -> int:
    if depth == 0:
        return 1
    moves = slow_legal_moves(grid, color)
    if not moves:
        if not slow_legal_moves(grid, color.opponent):
            return 1
        return slow_perft(grid, color.opponent, depth - 1)
    total = 0
    for row, col in moves:
        child = [line[:] for line in grid]
        for r, c in slow_flips(grid, row, col, color) | {(row, col)}:
            child[r][c] = color
        total += slow_perft(child, color.opponent, depth - 1)
    return total


def board_perft(board: Board, color: Color, depth: int) -> int:
    """Perft through the Board's public API only."""
    if depth == 0:
        return 1
    moves = board.legal_moves(color)
    if not moves:
        if not board.has_legal_move(color.opponent):
            return 1
        return board_perft(board, color.opponent, depth - 1)
    total = 0
    for move in moves:
        child = board.copy()
        child.play(move, color)
        total += board_perft(child, color.opponent, depth - 1)
    return total


# -- strategies -----------------------------------------------------------------------------

sizes = st.sampled_from([4, 6, 8])


@st.composite
def random_boards(draw: st.DrawFn) -> Board:
    """Any arrangement of discs, reachable in a game or not."""
    size = draw(sizes)
    cells = draw(st.lists(st.sampled_from([None, BLACK, WHITE]), min_size=size * size,
                          max_size=size * size))
    board = Board.empty(size)
    for index, color in enumerate(cells):
        board[divmod(index, size)] = color
    return board


# -- perft ----------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, 9))
def test_bitboard_perft_matches_the_published_counts(depth):
    board = Board()
    count = bitboard.perft(board.bits(BLACK), board.bits(WHITE), depth, bitboard.geometry(8))
    assert count == PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 6))
def test_perft_through_the_board_api_matches_the_published_counts(depth):
    assert board_perft(Board(), BLACK, depth) == PERFT[depth - 1]


@pytest.mark.parametrize(("size", "depth"), [(4, 6), (6, 4), (10, 3), (16, 3)])
def test_bitboard_perft_matches_the_slow_oracle_on_other_sizes(size, depth):
    board = Board(size)
    fast = bitboard.perft(board.bits(BLACK), board.bits(WHITE), depth, bitboard.geometry(size))
    assert fast == slow_perft(grid_of(board), BLACK, depth)


# -- setting up and printing ----------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 8, 16])
def test_the_start_has_two_discs_each_on_the_centre_diagonals(size):
    board, half = Board(size), size // 2
    assert board.discs(WHITE) == [(half - 1, half - 1), (half, half)]
    assert board.discs(BLACK) == [(half - 1, half), (half, half - 1)]
    assert board.counts() == (2, 2, 4, size * size - 4)


@pytest.mark.parametrize("size", [3, 2, 18, 0, -4])
def test_unsupported_sizes_are_refused(size):
    with pytest.raises(BoardSizeError, match=str(size)):
        Board(size)


@pytest.mark.parametrize("size", [8.0, "8", True])
def test_a_size_that_is_not_a_whole_number_is_named(size):
    with pytest.raises(ArgumentError, match=rf"^Board\(\): size must be a whole number, not {re.escape(repr(size))}$"):
        Board(size)


def test_from_text_round_trips_a_4x4_board():
    diagram = """
      a b c d
    1 . W B .
    2 . W W .
    3 B W W .
    4 . . . B
    """
    board = Board.from_text(diagram)
    assert board.size == 4 and board["c1"] is BLACK and board["a1"] is None
    assert str(board) == "  a b c d\n1 . W B .\n2 . W W .\n3 B W W .\n4 . . . B"
    assert Board.from_text(str(board)) == board


def test_from_text_round_trips_a_16x16_board_with_two_digit_row_labels():
    board = Board(16)
    board.play("h7", BLACK)
    board["p16"] = WHITE
    text = str(board)
    assert text.splitlines()[0] == "   a b c d e f g h i j k l m n o p"
    assert text.splitlines()[16].startswith("16 ") and text.endswith("W")
    assert Board.from_text(text) == board


@given(random_boards())
def test_from_text_round_trips_any_board(board):
    assert Board.from_text(str(board)) == board


@pytest.mark.parametrize(
    ("diagram", "message"),
    [
        ("", "it has no rows of B, W and ."),
        (". . .\n. . .\n. . .", "the diagram is 3x3"),
        (". . . .\n. . .\n. . . .\n. . . .", "row 2 of the diagram has 3 squares"),
    ],
)
def test_from_text_refuses_diagrams_that_are_not_boards(diagram, message):
    with pytest.raises(NotationError, match=message):
        Board.from_text(diagram)


def test_a_copy_is_independent():
    board = Board()
    copy = board.copy()
    copy.play("d3", BLACK)
    assert board == Board() and copy != board


# -- the ZX-81 article's Figure 2 -----------------------------------------------------------

# A position with every fact the article states about its Figure 2, Black to move.
FIGURE_2 = Board.from_text("""
  a b c d e f g h
1 . . . . . . . .
2 . . . W . . . .
3 . . . B B W W .
4 . . . B W . B .
5 . . W W W . . .
6 . . B . W . . .
7 . . . . . . . .
8 . . . . . . . .
""")


@pytest.mark.parametrize(
    ("move", "captured"),
    [
        ("d1", ["d2"]),
        ("g2", ["d5", "e4", "f3", "g3"]),
        ("h3", ["f3", "g3"]),
        ("e7", ["e4", "e5", "e6"]),
    ],
)
def test_figure_2_valid_moves_capture_what_the_article_says(move, captured):
    assert FIGURE_2.is_legal(move, BLACK)
    assert sorted(str(s) for s in FIGURE_2.flips(move, BLACK)) == captured
    board = FIGURE_2.copy()
    board.play(move, BLACK)
    assert all(board[name] is BLACK for name in [move, *captured])
    assert board.count(BLACK) == FIGURE_2.count(BLACK) + 1 + len(captured)


def test_figure_2_e8_is_invalid_because_e7_is_empty():
    assert FIGURE_2["e7"] is None
    assert not FIGURE_2.is_legal("e8", BLACK)
    assert FIGURE_2.illegal_reason("e8", BLACK) == "no White disc is next to e8"


def test_figure_2_f7_is_invalid_because_no_disc_on_c4_closes_the_diagonal():
    assert [FIGURE_2[s] for s in ("e6", "d5", "c4")] == [WHITE, WHITE, None]
    assert FIGURE_2.illegal_reason("f7", BLACK) == (
        "no line of White discs from f7 ends in a Black disc"
    )


def test_figure_2_b5_is_invalid_because_f5_is_empty():
    assert [FIGURE_2[s] for s in ("c5", "d5", "e5", "f5")] == [WHITE, WHITE, WHITE, None]
    assert FIGURE_2.illegal_reason("b5", BLACK) == (
        "no line of White discs from b5 ends in a Black disc"
    )


# -- the fast rules against the slow oracle ---------------------------------------------------


@settings(max_examples=150, deadline=None)  # a shared machine makes timings noisy
@given(random_boards(), st.sampled_from([BLACK, WHITE]))
def test_flips_and_legal_moves_match_the_slow_oracle(board, color):
    grid = grid_of(board)
    assert board.legal_moves(color) == slow_legal_moves(grid, color)
    for row, col in board.squares():
        assert set(board.flips((row, col), color)) == slow_flips(grid, row, col, color)
    assert board.is_finished() == (
        not slow_legal_moves(grid, BLACK) and not slow_legal_moves(grid, WHITE)
    )


# -- random games -------------------------------------------------------------------------


def flip_is_bounded(board: Board, move: Square, flipped: Square, color: Color) -> bool:
    """A flipped disc lies on a straight line from the move, with only opponent discs
    from the move up to it and beyond it until an own disc."""
    dr, dc = flipped.row - move.row, flipped.col - move.col
    steps = max(abs(dr), abs(dc))
    if dr not in (-steps, 0, steps) or dc not in (-steps, 0, steps):
        return False
    dr, dc = dr // steps, dc // steps
    row, col = move.row + dr, move.col + dc
    while 0 <= row < board.size and 0 <= col < board.size:
        if board[row, col] is color:
            return (row - move.row) * dr + (col - move.col) * dc > steps * (dr * dr + dc * dc)
        if board[row, col] is not color.opponent:
            return False
        row, col = row + dr, col + dc
    return False


@settings(max_examples=60, deadline=None)
@given(sizes, st.lists(st.integers(min_value=0, max_value=10**6), max_size=200))
def test_random_games_keep_the_rules_invariants(size, choices):
    board, color, moves_played = Board(size), BLACK, 0
    for choice in choices:
        if board.is_finished():
            break
        legal = board.legal_moves(color)
        assert legal == sorted(legal)  # reading order is row-major order
        if not legal:
            color = color.opponent
            continue
        move = legal[choice % len(legal)]
        before = board.copy()
        flipped = board.play(move, color)
        moves_played += 1
        assert flipped and flipped == before.flips(move, color)
        assert all(flip_is_bounded(before, move, f, color) for f in flipped)
        assert board.count(color) == before.count(color) + 1 + len(flipped)
        assert board.count(color.opponent) == before.count(color.opponent) - len(flipped)
        assert board.counts().total == moves_played + 4
        color = color.opponent


# -- refused moves ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("a1", "'a1' is not a legal move for Black: no White disc is next to a1"),
        ("d4", "'d4' is not a legal move for Black: d4 is already taken by a White disc"),
        ((2, 2), "'c3' is not a legal move for Black: no line of White discs from c3 ends in"),
    ],
)
def test_an_illegal_move_names_the_square_and_reason_and_changes_nothing(where, message):
    board = Board()
    with pytest.raises(IllegalMoveError, match=message):
        board.play(where, BLACK)
    assert board == Board()


def test_a_move_off_the_board_is_a_notation_error_and_changes_nothing():
    board = Board(6)
    with pytest.raises(NotationError, match="'g1' is not a square of a 6x6 board"):
        board.play("g1", BLACK)
    assert board == Board(6)
