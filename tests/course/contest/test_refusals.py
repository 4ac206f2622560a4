"""The tournament's public names refuse a wrong value with the kit's error, naming it."""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import pytest

from course.contest import cli, handins, page, practice, referee
from course.grading.notebook import NotebookError
from course.tournament import entrant
from reversi import Game
from reversi.errors import ArgumentError, BoardSizeError, ReversiError


def finished_game(size: int = 4) -> referee.Played:
    game = Game(size=size)
    while not game.is_over:
        if game.must_pass:
            game.pass_turn()
        else:
            game.play(game.board.legal_moves(game.turn)[0])
    assert game.outcome is not None
    return referee.Played("ann", "bob", (), tuple(map(str, game.moves)), game.outcome, size=size)


def test_a_seat_is_a_protocol_only_the_seats_fill() -> None:
    assert inspect.isabstract(referee.Seat)
    level = referee.LevelSeat("Easy", entrant("easy")(1))
    function = referee.FunctionSeat("f", lambda board, color: "d3", 1.0)
    assert isinstance(level, referee.Seat) and isinstance(function, referee.Seat)
    assert not isinstance("d3", referee.Seat)


@pytest.mark.parametrize(
    "make",
    [
        lambda: cli.run_tournament("bad\x00name"),
        lambda: practice.try_player(print, games=10**9),
        lambda: practice.try_player(print, games=3),
        lambda: practice.try_player(print, size=5),
        lambda: practice.try_player(print, move_time=math.inf),
        lambda: practice.try_player(print, against="grandmaster"),
        lambda: practice.try_player("d3"),
        lambda: cli.run_tournament(None),
        lambda: cli.run_tournament(".", levels="easy"),
    ],
)
def test_what_a_notebook_calls_refuses_a_wrong_value_with_the_kits_error(make: object) -> None:
    with pytest.raises(ReversiError):
        make()  # type: ignore[operator]


def test_the_refusals_name_the_value_and_the_reason() -> None:
    with pytest.raises(BoardSizeError, match="size"):
        practice.try_player(print, size=5)
    with pytest.raises(ArgumentError, match="move_time must be a number from"):
        practice.try_player(print, move_time=math.inf)


def test_a_notebook_that_cannot_be_read_is_a_notebook_error(tmp_path: Path) -> None:
    with pytest.raises(NotebookError, match="cannot read"):
        handins.player_cells(tmp_path / "missing.ipynb")


def test_a_played_game_replays_and_its_page_is_written(tmp_path: Path) -> None:
    game = finished_game()
    assert len(referee.positions(game)) == len(game.moves) + 1
    assert "Game 1" in page.game_page(game, 1)
