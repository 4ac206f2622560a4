"""The evaluation of a game after every move, as numbers and as a matplotlib plot.

After a game, a class can look at how the advantage swung: every position is
judged by a short search of :mod:`reversi.engine` (the same evaluation the
hard and expert levels use), always from Black's side, so the curve rises when
Black gains and falls when White does.  The move where it drops for good is
where the game was lost.

Matplotlib is imported only when a plot is drawn (it is in the ``plots`` extra).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from reversi.board import Board
from reversi.engine import Thought, think
from reversi.evaluation import STABLE
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
    board = Board(size)
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


def plot_evaluation(
    game: Game, depth: int = 3, ax: Any = None, curve: Sequence[float] | None = None
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
