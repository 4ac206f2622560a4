import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi.cursormap import (
    Cursor,
    CursorGame,
    CursorGameError,
    CursorGameOverError,
    CursorMap,
    Direction,
    Operator,
    Owner,
    Position,
    Value,
    load_sample,
)
from reversi.errors import ArgumentError, GameOverError

from .helpers import ALL_ONES, scripted

OR_ALL = Cursor(ALL_ONES, Operator.OR)
AND_NONE = Cursor((0,) * 8, Operator.AND)


def line_map(owners, values):
    return CursorMap.from_strings([owners], [values])


def test_a_new_game():
    board = load_sample("01_first_steps")
    game = CursorGame(board, seed=3)
    assert game.player is Owner.ONE
    assert game.turn == 1
    assert game.position == Position(1, 2)  # the middle field of 5x4
    assert game.map is board and game.start_map is board
    assert not game.is_over and game.winner is None and game.outcome is None
    assert game.history == ()
    assert game.log == ["New game on a 5x4 map, seed 3; player one (blue) begins."]
    assert game.cursor == Cursor.deal(random.Random(3))
    assert (game.switchable(Owner.ONE), game.remaining(Owner.ONE)) == (8, 6)


def test_players_alternate_and_turns_count():
    game = CursorGame(load_sample("02_grey_river"), seed=1, dealer=scripted([AND_NONE] * 4))
    players = []
    for number in range(1, 5):
        assert game.turn == number
        players.append(game.player)
        turn = game.apply()
        assert (turn.number, turn.player) == (number, players[-1])
    assert players == [Owner.ONE, Owner.TWO, Owner.ONE, Owner.TWO]


def test_apply_returns_what_changed_and_updates_the_map():
    board = CursorMap.from_strings(["bbb", "bgr", "rrr"], ["000", "0.1", "1p1"])
    cursor = Cursor((1, 1, 0, 0, 1, 1, 1, 0), Operator.XOR)
    game = CursorGame(board, dealer=scripted([cursor]))
    turn = game.apply()
    assert turn.position == (1, 1) and turn.cursor == cursor and turn.player is Owner.ONE
    assert [c.position for c in turn.changes] == [(0, 0), (0, 1), (2, 2), (2, 0)]
    assert game.map[0, 0].value is Value.ON
    assert game.start_map == board  # the start map is kept as it was
    assert game.history == (turn,)
    assert (
        game.log[-1]
        == "Turn 1: player one (blue) applied XOR 110/0.0/111 at (1, 1): 4 fields changed."
    )


def test_a_hidden_operator_is_revealed_in_the_log():
    board = line_map("bgr", "000")
    game = CursorGame(board, dealer=scripted([Cursor(ALL_ONES, Operator.XOR, hidden=True)]))
    assert game.cursor.label == "?"
    game.apply()
    assert game.log[1].endswith(
        "applied ? 111/1.1/111 at (0, 1) (the hidden operator was XOR): 2 fields changed."
    )
    assert game.log[2].startswith("Player one (blue) wins")


def test_the_cursor_keeps_its_place_between_turns():
    game = CursorGame(load_sample("03_penguins"), seed=8, dealer=scripted([AND_NONE] * 3))
    game.move_to(4, 6)
    game.apply()
    assert game.position == (4, 6)
    assert game.move("up") and game.position == (3, 6)


# -- moving --------------------------------------------------------------------------------


def test_moves_stay_on_the_map():
    game = CursorGame(line_map("bbgrr", "00000"), seed=1)
    assert game.position == (0, 2)
    assert game.move(Direction.LEFT) and game.move("left")
    assert game.position == (0, 0)
    assert not game.move("LEFT") and game.position == (0, 0)
    assert not game.move("up") and not game.move(Direction.DOWN)
    for _ in range(4):
        assert game.move("Right")
    assert not game.move("right") and game.position == (0, 4)


@pytest.mark.parametrize(
    ("direction", "message"),
    [
        ("north", "a direction is one of 'up', 'down', 'left', 'right', not 'north'"),
        ("", "a direction is one of 'up', 'down', 'left', 'right', not ''"),
        (3, "CursorGame.move(): direction must be UP, DOWN, LEFT or RIGHT or a text, not 3"),
        (None, "CursorGame.move(): direction must be UP, DOWN, LEFT or RIGHT or a text, not None"),
    ],
)
def test_unknown_directions_are_refused(direction, message):
    game = CursorGame(line_map("bgr", "000"), seed=1)
    with pytest.raises(ArgumentError) as refused:
        game.move(direction)
    assert str(refused.value) == message and game.position == (0, 1)


@pytest.mark.parametrize("target", [(1, 0), (0, 3), (-1, 0), (0, -1)])
def test_move_to_off_the_map_is_refused_and_changes_nothing(target):
    game = CursorGame(line_map("bgr", "000"), seed=1)
    with pytest.raises(CursorGameError, match="is off the 3x1 map"):
        game.move_to(*target)
    assert game.position == (0, 1)


def test_move_to_reaches_every_field():
    board = load_sample("04_own_characters")
    game = CursorGame(board, seed=1)
    for position in board.positions():
        game.move_to(*position)
        assert game.position == position


# -- winning -------------------------------------------------------------------------------


def test_a_player_wins_when_all_their_fields_are_on():
    game = CursorGame(line_map("bbgrr", "01000"), dealer=scripted([OR_ALL]))
    game.move_to(0, 1)  # the bits reach (0, 0) and (0, 2); (0, 1) is under the centre
    game.apply()
    assert game.is_over and game.winner is Owner.ONE
    assert game.outcome.reason == "Player one (blue) wins on turn 1: all 2 of their fields are on."
    assert game.log[-1] == game.outcome.reason
    assert game.turn == 1 and game.player is Owner.ONE


def test_completing_the_opponents_fields_makes_the_opponent_win():
    game = CursorGame(line_map("bbgrr", "00010"), dealer=scripted([OR_ALL]))
    game.move_to(0, 3)
    game.apply()
    assert game.winner is Owner.TWO


def test_when_one_move_completes_both_players_the_mover_wins():
    board = line_map("bgr", "000")
    game = CursorGame(board, dealer=scripted([OR_ALL]))
    game.apply()
    assert game.map.all_on(Owner.ONE) and game.map.all_on(Owner.TWO)
    assert game.winner is Owner.ONE
    assert "switched on every field of both players" in game.outcome.reason

    game = CursorGame(board, dealer=scripted([AND_NONE, OR_ALL]))
    game.apply()
    assert game.player is Owner.TWO
    game.apply()
    assert game.winner is Owner.TWO
    assert game.outcome.turns == 2


def test_a_winner_is_judged_only_after_a_move():
    board = line_map("bgr", "101")  # both players' fields are already on
    game = CursorGame(board, dealer=scripted([AND_NONE]))
    assert not game.is_over
    game.move_to(0, 0)  # AND with 0 switches off (0, 1) only, a grey field
    game.apply()
    assert game.winner is Owner.ONE


def test_the_turn_limit_ends_the_game_in_a_draw():
    game = CursorGame(line_map("bbgrr", "00000"), max_turns=3, dealer=scripted([AND_NONE] * 3))
    game.apply()
    game.apply()
    assert not game.is_over
    game.apply()
    assert game.is_over and game.winner is None and game.outcome.is_draw
    assert game.outcome.turns == 3
    assert game.log[-1] == "Draw: the limit of 3 turns was reached with no winner."
    assert "at most 3 turns" in game.log[0]


def test_a_win_on_the_last_allowed_turn_is_a_win():
    game = CursorGame(line_map("bbgrr", "01000"), max_turns=1, dealer=scripted([OR_ALL]))
    game.move_to(0, 1)
    game.apply()
    assert game.winner is Owner.ONE


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"max_turns": 0}, "max_turns must be a whole number from 1 to 1000000000 or None, not 0"),
        ({"max_turns": True}, "max_turns must be a whole number from 1 to 1000000000 or None, not True"),
        ({"max_turns": "3"}, "max_turns must be a whole number from 1 to 1000000000 or None, not '3'"),
        ({"seed": 1.5}, "seed must be a whole number or None, not 1.5"),
        ({"seed": "abc"}, "seed must be a whole number or None, not 'abc'"),
        ({"cursor_map": "01_first_steps"}, "cursor_map must be a CursorMap, not '01_first_steps'"),
        ({"move_to": (0.5, 0)}, "row must be a whole number, not 0.5"),
    ],
)
def test_a_bad_argument_is_refused_naming_it(arguments, message):
    with pytest.raises(ArgumentError) as refused:
        if "move_to" in arguments:
            CursorGame(line_map("br", "00")).move_to(*arguments["move_to"])
        else:
            CursorGame(**{"cursor_map": line_map("br", "00"), **arguments})
    assert str(refused.value).endswith(message)


# -- after the game ------------------------------------------------------------------------


def finished_game():
    game = CursorGame(line_map("bbgrr", "01000"), dealer=scripted([OR_ALL]))
    game.move_to(0, 1)
    game.apply()
    return game


@pytest.mark.parametrize(
    "action",
    [
        lambda game: game.apply(),
        lambda game: game.move("left"),
        lambda game: game.move_to(0, 0),
    ],
    ids=["apply", "move", "move_to"],
)
def test_actions_after_the_game_are_refused_and_change_nothing(action):
    game = finished_game()
    before = (game.map, game.history, game.log, game.cursor, game.position, game.player)
    before += (game.turn, game.outcome)
    with pytest.raises(CursorGameOverError, match=r"the game is over \(Player one \(blue\) wins"):
        action(game)
    after = (game.map, game.history, game.log, game.cursor, game.position, game.player)
    assert before == after + (game.turn, game.outcome)


def test_game_over_is_the_packages_game_over_error():
    with pytest.raises(GameOverError):
        finished_game().apply()


def test_the_log_cannot_be_changed_from_outside():
    game = finished_game()
    game.log.append("cheat")
    assert "cheat" not in game.log


# -- replay --------------------------------------------------------------------------------


def play(board, seed, moves, max_turns=None):
    """Play ``moves`` (lists of directions, one list per turn) and return the game."""
    game = CursorGame(board, seed=seed, max_turns=max_turns)
    for steps in moves:
        if game.is_over:
            break
        for step in steps:
            game.move(step)
        game.apply()
    return game


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(["01_first_steps", "03_penguins", "05_checkerboard"]),
    st.integers(0, 2**32),
    st.lists(st.lists(st.sampled_from(list(Direction)), max_size=4), max_size=30),
)
def test_the_same_seed_and_moves_replay_exactly(name, seed, moves):
    board = load_sample(name)
    first, second = play(board, seed, moves), play(board, seed, moves)
    assert first.log == second.log
    assert first.history == second.history
    assert first.map == second.map
    assert first.outcome == second.outcome


def test_the_cursors_do_not_depend_on_the_moves():
    board = load_sample("06_labyrinth")
    still = play(board, 42, [[]] * 20)
    moving = play(board, 42, [[Direction.UP, Direction.LEFT]] * 20)
    assert [t.cursor for t in still.history] == [t.cursor for t in moving.history]
    rng = random.Random(42)
    assert [t.cursor for t in still.history] == [Cursor.deal(rng) for _ in range(20)]


def test_different_seeds_deal_differently():
    board = load_sample("01_first_steps")
    assert play(board, 1, [[]] * 5).log[1:] != play(board, 2, [[]] * 5).log[1:]


def test_without_a_seed_one_is_drawn_and_kept():
    board = load_sample("01_first_steps")
    game = play(board, None, [["up"], ["left"], []] * 3)
    assert isinstance(game.seed, int)
    again = play(board, game.seed, [["up"], ["left"], []] * 3)
    assert again.log == game.log


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(list(Direction)), max_size=200))
def test_games_stay_consistent(seed, steps):
    """Whatever is played, counts and records agree with the map, and a winner's fields are on."""
    board = load_sample("01_first_steps")
    game = CursorGame(board, seed=seed, max_turns=40)
    for step in steps:
        if game.is_over:
            break
        game.move(step)
        if step is Direction.DOWN:
            before = game.map
            turn = game.apply()
            for change in turn.changes:
                assert before[change.position].value is change.before
                assert game.map[change.position].value is change.after
    assert len(game.log) == 1 + len(game.history) + (1 if game.is_over else 0)
    for owner in (Owner.ONE, Owner.TWO):
        assert game.switchable(owner) == board.switchable(owner)
    if game.winner is not None:
        assert game.map.all_on(game.winner)


def test_samples_can_be_won_with_or_cursors():
    """A player who gets OR all-ones cursors and aims at their own OFF fields wins each sample."""
    from reversi.cursormap import sample_maps

    for name in sample_maps():
        board = load_sample(name)
        game = CursorGame(board, dealer=scripted([]))  # OR all-ones forever
        while not game.is_over:
            target = next(
                p
                for p in board.positions()
                if game.map[p].owner is game.player and game.map[p].value is Value.OFF
            )
            neighbour = next(
                (target[0] + dr, target[1] + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr, dc) != (0, 0) and board.contains((target[0] + dr, target[1] + dc))
            )
            game.move_to(*neighbour)
            game.apply()
        assert game.winner is not None, name
        assert game.turn <= board.width * board.height


def test_str_and_repr():
    game = CursorGame(line_map("bgr", "000"), seed=5, dealer=scripted([OR_ALL]))
    assert str(game).splitlines() == [
        "Turn 1: player one (blue) applies OR 111/1.1/111 at (0, 1)",
        "    0  1  2",
        " 0  B0 G0 R0",
    ]
    assert repr(game) == "<CursorGame 3x1 seed=5 turn=1>"
    game.apply()
    assert str(game).splitlines()[0].startswith("Player one (blue) wins")
