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
``None`` (see :func:`course.browser.needs_matplotlib`).  Elsewhere the arguments are checked
from the annotations (:func:`reversi.surface.student`), bounded so a chart is drawn at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Annotated, Any

from course.browser import Axes, needs_matplotlib
from reversi.actions import Ply
from reversi.board import Board
from reversi.engine import Thought, think
from reversi.errors import ArgumentError, shown
from reversi.evaluation import STABLE, weights
from reversi.game import Game
from reversi.notation import BLACK, MAX_SIZE, MIN_SIZE, Square
from reversi.surface import student
from reversi.typecheck import Between, Length

#: The most plies a curve follows (a game on the largest board has fewer, passes included).
MAX_PLIES = 1000
#: The most searches, and depths per search, a nodes chart draws (a lesson compares a few).
MAX_SEARCHES, MAX_DEPTHS = 12, 30
Size = Annotated[int, Between(MIN_SIZE, MAX_SIZE)]
Depth = Annotated[int, Between(1, 6)]
Plies = Annotated[Sequence[Ply], Length(0, MAX_PLIES)]


def advantage(thought: Thought) -> float:
    """A search's value in evaluation points; a sure result of n discs counts n stable discs.

    >>> from reversi.evaluation import FINAL_DISC_VALUE
    >>> from reversi.notation import PASS
    >>> advantage(Thought(3, PASS, -40, (), 0, 0.0))
    -40.0
    >>> advantage(Thought(12, PASS, 6 * FINAL_DISC_VALUE, (), 0, 0.0, exact=True))  # wins by 6
    150.0
    """
    discs = thought.discs
    if discs is not None:
        return float(discs * STABLE)
    return float(thought.value)


@student
def evaluation_curve(plies: Plies, size: Size = 8, depth: Depth = 3) -> list[float]:
    """Black's advantage in the start position and after every ply (a search ``depth`` deep).

    >>> game = Game()
    >>> for move in ["d3", "c5"]:
    ...     _ = game.play(move)
    >>> curve = evaluation_curve(game.plies)
    >>> len(curve)  # the start, and after each of the two moves
    3
    """
    return list(evaluation_steps(plies, size, depth))


@student
def evaluation_steps(plies: Plies, size: Size = 8, depth: Depth = 3) -> Iterator[float]:
    """:func:`evaluation_curve`'s numbers one at a time (a caller without threads can pause between).

    >>> game = Game()
    >>> _ = game.play("d3")
    >>> steps = evaluation_steps(game.plies)
    >>> isinstance(next(steps), float) and isinstance(next(steps), float)
    True
    """
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
@student
def plot_evaluation(
    game: Game,
    depth: Depth = 3,
    ax: Axes | None = None,
    curve: Annotated[Sequence[float], Length(0, MAX_PLIES + 1)] | None = None,
) -> Any:
    """Draw Black's advantage after every move of ``game``; returns the matplotlib axes.

    ``curve`` may give :func:`evaluation_curve`'s numbers, worked out beforehand.
    """
    import matplotlib.pyplot as plt

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
@student
def heatmap(
    table: Annotated[Sequence[Sequence[float]], Length(1, MAX_SIZE)],
    title: Annotated[str, Length(0, 200)] = "",
    labels: bool = False,
) -> Any:
    """Draw a number for every square of a board as a coloured grid; returns the axes.

    ``table[row][col]`` is the number of that square (row 0 is row 1 of the board);
    ``labels=True`` also writes each number on its square.
    """
    import matplotlib.pyplot as plt

    if any(len(row) != len(table) for row in table):
        raise ArgumentError(f"heatmap(): table must be n rows of n numbers, not {shown(table)}")
    size = len(table)
    fig, ax = plt.subplots(figsize=(4.5, 4))
    image = ax.imshow(table, cmap="viridis")
    _square_names(ax, size, table if labels else None)
    ax.set_title(title)
    fig.colorbar(image, ax=ax)
    return ax


@needs_matplotlib
@student
def weights_chart(size: Size = 8) -> Any:
    """Draw the positional player's weight of every square, written on a red-to-green grid."""
    import matplotlib.pyplot as plt

    table = weights(size)
    _, ax = plt.subplots(figsize=(4.5, 4))
    ax.imshow(table, cmap="RdYlGn", vmin=-60, vmax=100)
    _square_names(ax, size, table)
    ax.set_title("Square weights of the positional player")
    return ax


@needs_matplotlib
@student
def nodes_chart(
    nodes: Annotated[
        dict[str, Annotated[Sequence[float], Length(1, MAX_DEPTHS)]], Length(1, MAX_SEARCHES)
    ],
) -> Any:
    """Draw, per depth 1, 2, ..., the positions each search visited, as bars on a log scale.

    ``nodes`` maps a search's name to its counts, one per depth starting at 1 (at most
    :data:`MAX_SEARCHES` searches of :data:`MAX_DEPTHS` depths: a chart to read, drawn at once).
    """
    import matplotlib.pyplot as plt

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

