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


class WaitingPage:
    """Pyodide's ``js`` module in the browser classroom: ``kitPending()`` says (once) that the
    page sent a widget message meanwhile; here every fourth time it is asked."""

    def __init__(self) -> None:
        self.asked = 0

    def kitPending(self) -> bool:  # the worker's JavaScript name
        self.asked += 1
        return self.asked % 4 == 0


def test_a_slice_ends_at_once_when_the_page_has_a_message_and_the_search_finds_the_same(
    no_threads, monkeypatch
):
    page = WaitingPage()
    monkeypatch.setitem(background.sys.modules, "js", page)
    monkeypatch.setattr(background, "SLICE_SECONDS", 60.0)  # no slice ends on time alone
    board, color = random_position(8, 20, 20)
    player = StrongPlayer(time_limit=30.0, max_depth=5)
    move, turns = asyncio.run(with_ticker(_sliced_search(player, board, color)))
    whole = think(board, color, max_depth=5)
    assert move == whole.move and player.last_thought.nodes == whole.nodes
    assert page.asked >= 8 and turns.count("tick") >= page.asked // 4  # a turn for each message


def test_without_the_pages_flag_a_slice_ends_on_time_alone(monkeypatch):
    monkeypatch.setitem(background.sys.modules, "js", object())  # another page, or none
    monkeypatch.setattr(background, "THREADS", False)
    assert background.page_waiting() is None
    monkeypatch.setitem(background.sys.modules, "js", WaitingPage())
    asked = background.page_waiting()
    assert asked is not None and [asked() for _ in range(4)] == [False, False, False, True]
    monkeypatch.setattr(background, "THREADS", True)  # CPython's own js module, if any: not asked
    assert background.page_waiting() is None


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


# -- the page's turn between slices --------------------------------------------------


def test_a_turn_lasts_until_the_page_stops_sending_then_the_search_goes_on(monkeypatch):
    """Messages queued on the page arrive one per answer: the turn takes them all, in order."""
    handled = [0]
    monkeypatch.setattr(background, "page_messages", lambda: lambda: handled[0])
    events: list[str] = []

    async def page(queued: int):
        for number in range(queued):  # the next message only once the last was answered
            await asyncio.sleep(background.PAUSE_SECONDS / 2)
            handled[0] += 1
            events.append(f"message {number}")

    async def scenario():
        sender = asyncio.get_running_loop().create_task(page(5))
        await asyncio.sleep(0)
        await background.give_way()
        events.append("search goes on")
        await sender

    asyncio.run(scenario())
    assert events == [f"message {n}" for n in range(5)] + ["search goes on"]


def test_a_page_that_never_stops_sending_gets_the_longest_turn_and_no_more(monkeypatch):
    monkeypatch.setattr(background, "page_messages", lambda: lambda: next(counter))
    counter = iter(range(10**9))  # a new message at every look
    monkeypatch.setattr(background, "LONGEST_PAUSE", 0.05)
    started = [0.0]

    async def scenario():
        loop = asyncio.get_running_loop()
        started[0] = loop.time()
        await background.give_way()
        return loop.time() - started[0]

    took = asyncio.run(scenario())
    assert 0.05 <= took < 0.05 + 10 * background.PAUSE_SECONDS + 0.2


def test_the_kernels_widget_messages_are_counted_and_still_delivered(monkeypatch):
    from comm.base_comm import CommManager

    manager = CommManager()
    delivered = []
    manager.comm_msg = lambda stream, ident, msg: delivered.append(msg)
    monkeypatch.setattr("comm.get_comm_manager", lambda: manager)
    count = background.page_messages()
    again = background.page_messages()  # wrapped once, however often asked
    for number in range(3):
        manager.comm_msg(None, None, {"n": number})
    assert count() == again() == 3
    assert delivered == [{"n": 0}, {"n": 1}, {"n": 2}]


class PageCalls:
    """Pyodide's ``js`` module with the site's batching (course.site.batching) as the worker has
    it: messages sent while held go to the page in one call when sent."""

    def __init__(self) -> None:
        self.held: list[str] | None = None
        self.calls: list[list[str]] = []

    def kitHoldMessages(self) -> bool:  # the worker's JavaScript names
        if self.held is not None:
            return False
        self.held = []
        return True

    def kitSendHeld(self) -> None:
        held, self.held = self.held, None
        if held:
            self.calls.append(held)

    def send(self, message: str) -> None:
        if self.held is not None:
            self.held.append(message)
        else:
            self.calls.append([message])


def test_a_slice_and_a_computers_move_reach_the_page_in_one_call_each(no_threads, monkeypatch):
    page = PageCalls()
    monkeypatch.setitem(background.sys.modules, "js", page)  # with no_threads: as in Pyodide
    with background.one_call():
        page.send("canvas")
        with background.one_call():  # held already (a click's answer): one call all the same
            page.send("turn")
        page.send("status")
    page.send("a cell's print")
    assert page.calls == [["canvas", "turn", "status"], ["a cell's print"]]

    page.calls.clear()

    async def game():
        board = play(black=StrongPlayer(time_limit=0.05), white="greedy", size=4, animate=False)
        def redraw(event):  # the board redrawn, then its texts: two messages per event
            page.send(f"{event.kind.name} canvas")
            page.send(f"{event.kind.name} texts")

        board.controller.listen(redraw)
        board.controller.start()
        for _ in range(400):
            await asyncio.sleep(0.01)
            if board.controller.game.is_over or board.controller.error:
                break
        return board

    board = asyncio.run(game())
    assert board is not None and board.controller.error is None, board.controller.error
    played = [call for call in page.calls if {"MOVE canvas", "PASS canvas"} & set(call)]
    assert board is not None and len(played) == len(board.controller.game.plies), page.calls
    for call in played:  # each move's (or pass's) messages in one call of their own
        assert len(call) >= 2 and call[1] == call[0].replace("canvas", "texts"), page.calls


def test_outside_the_browser_one_call_changes_nothing(monkeypatch):
    page = PageCalls()
    monkeypatch.setitem(background.sys.modules, "js", page)  # with threads: not Pyodide's js
    with background.one_call():
        page.send("canvas")
    assert page.held is None and page.calls == [["canvas"]]
