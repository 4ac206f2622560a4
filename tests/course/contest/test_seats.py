"""Each way a sandboxed player can go wrong loses its game, with the reason the page shows."""

from __future__ import annotations

import pytest

from course.contest.referee import LevelSeat, referee
from course.contest.sandboxed import SandboxSeat
from course.grading.sandbox import Sandbox
from course.tournament import entrant

from .players import GREEDY


@pytest.fixture(scope="module", params=["bubblewrap", "pyodide"])
def sandbox(request: pytest.FixtureRequest) -> Sandbox:
    """Each sandbox a tournament can run students' players in."""
    return Sandbox(request.param)


def play(sandbox: Sandbox, code: str, **limits: float):
    seat = SandboxSeat("student", (code,), sandbox, **{"move_time": 1.0, **limits})
    return referee(seat, LevelSeat("Easy", entrant("easy")(0)), (), 6)


WRONG = {
    "a name that is no square": ("def choose(b, c):\n    return 'zz'", "returned 'zz', which is not a square"),
    "a square off the board": ("def choose(b, c):\n    return 'h8'", "returned 'h8', which is not a square"),
    "a pair off the board": ("def choose(b, c):\n    return (9, 9)", "returned (9, 9), which is not a square"),
    "None": ("def choose(b, c):\n    return None", "returned a NoneType, not a move"),
    "a list": ("def choose(b, c):\n    return b.legal_moves(c)", "returned a list, not a move"),
    "a pass with moves left": ("def choose(b, c):\n    return PASS", "passed although it had a legal move"),
    "an occupied square": ("def choose(b, c):\n    return 'c3'", "chose c3, which is not a legal move"),
    "exit()": ("def choose(b, c):\n    raise SystemExit(3)", "choose raised SystemExit: 3"),
    "os._exit": ("import os\ndef choose(b, c):\n    os._exit(3)", "its program ended (Python stopped with exit code 3"),
    "no choose": ("def chose(b, c):\n    return 'c4'", "the notebook has no function choose(board, color)"),
    "a syntax error": ("def choose(b, c)\n    return 'c4'", "no function choose(board, color) (cell 1: SyntaxError"),
    "a slow load": ("while True:\n    pass", "took longer than 2 s to load the notebook"),
    "a slow move": ("import time\ndef choose(b, c):\n    time.sleep(3)", "took longer than 1 s for a move"),
    "too slow in all": ("import time\ndef choose(b, c):\n    time.sleep(0.6)\n    return b.legal_moves(c)[0]", "used up its 1.5 s for the whole game"),
    "a memory bomb": ("def choose(b, c):\n    return 'x' * ((1 << 31) - 1)", "choose raised MemoryError"),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(WRONG))
def test_a_wrong_answer_loses_the_game_and_says_why(sandbox, kind):
    code, reason = WRONG[kind]
    game = play(sandbox, code, load_time=2.0, total_time=1.5)
    assert game.forfeit is not None and game.forfeit.color.value == "black"
    assert game.winner == "Easy"
    assert reason in game.forfeit.reason, game.forfeit.reason


def test_an_honest_player_plays_a_whole_game(sandbox):
    game = play(sandbox, GREEDY)
    assert game.forfeit is None
    assert game.outcome.black + game.outcome.white >= 30
    assert len(game.moves) >= 28


def test_the_process_is_gone_after_the_game(sandbox):
    seat = SandboxSeat("student", (GREEDY,), sandbox)
    referee(seat, LevelSeat("Easy", entrant("easy")(0)), (), 6)
    assert seat.run is None


def test_a_player_that_cannot_start_loses_only_its_game():
    class Exhausted(Sandbox):
        def __init__(self) -> None:
            self.isolated, self.startup = True, 0.0

        def start(self, *args, **kwargs):
            raise BlockingIOError(11, "Resource temporarily unavailable")

    game = play(Exhausted(), GREEDY)
    assert game.forfeit is not None and game.winner == "Easy"
    assert game.forfeit.reason == "its program could not start (Resource temporarily unavailable)"
