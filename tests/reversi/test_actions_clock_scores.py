"""The game's small parts: action records and their JSON form, the move clock, the
last move, the naming rule for the two seats, and the scores kept by seat."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import BLACK, PASS, WHITE, ArgumentError, Game, Scoreboard, Seat, square
from reversi.actions import (
    MoveAction,
    PassAction,
    Resignation,
    TimeoutAction,
    UndoAnswer,
    UndoRequest,
    action_from_dict,
)
from reversi.clock import MoveClock
from reversi.players import GreedyPlayer, HumanPlayer, RandomPlayer
from reversi.players.naming import seat_labels, seat_titles
from reversi.saves import game_from_dict, game_to_dict


class FakeClock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


# -- actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        MoveAction(square("d3")),
        PassAction(),
        TimeoutAction(),
        UndoRequest(WHITE),
        UndoAnswer(False),
        Resignation(BLACK),
    ],
)
def test_each_action_survives_its_json_form(action):
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"action": "move"}, "missing its 'square'"),
        ({"action": "move", "square": "z9"}, "'z9' is not a square"),
        ({"action": "move", "square": [2, 3]}, "'square' must be text"),
        ({"action": "resign", "color": "green"}, "'color' must be 'black' or 'white'"),
        ({"action": "undo-answer", "accept": "yes"}, "'accept' must be true or false"),
        ({"action": "castle"}, "unknown action 'castle'"),
        ({}, "unknown action None"),
        (["move", "d3"], "Game.apply(): action must be an action or its JSON form (a dict), not ['move', 'd3']"),
    ],
)
def test_a_malformed_action_is_refused_naming_the_part(data, problem):
    game = Game()
    with pytest.raises(ArgumentError, match=re.escape(problem)):
        game.apply(data)
    assert game.actions == [] and game.log == ["New game: Black against White"]


def test_the_log_of_actions_is_records_and_saves_in_the_same_json_as_before():
    clock = FakeClock()
    game = Game(GreedyPlayer("Gus"), RandomPlayer("Rita", seed=2), time_per_move=5, clock=clock)
    game.step()
    game.request_undo(BLACK)
    game.answer_undo(False)
    game.step()
    clock.now += 6
    game.check_time()
    game.resign(WHITE)
    assert game.actions == [
        MoveAction(game.plies[0].move),
        UndoRequest(BLACK),
        UndoAnswer(False),
        MoveAction(game.plies[1].move),
        TimeoutAction(),
        Resignation(WHITE),
    ]
    saved = game_to_dict(game)["actions"]
    assert saved[:3] == [
        {"action": "move", "square": str(game.plies[0].move)},
        {"action": "undo-request", "color": "black"},
        {"action": "undo-answer", "accept": False},
    ]
    assert saved[-2:] == [{"action": "timeout"}, {"action": "resign", "color": "white"}]
    assert game_from_dict(game_to_dict(game), clock=clock).actions == game.actions


# -- the clock -------------------------------------------------------------------------


def test_the_move_clock_counts_the_turn_and_starts_the_next_when_time_ran_out():
    clock = FakeClock()
    move_clock = MoveClock(10, clock)
    clock.now += 4
    assert (move_clock.elapsed(), move_clock.time_left(), move_clock.is_up()) == (4, 6, False)
    clock.now += 7
    assert move_clock.is_up() and move_clock.time_left() == 0
    move_clock.forfeit()
    assert move_clock.elapsed() == 1 and not move_clock.is_up()
    move_clock.start(2.5)
    assert move_clock.elapsed() == 2.5


def test_a_clock_without_limit_is_never_up():
    clock = FakeClock()
    move_clock = MoveClock(None, clock)
    clock.now += 10**6
    assert not move_clock.is_up() and move_clock.time_left() is None


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "10", True, [5], 10**400])
def test_a_move_time_must_be_a_positive_number_of_seconds(bad):
    with pytest.raises(ArgumentError, match="time_per_move must be a positive number"):
        Game(time_per_move=bad)


def test_replaying_a_save_never_rewrites_the_time_limit():
    clock = FakeClock()
    game = Game(time_per_move=3, clock=clock)
    game.play("d3")
    clock.now += 100  # long after the limit: a replay must not care
    replayed = Game(time_per_move=3, clock=clock)
    for action in game.actions:
        replayed.apply(action)
    assert replayed.board == game.board and replayed.time_per_move == 3


# -- the last move ---------------------------------------------------------------------


def test_the_last_move_is_the_last_disc_played():
    game = Game()
    assert game.last_move is None
    game.play("f5")
    game.play("d6")
    assert game.last_move == square("d6")
    game.request_undo(WHITE)
    game.answer_undo(True)
    assert game.last_move == square("f5")


def test_a_pass_or_a_lost_turn_keeps_the_last_disc_played():
    clock = FakeClock()
    game = Game(time_per_move=5, clock=clock)
    game.play("d3")
    clock.now += 6
    game.check_time()
    assert game.plies[-1].timeout and game.last_move == square("d3")
    stuck = Game()
    for move in ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]:  # Black is left without a move
        stuck.play(move)
    assert stuck.last_move == square("c1")
    stuck.pass_turn()
    assert stuck.moves[-1] is PASS and stuck.last_move == square("c1")


# -- names and scores ------------------------------------------------------------------


@given(black=st.text(min_size=1, max_size=8), white=st.text(min_size=1, max_size=8))
@settings(max_examples=200)
def test_the_naming_rule_keeps_the_two_seats_apart(black, white):
    labels = seat_labels(black, white)
    titles = seat_titles(black, white)
    assert labels[BLACK].casefold() != labels[WHITE].casefold()
    assert titles[BLACK].casefold() != titles[WHITE].casefold()
    for color in (BLACK, WHITE):
        assert f"({color}) ({color})" not in titles[color]
        assert titles[color].casefold() != f"{color} ({color})".casefold()
        assert str(color) in titles[color] or titles[color] == black or titles[color] == white


def test_the_naming_rule_in_words():
    assert seat_labels("Ada", "Bob") == {BLACK: "Ada", WHITE: "Bob"}
    assert seat_titles("Ada", "Bob") == {BLACK: "Ada (Black)", WHITE: "Bob (White)"}
    assert seat_titles("Black", "White") == {BLACK: "Black", WHITE: "White"}
    assert seat_labels("Alpha-beta", "alpha-beta") == {
        BLACK: "Alpha-beta (Black)",
        WHITE: "alpha-beta (White)",
    }
    assert seat_labels("White", "Black") == {BLACK: "White (Black)", WHITE: "Black (White)"}
    assert seat_titles("Black", "BLACK") == {BLACK: "Black", WHITE: "BLACK (White)"}


def test_two_players_with_one_name_never_merge_in_the_scores():
    scores = Scoreboard()
    for winner in (BLACK, WHITE, WHITE):
        game = Game(GreedyPlayer(), GreedyPlayer())
        game.resign(winner.opponent)
        scores.record(game)
    assert scores.wins == {Seat(BLACK, "Greedy"): 1, Seat(WHITE, "Greedy"): 2}
    assert scores.rows() == [
        ("Greedy (Black)", 1),
        ("Greedy (White)", 2),
        ("Draws", 0),
        ("Stalemates", 0),
    ]


def test_a_player_known_by_one_name_keeps_a_plain_label():
    scores = Scoreboard()
    game = Game(HumanPlayer("Ann"), GreedyPlayer())
    game.resign(WHITE)
    scores.record(game)
    assert scores.rows()[0] == ("Ann", 1)



def test_the_scoreboard_is_also_found_at_the_top_of_the_package():
    import reversi
    import reversi.scores

    assert reversi.Scoreboard is reversi.scores.Scoreboard
