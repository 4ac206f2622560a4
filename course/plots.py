"""The lessons' charts: the evaluation of a game after every move, and the small charts of lessons 3 and 4.

After a game, a class can look at how the advantage swung: every position is
judged by a short search of :mod:`reversi.engine` (the same evaluation the
hard and expert levels use), always from Black's side, so the curve rises when
Black gains and falls when White does.  The move where it drops for good is
where the game was lost.

The lessons' other charts live here too, so that a lesson cell stays one call:
:func:`heatmap` (a number for every square), :func:`weights_chart` (the positional
player's square weights) and :func:`nodes_chart` (positions visited by each search).
Matplotlib is imported only when a plot is drawn (it is in the ``plots`` extra); where
it cannot be (the browser classroom), every chart says so in one line and returns
``None`` (see :func:`course.browser.needs_matplotlib`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from course.browser import needs_matplotlib
from reversi.board import Board
from reversi.engine import Thought, think
from reversi.errors import ArgumentError, shown
from reversi.evaluation import STABLE, weights
from reversi.game import Game, Ply
from reversi.notation import BLACK, Square


def advantage(thought: Thought) -> float:
    """A search's value in evaluation points; a sure result of n discs counts n stable discs.

    >>> from reversi.evaluation import FINAL_DISC_VALUE
    >>> from reversi.notation import PASS
    >>> advantage(Thought(3, PASS, -40, (), 0, 0.0))
    -40.0
    >>> advantage(Thought(12, PASS, 6 * FINAL_DISC_VALUE, (), 0, 0.0, exact=True))  # wins by 6
    150.0
    """
    if not isinstance(thought, Thought):
        raise ArgumentError(f"advantage reads a Thought, not {shown(thought)}")
    discs = thought.discs
    if discs is not None:
        return float(discs * STABLE)
    return float(thought.value)


def evaluation_curve(plies: Sequence[Ply], size: int = 8, depth: int = 3) -> list[float]:
    """Black's advantage in the start position and after every ply (a search ``depth`` deep).

    >>> game = Game()
    >>> for move in ["d3", "c5"]:
    ...     _ = game.play(move)
    >>> curve = evaluation_curve(game.plies)
    >>> len(curve)  # the start, and after each of the two moves
    3
    """
    return list(evaluation_steps(plies, size, depth))


def evaluation_steps(plies: Sequence[Ply], size: int = 8, depth: int = 3) -> Iterator[float]:
    """:func:`evaluation_curve`'s numbers one at a time (a caller without threads can pause between).

    >>> game = Game()
    >>> _ = game.play("d3")
    >>> steps = evaluation_steps(game.plies)
    >>> isinstance(next(steps), float) and isinstance(next(steps), float)
    True
    """
    if not isinstance(plies, list | tuple) or not all(isinstance(ply, Ply) for ply in plies):
        raise ArgumentError(f"the plies are a game's list of Ply, not {shown(plies)}")
    if type(depth) is not int or not 1 <= depth <= 6:
        raise ArgumentError(f"the depth of the curve's searches is a whole number from 1 to 6, not {shown(depth)}")
    return _steps(list(plies), Board(size), depth)


def _steps(plies: list[Ply], board: Board, depth: int) -> Iterator[float]:
    turn = BLACK
    yield _for_black(board, turn, depth)
    for ply in plies:
        if isinstance(ply.move, Square):
            board.play(ply.move, ply.color)
        turn = ply.color.opponent
        yield _for_black(board, turn, depth)


def _for_black(board: Board, turn: Any, depth: int) -> float:
    if board.is_finished():
        return float((board.count(BLACK) - board.count(BLACK.opponent)) * STABLE)
    value = advantage(think(board, turn, max_depth=depth, solve_empties=10))
    return value if turn is BLACK else -value


@needs_matplotlib
def plot_evaluation(
    game: Game, depth: int = 3, ax: Any = None, curve: Sequence[float] | None = None
) -> Any:
    """Draw Black's advantage after every move of ``game``; returns the matplotlib axes.

    ``curve`` may give :func:`evaluation_curve`'s numbers, worked out beforehand.
    """
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    if not isinstance(game, Game):
        raise ArgumentError(f"plot_evaluation draws a Game, not {shown(game)}")
    if ax is not None and not isinstance(ax, Axes):
        raise ArgumentError(f"ax is matplotlib's Axes or None, not {shown(ax)}")
    if curve is not None and not _numbers(curve):
        raise ArgumentError(f"the curve is a list of numbers, not {shown(curve)}")
    if curve is None:
        curve = evaluation_curve(game.plies, game.board.size, depth)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 3))
    moves = range(len(curve))
    ax.axhline(0, color="grey", linewidth=1)
    ax.fill_between(
        moves,
        curve,
        0,
        where=[v >= 0 for v in curve],
        color="#333333",
        alpha=0.3,
        interpolate=True,
        label="Black is better",
    )
    ax.fill_between(
        moves,
        curve,
        0,
        where=[v <= 0 for v in curve],
        color="#cccccc",
        alpha=0.6,
        interpolate=True,
        label="White is better",
    )
    ax.plot(moves, curve, color="black", linewidth=1.5)
    ax.set_xlabel("move")
    ax.set_ylabel("advantage for Black")
    ax.set_title("The evaluation after every move")
    ax.legend(loc="best", fontsize="small")
    return ax


@needs_matplotlib
def heatmap(table: Sequence[Sequence[float]], title: str = "", labels: bool = False) -> Any:
    """Draw a number for every square of a board as a coloured grid; returns the axes.

    ``table[row][col]`` is the number of that square (row 0 is row 1 of the board);
    ``labels=True`` also writes each number on its square.
    """
    import matplotlib.pyplot as plt

    if (
        not isinstance(table, list | tuple)
        or not 1 <= len(table) <= 16
        or not all(isinstance(row, list | tuple) and len(row) == len(table) and _numbers(row) for row in table)
    ):
        raise ArgumentError(f"a heat map's table is n rows of n numbers (n up to 16), not {shown(table)}")
    if not isinstance(title, str) or type(labels) is not bool:
        raise ArgumentError(f"title is text and labels True or False, not {shown(title)} and {shown(labels)}")
    size = len(table)
    fig, ax = plt.subplots(figsize=(4.5, 4))
    image = ax.imshow(table, cmap="viridis")
    _square_names(ax, size, table if labels else None)
    ax.set_title(title)
    fig.colorbar(image, ax=ax)
    return ax


@needs_matplotlib
def weights_chart(size: int = 8) -> Any:
    """Draw the positional player's weight of every square, written on a red-to-green grid."""
    import matplotlib.pyplot as plt

    table = weights(size)
    _, ax = plt.subplots(figsize=(4.5, 4))
    ax.imshow(table, cmap="RdYlGn", vmin=-60, vmax=100)
    _square_names(ax, size, table)
    ax.set_title("Square weights of the positional player")
    return ax


@needs_matplotlib
def nodes_chart(nodes: dict[str, list[int]]) -> Any:
    """Draw, per depth 1, 2, ..., the positions each search visited, as bars on a log scale.

    ``nodes`` maps a search's name to its counts, one per depth starting at 1.
    """
    import matplotlib.pyplot as plt

    if not isinstance(nodes, dict) or not all(
        isinstance(name, str) and isinstance(counts, list | tuple) and _numbers(counts)
        for name, counts in nodes.items()
    ):
        raise ArgumentError(f"nodes maps a search's name to its counts per depth, not {shown(nodes)}")
    _, ax = plt.subplots(figsize=(5.5, 3))
    width = 0.8 / max(len(nodes), 1)
    for index, (name, counts) in enumerate(nodes.items()):
        offset = (index - (len(nodes) - 1) / 2) * width
        depths = range(1, len(counts) + 1)
        ax.bar([depth + offset for depth in depths], counts, width=width, label=name)
    ax.set_yscale("log")
    ax.set_xticks(list(range(1, max(map(len, nodes.values()), default=0) + 1)))
    ax.set_xlabel("depth (moves looked ahead)")
    ax.set_ylabel("positions visited")
    ax.legend()
    return ax


def _square_names(ax: Any, size: int, table: Sequence[Sequence[Any]] | None) -> None:
    """Name the columns a, b, ... and the rows 1, 2, ...; write ``table``'s numbers if given."""
    ax.set_xticks(range(size), [chr(ord("a") + col) for col in range(size)])
    ax.set_yticks(range(size), range(1, size + 1))
    for row, line in enumerate(table or ()):
        for col, value in enumerate(line):
            ax.text(col, row, value, ha="center", va="center", fontsize=8)


def _numbers(values: object) -> bool:
    """True for a list or tuple of finite real numbers (no bool)."""
    return isinstance(values, list | tuple) and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values
    )
