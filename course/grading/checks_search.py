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
from course.grading.cases import colour, early_ends, pass_positions, random_game
from course.grading.records import Case, NotAnAnswer
from course.grading.runner import run
from course.grading.search_tree import search_tree
from course.i18n import N_
from course.i18n import gettext as _
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
    deep = _("{position}, depth {depth}")
    found = [(deep.format(position=_("the start"), depth=d), Board(), BLACK, d) for d in (1, 3)]
    for size, seed, ply, depth in (
        (8, 1, 20, 3),
        (8, 2, 30, 2),
        (8, 3, 40, 3),
        (6, 4, 20, 4),
        (6, 5, 24, 4),
    ):
        board, color = list(random_game(seed, size, stop=ply))[-1]
        label = _("{size}x{size} game {seed} after {ply} moves, depth {depth}")
        found.append((label.format(size=size, seed=seed, ply=ply, depth=depth), board, color, depth))
    found += [(deep.format(position=label, depth=3), board, color, 3)
              for label, board, color in pass_positions()[:3]]  # fmt: skip
    found += [(deep.format(position=label, depth=2), board, BLACK, 2)
              for label, board in early_ends()[:1]]  # fmt: skip
    return found


@dataclass(frozen=True)
class _Said:
    """An answer judged in words (``between 5 and 9 positions``): compared by its English
    template and figures, shown in the reader's language, so a grade never depends on it.

    >>> _said(N_("between {low} and {high} positions"), low=5, high=9) == _Said(
    ...     "between {low} and {high} positions", (("high", 9), ("low", 5)))
    True
    """

    template: str
    figures: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return _(self.template).format(**dict(self.figures))


def _said(template: str, **figures: Any) -> _Said:
    return _Said(template, tuple(sorted(figures.items())))


def _search_case(
    label: str, board: Board, color: Color, depth: int, expected: Any, *extra: Any
) -> Case:
    return Case(label, (board, color, depth, *extra, NodeCounter()), expected, board)


def _value(answer: Any) -> float:
    value = answers.number(answer)
    if isinstance(value, float) and not math.isfinite(value):
        raise NotAnAnswer(_("infinity is not the value of a position"))
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
        return _("{nodes} positions visited, value {value}").format(nodes=self.nodes, value=self.value)


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
        return _("{move}, worth {value}").format(move=self.move, value=self.value)


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
            raise NotAnAnswer(_("{square} is not a legal move for {color}").format(square=move, color=colour(color)))
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
            expected = _window(value, value, alpha, beta)
            window = _("{position}, window ({alpha}, {beta})").format(position=label, alpha=alpha, beta=beta)
            cases.append(_search_case(window, board, color, depth, expected, alpha, beta))

    def judge(answer: Any, args: tuple[Any, ...]) -> _Said:
        board, color, depth, alpha, beta, _counter = args
        return _window(_value(answer), minimax(board, color, depth).value, alpha, beta)

    run(
        "alphabeta_window",
        function,
        cases,
        outcome=judge,
        show=str,
        call="alphabeta(board, color, depth, {3}, {4}, counter)",
    )


def _window(value: float, true: float, alpha: float, beta: float) -> _Said:
    """What a search that returned ``value`` with the window (alpha, beta) said, where the
    position is worth ``true``: right (the exact value, or a bound on the right side) or wrong."""
    if alpha < true < beta:
        if value == true:
            return _said(N_("the exact value"))
        return _said(N_("{value}, not the exact value {true}"), value=value, true=true)
    if true <= alpha:
        if value <= alpha:
            return _said("<= {alpha}", alpha=alpha)
        return _said(N_("{value}, above alpha although the value is {true}"), value=value, true=true)
    if value >= beta:
        return _said(">= {beta}", beta=beta)
    return _said(N_("{value}, below beta although the value is {true}"), value=value, true=true)


def alphabeta_prunes(function: Any) -> None:
    """``alphabeta`` counts every position it visits, and prunes: on each position, at
    least the smallest tree that proves the value (no search can look at less), and,
    where alpha-beta on the moves in reading order cuts the tree, fewer than minimax."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board, color, depth in _search_positions():
        cases.append(_search_case(label, board, color, depth, _pruned(board, color, depth),
                                  -math.inf, math.inf))  # fmt: skip

    def judge(answer: Any, args: tuple[Any, ...]) -> _Said:
        board, color, depth, _alpha, _beta, counter = args
        return _pruned(board, color, depth, _nodes(counter))

    def overall(calls: list[tuple[Any, ...]]) -> str | None:
        visited = sum(_nodes(args[-1]) for args in calls)
        full = sum(search_tree(args[0], args[1], args[2]).full for args in calls)
        if calls and visited >= full:
            said = _("in all it visited {visited} positions, as many as minimax: it never pruned")
            return said.format(visited=visited)
        return None

    run("alphabeta_prunes", function, cases, outcome=judge, show=str, overall=overall)


def _pruned(board: Board, color: Color, depth: int, nodes: int | None = None) -> _Said:
    """What visiting ``nodes`` positions says of a search (None: what the right count says)."""
    tree = search_tree(board, color, depth)
    if nodes is not None and nodes < tree.proof:
        return _said(N_("{nodes} positions: too few to know the value (at least {proof}; does it "
                        "call counter.visit() once for every position it looks at?)"),
                     nodes=nodes, proof=tree.proof)  # fmt: skip
    if nodes is not None and nodes > tree.full:
        return _said(N_("{nodes} positions: more than minimax visits ({full})"), nodes=nodes, full=tree.full)
    if nodes is not None and tree.cuts and nodes == tree.full:
        return _said(N_("{nodes} positions, as many as minimax: here alpha-beta must cut"), nodes=nodes)
    high = tree.full - 1 if tree.cuts else tree.full
    return _said(N_("between {low} and {high} positions"), low=tree.proof, high=high)


def _nodes(counter: Any) -> int:
    nodes = getattr(counter, "nodes", None)
    return nodes if type(nodes) is int else 0
