"""Anything the kit writes, it reads back: every game it can reach saves and loads to an equal game.

Games are built by construction from everything a game can hold: each board size and
no-move policy, a move clock (with turns lost to it), undo limits and undos asked and
answered, resignations, and every kind of player with any seed or setting it accepts
(the limits a player takes are the limits a save reads).  The game is saved, loaded
with the same clock, and the two must describe the same game.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi import PLAYER_KINDS, Game, ReversiError, load_game, make_player, save_game
from reversi.clock import MAX_TIME_PER_MOVE
from reversi.game import MAX_UNDO_LIMIT
from reversi.outcome import NoMovePolicy
from reversi.players.computer import MAX_SEED
from reversi.saves import game_to_dict

FOLDER = Path(tempfile.mkdtemp(prefix="reversi-saves-roundtrip-"))

#: Players whose move is cheap to ask for (the strong levels are saved, but not asked to think).
QUICK = {"random", "beginner", "greedy", "easy", "positional", "medium"}


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def player_options(kind: str) -> st.SearchStrategy[dict[str, object]]:
    """Settings the player of ``kind`` accepts, drawn from their whole ranges."""
    seconds = st.one_of(st.floats(1e-6, 1e6), st.integers(1, 10**6))
    if kind in ("random", "beginner"):
        return st.fixed_dictionaries({}, optional={"seed": st.one_of(
            st.none(), st.integers(-MAX_SEED, MAX_SEED), st.sampled_from([MAX_SEED, -MAX_SEED]))})
    if kind in ("minimax",):
        return st.fixed_dictionaries({}, optional={"depth": st.integers(1, 16)})
    if kind == "alphabeta":
        return st.fixed_dictionaries({}, optional={"depth": st.integers(1, 16),
                                                   "time_limit": st.one_of(st.none(), seconds)})
    if kind in ("hard", "expert", "strong"):
        return st.fixed_dictionaries({}, optional={
            "time_limit": seconds, "max_depth": st.integers(1, 60),
            "solve_empties": st.integers(0, 20), "wld_empties": st.integers(0, 24)})
    return st.just({})


@st.composite
def players(draw: st.DrawFn) -> object:
    kind = draw(st.sampled_from(sorted(PLAYER_KINDS)))
    name = draw(st.one_of(st.none(), st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cf")), min_size=1,
        max_size=20).filter(lambda text: text.strip() and len(text.strip()) <= 20 and
                            all(ch.isprintable() for ch in text.strip()))))
    return make_player(kind, name=name, **draw(player_options(kind)))


STEPS = st.lists(st.sampled_from(["move", "move", "move", "pass", "step", "timeout", "undo",
                                  "undo-refused", "resign", "wait"]), max_size=40)


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, FakeClock]:
    clock = FakeClock()
    game = Game(
        draw(players()),
        draw(players()),
        size=draw(st.sampled_from([4, 6, 8, 10, 12, 14, 16])),
        no_move_policy=draw(st.sampled_from(list(NoMovePolicy))),
        time_per_move=draw(st.one_of(st.none(), st.floats(0.001, MAX_TIME_PER_MOVE),
                                     st.sampled_from([5, 30, MAX_TIME_PER_MOVE]))),
        undo_limit=draw(st.one_of(st.none(), st.integers(0, 3), st.just(MAX_UNDO_LIMIT))),
        clock=clock,
    )
    for step in draw(STEPS):
        if game.is_over:
            break
        with contextlib.suppress(ReversiError):  # a refusal changes nothing; the game goes on
            play_one(game, clock, step, draw)
    return game, clock


def play_one(game: Game, clock: FakeClock, step: str, draw: st.DrawFn) -> None:
    color = game.turn
    if step == "move":
        moves = game.legal_moves()
        if moves:
            game.play(draw(st.sampled_from(moves)))
        else:
            game.pass_turn()
    elif step == "pass":
        game.pass_turn()
    elif step == "step" and game.current_player.kind in QUICK:
        game.step()
    elif step == "timeout" and game.time_per_move is not None:
        clock.now += game.time_per_move * draw(st.integers(1, 5)) + 0.5
        game.check_time()
    elif step == "wait":
        clock.now += draw(st.floats(0, 100))
    elif step in ("undo", "undo-refused"):
        game.request_undo(color)
        game.answer_undo(step == "undo")
    elif step == "resign":
        game.resign(color)


def described(game: Game) -> dict[str, object]:
    saved = game_to_dict(game)
    saved.pop("elapsed")
    return saved


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games())
def test_every_reachable_game_saves_and_loads_to_an_equal_game(made: tuple[Game, FakeClock]) -> None:
    game, clock = made
    path = save_game(game, FOLDER / "game.json")
    loaded = load_game(path, clock=clock)
    assert described(loaded) == described(game)
    assert loaded.board == game.board and loaded.turn == game.turn
    assert loaded.outcome == game.outcome
    assert [str(p) for p in loaded.plies] == [str(p) for p in game.plies]
    assert abs(loaded.elapsed() - game.elapsed()) <= 0.001 + 1e-9 * game.elapsed()
    for color in game.players:
        assert loaded.player(color).get_state() == game.player(color).get_state()
