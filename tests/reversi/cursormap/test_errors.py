import pickle

import pytest

from reversi.cursormap import (
    CursorGameError,
    CursorGameOverError,
    CursorMapError,
    MapError,
    MapFileError,
    load_map,
)
from reversi.cursormap.mapfile import MAX_FILE_BYTES
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
