"""The positions the checks are built on (course.grading.cases): every seed gives valid ones.

A teacher's seed is kept for the whole course, so a generator that gives up for some seed
would leave that teacher unable to grade.  The generators try a few random games and then
build their case from a constructed game; these tests replay every constructed game (the
proof that the fallback cannot fail) and run the generators for many teachers' seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from course.grading import cases
from course.grading.cases import (
    _EARLY_ENDS,
    _PASSES,
    _built,
    _early_end,
    _first_pass,
    early_ends,
    grade_time,
    pass_positions,
)
from reversi import BLACK, WHITE, Board, Color, Square

#: The seed that once made ``grade`` end in "no random 8x8 game from seed 116 ends early".
GAVE_UP = 3059079774706103957

#: Teachers' seeds as ``secrets`` makes them (64 random bits), drawn once and fixed.
TEACHER_SEEDS = [GAVE_UP, *(random.Random(20261126).getrandbits(64) for _ in range(300))]


def _start_keeping(size: int) -> list[tuple[str, Callable[[int, int], tuple[int, int]]]]:
    """The symmetries under which the start is the start, each as a map of (row, col)."""
    n = size - 1
    return [
        ("as played", lambda r, c: (r, c)),
        ("turned half", lambda r, c: (n - r, n - c)),
        ("on a diagonal", lambda r, c: (c, r)),
        ("on the other diagonal", lambda r, c: (n - c, n - r)),
    ]


def _replayed(
    moves: str, size: int, move: Callable[[int, int], tuple[int, int]]
) -> tuple[Board, Color]:
    """The game played move by move with the rules' own check (an illegal move raises)."""
    board, color = Board(size), BLACK
    for at in range(0, len(moves), 2):
        sq = board.square(moves[at : at + 2])
        assert board.has_legal_move(color), f"{color} would have to pass before {sq} in {moves}"
        board.play(Square(*move(sq.row, sq.col)), color)
        color = color.opponent
    return board, color


def _ended_early(board: Board) -> bool:
    return (
        board.is_finished()
        and board.count(None) > 0
        and board.count(BLACK) > 0
        and board.count(WHITE) > 0
    )


def _must_pass(board: Board, color: Color) -> bool:
    return not board.has_legal_move(color) and board.has_legal_move(color.opponent)


@pytest.mark.parametrize("size", sorted(_EARLY_ENDS))
def test_every_constructed_early_end_ends_with_empty_squares_turned_any_way(size: int) -> None:
    for moves in _EARLY_ENDS[size]:
        for label, move in _start_keeping(size):
            board, _ = _replayed(moves, size, move)
            assert _ended_early(board), f"{moves} {label}:\n{board}"


@pytest.mark.parametrize(("size", "color"), sorted(_PASSES, key=str))
def test_every_constructed_pass_leaves_its_colour_to_move_without_a_move(
    size: int, color: Color
) -> None:
    for moves in _PASSES[size, color]:
        for label, move in _start_keeping(size):
            board, to_move = _replayed(moves, size, move)
            assert to_move is color and _must_pass(board, color), f"{moves} {label}:\n{board}"


def test_the_constructed_games_are_many_and_each_table_holds_different_games() -> None:
    tables = [*_EARLY_ENDS.values(), *_PASSES.values()]
    assert set(_PASSES) == {(size, c) for size in (6, 8) for c in (BLACK, WHITE)}
    assert all(len(set(games)) == len(games) >= 6 for games in tables)


def test_a_built_case_follows_its_seed_and_differs_between_seeds() -> None:
    seeds = range(4000)
    for size, games in _EARLY_ENDS.items():
        boards = [_built(games, size, random.Random(seed))[0] for seed in seeds]
        assert all(_ended_early(board) for board in boards)
        assert len({str(board) for board in boards}) >= 3 * len(games)  # games and turns
    for (size, color), games in _PASSES.items():
        built = [_built(games, size, random.Random(seed)) for seed in seeds[:1000]]
        assert all(to_move is color and _must_pass(board, color) for board, to_move in built)
    again = _built(_PASSES[8, WHITE], 8, random.Random(7))
    assert str(again[0]) == str(_built(_PASSES[8, WHITE], 8, random.Random(7))[0])


def test_the_seed_that_gave_up_now_gets_its_cases() -> None:
    with grade_time(GAVE_UP):
        ends = early_ends()
        passes = pass_positions()
    assert [label for label, _ in ends][2] == "an 8x8 game over with empty squares (seed 116)"
    assert all(board.is_finished() and board.count(None) > 0 for _, board in ends)
    assert all(_must_pass(board, color) for _, board, color in passes)


def test_every_teachers_seed_gets_valid_early_ends_and_passes() -> None:
    notebook_ends = [str(board) for _, board in early_ends()]
    for seed in TEACHER_SEEDS:
        with grade_time(seed):
            for _, board in early_ends():
                assert board.is_finished() and board.count(None) > 0, seed
            for _, board, color in pass_positions():
                assert _must_pass(board, color), seed
    with grade_time(TEACHER_SEEDS[1]):
        assert [str(board) for _, board in early_ends()] != notebook_ends


@pytest.mark.parametrize(("size", "seed"), [(6, 104), (6, 189), (8, 116)])
def test_an_early_end_is_the_seeds_own_game_when_it_ends_early(size: int, seed: int) -> None:
    own = list(cases.random_game(seed, size))[-1][0]
    assert own.count(None) > 0  # the notebook's seeds were chosen so
    assert str(_early_end(seed, size)) == str(own)


@pytest.mark.parametrize(("size", "seed", "color"), [(6, 6, WHITE), (8, 134, BLACK)])
def test_a_pass_is_the_first_in_the_seeds_own_game_when_it_has_one(
    size: int, seed: int, color: Color
) -> None:
    first = next(
        (board, to_move)
        for board, to_move in cases.random_game(seed, size)
        if to_move is color and _must_pass(board, color)
    )
    board, to_move = _first_pass(seed, size, color)
    assert to_move is color and str(board) == str(first[0])
