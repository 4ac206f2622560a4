"""What the computer thinks: a toggle under the board, and the stopping of searches no longer wanted.

When the toggle is on and a strong computer player (the hard and expert
levels) is thinking, the panel shows after every finished depth the depth
reached, the evaluation and the principal variation (the line of play it
expects), and numbers the squares of that line on the board: 1 is the move it
is weighing, 2 the reply it expects, and so on.  When the game is over it shows
a plot of the evaluation after every move (:mod:`course.plots`).

The search runs in a worker thread and reports from there; the panel only
stores the report and asks the notebook's event loop to draw it, since widget
updates from other threads are not reliably sent.

Whether the toggle is on or not, the panel also stops a search as soon as its
answer can no longer be used (Stop, Resign, Undo, New game, Load...): every
such action changes the controller's version, and the searching player is told
to answer at once, so the worker thread is free for the next move.
"""

from __future__ import annotations

import asyncio
import html
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from course.board.events import Event, EventKind
from reversi.engine import Thought
from reversi.notation import PASS, Color, Square
from reversi.players import StrongPlayer

if TYPE_CHECKING:
    from course.board.controller import GameController
    from course.board.view import BoardCanvas

#: The colours of the variation's numbers: the mover's moves, then the replies.
LINE_COLOURS = ("#e4572e", "#2e86ab")


class ThinkingPanel:
    """The toggle, the text panel and the plot output; ``widget`` is what the board shows."""

    def __init__(self, controller: GameController, board: BoardCanvas) -> None:
        self.controller = controller
        self.board = board
        self.toggle = w.ToggleButton(value=False, description="What the computer thinks")
        self.toggle.add_class("reversi-thinking-toggle")
        self.text = w.HTML()
        self.text.add_class("reversi-thinking")
        self.plot = w.Output()
        self.widget = w.VBox([self.toggle, self.text, self.plot])
        self.latest: Thought | None = None
        self._search: tuple[StrongPlayer, int] | None = None  # the player thinking, for which version
        self._plotted_for = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self.toggle.observe(lambda change: self.refresh(), "value")
        controller.listen(self.on_event)
        self.refresh()

    def on_event(self, event: Event) -> None:
        """Follow the controller: note a search starting, stop one no longer wanted."""
        c = self.controller
        if event.kind is EventKind.THINKING and event.color is not None:
            player = c.players.get(event.color)
            if isinstance(player, StrongPlayer):
                self._search = (player, c.version)
                self.latest = None
                try:
                    self._loop = asyncio.get_running_loop()
                except RuntimeError:
                    self._loop = None
                player.on_thought = self._from_worker
            return
        if self._search is not None:
            player, version = self._search
            if version != c.version or c.stopped or c.game.is_over:
                player.stop()  # its answer would be dropped: let it answer now
                self._search = None
        if event.kind is not EventKind.TICK:
            self.refresh()

    def _from_worker(self, thought: Thought) -> None:
        """Called in the worker thread after each finished depth."""
        self.latest = thought
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.show_thought)

    def show_thought(self) -> None:
        """Show the latest report: text, and the variation numbered on the board."""
        thought = self.latest
        if thought is None or not self.toggle.value or self.controller.thinking is None:
            return
        self.text.value = thought_html(thought, self.controller.thinking)
        self.draw_line(thought.line)

    def draw_line(self, line: tuple[Any, ...]) -> None:
        """Number the squares of the variation on the board (drawn over the discs)."""
        canvas, geometry = self.board.canvas, self.board.geometry
        canvas.font = f"bold {max(12, geometry.cell // 2)}px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        for number, move in enumerate(line, start=1):
            if not isinstance(move, Square):
                continue
            x, y = geometry.centre(move)
            canvas.fill_style = LINE_COLOURS[(number - 1) % 2]
            canvas.fill_text(str(number), x, y)

    def refresh(self) -> None:
        """Show or hide the panel's parts as the toggle and the game say."""
        c = self.controller
        on = bool(self.toggle.value)
        self.text.layout.display = None if on else "none"
        self.plot.layout.display = None if on and c.game.is_over else "none"
        if not on:
            return
        if c.thinking is None:
            self.text.value = idle_html(self.latest)
        if c.game.is_over and c.game.plies and self._plotted_for != c.version:
            self._plotted_for = c.version
            self.show_plot()

    def show_plot(self) -> None:
        """Plot the evaluation after every move of the finished game in the output area.

        The searches behind the curve run in a worker thread, like a computer's
        move, so the notebook stays responsive; the plot is drawn on the loop.
        """
        from course.plots import evaluation_curve

        game = self.controller.game
        plies, size, version = list(game.plies), game.board.size, self.controller.version
        self.plot.clear_output()
        with self.plot:
            print("Working out the evaluation after every move...")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): work it out here
            self.draw_plot(evaluation_curve(plies, size), version)
            return
        future = loop.run_in_executor(None, evaluation_curve, plies, size)

        def done(finished: asyncio.Future[list[float]]) -> None:
            if not finished.cancelled() and finished.exception() is None:
                self.draw_plot(finished.result(), version)

        future.add_done_callback(done)

    def draw_plot(self, curve: list[float], version: int) -> None:
        """Draw the curve, unless the game changed while it was worked out."""
        import matplotlib.pyplot as plt

        from course.plots import plot_evaluation

        if version != self.controller.version:
            return
        self.plot.clear_output()
        with self.plot:
            ax = plot_evaluation(self.controller.game, curve=curve)
            plt.show(ax.figure)


def thought_html(thought: Thought, color: Color) -> str:
    """The report of a search under way, as HTML."""
    line = " ".join("pass" if move is PASS else str(move) for move in thought.line[:10])
    return (
        f"<b>{html.escape(str(color))} is thinking</b>: {html.escape(_depth(thought))}, "
        f"{thought.nodes:,} positions<br>"
        f"evaluation for {html.escape(str(color))}: <b>{html.escape(_value(thought))}</b><br>"
        f"expected line: <span class='reversi-line'>{html.escape(line)}</span>"
    )


def idle_html(thought: Thought | None) -> str:
    """What the panel says when no search is under way."""
    if thought is None:
        return "Nothing to show yet: the hard and expert levels report their thinking here."
    return f"Last search: {html.escape(_depth(thought))}, {html.escape(_value(thought))}."


def _depth(thought: Thought) -> str:
    return "solved to the end" if thought.exact else f"depth {thought.depth}"


def _value(thought: Thought) -> str:
    discs = thought.discs
    if discs is None:
        return f"{thought.value:+d} points"
    if discs == 0:
        return "a sure draw"
    return f"a sure win by {discs}" if discs > 0 else f"a sure loss by {-discs}"
