"""Computer moves and the game clock, run on the asyncio loop so the notebook never freezes.

This module owns the two background tasks of a board and the narrow :class:`Host`
interface they need; it knows nothing of the controller, the widgets or the rules.
In a notebook the kernel runs an asyncio loop: clicks arrive on it, and so do the
tasks started here.  A computer player's search runs in a worker thread
(``run_in_executor``) on a copy of the board; the move it returns is handed back on
the loop, where the widgets are updated (ipykernel does not reliably send widget
updates made from other threads).  Without a running loop (a script, a doctest)
nothing starts: the host calls ``tick()`` or plays the moves itself.

Pyodide, the kernel of a course site in the browser, has no threads
(``sys.platform == "emscripten"``).  There :func:`_work_out` takes the thread-free
path: a strong player's search runs on the loop itself, pausing every few hundredths
of a second, and between slices the loop gets its turn (clicks, Stop, the clock);
the other players, quick by design, move after one turn of the loop.
:func:`threads_available` says which path is taken; tests force the thread-free
one in CPython.  What a slice or a computer's move changes on the page goes to it in
one call (:func:`one_call`), so a click waiting for its turn waits less; and a slice ends
as soon as the page has a message for the kernel (:func:`page_waiting`).
"""

from __future__ import annotations

import asyncio
import functools
import sys
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from reversi.board import Board
from reversi.engine import thinking
from reversi.notation import PASS, Color, Move
from reversi.players import Player, StrongPlayer

#: How often the clock is checked in a timed game, in seconds.
CLOCK_TICK = 0.2

#: Without threads, a search hands the loop a turn after this many seconds of work...
SLICE_SECONDS = 0.04

#: ...for at least this many seconds: a timer, so the browser reads the page's waiting messages
#: (a turn of ``sleep(0)`` is a task Pyodide posts itself, which Chromium may run before them).
PAUSE_SECONDS = 0.004

#: While the page keeps sending messages, the turn goes on, for at most this many seconds.
LONGEST_PAUSE = 0.25

#: The share of a player's time limit a search in slices keeps in reserve: the answer must be
#: on the board within the limit, and the processor taken away near the end delays it.
TIME_RESERVE = 0.05


@dataclass(frozen=True)
class ComputerTurn:
    """A computer player's turn to work out: the position (a copy) as of ``version``."""

    version: int
    color: Color
    player: Player
    board: Board
    wait: float = 0.0  # seconds to wait before thinking, so people can follow


class Host(Protocol):
    """What the background tasks need from the game they run for, and nothing more.

    An interface: a host is any object with these members (the board's controller is one).
    """

    @property
    @abstractmethod
    def version(self) -> int: ...

    @property
    @abstractmethod
    def clock_running(self) -> bool: ...

    @abstractmethod
    def computer_turn(self) -> ComputerTurn | None:
        """The computer player's turn to work out now, or ``None``."""

    @abstractmethod
    def set_thinking(self, color: Color | None) -> None:
        """``color``'s computer player starts (or, with ``None``, stops) working out a move."""

    @abstractmethod
    def play_computer_move(self, move: Move, version: int) -> bool:
        """Play ``move``, chosen for the position of ``version`` (dropped if the game moved on)."""

    @abstractmethod
    def tick(self) -> bool:
        """Check the clock; returns whether a side lost its turn."""

    @abstractmethod
    def report_error(self, error: BaseException) -> None:
        """Show an unexpected error; computer players rest afterwards."""


#: Whether this Python can run a search in a worker thread (Pyodide cannot); tests may set it.
THREADS = sys.platform != "emscripten"


def threads_available() -> bool:
    """Whether searches run in a worker thread (``False`` in Pyodide, or when a test says so)."""
    return THREADS


async def _work_out(
    player: Player, board: Board, color: Color, still_wanted: Callable[[], bool] = lambda: True
) -> Move:
    """``player``'s move for ``color`` on ``board``, worked out without blocking the loop for long.

    With threads the search runs in a worker thread.  Without, a strong player
    searches in slices (see :func:`_sliced_search`) and any other player moves
    after one turn of the loop.  ``still_wanted()`` turning false ends a sliced
    search early (its answer will be dropped anyway).
    """
    if threads_available():
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, player.choose_move, board, color)
    if isinstance(player, StrongPlayer):
        return await _sliced_search(player, board, color, still_wanted)
    await asyncio.sleep(0)
    return player.choose_move(board, color)


async def _sliced_search(
    player: StrongPlayer,
    board: Board,
    color: Color,
    still_wanted: Callable[[], bool] = lambda: True,
) -> Move:
    """A strong player's move from one search run in slices, the loop running between slices.

    The search (:func:`~reversi.engine.thinking`) pauses after every
    :data:`SLICE_SECONDS` and goes on where it was, its table and depth kept, so
    it finds what one uninterrupted search finds in the player's time limit
    (which counts the time between slices too; the search aims at the limit less
    :data:`TIME_RESERVE` of it, so the answer is on the board within the limit).  The player's ``on_thought``
    hears every new depth and ``last_thought`` keeps the answer, as in the
    threaded search.  ``still_wanted()`` turning false (for example after
    :meth:`StrongPlayer.stop` changed the game's version) ends it early.
    """
    if not board.has_legal_move(color):
        return PASS
    steps = thinking(
        board, color, time_limit=_aim(player.time_limit), max_depth=player.max_depth,
        solve_empties=player.solve_empties, wld_empties=player.wld_empties, clock=player.clock,
        should_stop=lambda: not still_wanted(), on_thought=player.on_thought,
        slice_seconds=SLICE_SECONDS, should_pause=page_waiting(),
    )  # fmt: skip
    while True:
        try:
            with one_call():  # the thinking view's updates
                next(steps)
        except StopIteration as end:
            player.last_thought = end.value
            return player.last_thought.move
        await give_way()  # the loop's turn: clicks, Stop, the clock, the thinking view


@contextmanager
def one_call() -> Iterator[None]:
    """The widget messages the kernel sends meanwhile go to the page together, in one call.

    In the browser classroom every message is a call from the kernel's worker to the page,
    which waits for the page's answer (:mod:`course.site.batching` holds them); elsewhere,
    or inside a batch already (a click's answer), this changes nothing.
    """
    page: Any = None if THREADS else sys.modules.get("js")  # Pyodide's own module
    hold = getattr(page, "kitHoldMessages", None)
    if hold is None or not hold():
        yield
        return
    try:
        yield
    finally:
        page.kitSendHeld()


def page_waiting() -> Callable[[], bool] | None:
    """Whether the page sent the kernel a widget message since last asked, read while Python
    runs; None where no page can say so (a slice then lasts :data:`SLICE_SECONDS`).

    The browser classroom's isolated page raises a flag in memory it shares with the kernel's
    worker as it sends a widget message (:mod:`course.site.batching`): a slice of a search
    ends at once, and a click waits for no slice.
    """
    page: Any = None if THREADS else sys.modules.get("js")  # Pyodide's own module
    pending = getattr(page, "kitPending", None)
    return None if pending is None else lambda: bool(pending())


def _aim(time_limit: float | None) -> float | None:
    """The time a search in slices aims at: the limit less :data:`TIME_RESERVE` of it."""
    return None if time_limit is None else time_limit * (1 - TIME_RESERVE)


async def give_way() -> None:
    """Give the loop (and the page) a turn between two slices of work, however many messages wait.

    In JupyterLite the page hands the kernel one message at a time (a click, a
    button, each mouse move over a canvas) and sends the next only once the
    kernel answered the last: with one message per turn, a backlog would grow
    with each slice.  So the turn lasts :data:`PAUSE_SECONDS` and goes on while
    messages keep coming (each turn took one), up to :data:`LONGEST_PAUSE`.
    """
    handled = page_messages()
    began = time.monotonic()
    while True:
        seen = handled()
        await asyncio.sleep(PAUSE_SECONDS)
        if handled() == seen or time.monotonic() - began >= LONGEST_PAUSE:
            return


def page_messages() -> Callable[[], int]:
    """How many widget messages from the page this kernel has handled so far (0 without a kernel).

    The kernel hands every message of a widget to the comm manager's ``comm_msg``
    (in Pyodide's kernel, looked up at each message): it is wrapped, once, to count them.
    """
    try:
        from comm import get_comm_manager

        manager: Any = get_comm_manager()  # the counter is an attribute of our own on it
    except Exception:  # no comm package or no kernel: nothing to count
        return lambda: 0
    if not hasattr(manager, "kit_messages"):
        handle = manager.comm_msg

        def counted(*args: object, **options: object) -> object:
            manager.kit_messages += 1
            return handle(*args, **options)

        manager.kit_messages = 0
        manager.comm_msg = counted
    return lambda: int(manager.kit_messages)


class Background:
    """The computer-move and clock tasks of one host.

    ``started`` stays false until the board is shown (or a person acts), so a
    computer-vs-computer game does not finish before anyone can watch it.
    """

    def __init__(self, host: Host, started: bool = True) -> None:
        self.host = host
        self.started = started
        self._computer: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        self._busy_until = 0.0  # time.monotonic() when the view's last animation ends

    def hold(self, seconds: float) -> None:
        """The view needs ``seconds`` to show the last change: the next computer move waits."""
        if seconds > 0:
            self._busy_until = max(self._busy_until, time.monotonic() + seconds)

    def schedule(self) -> None:
        """Start whichever task is needed now, if a loop is running."""
        if not self.started:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self.host.computer_turn() is not None and not _running(self._computer):
            self._computer = loop.create_task(self._computer_turns())
        if self.host.clock_running and not _running(self._clock):
            self._clock = loop.create_task(self._run_clock())

    async def idle(self) -> None:
        """Wait until no computer move is being worked out or waited for."""
        while self._computer is not None and not self._computer.done():
            await asyncio.shield(self._computer)

    def close(self) -> None:
        """Cancel both tasks."""
        for task in (self._computer, self._clock):
            if task is not None:
                task.cancel()

    async def _computer_turns(self) -> None:
        host = self.host
        while (turn := host.computer_turn()) is not None:
            try:
                host.set_thinking(turn.color)
                delay = max(0.0, self._busy_until - time.monotonic()) + turn.wait
                await asyncio.sleep(delay)  # at least sleep(0): clicks and Stop get their turn
                if turn.version != host.version:
                    continue
                move = await _work_out(
                    turn.player,
                    turn.board,
                    turn.color,
                    functools.partial(_same, host, turn.version),
                )
                with one_call():
                    host.set_thinking(None)
                    host.play_computer_move(move, turn.version)  # dropped if the game moved on
            except asyncio.CancelledError:
                raise
            except Exception as error:  # shown in the status line, never lost in a task
                host.report_error(error)
            finally:
                host.set_thinking(None)

    async def _run_clock(self) -> None:
        host = self.host
        while host.clock_running:
            await asyncio.sleep(CLOCK_TICK)
            try:
                host.tick()
            except Exception as error:
                host.report_error(error)
                return


def _same(host: Host, version: int) -> bool:
    return host.version == version


def _running(task: asyncio.Task[None] | None) -> bool:
    return task is not None and not task.done()
