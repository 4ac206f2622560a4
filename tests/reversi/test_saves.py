"""Saving and loading: exact round trips, atomic writes, and every kind of bad file refused."""

from __future__ import annotations

import json
import os

import pytest

from reversi import BLACK, WHITE, Board
from reversi.errors import ArgumentError, SaveFileError
from reversi.game import Game
from reversi.players import GreedyPlayer, RandomPlayer
from reversi.saves import SaveFolder, game_to_dict, load_game, save_game


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def eventful_game(clock: FakeClock) -> Game:
    """A game with moves, a declined and an accepted undo, and a lost turn."""
    game = Game(
        RandomPlayer("Rita", seed=7),
        GreedyPlayer("Gus"),
        no_move_policy="more-discs-wins",
        time_per_move=30,
        undo_limit=2,
        clock=clock,
    )
    game.step()
    game.step()
    game.request_undo(WHITE)
    game.answer_undo(False)
    game.request_undo(BLACK)
    game.answer_undo(True)
    game.step()
    clock.now += 31
    game.check_time()  # White loses the turn
    game.step()
    clock.now += 12.5  # White has used 12.5 s of this turn when the game is saved
    return game


def test_a_loaded_game_continues_exactly(tmp_path):
    clock = FakeClock()
    game = eventful_game(clock)
    path = save_game(game, tmp_path / "game.json")
    loaded = load_game(path, clock=clock)

    assert loaded.board == game.board and loaded.turn is game.turn
    assert loaded.plies == game.plies and loaded.actions == game.actions
    assert loaded.log[:-1] == game.log and loaded.log[-1] == "Game loaded"
    assert loaded.undos_left(BLACK) == 1 and loaded.undos_left(WHITE) == 2
    assert (loaded.no_move_policy, loaded.time_per_move) == (game.no_move_policy, 30)
    assert loaded.time_left() == pytest.approx(game.time_left())
    for color in (BLACK, WHITE):
        assert type(loaded.player(color)) is type(game.player(color))
        assert loaded.player(color).name == game.player(color).name
    # The Randomizer goes on with the same random numbers.
    game.play_out()
    loaded.play_out()
    assert loaded.transcript() == game.transcript() and loaded.outcome == game.outcome


def test_a_finished_game_round_trips(tmp_path):
    game = Game(GreedyPlayer(), RandomPlayer(seed=2))
    game.play_out()
    loaded = load_game(save_game(game, tmp_path / "done.json"))
    assert loaded.outcome == game.outcome


def test_saving_is_atomic_and_leaves_no_temporary_files(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    save_game(Game(), path)
    original = path.read_text()
    game = Game()
    game.play("d3")

    def crash(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SaveFileError, match="cannot save to .*game.json': disk full"):
        save_game(game, path)
    assert path.read_text() == original
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_the_file_is_versioned_json_without_code(tmp_path):
    path = save_game(Game(), tmp_path / "g.json")
    data = json.loads(path.read_text())
    assert data["format"] == "reversi-kit save" and data["version"] == 1


def write(tmp_path, data) -> str:
    path = tmp_path / "bad.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def good_dict() -> dict:
    game = Game(GreedyPlayer(), GreedyPlayer())
    game.play("d3")
    game.play("c3")
    return json.loads(json.dumps(game_to_dict(game)))


def edited(**changes) -> dict:
    data = good_dict()
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "reversi-kit save", "ver', r"not valid JSON \(line 1, column \d+.*truncated"),
        ("", "not valid JSON"),
        ("[1, 2]", "the file must be a JSON object, not list"),
        (edited(format="chess"), "not a reversi-kit save"),
        (edited(version=99), "format version 99; this kit reads version 1"),
        (edited(size="8"), "'size' must be a whole number"),
        (edited(size=9), "settings are not valid: board size 9"),
        (edited(no_move_policy="sudden-death"), "'no_move_policy' must be one of"),
        (edited(time_per_move="NaN"), "'time_per_move' must be a number or null"),
        (edited(actions=KeyError), "'actions' is missing or is not a list"),
        (
            edited(actions=[{"action": "move", "square": "a1"}]),
            r"action 1 \(move a1\) cannot be replayed: 'a1' is not a legal",
        ),
        (edited(actions=[{"action": "move", "square": "z9"}]), "action 1 .* 'z9' is not a square"),
        (edited(actions=[{"action": "fly"}]), "action 1 .*unknown action 'fly'"),
        (edited(actions=[{"action": "move"}]), "action 1 .*cannot be replayed"),
        (edited(actions=["d3"]), "action 1 is not an object"),
        (
            edited(
                players={
                    "black": {"kind": "wizard", "name": "X"},
                    "white": {"kind": "greedy", "name": "Y"},
                }
            ),
            "Black player cannot be made",
        ),
        (edited(players={"black": {"kind": "greedy"}}), "Black player needs a 'kind' and a 'name'"),
        (edited(board="B W"), "board diagram is not readable"),
        (edited(board=str(Board())), "does not match the position"),
        (edited(elapsed=-3), "'elapsed' must be a number of seconds"),
    ],
)
def test_a_bad_save_is_refused_with_the_problem_named(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(SaveFileError, match=message) as caught:
        load_game(path)
    assert "bad.json" in str(caught.value)


def test_json_nan_is_refused(tmp_path):
    text = json.dumps(good_dict()).replace('"elapsed": 0.0', '"elapsed": NaN')
    with pytest.raises(SaveFileError, match="holds NaN"):
        load_game(write(tmp_path, text))


def test_a_randomizer_with_a_garbled_state_is_refused(tmp_path):
    game = Game(RandomPlayer(seed=1), GreedyPlayer())
    data = game_to_dict(game)
    data["players"]["black"]["state"] = ["not", "a", "state"]
    with pytest.raises(SaveFileError, match="Black player's saved state is not valid"):
        load_game(write(tmp_path, data))


def test_missing_and_binary_files_are_save_file_errors(tmp_path):
    with pytest.raises(SaveFileError, match="no such file"):
        load_game(tmp_path / "nothing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveFileError, match="not a text file"):
        load_game(binary)


def test_a_folder_of_named_saves(tmp_path):
    folder = SaveFolder(tmp_path / "saves")
    assert folder.names() == []
    game = Game()
    game.play("f5")
    folder.save("before lunch", game)
    folder.save("b-2", Game())
    assert folder.names() == ["b-2", "before lunch"]
    assert folder.load("before lunch").transcript() == "f5"
    folder.save("before lunch", Game())  # saving again replaces it
    assert folder.load("before lunch").transcript() == ""
    folder.delete("b-2")
    assert folder.names() == ["before lunch"]
    with pytest.raises(SaveFileError, match="no save called 'lunch'.*before lunch"):
        folder.load("lunch")
    for bad in ["", "../escape", "a/b", "x" * 41, ".hidden"]:
        with pytest.raises(SaveFileError, match="is not a save name"):
            folder.save(bad, game)


def test_saving_under_a_file_or_with_a_nul_byte_is_refused_and_changes_nothing(tmp_path):
    (tmp_path / "afile").write_text("a file, not a folder")
    game = Game()
    for target in (tmp_path / "afile" / "game.json", str(tmp_path / "a\0b.json")):
        with pytest.raises(SaveFileError, match="cannot save to"):
            save_game(game, target)
    for target in (42, None):
        with pytest.raises(ArgumentError, match=r"^save_game\(\): path must be a text or a path, not "):
            save_game(game, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert (tmp_path / "afile").read_text() == "a file, not a folder"


def test_loading_from_a_bad_path_is_a_save_file_error(tmp_path):
    with pytest.raises(SaveFileError, match="cannot load"):
        load_game(str(tmp_path / "a\0b.json"))


@pytest.mark.parametrize("target", [42, None, ["game.json"]])
def test_loading_from_something_that_is_not_a_path_is_named(target):
    with pytest.raises(ArgumentError, match=r"^load_game\(\): path must be a text or a path, not "):
        load_game(target)


def test_a_save_folder_whose_name_is_too_long_is_the_kits_error_not_an_os_error():
    folder = SaveFolder("x" * 5000)
    with pytest.raises(SaveFileError, match="cannot load the save 'game': file name too long"):
        folder.load("game")
    with pytest.raises(SaveFileError, match="cannot save to"):
        folder.save("game", Game())
    assert folder.names() == []


def test_a_save_folder_under_a_file_refuses_to_save_and_knows_no_names(tmp_path):
    (tmp_path / "afile").write_text("x")
    folder = SaveFolder(tmp_path / "afile" / "saves")
    assert folder.names() == []
    with pytest.raises(SaveFileError, match="cannot save to"):
        folder.save("one", Game())
    with pytest.raises(SaveFileError, match="there is no save called 'one'"):
        folder.load("one")


def test_a_save_from_a_newer_kit_is_refused_not_half_loaded(tmp_path):
    data = good_dict()
    data["version"] = 2
    with pytest.raises(SaveFileError, match="format version 2; this kit reads version 1"):
        load_game(write(tmp_path, data))
