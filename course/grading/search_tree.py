"""The search tree of a position as exercise 10's check sees it: how many positions minimax
visits, the fewest that prove the value, and whether alpha-beta cuts.

:func:`course.grading.checks_search.alphabeta_prunes` judges a student's count of visited
positions against these figures; they come from :func:`reversi.search.minimax` and
:func:`reversi.evaluation.evaluate`, which score and count as the exercise does.
"""

from __future__ import annotations

import math

from reversi import BLACK, Board, Color
from reversi.evaluation import evaluate
from reversi.search import minimax

#: The trees already walked, by position: a check and its judge ask for each one again.
_TREES: dict[tuple[int, int, int, Color, int], SearchTree] = {}


def search_tree(board: Board, color: Color, depth: int) -> SearchTree:
    """``SearchTree(board, color, depth)``, walked once per position (a few dozen are kept)."""
    if not isinstance(board, Board):
        return SearchTree(board, color, depth)
    key = (board.size, board.bits(BLACK), board.bits(BLACK.opponent), color, depth)
    tree = _TREES.get(key)
    if tree is None:
        if len(_TREES) >= 64:
            _TREES.clear()
        tree = _TREES[key] = SearchTree(board, color, depth)
    return tree


class SearchTree:
    """The search tree of a position, as :func:`reversi.search.minimax` walks it.

    ``full``: its positions (what minimax visits); ``proof``: the fewest positions that
    prove its value, whatever the order of moves (a lower bound on any correct search
    that counts what it visits); ``cuts``: whether alpha-beta, trying moves in reading
    order, looks at fewer positions than minimax.

    >>> tree = SearchTree(Board(), BLACK, 3)
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
