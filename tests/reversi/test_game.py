"""The Game: turns, the four no-move policies, the clock, undo, resignation, log and scores."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi import BLACK, PASS, WHITE, Board, Square
from reversi.errors import (
    ArgumentError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    PlayerError,
    TimeExpiredError,
    UndoError,
)
from reversi.game import MAX_CONSECUTIVE_TIMEOUTS, Game
from reversi.outcome import EndReason, NoMovePolicy
from reversi.players import GreedyPlayer, Player, RandomPlayer
from reversi.scores import Scoreboard, Seat

# After these moves on 8x8 (found by a random game, checked below) Black has no
# legal move while White still has one.
BLACK_STUCK = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]
# On 6x6 this game ends with empty squares left: neither side can move.
BOTH_STUCK_6X6 = [
    "c2",
    "b2",
    "b3",
    "b4",
    "b5",
    "d1",
    "c1",
    "b1",
    "a3",
    "d2",
    "e3",
    "f2",
    "e1",
    "b6",
    "f4",
    "a4",
    "a1",
    "e2",
    "d5",
    "e4",
    "c5",
    "c6",
    "d6",
    "a5",
    "a6",
    "e5",
    "f5",
    "a2",
    "f3",
    "f6",
    "e6",
]


class FakeClock:
    """A clock the test moves by hand, so no test ever sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def play_all(game: Game, moves: list[str]) -> None:
    for move in moves:
        if move == "pass":
            game.pass_turn()
        else:
            game.play(move)


def test_a_new_game_starts_with_black_to_move_on_the_standard_board():
    game = Game()
    assert game.turn is BLACK
    assert game.board == Board()
    assert not game.is_over and game.outcome is None
    assert [str(s) for s in game.legal_moves()] == ["d3", "c4", "f5", "e6"]
    assert game.legal_moves() == [(2, 3), (3, 2), (4, 5), (5, 4)]


def test_play_flips_logs_and_hands_over_the_turn():
    game = Game()
    assert game.play("d3") == [Square(3, 3)]
    assert game.turn is WHITE
    assert game.counts() == (4, 1, 5, 59)
    assert game.log[-1] == "1. Black d3 flips d4"
    game.play((2, 2))  # the (row, col) form works too
    assert game.transcript() == "d3c3"
    assert game.moves == [Square(2, 3), Square(2, 2)]


def test_an_illegal_move_is_refused_with_a_reason_and_nothing_changes():
    game = Game()
    before = (game.board.copy(), game.turn, list(game.log), list(game.actions))
    with pytest.raises(
        IllegalMoveError, match=r"'a1' is not a legal move for Black: no White disc"
    ):
        game.play("a1")
    with pytest.raises(IllegalMoveError, match="already taken by a White disc"):
        game.play("d4")
    with pytest.raises(NotationError, match="'z9'"):
        game.play("z9")
    assert (game.board, game.turn, game.log, game.actions) == before


def test_pass_is_refused_while_a_legal_move_exists():
    game = Game()
    with pytest.raises(IllegalMoveError, match="Black cannot pass: it has legal moves"):
        game.pass_turn()


def test_change_turn_policy_makes_the_stuck_side_pass_and_logs_it():
    game = Game()
    play_all(game, BLACK_STUCK)
    assert game.turn is BLACK and game.must_pass and not game.is_over
    assert game.board.has_legal_move(WHITE)
    assert game.log[-1] == "Black has no legal move and must pass"
    with pytest.raises(IllegalMoveError):
        game.play("a1")
    game.pass_turn()
    assert game.turn is WHITE
    assert game.moves[-1] is PASS
    assert "Black has no legal move and passes" in game.log[-1]


@pytest.mark.parametrize(
    ("policy", "winner", "reason"),
    [
        (NoMovePolicy.STALEMATE, None, EndReason.STALEMATE),
        (NoMovePolicy.OPPONENT_WINS, WHITE, EndReason.OPPONENT_WINS),
        (NoMovePolicy.MORE_DISCS_WINS, BLACK, EndReason.MORE_DISCS),
    ],
)
def test_the_other_policies_end_the_game_when_a_side_has_no_move(policy, winner, reason):
    game = Game(no_move_policy=policy)
    play_all(game, BLACK_STUCK)
    counts = game.counts()
    assert counts.black > counts.white  # Black is stuck yet leads: "more discs" favours Black
    assert game.is_over
    assert game.outcome.winner is winner and game.outcome.reason is reason
    assert (game.outcome.black, game.outcome.white) == (counts.black, counts.white)
    assert game.outcome.is_stalemate == (policy is NoMovePolicy.STALEMATE)
    with pytest.raises(GameOverError):
        game.play("a1")


def test_a_policy_can_be_named_by_its_value():
    assert Game(no_move_policy="stalemate").no_move_policy is NoMovePolicy.STALEMATE
    with pytest.raises(ValueError):
        Game(no_move_policy="sudden-death")


def test_when_neither_side_can_move_the_game_ends_whatever_the_policy():
    for policy in NoMovePolicy:
        game = Game(size=6, no_move_policy=policy)
        play_all(game, BOTH_STUCK_6X6)
        assert game.is_over and game.outcome.reason is EndReason.NO_MOVES
        assert game.counts().empty > 0
        black, white = game.outcome.black, game.outcome.white
        assert game.winner is (BLACK if black > white else WHITE if white > black else None)


def test_a_full_game_between_computers_ends_with_consistent_counts():
    game = Game(RandomPlayer(seed=3), GreedyPlayer())
    outcome = game.play_out()
    assert outcome is game.outcome and game.is_over
    black, white, total, empty = game.counts()
    assert (outcome.black, outcome.white) == (black, white)
    assert total == len(game.transcript()) // 2 + 4
    assert outcome.winner is (BLACK if black > white else WHITE if white > black else None)
    assert game.log[-1].startswith("Game over:")


class CheatingPlayer(Player):
    kind = "cheat"

    def choose_move(self, board, color):
        board.play(board.legal_moves(color)[0], color)  # changes its own copy only
        return Square(0, 0)


def test_a_computer_player_returning_an_illegal_move_is_an_error_not_skipped():
    game = Game(CheatingPlayer("Cheat"), GreedyPlayer())
    with pytest.raises(PlayerError, match=r"Cheat \(Black\) chose a1, which is not legal"):
        game.step()
    assert game.board == Board() and game.turn is BLACK and game.plies == []


# -- time control ---------------------------------------------------------------


def test_running_out_of_time_forfeits_the_turn_and_is_logged():
    clock = FakeClock()
    game = Game(time_per_move=10, clock=clock)
    clock.now += 4
    assert game.time_left() == pytest.approx(6)
    clock.now += 7
    with pytest.raises(TimeExpiredError, match="Black ran out of time"):
        game.play("d3")
    assert game.turn is WHITE and game.board == Board()
    assert game.plies[-1].timeout and game.moves[-1] is PASS
    assert "Black ran out of time" in game.log[-1]
    # White's turn began when Black's ran out, 1 s ago.
    assert game.time_left() == pytest.approx(9)


def test_a_move_in_time_resets_the_clock_for_the_next_player():
    clock = FakeClock()
    game = Game(time_per_move=10, clock=clock)
    clock.now += 9.5
    game.play("d3")
    assert game.time_left() == pytest.approx(10)
    assert not game.check_time()


def test_an_unattended_game_forfeits_one_turn_per_limit_and_ends_after_repeated_timeouts():
    clock = FakeClock()
    game = Game(time_per_move=5, clock=clock)
    clock.now += 5 * 3 + 1
    assert game.check_time()
    assert [p.timeout for p in game.plies] == [True, True, True]
    clock.now += 100
    game.check_time()
    assert len(game.plies) == MAX_CONSECUTIVE_TIMEOUTS
    assert game.is_over and game.outcome.reason is EndReason.TIMEOUTS
    assert game.outcome.winner is None  # 2-2 at the start


def test_a_real_move_breaks_a_run_of_timeouts():
    clock = FakeClock()
    game = Game(time_per_move=5, clock=clock)
    clock.now += 5.5 * 3
    game.check_time()  # Black, White, Black lose their turns: White to move
    game.play("f4")
    clock.now += 5.5 * 3
    game.check_time()
    assert not game.is_over


# -- undo --------------------------------------------------------------------------------


def test_accepted_undo_takes_back_the_askers_move_and_the_reply():
    game = Game()
    play_all(game, ["d3", "c3"])
    game.request_undo(BLACK)
    with pytest.raises(UndoError, match="waits for White's answer"):
        game.play("c4")
    game.answer_undo(True)
    assert game.board == Board() and game.turn is BLACK and game.transcript() == ""
    assert game.undos_left(BLACK) == 0 and game.undos_left(WHITE) == 1
    assert "taken back d3 c3" in game.log[-1]
    with pytest.raises(UndoError):
        game.request_undo(BLACK)  # there is nothing to take back yet, and no undo left


def test_undo_before_the_opponent_replied_takes_back_one_move():
    game = Game()
    play_all(game, ["d3", "c3", "c4"])
    game.request_undo(BLACK)
    game.answer_undo(True)
    after_two = Game()
    play_all(after_two, ["d3", "c3"])
    assert game.board == after_two.board and game.turn is BLACK


def test_declined_undo_changes_nothing_and_costs_nothing():
    game = Game()
    play_all(game, ["d3", "c3"])
    board = game.board.copy()
    game.request_undo(WHITE)
    game.answer_undo(False)
    assert game.board == board and game.turn is BLACK and game.undos_left(WHITE) == 1
    assert game.log[-1] == "Black declines White's undo request"


def test_undo_limit_is_configurable_and_can_be_unlimited():
    game = Game(undo_limit=None)
    for _ in range(3):
        game.play("d3")
        game.request_undo(BLACK)
        game.answer_undo(True)
    assert game.undos_left(BLACK) is None and game.undos_used[BLACK] == 3
    with pytest.raises(UndoError, match="used all 0"):
        stingy = Game(undo_limit=0)
        stingy.play("d3")
        stingy.request_undo(BLACK)


def test_answering_without_a_request_is_refused():
    with pytest.raises(UndoError, match="no undo request"):
        Game().answer_undo(True)


# -- resignation, new games, scores ------------------------------------------------


def test_resignation_ends_the_game_with_the_resigner_losing():
    game = Game()
    game.play("d3")
    outcome = game.resign(WHITE)
    assert outcome.winner is BLACK and outcome.reason is EndReason.RESIGNATION
    assert "White resigns" in game.log
    with pytest.raises(GameOverError):
        game.resign(BLACK)


def test_new_game_keeps_players_and_settings():
    black, white = RandomPlayer(seed=1), GreedyPlayer()
    game = Game(black, white, size=6, no_move_policy="stalemate", time_per_move=30, undo_limit=2)
    game.play_out()
    again = game.new_game()
    assert again.player(BLACK) is black and again.player(WHITE) is white
    assert (again.board.size, again.no_move_policy, again.time_per_move, again.undo_limit) == (
        6,
        NoMovePolicy.STALEMATE,
        30,
        2,
    )
    assert not again.is_over and again.board == Board(6)


def test_scoreboard_counts_wins_draws_and_stalemates_once_per_game():
    scores = Scoreboard()
    won = Game(GreedyPlayer("Ann"), GreedyPlayer("Bob"))
    won.resign(BLACK)
    assert scores.record(won) and not scores.record(won)
    stale = Game(no_move_policy="stalemate")
    play_all(stale, BLACK_STUCK)
    scores.record(stale)
    drawn = Game(time_per_move=1, clock=FakeClock())
    drawn.clock.now += 10
    drawn.check_time()
    scores.record(drawn)
    assert scores.wins == {Seat(WHITE, "Bob"): 1}
    assert (scores.draws, scores.stalemates, scores.games) == (1, 1, 3)
    assert scores.rows() == [("Bob", 1), ("Draws", 1), ("Stalemates", 1)]
    with pytest.raises(GameOverError):
        scores.record(Game())


def test_bad_settings_are_refused_with_the_value_named():
    with pytest.raises(ValueError, match="time_per_move"):
        Game(time_per_move=0)
    with pytest.raises(ValueError, match="undo_limit"):
        Game(undo_limit=-1)
    with pytest.raises(ArgumentError, match=r"^Game\(\): black must be a Player or None, not 'greedy'$"):
        Game(black="greedy")


def test_a_colour_or_a_policy_may_be_named_as_text():
    game = Game(no_move_policy="Opponent-Wins")
    game.play("d3")
    assert game.no_move_policy is NoMovePolicy.OPPONENT_WINS and game.undos_left("black") == 1


# -- properties on random games -------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(1, 50), reply=st.booleans())
def test_an_accepted_undo_restores_the_exact_position_before_the_askers_move(seed, plies, reply):
    game = Game(RandomPlayer(seed=seed), RandomPlayer(seed=seed + 1), undo_limit=None)
    game.play_out(max_turns=plies)
    if game.is_over:
        return
    asker = game.turn
    if not game.legal_moves():
        return
    before_board, before_moves = game.board.copy(), list(game.moves)
    game.step()  # the asker moves ...
    if reply and not game.is_over and game.legal_moves():
        game.step()  # ... and perhaps the opponent replies
    if game.is_over:
        return
    game.request_undo(asker)
    game.answer_undo(True)
    assert game.board == before_board
    assert game.turn is asker
    assert game.moves == before_moves


def test_play_choice_checks_a_move_chosen_elsewhere_and_names_the_player():
    game = Game(GreedyPlayer("Gus"), GreedyPlayer("Ida"))
    with pytest.raises(PlayerError, match=r"Gus \(Black\) returned 'z9', which is not a move"):
        game.play_choice("z9")
    with pytest.raises(PlayerError, match=r"Gus \(Black\) passed although it has a legal move"):
        game.play_choice(PASS)
    with pytest.raises(PlayerError, match=r"Gus \(Black\) chose a1, which is not legal: no White"):
        game.play_choice((0, 0))
    assert game.board == Board() and game.plies == []
    assert game.play_choice("d3") == Square(2, 3) and game.turn is WHITE


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"no_move_policy": "sudden-death"}, "no_move_policy must be CHANGE_TURN, STALEMATE, OPPONENT_WINS or MORE_DISCS_WINS, not 'sudden-death'"),
        ({"no_move_policy": None}, "no_move_policy"),
        ({"time_per_move": 0}, "time_per_move must be a positive number"),
        ({"time_per_move": -5}, "time_per_move"),
        ({"time_per_move": "ten"}, "time_per_move"),
        ({"undo_limit": -1}, "undo_limit must be a whole number from 0"),
        ({"undo_limit": 1.5}, "undo_limit"),
        ({"clock": "now"}, "clock must be a function"),
    ],
)
def test_a_bad_setting_is_the_packages_own_error_naming_it(settings, named):
    with pytest.raises(ArgumentError, match=named):
        Game(**settings)


@pytest.mark.parametrize("who", ["purple", 1, 0.5, None])
def test_resigning_or_undoing_for_something_that_is_not_a_colour_changes_nothing(who):
    game = Game()
    game.play("d3")
    log, actions = list(game.log), list(game.actions)
    for call in (game.request_undo, game.undos_left, game.player):
        with pytest.raises(ArgumentError, match=r"\(\): color must be BLACK or WHITE, not "):
            call(who)
    if who is not None:  # resign(None) is the side to move resigning
        with pytest.raises(ArgumentError, match=r"^Game.resign\(\): color must be BLACK or WHITE or None, not "):
            game.resign(who)
    assert game.log == log and game.actions == actions and not game.is_over
