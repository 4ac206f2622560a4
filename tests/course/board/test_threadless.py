"""The board without threads, as in Pyodide: forced here in CPython by turning threads off.

Every way a thread could start is made to fail (``run_in_executor`` and
``threading.Thread.start``), so a test passing proves the thread-free path was
taken: the computer's search runs on the loop in slices, the loop keeps running
between them (a ticker task counts its turns), the thinking view hears every
depth, and the chart after the game reaches the image widget.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from course.board import background
from course.board.background import _sliced_search, _work_out
from course.board.widget import play
from course.charts import VEGA_LITE
from reversi import BLACK, Board
from reversi.engine import think
from reversi.players import GreedyPlayer, StrongPlayer
from tests.reversi.positions import random_position


@pytest.fixture
def no_threads(monkeypatch):
    """Pyodide's situation: no thread can be started."""

    def refuse(*args, **kwargs):
        raise AssertionError("a thread was started on the thread-free path")

    monkeypatch.setattr(background, "THREADS", False)
    monkeypatch.setattr(threading.Thread, "start", refuse)
    monkeypatch.setattr(asyncio.BaseEventLoop, "run_in_executor", refuse)
    assert not background.threads_available()


async def with_ticker(work, turns: list[str] | None = None):
    """Run ``work`` while a task notes ``"tick"`` in ``turns`` each time the loop gives it a turn."""
    turns = [] if turns is None else turns

    async def ticker():
        while True:
            turns.append("tick")
            await asyncio.sleep(0)

    task = asyncio.get_running_loop().create_task(ticker())
    try:
        result = await work
    finally:
        task.cancel()
    return result, turns


def test_a_sliced_search_reports_each_depth_and_lets_the_loop_run(no_threads, monkeypatch):
    monkeypatch.setattr(background, "SLICE_SECONDS", 0.0)  # a pause at every chance
    player = StrongPlayer(time_limit=0.6)
    depths: list[int] = []
    turns: list[str] = []

    def heard(thought) -> None:
        depths.append(thought.depth)
        turns.append("depth")

    player.on_thought = heard
    board = Board()
    move, _ = asyncio.run(with_ticker(_sliced_search(player, board, BLACK), turns))
    assert board.is_legal(move, BLACK) and move == player.last_thought.move
    assert depths == list(range(1, len(depths) + 1)) and len(depths) >= 3
    reports = [i for i, turn in enumerate(turns) if turn == "depth"]
    assert turns[reports[-2]:reports[-1]].count("tick") > 10  # the loop ran within one depth


@pytest.mark.parametrize("plies", [10, 20, 30])
def test_the_sliced_search_finds_what_one_search_finds(no_threads, monkeypatch, plies):
    monkeypatch.setattr(background, "SLICE_SECONDS", 0.0)
    board, color = random_position(8, plies, plies)
    player = StrongPlayer(time_limit=30.0, max_depth=5)
    move = asyncio.run(_sliced_search(player, board, color))
    whole = think(board, color, max_depth=5)
    assert player.last_thought.depth == 5 and player.last_thought.line == whole.line
    assert move == whole.move and player.last_thought.nodes == whole.nodes


def test_a_search_no_longer_wanted_ends_at_the_next_slice(no_threads):
    player = StrongPlayer(time_limit=30.0)
    wanted = [True]
    player.on_thought = lambda thought: wanted.__setitem__(0, thought.depth < 2)
    asyncio.run(_sliced_search(player, Board(), BLACK, lambda: wanted[0]))
    assert player.last_thought.depth == 2


def test_other_players_move_after_a_turn_of_the_loop(no_threads):
    move = asyncio.run(_work_out(GreedyPlayer(), Board(), BLACK))
    assert Board().is_legal(move, BLACK)


def test_a_computer_game_with_the_thinking_view_runs_to_the_chart_without_threads(no_threads):
    async def scenario():
        board = play(black=StrongPlayer(time_limit=0.05), white="greedy", size=4, animate=False)
        board.thinking_panel.toggle.value = True
        reports = []
        original = board.thinking_panel.show_thought
        board.thinking_panel.show_thought = lambda: (reports.append(1), original())[1]
        board.controller.start()
        for _ in range(400):
            await asyncio.sleep(0.01)
            if board.controller.game.is_over and board.thinking_panel.chart.outputs:
                break
        return board, reports

    board, reports = asyncio.run(scenario())
    assert board.controller.game.is_over and reports
    (output,) = board.thinking_panel.chart.outputs
    assert VEGA_LITE in output["data"]
    assert board.thinking_panel.chart in board.thinking_panel.plot.children
