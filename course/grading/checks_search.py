"""Checks for exercises 09 and 10: minimax and alpha-beta, values and positions visited.

The student's search scores positions with :func:`reversi.evaluation.evaluate` and calls
``counter.visit()`` once for every position it looks at.  The expected values and counts
come from :func:`reversi.search.minimax`, which scores and counts the same way (a pass is
one ply, a finished game gets its final score at any depth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from course.grading import answers
from course.grading.cases import early_ends, pass_positions, random_game
from course.grading.records import Case, NotAnAnswer
from course.grading.runner import run
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


def _search_positions() -> list[tuple[str, Board, Color, int]]:
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
            (f"{size}x{size} game {seed} after {ply} moves, depth {depth}", board, color, depth)
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


def minimax_value(function: Any) -> None:
    """``minimax(board, color, depth, counter)`` returns the minimax value."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        _search_case(label, b, c, d, minimax(b, c, d).value)
        for label, b, c, d in _search_positions()
    ]
    run("minimax_value", function, cases, _value)


@dataclass(frozen=True)
class _Visited:
    """The positions a search visited and the value it returned, judged together: a search
    that visits every position but forgets a minus sign has not counted a minimax."""

    nodes: int
    value: float

    def __str__(self) -> str:
        return f"{self.nodes} positions visited, value {self.value}"


def minimax_nodes(function: Any) -> None:
    """``minimax`` calls ``counter.visit()`` once per position: as many as full minimax visits,
    and returns the minimax value (a count alone would pass a search with a sign missing)."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, b, c, d in _search_positions():
        result = minimax(b, c, d)
        expected = _Visited(result.nodes, result.value)
        sign = _Visited(result.nodes, -result.value)
        mistaken = (("wrong sign", sign),) if result.value else ()
        cases.append(Case(label, (b, c, d, NodeCounter()), expected, b, mistaken=mistaken))

    def judge(answer: Any, args: tuple[Any, ...]) -> _Visited:
        return _Visited(_nodes(args[-1]), _value(answer))

    run("minimax_nodes", function, cases, outcome=judge, show=str)


@dataclass(frozen=True)
class _Judged:
    """A move and its minimax value, shown together so that a student who picked an
    equally good move sees that only the tie rule (the last of them) was missed; the case
    names those moves as ``tie rule`` mistakes too (:mod:`course.grading.mistakes`)."""

    value: float
    move: Any = None

    def __str__(self) -> str:
        return f"{self.move}, worth {self.value}"


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


def _last_best(values: dict[Any, float]) -> Any:
    """The move of highest value, the last of equals (``values`` in reading order), or None."""
    best = None
    for move, value in values.items():
        if best is None or value >= values[best]:
            best = move
    return best


def best_move(function: Any) -> None:
    """``best_move(board, color, depth)`` returns the move with the best minimax value (or PASS).

    The tie rule of every exercise: of equally good moves, the last in reading order
    (``board.legal_moves`` lists them in reading order; ``>=`` keeps the last).
    """
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board, color, depth in _search_positions():
        values = _move_values(board, color, depth)
        last = _last_best(values)
        best = _Judged(values[last], last) if last is not None else PASS
        tied = tuple(("tie rule", _Judged(value, move)) for move, value in values.items()
                     if move != last and value == values[last])  # fmt: skip
        cases.append(Case(label, (board, color, depth), best, board, tuple(values), mistaken=tied))

    def judge(answer: Any, args: tuple[Any, ...]) -> Any:
        board, color, depth = args
        move = answers.move(answer, board.size)
        values = _move_values(board, color, depth)
        if move is PASS:
            return PASS
        if move not in values:
            raise NotAnAnswer(f"{move} is not a legal move for {color}")
        assert isinstance(move, Square)
        return _Judged(values[move], move)

    run("best_move", function, cases, outcome=judge, show=str)


# -- 10 alpha-beta ----------------------------------------------------------------------------


def alphabeta_value(function: Any) -> None:
    """``alphabeta(board, color, depth, -inf, inf, counter)`` equals the minimax value."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        _search_case(label, b, c, d, minimax(b, c, d).value, -math.inf, math.inf)
        for label, b, c, d in _search_positions()
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
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board, color, depth in _search_positions():
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
    """``alphabeta`` counts every position it visits, and prunes: on each position, at
    least the smallest tree that proves the value (no search can look at less), and,
    where alpha-beta on the moves in reading order cuts the tree, fewer than minimax."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board, color, depth in _search_positions():
        tree = _tree(board, color, depth)
        cases.append(_search_case(label, board, color, depth, tree.expected(), -math.inf, math.inf))

    def judge(answer: Any, args: tuple[Any, ...]) -> str:
        board, color, depth, _, _, counter = args
        tree = _tree(board, color, depth)
        nodes = _nodes(counter)
        if nodes < tree.proof:
            return (f"{nodes} positions: too few to know the value (at least {tree.proof}; "
                    "does it call counter.visit() once for every position it looks at?)")  # fmt: skip
        if nodes > tree.full:
            return f"{nodes} positions: more than minimax visits ({tree.full})"
        if tree.cuts and nodes == tree.full:
            return f"{nodes} positions, as many as minimax: here alpha-beta must cut"
        return tree.expected()

    def overall(calls: list[tuple[Any, ...]]) -> str | None:
        visited = sum(_nodes(args[-1]) for args in calls)
        full = sum(_tree(args[0], args[1], args[2]).full for args in calls)
        if calls and visited >= full:
            return f"in all it visited {visited} positions, as many as minimax: it never pruned"
        return None

    run("alphabeta_prunes", function, cases, outcome=judge, show=str, overall=overall)


#: The trees already walked, by position: a check and its judge ask for each one again.
_TREES: dict[tuple[int, int, int, Color, int], _Tree] = {}


def _tree(board: Board, color: Color, depth: int) -> _Tree:
    """``_Tree(board, color, depth)``, walked once per position (a few dozen are kept)."""
    if not isinstance(board, Board):
        return _Tree(board, color, depth)
    key = (board.size, board.bits(BLACK), board.bits(BLACK.opponent), color, depth)
    tree = _TREES.get(key)
    if tree is None:
        if len(_TREES) >= 64:
            _TREES.clear()
        tree = _TREES[key] = _Tree(board, color, depth)
    return tree


class _Tree:
    """The search tree of a position, as :func:`reversi.search.minimax` walks it.

    ``full``: its positions (what minimax visits); ``proof``: the fewest positions that
    prove its value, whatever the order of moves (a lower bound on any correct search
    that counts what it visits); ``cuts``: whether alpha-beta, trying moves in reading
    order, looks at fewer positions than minimax.

    >>> tree = _Tree(Board(), BLACK, 3)
    >>> tree.full, tree.proof < tree.alphabeta < tree.full
    (73, True)
    """

    def __init__(self, board: Board, color: Color, depth: int) -> None:
        self._values: dict[tuple[int, int, Color, int], float] = {}
        self.root = (board, color, depth)
        self.full = minimax(board, color, depth).nodes
        self.proof = self._exact(board, color, depth)
        counted = [0]
        self._alphabeta(board, color, depth, -math.inf, math.inf, counted)
        self.alphabeta = counted[0]
        self.cuts = self.alphabeta < self.full

    def expected(self) -> str:
        if self.cuts:
            return f"between {self.proof} and {self.full - 1} positions"
        return f"between {self.proof} and {self.full} positions"

    def _children(self, board: Board, color: Color, depth: int) -> list[tuple[Board, Color, int]]:
        if depth == 0:
            return []
        moves = board.legal_moves(color)
        if not moves:
            if not board.legal_moves(color.opponent):
                return []
            return [(board, color.opponent, depth - 1)]
        found = []
        for move in moves:
            child = board.copy()
            child.play(move, color)
            found.append((child, color.opponent, depth - 1))
        return found

    def _value(self, board: Board, color: Color, depth: int) -> float:
        key = (board.bits(BLACK), board.bits(BLACK.opponent), color, depth)
        if key not in self._values:
            children = self._children(board, color, depth)
            self._values[key] = (
                max(-self._value(*child) for child in children) if children
                else evaluate(board, color)
            )  # fmt: skip
        return self._values[key]

    def _exact(self, board: Board, color: Color, depth: int) -> int:
        """The fewest positions that prove the value of this one."""
        children = self._children(board, color, depth)
        if not children:
            return 1
        value = self._value(board, color, depth)
        best = None
        for index, child in enumerate(children):
            if -self._value(*child) != value:
                continue
            others = sum(self._at_least(*c, -value) for i, c in enumerate(children) if i != index)
            cost = self._exact(*child) + others
            best = cost if best is None else min(best, cost)
        assert best is not None
        return 1 + best

    def _at_least(self, board: Board, color: Color, depth: int, bound: float) -> int:
        """The fewest positions that prove this one is worth at least ``bound``."""
        children = self._children(board, color, depth)
        if not children:
            return 1
        return 1 + min(self._at_most(*c, -bound) for c in children if -self._value(*c) >= bound)

    def _at_most(self, board: Board, color: Color, depth: int, bound: float) -> int:
        """The fewest positions that prove this one is worth at most ``bound``."""
        children = self._children(board, color, depth)
        if not children:
            return 1
        return 1 + sum(self._at_least(*c, -bound) for c in children)

    def _alphabeta(self, board: Board, color: Color, depth: int, alpha: float, beta: float,
                   counted: list[int]) -> float:  # fmt: skip
        counted[0] += 1
        children = self._children(board, color, depth)
        if not children:
            return evaluate(board, color)
        for child in children:
            value = -self._alphabeta(*child, -beta, -alpha, counted)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha


def _nodes(counter: Any) -> int:
    nodes = getattr(counter, "nodes", None)
    return nodes if type(nodes) is int else 0
