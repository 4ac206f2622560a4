"""The cursor-map controller driven as a player would: keys, clicks, buttons, map texts."""

from __future__ import annotations

import pytest

from course.cursormap import CursorMapController
from reversi.cursormap import (
    Cursor,
    CursorGame,
    CursorMap,
    Operator,
    Owner,
    apply_cursor,
    load_sample,
    sample_text,
)

SEED = 2024


@pytest.fixture
def controller() -> CursorMapController:
    return CursorMapController("01_first_steps", seed=SEED)


def test_starts_on_the_middle_field_with_player_one(controller):
    assert controller.game.position == (1, 2)
    assert controller.turn_text == "Turn 1: player one (blue) to play"
    assert controller.position_text.endswith("at (1, 2)")
    assert controller.remaining_text.startswith("player one (blue): ")


@pytest.mark.parametrize(
    ("key", "expected"),
    [("ArrowLeft", (1, 1)), ("ArrowRight", (1, 3)), ("ArrowUp", (0, 2)), ("ArrowDown", (2, 2))],
)
def test_arrow_keys_move_the_cursor(controller, key, expected):
    assert controller.key(key) is True
    assert controller.game.position == expected
    assert controller.position_text.endswith(f"at {expected}")


@pytest.mark.parametrize(
    ("key", "edge"),
    [("ArrowLeft", (1, 0)), ("ArrowRight", (1, 4)), ("ArrowUp", (0, 2)), ("ArrowDown", (3, 2))],
)
def test_the_cursor_stays_on_the_map_at_the_edges(controller, key, edge):
    for _ in range(10):
        controller.key(key)
    assert controller.game.position == edge
    assert "edge of the map" in controller.message


def test_enter_applies_the_cursor_and_passes_the_turn(controller):
    controller.key("ArrowRight")
    before, cursor, position = controller.game.map, controller.game.cursor, controller.game.position
    log_length = len(controller.log)

    assert controller.key("Enter") is True

    expected_map, _ = apply_cursor(before, cursor, position)  # the model's own rule
    assert controller.game.map == expected_map
    assert controller.game.player is Owner.TWO
    assert controller.turn_text == "Turn 2: player two (red) to play"
    assert len(controller.log) == log_length + 1
    assert controller.log[-1].startswith("Turn 1: player one (blue) applied")
    assert controller.message == controller.log[-1]


def test_other_keys_are_not_used(controller):
    position, log = controller.game.position, controller.log
    assert controller.key("a") is False
    assert controller.key("Tab") is False
    assert (controller.game.position, controller.log) == (position, log)


def test_a_click_places_the_cursor(controller):
    assert controller.click_field(3, 4) is True
    assert controller.game.position == (3, 4)


def test_a_click_off_the_map_is_refused_and_changes_nothing(controller):
    assert controller.click_field(7, 0) is False
    assert controller.game.position == (1, 2)
    assert "off the 5x4 map" in controller.message


def test_listeners_hear_every_change(controller):
    calls = []
    controller.on_change(lambda: calls.append(controller.game.position))
    controller.key("ArrowDown")
    controller.key("Enter")
    assert calls == [(2, 2), (2, 2)]


def test_a_bad_map_text_shows_line_and_column_and_keeps_the_game(controller):
    controller.key("ArrowRight")
    controller.key("Enter")
    game, position, log = controller.game, controller.game.position, controller.log
    bad = sample_text("01_first_steps").replace("height=4;", "height=four;")
    line = bad.split("\n").index("height=four;    and 4 fields high") + 1

    assert controller.load_text(bad) is False

    assert f"line {line}, column 8" in controller.error
    assert "height must be a positive integer" in controller.error
    assert controller.error.rstrip().endswith("^")  # the caret under the column
    assert controller.game is game and controller.game.position == position
    assert controller.log == log and controller.map_name == "01_first_steps"


def test_a_good_map_text_starts_a_new_game(controller):
    controller.key("Enter")
    assert controller.load_text(sample_text("02_grey_river"), source="river.map") is True
    assert controller.map_name == "river.map"
    assert controller.game.map == load_sample("02_grey_river")
    assert controller.game.turn == 1 and controller.error == ""


def test_an_unknown_sample_is_refused(controller):
    assert controller.load_sample("99_nowhere") is False
    assert "there is no sample map" in controller.error
    assert controller.map_name == "01_first_steps"


def test_new_game_replays_the_same_seed(controller):
    first_cursor = controller.game.cursor
    controller.key("Enter")
    controller.new_game(seed=SEED)
    assert controller.game.turn == 1 and controller.game.cursor == first_cursor


def _won_game() -> CursorMapController:
    """A controller whose first Enter switches on every field of both players at once."""
    tiny = CursorMap.from_strings(["bgr"], ["000"])
    controller = CursorMapController(tiny, seed=1)
    controller.game = CursorGame(tiny, seed=1, dealer=lambda rng: Cursor((1,) * 8, Operator.OR))
    return controller


def test_a_simultaneous_win_goes_to_the_mover_and_then_keys_are_refused():
    controller = _won_game()
    controller.key("Enter")
    assert controller.game.winner is Owner.ONE
    assert controller.turn_text.startswith("Player one (blue) wins")
    position, log = controller.game.position, controller.log

    controller.key("ArrowLeft")
    controller.key("Enter")
    assert controller.click_field(0, 0) is False

    assert "game is over" in controller.message
    assert (controller.game.position, controller.log) == (position, log)


def test_the_turn_limit_is_passed_to_the_game():
    controller = CursorMapController("01_first_steps", seed=SEED, max_turns=1)
    controller.key("Enter")
    assert controller.game.is_over
    assert controller.turn_text.startswith("Draw")
