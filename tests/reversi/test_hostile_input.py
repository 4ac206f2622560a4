"""Random values thrown at the whole public API: only the package's own errors come out,
and a refused call leaves the game, the board and the files exactly as they were.

Each test feeds hypothesis-made values (text with any characters, huge and negative
numbers, NaN, None, bytes, nested lists and dicts, and a few values that are almost
right) into one part of the API: notation, boards, game construction, game actions,
saves (files, folders, JSON), map files and players.
"""

from __future__ import annotations

import json
import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reversi import (
    BLACK,
    PASS,
    WHITE,
    Board,
    Game,
    Pass,
    ReversiError,
    SaveFolder,
    Scoreboard,
    Square,
    TimeExpiredError,
    load_game,
    make_player,
    parse_move,
    save_game,
    square,
    validate_name,
)
from reversi.actions import TimeoutAction
from reversi.cursormap import load_map, load_sample, parse_map, sample_text
from reversi.endgame import solve
from reversi.engine import think
from reversi.players import GreedyPlayer, RandomPlayer
from reversi.saves import game_from_dict, game_to_dict

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ALMOST_RIGHT = st.sampled_from(
    [
        "d3", "D 3", "pass", "0", "p16", "a0", "q1", "h𝟜", " a٤", "\u3000pass", "d\u00a03",
        "black", "white", "stalemate", "change-turn", "human", "greedy", "alphabeta",
        BLACK, WHITE, PASS, Square(2, 3), Square(-1, 99), (2, 3), (2, 3, 4), (True, False),
        (10**40, 1), 10**400, -(10**400), -1, 0, 1, 8, 17, 0.5, 1e308,
        float("nan"), float("inf"), -0.0, True, "", "\0", "a\0b", b"d3",
    ]  # fmt: skip
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats()
    | st.text(max_size=12)
    | st.binary(max_size=8)
    | ALMOST_RIGHT
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3)
    | st.tuples(inner, inner)
    | st.tuples(inner, inner, inner)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def refused_or_done(call, *args, **kwargs):
    """Call; a refusal must be one of the package's errors.  Returns (result, error)."""
    try:
        return call(*args, **kwargs), None
    except ReversiError as error:
        assert str(error), "an error must say what went wrong"
        return None, error


def state(game: Game) -> tuple:
    """Everything a refused action must leave alone."""
    return (
        str(game.board),
        game.turn,
        tuple(game.plies),
        tuple(game.actions),
        tuple(game.log),
        game.outcome,
        game.pending_undo,
        dict(game.undos_used),
        game.elapsed(),
    )


class FrozenClock:
    def __call__(self) -> float:
        return 1000.0


# -- notation and boards -----------------------------------------------------------------


@FUZZ
@given(value=VALUES, size=st.one_of(VALUES, st.integers(-2, 20)))
def test_notation_reads_squares_and_moves_or_says_why_not(value, size):
    for read in (square, parse_move):
        result, error = refused_or_done(read, value, size=size)
        if error is None:
            assert isinstance(result, (Square, Pass))
            if isinstance(value, str):
                assert value.isascii(), f"{value!r} was read although it is not ASCII"
            if isinstance(result, Square):
                assert 0 <= result.row < size and 0 <= result.col < size
                assert square(result.name, size) == result == square(repr(result), size)


@FUZZ
@given(size=VALUES, diagram=VALUES, where=VALUES, color=VALUES)
def test_boards_take_sizes_diagrams_squares_and_colours_or_refuse_them(size, diagram, where, color):
    refused_or_done(Board, size)
    refused_or_done(Board.from_text, diagram)
    board = Board()
    before = str(board)
    for call in (board.play, board.is_legal, board.flips, board.illegal_reason):
        _, error = refused_or_done(call, where, color)
        if error is not None:
            assert str(board) == before
    for call in (board.legal_moves, board.has_legal_move, board.count, board.discs):
        refused_or_done(call, color)
    refused_or_done(board.__getitem__, where)


@FUZZ
@given(text=st.text(alphabet="BW.abcd 1234\n", max_size=80))
def test_any_diagram_text_reads_as_a_board_or_a_notation_error(text):
    board, _ = refused_or_done(Board.from_text, text)
    if board is not None:
        assert Board.from_text(str(board)) == board


# -- games -------------------------------------------------------------------------------

SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "black": VALUES | st.just(GreedyPlayer()),
        "white": VALUES | st.just(RandomPlayer(seed=1)),
        "size": VALUES | st.sampled_from([4, 6, 8, 16]),
        "no_move_policy": VALUES,
        "time_per_move": VALUES | st.floats(min_value=-5, max_value=100),
        "undo_limit": VALUES | st.integers(-3, 3),
        "clock": VALUES | st.just(FrozenClock()),
    },
)


@FUZZ
@given(settings=SETTINGS)
def test_a_game_is_made_from_any_settings_or_refused_with_a_reason(settings):
    game, _ = refused_or_done(Game, **settings)
    if game is not None:
        assert game.legal_moves() and not game.is_over


ACTIONS = [
    "play", "pass_turn", "resign", "request_undo", "answer_undo", "apply", "play_choice",
    "restart_clock", "undos_left", "player", "play_out", "label", "title",
]  # fmt: skip


@FUZZ
@given(
    opening=st.lists(st.integers(0, 30), max_size=12),
    calls=st.lists(st.tuples(st.sampled_from(ACTIONS), VALUES), min_size=1, max_size=6),
    policy=st.sampled_from(["change-turn", "stalemate", "opponent-wins", "more-discs-wins"]),
)
def test_game_actions_with_any_arguments_change_nothing_when_refused(opening, calls, policy):
    game = Game(
        GreedyPlayer("Gus"),
        RandomPlayer("Rita", seed=5),
        size=6,
        no_move_policy=policy,
        time_per_move=30,
        clock=FrozenClock(),
    )
    for pick in opening:  # a position part-way through a game
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    for name, value in calls:
        before = state(game)
        args = () if name == "pass_turn" else (value,)
        _, error = refused_or_done(getattr(game, name), *args)
        if isinstance(error, TimeExpiredError):
            # A move after the time ran out loses the turn, as the rules say: that and nothing else.
            assert game.actions[-1] == TimeoutAction() and state(game)[0] == before[0]
        elif error is not None:
            assert state(game) == before, f"{name}({value!r}) refused but changed the game"


@FUZZ
@given(game=VALUES)
def test_a_scoreboard_takes_only_finished_games(game):
    scores = Scoreboard()
    refused_or_done(scores.record, game)
    assert scores.games == 0


# -- saves -------------------------------------------------------------------------------


def a_saved_dict() -> dict:
    game = Game(GreedyPlayer("Gus"), RandomPlayer("Rita", seed=3), undo_limit=2)
    for _ in range(5):
        game.step()
    game.request_undo(WHITE)
    game.answer_undo(True)
    return json.loads(json.dumps(game_to_dict(game)))


GOOD_SAVE = a_saved_dict()
SAVE_PATHS = [
    (),
    ("players",),
    ("players", "black"),
    ("players", "white", "options"),
    ("players", "white", "state"),
    ("actions",),
    ("actions", 0),
    ("actions", 3),
    ("actions", -1),
]
SAVE_KEYS = st.sampled_from(
    ["format", "version", "size", "no_move_policy", "time_per_move", "undo_limit", "players",
     "actions", "elapsed", "board", "kind", "name", "action", "square", "color", "accept",
     "seed", "black", "white", "state", "options"]  # fmt: skip
)


@FUZZ
@given(edits=st.lists(st.tuples(st.sampled_from(SAVE_PATHS), SAVE_KEYS, VALUES), max_size=4))
def test_an_edited_save_loads_whole_or_is_refused(edits):
    data = json.loads(json.dumps(GOOD_SAVE))
    for path, key, value in edits:
        place = data
        for step in path:
            place = place.get(step) if isinstance(place, dict) else None
            if isinstance(step, int) and isinstance(place, list) and place:
                place = place[step]
        if isinstance(place, dict):
            place[key] = value
    game, _ = refused_or_done(game_from_dict, data)
    if game is not None:
        assert isinstance(game, Game)


@FUZZ
@given(content=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_any_file_content_loads_as_a_game_or_is_refused(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("load") / "game.json"
    path.write_bytes(content)
    refused_or_done(load_game, path)
    assert path.read_bytes() == content


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 5000 + "1" + "}" * 5000,
        '{"format": "reversi-kit save", "version": 1, "size": ' + "9" * 5000 + "}",
        '{"format": "reversi-kit save", "version": 1, "size": 8, "time_per_move": Infinity}',
        " " * 1_000_001,
    ],
    ids=["deep-array", "deep-object", "5000-digit-size", "infinity", "oversized"],
)
def test_hostile_save_files_are_refused_before_they_cost_anything(tmp_path, text):
    path = tmp_path / "hostile.json"
    path.write_text(text)
    with pytest.raises(ReversiError, match="cannot load"):
        load_game(path)


NAMES = st.text(alphabet=string.ascii_letters + "/\0 .-_é", min_size=1, max_size=12)


@FUZZ
@given(name=NAMES | VALUES)
def test_saving_anywhere_writes_a_whole_file_or_leaves_everything_as_it_was(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("saves")
    (folder / "afile").write_text("not a folder")
    (folder / "old.json").write_text("an old save")
    assume(not (isinstance(name, str) and ".." in name))  # stay inside the test's folder
    game = Game()
    game.play("d3")
    before = snapshot(folder)
    target = folder / name.lstrip("/") if isinstance(name, str) else name
    path, error = refused_or_done(save_game, game, target)
    if error is not None:
        assert snapshot(folder) == before
    else:
        assert load_game(path).board == game.board
        assert not [p for p in Path(folder).rglob("*.tmp") if p != path]  # no temporary file left
    for call in (SaveFolder(folder).save, SaveFolder(folder).load, SaveFolder(folder).delete):
        args = (name, game) if call.__name__ == "save" else (name,)
        before = snapshot(folder)
        _, error = refused_or_done(call, *args)
        if error is not None:
            assert snapshot(folder) == before
    refused_or_done(SaveFolder, name)


def snapshot(folder) -> dict[str, bytes]:
    return {
        os.fspath(p.relative_to(folder)): p.read_bytes()
        for p in Path(folder).rglob("*")
        if p.is_file()
    }


# -- map files and players ---------------------------------------------------------------


@FUZZ
@given(value=VALUES | NAMES, content=st.binary(max_size=100))
def test_map_files_load_or_are_refused_with_a_map_error(tmp_path_factory, value, content):
    folder = tmp_path_factory.mktemp("maps")
    (folder / "one.map").write_bytes(content)
    refused_or_done(load_map, folder / "one.map")
    assert (folder / "one.map").read_bytes() == content
    if isinstance(value, str):
        assume(".." not in value)
        value = folder / value.lstrip("/")
    refused_or_done(load_map, value)
    refused_or_done(parse_map, value)
    refused_or_done(parse_map, content.decode("utf-8", "replace"), source=value)
    refused_or_done(sample_text, value)
    refused_or_done(load_sample, value)


@FUZZ
@given(
    kind=VALUES | st.sampled_from(["human", "random", "greedy", "positional", "minimax", "alphabeta"]),
    name=VALUES,
    options=st.dictionaries(st.sampled_from(["seed", "depth", "time_limit", "input", "x"]), VALUES, max_size=2),
)
def test_players_are_made_from_any_settings_or_refused(kind, name, options):
    player, _ = refused_or_done(make_player, kind, name=name, **options)
    if player is not None:
        assert validate_name(player.name) == player.name
    refused_or_done(validate_name, name)


@FUZZ
@given(
    board=st.one_of(st.just(None), VALUES),
    color=st.one_of(st.sampled_from([BLACK, WHITE]), VALUES),
    time_limit=st.one_of(st.none(), st.floats(), VALUES),
    depth=st.one_of(st.integers(-2, 6), VALUES),
    solve_empties=st.one_of(st.integers(-2, 16), VALUES),
    wld_empties=st.one_of(st.integers(-2, 16), VALUES),
)
def test_the_search_and_the_solver_take_any_arguments_or_refuse_them(
        board, color, time_limit, depth, solve_empties, wld_empties):
    position = Board(4) if board is None else board  # a 4x4 board: a valid search ends at once
    before = str(position)
    refused_or_done(think, position, color, time_limit=time_limit, max_depth=depth,
                    solve_empties=solve_empties, wld_empties=wld_empties)
    refused_or_done(solve, position, color, time_limit=time_limit)
    assert str(position) == before


HUGE = 10**5000  # even repr() refuses to print it, so error messages must not try
HUGE_CALLS = {
    "square": lambda: square(HUGE),
    "square((huge, 1))": lambda: square((HUGE, 1)),
    "parse_move": lambda: parse_move(HUGE),
    "Board": lambda: Board(HUGE),
    "Board.from_bits": lambda: Board.from_bits(8, HUGE, 0),
    "Game(size=)": lambda: Game(size=HUGE),
    "Game(time_per_move=)": lambda: Game(time_per_move=HUGE),
    "Game(undo_limit=)": lambda: Game(undo_limit=-HUGE),
    "Game(no_move_policy=)": lambda: Game(no_move_policy=HUGE),
    "Game.resign": lambda: Game().resign(HUGE),
    "Game.play": lambda: Game().play(HUGE),
    "Game.apply": lambda: Game().apply({"action": "move", "square": HUGE}),
    "Game.play_out": lambda: Game().play_out(-HUGE),
    "Game.restart_clock": lambda: Game(time_per_move=5).restart_clock(HUGE),
    "make_player(kind)": lambda: make_player(HUGE),
    "make_player(depth=)": lambda: make_player("alphabeta", depth=HUGE),
    "make_player(time_limit=)": lambda: make_player("alphabeta", time_limit=HUGE),
    "validate_name": lambda: validate_name(HUGE),
    "SaveFolder.path": lambda: SaveFolder("saves").path(HUGE),
    "game_from_dict": lambda: game_from_dict({"format": "reversi-kit save", "version": HUGE}),
    "load_map": lambda: load_map(HUGE),
    "think(time_limit=)": lambda: think(Board(4), BLACK, time_limit=HUGE),
    "solve(time_limit=)": lambda: solve(Board(4), BLACK, time_limit=HUGE),
    "think(wld_empties=)": lambda: think(Board(4), BLACK, wld_empties=-HUGE),
}


@pytest.mark.parametrize("call", HUGE_CALLS.values(), ids=HUGE_CALLS.keys())
def test_a_5000_digit_number_is_refused_by_name_not_by_a_crash(call):
    with pytest.raises(ReversiError) as caught:
        call()
    assert len(str(caught.value)) < 300
