"""The results pages (replays from the moves, escaping, the chart) and practice in a notebook."""

from __future__ import annotations

import doctest
import io
import re

import pytest

import course.contest
from course import arguments
from course.contest import page, plain, practice, referee, try_player
from course.contest.handins import Entrant
from course.contest.page import game_page, leaderboard_page, results_chart, write_results
from course.contest.referee import FunctionSeat, LevelSeat, positions
from course.contest.roundrobin import Contest, Settings, play_contest
from course.tournament import entrant, play_game
from reversi.board import Board
from reversi.errors import ReversiError
from reversi.game import Game


@pytest.mark.parametrize("module", [plain, practice, arguments], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0


@pytest.fixture(scope="module")
def levels_contest() -> Contest:
    entrants = [Entrant("<b>Ann</b> & co", level="beginner"), Entrant("Easy", level="easy")]
    return play_contest(entrants, Settings(games_per_pair=2, size=6, seed=4))


def test_a_notebook_gets_the_plain_runtime_names_from_course_contest():
    module = plain.plain()
    for name in plain.PLAYER.names:
        assert getattr(course.contest, name) is getattr(module, name)
    assert str(course.contest.BLACK.opponent) == "White"
    with pytest.raises(AttributeError, match="has no attribute 'Game'"):
        course.contest.Game  # noqa: B018


def test_a_replay_shows_every_position_of_the_game(levels_contest):
    game = levels_contest.games[0]
    kit = Game(size=6)
    for move in game.moves:
        kit.pass_turn() if move == "pass" else kit.play(move)
    shown = positions(game)
    assert len(shown) == len(game.moves) + 1
    assert shown[-1][0] == kit.board and shown[0][0] == Board(6)
    text = game_page(game, 1)
    assert text.count("class='position'") == len(shown)
    assert text.count(" hidden>") == len(shown) - 1
    assert "data-caption='Move 1 of " in text and "(the opening)" in text
    assert game.describe() in text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


def test_names_are_escaped_everywhere(levels_contest, tmp_path):
    files = write_results(levels_contest, tmp_path)
    assert len(files) == 3 + len(levels_contest.games)
    for path in files:
        if path.suffix == ".html":
            assert "<b>Ann" not in path.read_text(), path
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in leaderboard_page(levels_contest)


def test_the_chart_draws_each_result_in_proportion(levels_contest):
    rows = levels_contest.table()
    chart = results_chart(rows)
    bars = re.findall(r"<rect class='(\w+)' x='[\d.]+' y='\d+' width='([\d.]+)'", chart)
    drawn = {
        kind: sum(float(w) for k, w in bars if k == kind) for kind in ("wins", "draws", "losses")
    }
    games = max(r.games for r in rows)
    assert drawn["wins"] == pytest.approx(420 * sum(r.wins for r in rows) / games)
    assert drawn["losses"] == pytest.approx(420 * sum(r.losses for r in rows) / games)


def test_a_csv_cell_never_starts_a_formula():
    assert page._safe("=cmd()") == "'=cmd()" and page._safe("ann") == "ann" and page._safe(3) == 3


def test_practice_loses_a_game_to_a_slow_or_broken_function():
    import time

    def slow(board, color):
        time.sleep(0.3)
        return board.legal_moves(color)[0]

    result = try_player(slow, against="beginner", games=2, size=6, move_time=0.1)
    assert result.forfeits == 2 and "took 0.3" in str(result)

    def broken(board, color):
        return board.legal_moves(color)[0].nope

    result = try_player(broken, games=2, size=6)
    assert result.forfeits == 2 and "AttributeError" in str(result)
    assert "Your function's error:" in str(result) and "<svg" in result._repr_html_()


def test_practice_refuses_bad_arguments_naming_them():
    with pytest.raises(ReversiError, match="'grandmaster' is not a level"):
        try_player(lambda b, c: "d3", against="grandmaster")
    with pytest.raises(ReversiError, match="games must be an even number"):
        try_player(lambda b, c: "d3", games=3)
    with pytest.raises(ReversiError, match="choose must be a function"):
        try_player("d3")  # type: ignore[arg-type]


def test_practice_and_the_tournament_referee_agree():
    from .players import GREEDY, Direct

    direct = Direct("greedy", GREEDY)
    seat = FunctionSeat("greedy", direct.space["choose"], 5.0)
    game = referee.referee(seat, LevelSeat("Easy", entrant("easy")(0)), (), 6)
    assert game.forfeit is None
    assert game.outcome == play_game(Direct("greedy", GREEDY), entrant("easy")(0), [], 6)


def test_a_function_that_asks_a_person_at_the_end_of_input_loses_its_games(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # standard input at its end

    def ask(board, color):
        return input("your move: ")

    result = try_player(ask, games=2, size=4)
    assert result.forfeits == 2 and "choose raised EOFError" in str(result)
