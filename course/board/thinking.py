"""What the computer thinks: a toggle under the board, and the stopping of searches no longer wanted.

When the toggle is on and a strong computer player (the hard and expert
levels) is thinking, the panel says after every finished depth, in words a
student reads, how far it looks ahead and what it expects ("White looks 9
moves ahead and expects to be about 2 discs behind"), with the technical
figures (depth, positions, evaluation points) folded in a detail.  The board
is redrawn with the first moves of the line it expects as numbered tiles (1 is
the move it weighs, 2 the reply it expects, ...; a legend says so), so one set
of numbers shows at a time.  A compact bar shows who it thinks is ahead.  When
the game is over the panel shows a chart of the evaluation after every move
(:mod:`course.plots`), a Vega-Lite chart set straight into an ``Output`` widget's outputs
(printing into an ``Output`` from a done-callback is not routed by ipykernel 7), which
JupyterLab, Voila and the browser classroom draw alike.

With threads, the search runs in a worker thread and reports from there; the
panel stores the report and asks the notebook's event loop to draw it.
Without threads (Pyodide) the search runs on the loop in slices
(:mod:`.background`) and the curve is worked out a move per slice.

Whether the toggle is on or not, the panel also stops a search as soon as its
answer can no longer be used (Stop, Resign, Undo, New game, Load...): every
such action changes the controller's version, and the searching player is told
to answer at once, so the worker thread is free for the next move.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from course.board.background import threads_available
from course.board.controller import GameController
from course.board.events import Event, EventKind
from course.board.messages import colour
from course.board.panels import display
from course.i18n import gettext as _
from course.i18n import ngettext
from reversi.engine import Thought
from reversi.evaluation import STABLE
from reversi.notation import BLACK, PASS, Color, Move
from reversi.players import StrongPlayer

#: How many moves of the expected line are numbered on the board.
LINE_SHOWN = 4

#: Draws the board with the expected line's first moves numbered on it.
DrawLine = Callable[[Sequence[Move]], None]


class ThinkingPanel:
    """The toggle, the text panel, the evaluation bar and the chart; ``widget`` is what the board shows."""

    def __init__(self, controller: GameController, draw_line: DrawLine | None = None) -> None:
        self.controller = controller
        self.draw_line = draw_line or (lambda line: None)
        self.toggle = w.ToggleButton(
            value=False,
            description=_("What the computer thinks"),
            tooltip=_("Show what a hard or expert computer player expects while it thinks"),
            layout=w.Layout(width="auto", min_width="fit-content", max_width="100%"),
        )
        self.toggle.add_class("reversi-thinking-toggle")
        self.text = w.HTML()
        self.text.add_class("reversi-thinking")
        self.bar = w.HTML()
        self.bar.add_class("reversi-evaluation-bar")
        self.plot = w.VBox()
        self.plot.add_class("reversi-evaluation-chart")
        self.plot_note = w.HTML()
        self.chart = w.Output(layout=w.Layout(max_width="100%"))
        self.chart.add_class("reversi-evaluation-plot")
        self.widget = w.VBox([self.toggle, self.bar, self.text, self.plot])
        self.latest: Thought | None = None
        self.thinker: Color | None = None
        self._search: tuple[StrongPlayer, int] | None = (
            None  # the player thinking, for which version
        )
        self._plotted_for = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self._curve_task: asyncio.Task[None] | None = None
        self.toggle.observe(self._toggled, "value")
        controller.listen(self.on_event)
        self.refresh()

    def _toggled(self, change: dict[str, Any]) -> None:
        if not change["new"]:
            self.draw_line(())  # the board without the expected line
        self.refresh()

    def on_event(self, event: Event) -> None:
        """Follow the controller: note a search starting, stop one no longer wanted."""
        c = self.controller
        if event.kind is EventKind.THINKING and event.color is not None:
            player = c.players.get(event.color)
            if isinstance(player, StrongPlayer):
                self._search = (player, c.version)
                self.latest = None
                self.thinker = event.color
                try:
                    self._loop = asyncio.get_running_loop()
                except RuntimeError:
                    self._loop = None
                player.on_thought = self._from_search
            return
        if self._search is not None:
            player, version = self._search
            if version != c.version or c.stopped or c.game.is_over:
                player.stop()  # its answer would be dropped: let it answer now
                self._search = None
        if event.kind is not EventKind.TICK:
            self.refresh()

    def _from_search(self, thought: Thought) -> None:
        """Called after each finished depth: in the worker thread, or on the loop without threads."""
        self.latest = thought
        if not threads_available():
            self.show_thought()
            return
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.show_thought)

    def show_thought(self) -> None:
        """Show the latest report: words, bar, and the board redrawn with the line numbered."""
        thought = self.latest
        thinking = self.controller.thinking
        if thought is None or not self.toggle.value or thinking is None:
            return
        self.text.value = thought_html(thought, thinking)
        self.bar.value = bar_html(thought, thinking)
        self.draw_line(thought.line[:LINE_SHOWN])

    def refresh(self) -> None:
        """Show or hide the panel's parts as the toggle and the game say."""
        c = self.controller
        on = bool(self.toggle.value)
        self.text.layout.display = display(on)
        self.bar.layout.display = display(on and self.latest is not None)
        self.plot.layout.display = display(on and c.game.is_over)
        if not on:
            return
        if c.thinking is None:
            self.text.value = idle_html(self.latest, self.thinker)
        if c.game.is_over and c.game.plies and self._plotted_for != c.version:
            self._plotted_for = c.version
            self.show_plot()

    def show_plot(self) -> None:
        """Chart the evaluation after every move of the finished game.

        The searches behind the curve run in a worker thread (or, without
        threads, a move per slice on the loop), so the notebook stays
        responsive; the chart is set on the loop, into the output widget.
        """
        from course.plots import evaluation_curve

        game = self.controller.game
        plies, size, version = list(game.plies), game.board.size, self.controller.version
        self.plot_note.value = html.escape(_("Working out the evaluation after every move..."))
        self.plot.children = [self.plot_note]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): work it out here
            self.draw_plot(evaluation_curve(plies, size), version)
            return
        if not threads_available():
            self._curve_task = loop.create_task(self._sliced_curve(plies, size, version))
            return
        future = loop.run_in_executor(None, evaluation_curve, plies, size)

        def done(finished: asyncio.Future[list[float]]) -> None:
            if not finished.cancelled() and finished.exception() is None:
                self.draw_plot(finished.result(), version)

        future.add_done_callback(done)

    async def _sliced_curve(self, plies: list[Any], size: int, version: int) -> None:
        from course.plots import evaluation_steps

        curve = []
        for value in evaluation_steps(plies, size):
            curve.append(value)
            await asyncio.sleep(0)  # a position per slice: the loop stays responsive
            if version != self.controller.version:
                return
        self.draw_plot(curve, version)

    def draw_plot(self, curve: list[float], version: int) -> None:
        """Set the chart of the curve, unless the game changed while it was worked out."""
        if version != self.controller.version:
            return
        self.chart.outputs = (_chart_output(self.controller.game, curve),)
        went, how = _("{how}: above the line Black was better, below it White."), _("How the game went")
        self.plot_note.value = html.escape(went).format(how=f"<b>{html.escape(how)}</b>")
        self.plot.children = [self.plot_note, self.chart]


def _chart_output(game: Any, curve: Sequence[float]) -> dict[str, Any]:
    """The evaluation chart of ``game`` as one stored display output of an ``Output`` widget."""
    from course.plots import plot_evaluation

    data, metadata = plot_evaluation(game, curve=curve)._repr_mimebundle_()
    return {"output_type": "display_data", "data": data, "metadata": metadata}


def expected_discs(thought: Thought) -> int:
    """About how many discs ahead (negative: behind) the search expects its side to finish.

    A sure result is its disc count; otherwise the evaluation counts a disc
    sure to stay as :data:`~reversi.evaluation.STABLE` points.

    >>> from reversi.notation import Square
    >>> expected_discs(Thought(9, Square(2, 3), -50, (), 0, 0.0))
    -2
    """
    discs = thought.discs
    return discs if discs is not None else round(thought.value / STABLE)


def verdict(thought: Thought, color: Color) -> str:
    """The search in one sentence a student reads.

    >>> from reversi.notation import WHITE, Square
    >>> verdict(Thought(9, Square(2, 3), -50, (), 0, 0.0), WHITE)
    'White looks 9 moves ahead and expects to be about 2 discs behind.'
    """
    discs, player = expected_discs(thought), colour(color)
    count = abs(discs)
    if thought.discs is not None:
        if discs == 0:
            said = _("{player} looks all the way to the end of the game: with the best play on both sides "
                     "the game draws.")  # fmt: skip
        elif discs > 0:
            said = ngettext("{player} looks all the way to the end of the game: with the best play on both "
                            "sides it wins by {count} disc.", "{player} looks all the way to the end of the "
                            "game: with the best play on both sides it wins by {count} discs.", count)  # fmt: skip
        else:
            said = ngettext("{player} looks all the way to the end of the game: with the best play on both "
                            "sides it loses by {count} disc.", "{player} looks all the way to the end of the "
                            "game: with the best play on both sides it loses by {count} discs.", count)  # fmt: skip
        return said.format(player=player, count=count)
    if discs == 0:
        expects = _("expects the game to stay about level")
    elif discs > 0:
        expects = ngettext("expects to be about {count} disc ahead", "expects to be about {count} discs ahead", count)
    else:
        expects = ngettext("expects to be about {count} disc behind", "expects to be about {count} discs behind",
                           count)  # fmt: skip
    looks = ngettext("{player} looks {depth} move ahead and {expects}.",
                     "{player} looks {depth} moves ahead and {expects}.", thought.depth)  # fmt: skip
    return looks.format(player=player, depth=thought.depth, expects=expects.format(count=count))


def thought_html(thought: Thought, color: Color) -> str:
    """The report of a search under way, as HTML: words, legend, then the figures in a detail."""
    passed = _("pass")
    line = " ".join(passed if move is PASS else str(move) for move in thought.line[:10])
    name, other = html.escape(colour(color)), html.escape(colour(color.opponent))
    tiles = {f"n{number}": f"<b>{number}</b>" for number in range(1, 5)}
    legend = html.escape(_("On the board: {n1} is the move {player} weighs, {n2} the answer it expects from "
                           "{other}, then {n3}, {n4}... (numbered tiles in the colour of the side that would "
                           "play)."))  # fmt: skip
    # TRANSLATORS: the separator of thousands in a big number (12,345 positions)
    nodes = f"{thought.nodes:,}".replace(",", _(","))
    figures = [
        _("{player} is thinking: {depth}, {count} positions").format(
            player=colour(color), depth=_depth(thought), count=nodes),
        _("evaluation for {player}: {value} (a disc sure to stay counts {points} points)"),
        _("expected line: {line}"),
    ]  # fmt: skip
    value, summary = f"<b>{html.escape(_value(thought))}</b>", html.escape(_("The figures behind this"))
    details = (
        f"<details><summary>{summary}</summary>{html.escape(figures[0])}<br>"
        + html.escape(figures[1]).format(player=name, value=value, points=STABLE) + "<br>"
        + html.escape(figures[2]).format(line=f"<span class='reversi-line'>{html.escape(line)}</span>")
        + "</details>"
    )  # fmt: skip
    return (f"<b>{html.escape(verdict(thought, color))}</b>"
            f'<div class="reversi-legend">{legend.format(player=name, other=other, **tiles)}</div>{details}')  # fmt: skip


def bar_html(thought: Thought, color: Color) -> str:
    """A compact bar: Black's expected share, from the thinking side's point of view.

    >>> from reversi.notation import BLACK, Square
    >>> 'width: 50%' in bar_html(Thought(3, Square(2, 3), 0, (), 0, 0.0), BLACK)
    True
    """
    discs = expected_discs(thought)
    for_black = discs if color is BLACK else -discs
    share = max(2, min(98, 50 + for_black * 3))
    if for_black == 0:
        said = _("level")
    else:
        leader = colour(BLACK) if for_black > 0 else colour(BLACK.opponent)
        said = _("{player} about {count} ahead").format(player=leader, count=abs(for_black))
    label, bar = html.escape(said), html.escape(_("Evaluation bar: {label}").format(label=said))
    return (
        f'<div role="img" aria-label="{bar}" title="{label}" '
        'style="display: flex; height: 14px; max-width: 320px; border: 1px solid #555; '
        'border-radius: 3px; overflow: hidden">'
        f'<div style="width: {share}%; background: #141414"></div>'
        '<div style="flex: 1; background: #f4f4f4"></div></div>'
        f'<div style="font-size: 0.9em">{label}</div>'
    )


def idle_html(thought: Thought | None, color: Color | None = None) -> str:
    """What the panel says when no search is under way."""
    if thought is None or color is None:
        return html.escape(_("Nothing to show yet: the hard and expert levels report their thinking here."))
    return html.escape(_("Last search: {verdict}").format(verdict=verdict(thought, color)))


def _depth(thought: Thought) -> str:
    return _("solved to the end") if thought.exact else _("depth {depth}").format(depth=thought.depth)


def _value(thought: Thought) -> str:
    discs = thought.discs
    if discs is None:
        return _("{value} points").format(value=f"{thought.value:+d}")
    if discs == 0:
        return _("a sure draw")
    if discs > 0:
        return _("a sure win by {count}").format(count=discs)
    return _("a sure loss by {count}").format(count=-discs)
