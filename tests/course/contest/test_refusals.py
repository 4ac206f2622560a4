"""The tournament's public names refuse a wrong value with the kit's error, naming it."""

from __future__ import annotations

import argparse
import inspect
import math
from pathlib import Path

import pytest

from course.browser import browser_games, needs_matplotlib
from course.contest import cli, handins, page, plain, practice, referee, roundrobin, sandboxed
from course.grading.notebook import NotebookError
from course.grading.sandbox import Sandbox
from course.tournament import entrant
from reversi import BLACK, Board, Game
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
        lambda: referee.LevelSeat("", entrant("easy")(1)),
        lambda: referee.LevelSeat("Easy", "easy"),
        lambda: referee.FunctionSeat("f", "d3", 1.0),
        lambda: referee.FunctionSeat("f", print, math.nan),
        lambda: referee.Answer(move=3),
        lambda: referee.Forfeit("black", "slow"),
        lambda: referee.Played("ann", "bob", (), (), "black wins"),
        lambda: referee.referee("ann", "bob"),
        lambda: referee.positions(Game()),
        lambda: sandboxed.SandboxSeat("s", "x = 1", Sandbox("bubblewrap")),
        lambda: sandboxed.SandboxSeat("s", (), None),
        lambda: handins.Entrant(None),
        lambda: handins.collect(None),
        lambda: handins.collect("bad\x00name"),
        lambda: roundrobin.Settings(games_per_pair=3),
        lambda: roundrobin.Settings(move_time=-1),
        lambda: roundrobin.Contest((), None),
        lambda: roundrobin.level_entrants("easy"),
        lambda: roundrobin.play_contest(None),
        lambda: page.results_chart(None),
        lambda: page.game_page(finished_game(), 0),
        lambda: page.leaderboard_page(None),
        lambda: practice.Practice("you", "Easy", None),
        lambda: practice.try_player(print, games=10**9),
        lambda: practice.try_player(print, size=5),
        lambda: practice.try_player(print, move_time=math.inf),
        lambda: plain.encode(Board(), "black"),
        lambda: plain.decode_plain("black ../.."),
        lambda: plain.decode_plain(None),
        lambda: cli.add_arguments(None),
        lambda: cli.run(argparse.Namespace()),
        lambda: browser_games(math.nan, 1),
        lambda: needs_matplotlib(None),
    ],
)
def test_a_wrong_value_is_refused_with_the_kits_error(make: object) -> None:
    with pytest.raises(ReversiError):
        make()  # type: ignore[operator]


def test_the_refusals_name_the_value_and_the_reason() -> None:
    with pytest.raises(BoardSizeError, match="size"):
        practice.try_player(print, size=5)
    with pytest.raises(ArgumentError, match="games_per_pair must be an even number"):
        roundrobin.Settings(games_per_pair=3)
    with pytest.raises(ArgumentError, match="not a position line"):
        plain.decode_plain("black ..x./....")


def test_a_sandboxed_seat_not_started_says_so(tmp_path: Path) -> None:
    seat = sandboxed.SandboxSeat("s", ("x = 1",), Sandbox("bubblewrap"))
    with pytest.raises(ArgumentError, match="not started"):
        seat.choose(Board(), BLACK)


def test_a_notebook_that_cannot_be_read_is_a_notebook_error(tmp_path: Path) -> None:
    with pytest.raises(NotebookError, match="cannot read"):
        handins.player_cells(tmp_path / "missing.ipynb")


def test_the_flags_are_added_once() -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    with pytest.raises(ArgumentError, match="already has the flag"):
        cli.add_arguments(parser)


def test_a_played_game_replays_and_its_page_is_written(tmp_path: Path) -> None:
    game = finished_game()
    assert len(referee.positions(game)) == len(game.moves) + 1
    assert "Game 1" in page.game_page(game, 1)
