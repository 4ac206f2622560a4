import pickle

import pytest

from reversi.cursormap import (
    CursorArgumentError,
    CursorGame,
    CursorGameError,
    CursorGameOverError,
    CursorMapError,
    MapError,
    MapFileError,
    Operator,
    Owner,
    load_map,
    parse_map,
)
from reversi.cursormap.mapfile import MAX_FILE_BYTES
from reversi.cursormap.model import CursorMap
from reversi.errors import ArgumentError, GameOverError, ReversiError


def test_map_file_error_message_names_line_column_and_problem():
    error = MapFileError("width must be a positive integer, got 'abc'", line=3, column=7)
    assert str(error) == "line 3, column 7: width must be a positive integer, got 'abc'"
    assert (error.line, error.column, error.problem, error.source) == (
        3,
        7,
        "width must be a positive integer, got 'abc'",
        None,
    )


def test_map_file_error_names_its_source():
    error = MapFileError("bad", line=2, column=1, source="maps/x.map")
    assert str(error) == "maps/x.map: line 2, column 1: bad"
    assert (
        str(MapFileError("cannot read the file", source="x.map")) == "x.map: cannot read the file"
    )


@pytest.mark.parametrize(
    ("error", "bases"),
    [
        (MapFileError("x"), (MapError, CursorMapError, ReversiError, ValueError)),
        (MapError("x"), (CursorMapError, ReversiError, ValueError)),
        (CursorGameError("x"), (CursorMapError, ReversiError, ValueError)),
        (CursorGameOverError("x"), (CursorMapError, ReversiError, GameOverError)),
        (
            CursorArgumentError("x"),
            (CursorGameError, CursorMapError, ArgumentError, ReversiError, ValueError),
        ),
    ],
)
def test_every_error_is_a_reversi_error(error, bases):
    for base in bases:
        assert isinstance(error, base)


def test_game_over_is_not_a_value_error():
    assert not isinstance(CursorGameOverError("x"), ValueError)


def test_map_file_error_survives_pickling():
    error = MapFileError("bad", line=2, column=5, source="a.map")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.line, copy.column, copy.problem, copy.source, str(copy)) == (
        2,
        5,
        "bad",
        "a.map",
        str(error),
    )


def test_a_map_path_with_a_nul_character_is_a_map_file_error():
    with pytest.raises(MapFileError, match="is not a file path"):
        load_map("a\0b.map")


@pytest.mark.parametrize("path", [42, None, ["one.map"]])
def test_a_map_path_that_is_not_a_path_is_named(path):
    with pytest.raises(ArgumentError, match=r"^load_map\(\): path must be a text or a path, not "):
        load_map(path)


def test_a_map_file_larger_than_any_map_is_refused_before_reading_it_all(tmp_path):
    path = tmp_path / "huge.map"
    path.write_bytes(b";" * (MAX_FILE_BYTES + 10))
    with pytest.raises(MapFileError, match="larger than 1,000,000 bytes"):
        load_map(path)


def test_a_refused_direction_is_caught_as_the_games_own_error():
    game = CursorGame(CursorMap.from_strings(["bgr"], ["000"]), seed=1)
    try:
        game.move("sideways")
    except CursorGameError as error:
        refused = error
    else:
        pytest.fail("move('sideways') was not refused")
    assert isinstance(refused, ArgumentError)
    assert str(refused) == "a direction is one of 'up', 'down', 'left', 'right', not 'sideways'"
    assert game.position == (0, 1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda game: game.move(3), "CursorGame.move(): direction must be UP, DOWN, LEFT or RIGHT or a text, not 3"),
        (lambda game: game.move_to(0.5, 0), "CursorGame.move_to(): row must be a whole number, not 0.5"),
        (lambda game: game.move_to(0), "CursorGame.move_to(): col must be given"),
        (lambda game: game.switchable("purple"), "CursorGame.switchable(): owner must be ONE, TWO or NONE, not 'purple'"),
        (lambda game: CursorGame(game.map, max_turns=0), "CursorGame(): max_turns must be a whole number from 1 to 1000000000 or None, not 0"),
        (lambda game: Owner("purple"), "an owner is one of 'one', 'two', 'none', not 'purple'"),
        (lambda game: Operator("nand"), "an operator is one of 'AND', 'OR', 'XOR', not 'nand'"),
        (lambda game: parse_map(42), "parse_map(): text must be a text, not 42"),
    ],
)
def test_a_wrong_argument_anywhere_in_the_package_is_the_games_own_error(call, message):
    game = CursorGame(CursorMap.from_strings(["bgr"], ["000"]), seed=1)
    with pytest.raises(CursorGameError) as refused:
        call(game)
    assert isinstance(refused.value, ArgumentError) and str(refused.value) == message
    assert game.position == (0, 1) and game.turn == 1
