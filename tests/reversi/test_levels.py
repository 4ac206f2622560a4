"""The five levels by name: what each plays, its settings, its time, and stopping it."""

from __future__ import annotations

import json
import threading
import time

import pytest

from reversi.board import Board
from reversi.errors import PlayerError
from reversi.notation import BLACK, PASS, WHITE, Color
from reversi.players import (
    LEVELS,
    PLAYER_KINDS,
    Beginner,
    Easy,
    Expert,
    GreedyPlayer,
    Hard,
    Medium,
    PositionalPlayer,
    RandomPlayer,
    StrongPlayer,
    make_player,
)


def random_position(plies: int, seed: int) -> tuple[Board, Color]:
    board, color, chooser = Board(), BLACK, RandomPlayer(seed=seed)
    for _ in range(plies):
        move = chooser.choose_move(board.copy(), color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return board, color


def test_the_levels_come_easiest_first_and_are_player_kinds():
    assert [level.kind for level in LEVELS] == ["beginner", "easy", "medium", "hard", "expert"]
    assert all(PLAYER_KINDS[level.kind] is level for level in LEVELS)
    assert list(PLAYER_KINDS)[1:6] == ["beginner", "easy", "medium", "hard", "expert"]


@pytest.mark.parametrize(
    ("name", "cls", "base"),
    [
        ("beginner", Beginner, RandomPlayer),
        ("easy", Easy, GreedyPlayer),
        ("medium", Medium, PositionalPlayer),
        ("hard", Hard, StrongPlayer),
        ("expert", Expert, StrongPlayer),
    ],
)
def test_make_player_builds_each_level_by_name(name, cls, base):
    player = make_player(name)
    assert type(player) is cls and isinstance(player, base)
    assert player.name == cls.label and not player.is_human


@pytest.mark.parametrize("seed", range(3))
def test_the_first_three_levels_play_as_the_players_they_are_built_on(seed):
    board, color = random_position(12, seed)
    assert Beginner(seed=seed).choose_move(board, color) == RandomPlayer(seed=seed).choose_move(
        board, color
    )
    assert Easy().choose_move(board, color) == GreedyPlayer().choose_move(board, color)
    assert Medium().choose_move(board, color) == PositionalPlayer().choose_move(board, color)


def test_hard_thinks_one_second_and_expert_three():
    hard, expert = make_player("hard"), make_player("expert")
    assert isinstance(hard, StrongPlayer) and isinstance(expert, StrongPlayer)
    assert (hard.time_limit, expert.time_limit) == (1.0, 3.0)
    assert hard.solve_empties < expert.solve_empties
    # only the expert looks for a proved win before its exact end
    assert (hard.wld_empties, expert.wld_empties) == (0, 18)


def test_the_expert_proves_a_win_with_few_squares_left():
    expert = make_player("expert", clock=TickingClock(0.0005))  # a fake clock: no flaky timing
    assert isinstance(expert, StrongPlayer)
    board, color = random_position(44, 0)  # 16 empty squares
    assert expert.solve_empties < board.count(None) <= expert.wld_empties
    move = expert.choose_move(board, color)
    thought = expert.last_thought
    assert thought is not None and thought.outcome is not None and thought.move == move


@pytest.mark.parametrize("player", [Hard("H", time_limit=0.5), Expert(max_depth=9, wld_empties=16), Beginner(seed=3)])
def test_a_level_is_rebuilt_from_its_kind_and_options(player):
    settings = json.loads(json.dumps({"name": player.name, **player.options()}))
    again = make_player(player.kind, **settings)
    assert type(again) is type(player) and repr(again) == repr(player)


class TickingClock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize(("kind", "limit"), [("hard", 1.0), ("expert", 3.0)])
def test_a_level_keeps_its_time_limit_on_a_fake_clock(kind, limit):
    clock = TickingClock(0.02)
    player = make_player(kind, clock=clock)
    board, color = random_position(14, 1)
    move = player.choose_move(board, color)
    assert board.is_legal(move, color)
    assert limit - 2 * clock.step <= clock.now <= limit * 1.1
    assert isinstance(player, StrongPlayer) and player.last_thought is not None
    assert player.last_thought.move == move and player.last_thought.depth >= 1


def test_stop_makes_a_thinking_level_answer_at_once():
    player = Hard(time_limit=60.0)
    board, color = random_position(10, 2)
    answers = []
    worker = threading.Thread(target=lambda: answers.append(player.choose_move(board, color)))
    worker.start()
    time.sleep(0.3)
    asked = time.perf_counter()
    player.stop()
    worker.join(timeout=5)
    assert not worker.is_alive() and time.perf_counter() - asked < 0.2
    assert board.is_legal(answers[0], color)
    # the next move thinks again: the stop applied only to the search under way
    clock = TickingClock(0.05)
    player.clock = clock
    player.choose_move(board, color)
    assert clock.now >= 60.0 - 2 * clock.step


def test_each_finished_depth_reaches_the_callback():
    seen = []
    player = Hard(clock=TickingClock(0.01))
    player.on_thought = seen.append
    board, color = random_position(20, 3)
    move = player.choose_move(board, color)
    assert seen and [t.depth for t in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].move == move


def test_a_level_without_a_move_passes():
    board = Board.from_text("""
    . . . .
    . B W W
    . . . .
    . . . .
    """)
    assert not board.legal_moves(BLACK) and board.legal_moves(WHITE)
    assert make_player("hard").choose_move(board, BLACK) is PASS


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_limit": None}, "time limit None is not allowed"),
        ({"time_limit": 0}, "time limit 0 is not positive"),
        ({"time_limit": "1"}, "time limit '1' is not a number of seconds"),
        ({"max_depth": 0}, "depth 0 is not a whole number from 1 to 60"),
        ({"solve_empties": 30}, "solve_empties 30 is not a whole number from 0 to 20"),
        ({"wld_empties": -1}, "wld_empties -1 is not a whole number from 0 to 24"),
        ({"wld_empties": True}, "wld_empties True is not a whole number from 0 to 24"),
        ({"depth": 3}, r"a hard player has no setting 'depth'"),
    ],
)
def test_bad_level_settings_are_refused(options, message):
    with pytest.raises(PlayerError, match=message):
        make_player("hard", **options)


@pytest.mark.parametrize(("black", "white"), [("hard", "beginner"), ("easy", "expert")])
def test_the_terminal_takes_the_levels_by_name(tmp_path, black, white):
    from reversi.terminal import main

    shown: list[str] = []
    answers = iter(["n"])  # "Play again?" no
    status = main(
        ["--black", black, "--white", white, "--size", "4", "--saves", str(tmp_path)],
        input=lambda prompt: next(answers),
        output=shown.append,
    )
    text = "\n".join(shown)
    assert status == 0
    assert black.capitalize() in text and white.capitalize() in text
    assert "Congratulations" in text or "Draw" in text
