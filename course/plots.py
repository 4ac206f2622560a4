"""The lessons' charts: the evaluation of a game after every move, and the small charts of lessons 3 and 4.

After a game, a class can look at how the advantage swung: every position is
judged by a short search of :mod:`reversi.engine` (the same evaluation the
hard and expert levels use), always from Black's side, so the curve rises when
Black gains and falls when White does.  The move where it drops for good is
where the game was lost.

The lessons' other charts live here too, so that a lesson cell stays one call:
:func:`heatmap` (a number for every square), :func:`weights_chart` (the positional
player's square weights) and :func:`nodes_chart` (positions visited by each search).
Each returns a :class:`course.charts.Chart`, a Vega-Lite description that JupyterLab, Notebook 7,
Voila and the browser classroom draw alike (with tooltips), and that reads as a table in a
terminal.  The arguments are checked from the annotations (:func:`reversi.surface.student`),
bounded so a chart is drawn at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Annotated, Any

from course.charts import NAME, NUMBER, ORDERED, Chart, chart, field, grid, table_text
from course.i18n import N_
from course.i18n import gettext as _
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
#: The two sides of the evaluation chart's line (translated where shown).
BLACK_BETTER, WHITE_BETTER = N_("Black is better"), N_("White is better")
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


@student
def plot_evaluation(
    game: Game,
    depth: Depth = 3,
    curve: Annotated[Sequence[float], Length(0, MAX_PLIES + 1)] | None = None,
) -> Chart:
    """Chart Black's advantage after every move of ``game``: above the line Black is better.

    ``curve`` may give :func:`evaluation_curve`'s numbers, worked out beforehand.
    """
    if curve is None:
        curve = evaluation_curve(game.plies, game.board.size, depth)
    rows = [{"move": move, "advantage": value} for move, value in enumerate(curve)]
    move, for_black = _("move"), _("advantage for Black")
    x = field("move", NUMBER, move, axis={"tickMinStep": 1, "format": "d"})
    sides = {"domain": [_(BLACK_BETTER), _(WHITE_BETTER)], "range": ["#333333", "#bbbbbb"]}
    layers = [
        {
            "data": {"values": _sides(curve)},
            "mark": {"type": "area", "opacity": 0.5},
            "encoding": {"x": x, "y": field("share", NUMBER, for_black, stack=None),
                         "color": field("side", NAME, "", scale=sides)},
        },
        {"mark": {"type": "rule", "color": "grey"}, "encoding": {"y": {"datum": 0}}},
        {
            "mark": {"type": "line", "color": "black", "point": {"color": "black", "size": 12}},
            "encoding": {"x": x, "y": field("advantage", NUMBER),
                         "tooltip": [field("move", NUMBER, move),
                                     field("advantage", NUMBER, _("advantage"), format="+.0f")]},
        },
    ]  # fmt: skip
    title = _("The evaluation after every move")
    text = table_text(title, [move, for_black], [[r["move"], r["advantage"]] for r in rows])
    return chart(title, rows, text, width=520, layer=layers)


@student
def heatmap(
    table: Annotated[Sequence[Sequence[float]], Length(1, MAX_SIZE)],
    title: Annotated[str, Length(0, 200)] = "",
    labels: bool = False,
) -> Chart:
    """Chart a number for every square of a board as a coloured grid (point at one to read it).

    ``table[row][col]`` is the number of that square (row 0 is row 1 of the board);
    ``labels=True`` also writes each number on its square.
    """
    if any(len(row) != len(table) for row in table):
        raise ArgumentError(f"heatmap(): table must be n rows of n numbers, not {shown(table)}")
    lines = title.split("\n")
    return grid(lines, _squares(table), table_text(" ".join(lines), *_board_table(table)),
                {"scheme": "viridis"}, labels=labels)  # fmt: skip


@student
def weights_chart(size: Size = 8) -> Chart:
    """Chart the positional player's weight of every square, written on a red-to-green grid."""
    table = weights(size)
    title = "Square weights of the positional player"
    colors = {"scheme": "redyellowgreen", "domain": [-60, 100]}
    return grid(title, _squares(table), table_text(title, *_board_table(table)), colors)


@student
def nodes_chart(
    nodes: Annotated[
        dict[str, Annotated[Sequence[float], Length(1, MAX_DEPTHS)]], Length(1, MAX_SEARCHES)
    ],
) -> Chart:
    """Chart, per depth 1, 2, ..., the positions each search visited, as bars on a log scale.

    ``nodes`` maps a search's name to its counts, one per depth starting at 1 (at most
    :data:`MAX_SEARCHES` searches of :data:`MAX_DEPTHS` depths: a chart to read, drawn at once).
    """
    rows = [
        {"depth": depth, "search": name, "positions": count}
        for name, counts in nodes.items()
        for depth, count in enumerate(counts, start=1)
    ]
    names = list(nodes)
    encoding = {
        "x": field("depth", ORDERED, "depth (moves looked ahead)", axis={"labelAngle": 0}),
        "xOffset": field("search", NAME, sort=names),
        "y": field("positions", NUMBER, "positions visited", scale={"type": "log"}, stack=None),
        "color": field("search", NAME, "", sort=names),
        "tooltip": [
            field("search", NAME),
            field("depth", ORDERED),
            field("positions", NUMBER, format=","),
        ],
    }
    depths = max(map(len, nodes.values()))
    text = table_text(
        "Positions visited", ["depth", *names],
        [[depth, *(_at(nodes[name], depth - 1) for name in names)] for depth in range(1, depths + 1)],
    )  # fmt: skip
    return chart("Positions visited at each depth", rows, text, width={"step": 60},
                 mark={"type": "bar"}, encoding=encoding)  # fmt: skip


def _sides(curve: Sequence[float]) -> list[dict[str, Any]]:
    """The two shaded areas of the evaluation chart: the curve above zero, and below it.

    Where the curve crosses zero between two moves, both areas get the crossing point,
    so each ends exactly where the line meets zero.
    """
    points = list(enumerate(curve))
    crossings = [
        (move + before / (before - after), 0.0)
        for (move, before), (_next, after) in zip(points, points[1:], strict=False)
        if before * after < 0
    ]
    return [
        {"move": move, "side": side, "share": pick(value, 0.0)}
        for move, value in sorted(points + crossings)
        for side, pick in ((_(BLACK_BETTER), max), (_(WHITE_BETTER), min))
    ]


def _at(counts: Sequence[float], index: int) -> float | None:
    return counts[index] if index < len(counts) else None


def _squares(table: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """One row of chart data per square: its column letter, row number, value and label."""
    return [
        {"column": chr(ord("a") + col), "row": row + 1, "square": f"{chr(ord('a') + col)}{row + 1}",
         "value": value, "label": _label(value)}
        for row, line in enumerate(table)
        for col, value in enumerate(line)
    ]  # fmt: skip


def _label(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _board_table(table: Sequence[Sequence[Any]]) -> tuple[list[str], list[list[Any]]]:
    """A board's numbers as a text table: a header of column letters, a line per row."""
    header = ["", *(chr(ord("a") + col) for col in range(len(table)))]
    return header, [[row + 1, *line] for row, line in enumerate(table)]
