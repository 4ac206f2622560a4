"""Checks for exercises 09 and 10: minimax and alpha-beta, values and positions visited.

The student's search scores positions with :func:`reversi.evaluation.evaluate` and calls
``counter.visit()`` once for every position it looks at.  The expected values and counts
come from :func:`reversi.search.minimax`, which scores and counts the same way (a pass is
one ply, a finished game gets its final score at any depth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from course.grading import answers
from course.grading.cases import early_ends, pass_positions, random_game
from course.grading.runner import Case, NotAnAnswer, run
from reversi import BLACK, PASS, Board, Color, Square
from reversi.evaluation import evaluate
from reversi.search import minimax


class NodeCounter:
    """Counts the positions a search visits: the search calls :meth:`visit` once for each."""

    def __init__(self) -> None:
        self.nodes = 0

    def visit(self) -> None:
        self.nodes += 1

    def __repr__(self) -> str:
        return f"NodeCounter(nodes={self.nodes})"


def search_positions() -> list[tuple[str, Board, Color, int]]:
    """``(label, board, colour to move, depth)`` for the search checks: openings, middle
    games, endings within reach, passes and a finished game."""
    found = [("the start, depth 1", Board(), BLACK, 1), ("the start, depth 3", Board(), BLACK, 3)]
    for size, seed, ply, depth in (
        (8, 1, 20, 3),
        (8, 2, 30, 2),
        (8, 3, 40, 3),
        (6, 4, 20, 4),
        (6, 5, 24, 4),
    ):
        board, color = list(random_game(seed, size, stop=ply))[-1]
        found.append(
            (f"{size}x{size} game {seed} after {ply} plies, depth {depth}", board, color, depth)
        )
    found += [
        (f"{label}, depth 3", board, color, 3) for label, board, color in pass_positions()[:3]
    ]
    found += [(f"{label}, depth 2", board, BLACK, 2) for label, board in early_ends()[:1]]
    return found


def _search_case(
    label: str, board: Board, color: Color, depth: int, expected: Any, *extra: Any
) -> Case:
    return Case(label, (board, color, depth, *extra, NodeCounter()), expected, board)


def _value(answer: Any) -> float:
    value = answers.number(answer)
    if isinstance(value, float) and not math.isfinite(value):
        raise NotAnAnswer("infinity is not the value of a position")
    return value


def _counted(answer: Any, args: tuple[Any, ...]) -> int:
    return _nodes(args[-1])


def minimax_value(function: Any) -> None:
    """``minimax(board, color, depth, counter)`` returns the minimax value."""
    cases = [
        _search_case(label, b, c, d, minimax(b, c, d).value)
        for label, b, c, d in search_positions()
    ]
    run("minimax_value", function, cases, _value)


def minimax_nodes(function: Any) -> None:
    """``minimax`` calls ``counter.visit()`` once per position: as many as full minimax visits."""
    cases = [
        _search_case(label, b, c, d, minimax(b, c, d).nodes)
        for label, b, c, d in search_positions()
    ]
    run("minimax_nodes", function, cases, outcome=_counted, show=lambda n: f"{n} positions visited")


@dataclass(frozen=True)
class Judged:
    """A move and its minimax value; only the value counts when comparing."""

    value: float
    move: Any = field(default=None, compare=False)

    def __str__(self) -> str:
        return (
            f"{self.move}, worth {self.value}"
            if self.move is not None
            else f"a move worth {self.value}"
        )


def _move_values(board: Board, color: Color, depth: int) -> dict[Any, float]:
    values: dict[Any, float] = {}
    for move in board.legal_moves(color):
        child = board.copy()
        child.play(move, color)
        if depth == 1:
            values[move] = -evaluate(child, color.opponent)
        else:
            values[move] = -minimax(child, color.opponent, depth - 1).value
    return values


def best_move(function: Any) -> None:
    """``best_move(board, color, depth)`` returns a move with the best minimax value (or PASS)."""
    cases = []
    for label, board, color, depth in search_positions():
        values = _move_values(board, color, depth)
        best = Judged(max(values.values())) if values else PASS
        cases.append(Case(label, (board, color, depth), best, board, tuple(values)))

    def judge(answer: Any, args: tuple[Any, ...]) -> Any:
        board, color, depth = args
        move = answers.move(answer, board.size)
        values = _move_values(board, color, depth)
        if move is PASS:
            return PASS
        if move not in values:
            raise NotAnAnswer(f"{move} is not a legal move for {color}")
        assert isinstance(move, Square)
        return Judged(values[move], move)

    run("best_move", function, cases, outcome=judge, show=str)


# -- 10 alpha-beta ----------------------------------------------------------------------------


def alphabeta_value(function: Any) -> None:
    """``alphabeta(board, color, depth, -inf, inf, counter)`` equals the minimax value."""
    cases = [
        _search_case(label, b, c, d, minimax(b, c, d).value, -math.inf, math.inf)
        for label, b, c, d in search_positions()
    ]
    run(
        "alphabeta_value",
        function,
        cases,
        _value,
        call="alphabeta(board, color, depth, {3}, {4}, counter)",
    )


def alphabeta_window(function: Any) -> None:
    """With a window (alpha, beta): the exact value inside it, a bound on the right side outside."""
    cases = []
    for label, board, color, depth in search_positions():
        value = minimax(board, color, depth).value
        for alpha, beta in (
            (value - 1, value + 1),
            (value - 50, value - 10),
            (value + 10, value + 50),
        ):
            expected = (
                "the exact value"
                if alpha < value < beta
                else f"<= {alpha}"
                if value <= alpha
                else f">= {beta}"
            )
            cases.append(
                _search_case(
                    f"{label}, window ({alpha}, {beta})", board, color, depth, expected, alpha, beta
                )
            )

    def judge(answer: Any, args: tuple[Any, ...]) -> str:
        board, color, depth, alpha, beta, _ = args
        value, true = _value(answer), minimax(board, color, depth).value
        if alpha < true < beta:
            return "the exact value" if value == true else f"{value}, not the exact value {true}"
        if true <= alpha:
            return (
                f"<= {alpha}"
                if value <= alpha
                else f"{value}, above alpha although the value is {true}"
            )
        return (
            f">= {beta}" if value >= beta else f"{value}, below beta although the value is {true}"
        )

    run(
        "alphabeta_window",
        function,
        cases,
        outcome=judge,
        show=str,
        call="alphabeta(board, color, depth, {3}, {4}, counter)",
    )


def alphabeta_prunes(function: Any) -> None:
    """``alphabeta`` visits no more positions than minimax, and fewer in all: it prunes."""
    cases = []
    for label, board, color, depth in search_positions():
        nodes = minimax(board, color, depth).nodes
        expected = f"between {_fewest(board, color, nodes)} and {nodes} positions"
        cases.append(_search_case(label, board, color, depth, expected, -math.inf, math.inf))

    def judge(answer: Any, args: tuple[Any, ...]) -> str:
        board, color, depth, _, _, counter = args
        high = minimax(board, color, depth).nodes
        low = _fewest(board, color, high)
        nodes = _nodes(counter)
        if nodes < low:
            return f"{nodes} positions: too few (does it call counter.visit() for every position?)"
        if nodes > high:
            return f"{nodes} positions: more than minimax visits"
        return f"between {low} and {high} positions"

    def overall(calls: list[tuple[Any, ...]]) -> str | None:
        visited = sum(_nodes(args[-1]) for args in calls)
        full = sum(minimax(args[0], args[1], args[2]).nodes for args in calls)
        if calls and visited >= full:
            return f"in all it visited {visited} positions, as many as minimax: it never pruned"
        return None

    run("alphabeta_prunes", function, cases, outcome=judge, show=str, overall=overall)


def _nodes(counter: Any) -> int:
    nodes = getattr(counter, "nodes", None)
    return nodes if type(nodes) is int else 0


def _fewest(board: Board, color: Color, nodes: int) -> int:
    """The fewest positions any alpha-beta visits: the root and each of its moves."""
    return min(nodes, 1 + len(board.legal_moves(color)))
