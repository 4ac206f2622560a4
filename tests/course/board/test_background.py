"""The background tasks run for any host with the narrow Host interface, not only the controller.

A tiny scripted host proves what the runner needs and nothing more: it asks for
the computer's turn, plays the answer back for the version it was worked out for,
drops an answer once the game moved on, checks the clock while a game is timed,
and hands errors to the host instead of losing them in a task.
"""

from __future__ import annotations

import asyncio

from course.board import background
from course.board.background import Background, ComputerTurn
from reversi import BLACK, Board
from reversi.notation import Color, Move
from reversi.players import GreedyPlayer, Player


class ScriptedHost:
    """Gives ``turns`` computer turns on the start position, then none; records every call."""

    def __init__(self, turns: int, player: Player | None = None, ticks: int = 0) -> None:
        self.version = 0
        self.turns_left = turns
        self.ticks_left = ticks
        self.player = player or GreedyPlayer()
        self.calls: list[tuple[str, object]] = []

    @property
    def clock_running(self) -> bool:
        return self.ticks_left > 0

    def computer_turn(self) -> ComputerTurn | None:
        if self.turns_left <= 0:
            return None
        return ComputerTurn(self.version, BLACK, self.player, Board())

    def set_thinking(self, color: Color | None) -> None:
        self.calls.append(("thinking", color))

    def play_computer_move(self, move: Move, version: int) -> bool:
        self.calls.append(("move", (str(move), version)))
        self.turns_left -= 1
        self.version += 1
        return True

    def tick(self) -> bool:
        self.ticks_left -= 1
        self.calls.append(("tick", self.ticks_left))
        return False

    def report_error(self, error: BaseException) -> None:
        self.calls.append(("error", str(error)))
        self.turns_left = 0


def test_computer_turns_are_worked_out_and_handed_back_with_their_version():
    host = ScriptedHost(turns=2)

    async def scenario() -> None:
        runner = Background(host)
        runner.schedule()
        await runner.idle()

    asyncio.run(scenario())
    moves = [value for kind, value in host.calls if kind == "move"]
    first = str(GreedyPlayer().choose_move(Board(), BLACK))  # worked out here, directly
    assert moves == [(first, 0), (first, 1)]
    assert ("thinking", BLACK) in host.calls and host.calls[-1] == ("thinking", None)


def test_an_answer_for_an_old_position_is_not_worked_out():
    host = ScriptedHost(turns=1)

    async def scenario() -> None:
        runner = Background(host)
        runner.schedule()
        host.version += 1  # the game moved on before the computer started thinking
        host.turns_left = 0
        await runner.idle()

    asyncio.run(scenario())
    assert [kind for kind, _ in host.calls if kind == "move"] == []


class Failing(Player):
    kind = "failing"
    label = "Failing"

    def choose_move(self, board: Board, color: Color) -> Move:
        raise RuntimeError("no idea")


def test_an_error_in_a_search_reaches_the_host():
    host = ScriptedHost(turns=1, player=Failing())

    async def scenario() -> None:
        runner = Background(host)
        runner.schedule()
        await runner.idle()

    asyncio.run(scenario())
    assert ("error", "no idea") in host.calls


def test_the_clock_ticks_while_the_host_says_it_runs(monkeypatch):
    monkeypatch.setattr(background, "CLOCK_TICK", 0.001)
    host = ScriptedHost(turns=0, ticks=3)

    async def scenario() -> None:
        runner = Background(host)
        runner.schedule()
        for _ in range(200):
            await asyncio.sleep(0.002)
            if not host.clock_running:
                break
        runner.close()

    asyncio.run(scenario())
    assert [value for kind, value in host.calls if kind == "tick"] == [2, 1, 0]


def test_nothing_starts_before_the_board_is_shown_or_without_a_loop():
    host = ScriptedHost(turns=1)
    Background(host, started=False).schedule()
    Background(host).schedule()  # no running loop: a script or a doctest
    assert host.calls == []
