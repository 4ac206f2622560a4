"""Looking ahead: minimax, alpha-beta and iterative deepening, as the lessons build them.

These are the plain methods, kept simple to read and to check the exercises
against.  The strong search of the hard and expert levels, which adds a
transposition table, move ordering from the previous depth and an exact
endgame solver, is :mod:`reversi.engine`.

Both searches are written in the *negamax* form (as in PAIP's Othello chapter): a
position is scored from the side to move, so the value of a move is minus the
value of the position it leaves for the opponent.  One function serves both
colours, and "the opponent picks what is worst for me" is just the minus sign.

**Passes.**  A side with no legal move passes, and the pass counts as one ply of
depth (as in :func:`reversi.bitboard.perft`).  When neither side can move the game
is over and the position gets its final score, whatever depth is left.

**Nodes.**  Every position a search looks at, the root included, counts as one
node, so :attr:`SearchResult.nodes` shows how much work was done: alpha-beta
skips the moves that cannot change the answer and visits far fewer positions.

**Order and ties.**  Both searches try the moves in the same fixed order: by the
weight of the square (corners first, X-squares last, see
:func:`reversi.evaluation.weight_masks`), then in reading order among squares of
equal weight.  Of equally good moves the root keeps the *last in reading order*
(the one farthest down, then farthest right: the kit's one tie rule, the CS106
program's), whatever order they were tried in.  At the root, alpha-beta asks a
move that comes later in reading order than the best so far "at least as good?"
(a window one point wider) and any other move "strictly better?", so it learns
the exact value of every move that could win, and chooses the same move as minimax.

**Speed.**  The search works on the two bit masks of :mod:`reversi.bitboard`
rather than on :class:`~reversi.board.Board` objects: a move is a few integer
operations and no objects are made, which makes depth 4 on 8x8 quick in pure Python.

>>> from reversi.board import Board
>>> from reversi.notation import BLACK
>>> full, pruned = minimax(Board(), BLACK, 3), alphabeta(Board(), BLACK, 3)
>>> full.value == pruned.value, full.move == pruned.move
(True, True)
>>> pruned.nodes < full.nodes
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Annotated

from reversi import bitboard
from reversi.board import Board
from reversi.callables import guarded_clock
from reversi.errors import SearchStopped
from reversi.evaluation import final_score, score, weight_masks
from reversi.i18n import N_
from reversi.notation import PASS, Color, Move, Square
from reversi.surface import Between, student

#: More than any score a position can have.
INFINITY = 10**15

#: The deepest search the players accept; deeper takes far too long in pure Python.
MAX_DEPTH = 16

Clock = Callable[[], float]

#: A search depth the lessons' searches take.
Depth = Annotated[int, Between(1, MAX_DEPTH)]


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best move, its value for the side to move, and the effort.

    ``depth`` is the depth the answer comes from (with a time limit, the last
    depth completed); ``nodes`` counts every position visited, unfinished
    iterations included.
    """

    move: Move
    value: int
    depth: int
    nodes: int


class Search:
    """One search: the board geometry, a node counter and an optional deadline."""

    def __init__(self, size: int, clock: Clock = time.perf_counter, deadline: float | None = None):
        self.geo = bitboard.geometry(size)
        self.order = weight_masks(size)
        self.nodes = 0
        self.clock = clock
        self.deadline = deadline

    def ordered(self, moves: int) -> Iterator[int]:
        """The move bits of ``moves``, heaviest square weight first, then in reading order."""
        for _, mask in self.order:
            yield from bitboard.bits_of(moves & mask)

    def minimax(self, player: int, opponent: int, depth: int) -> int:
        """The value for ``player`` (to move) of looking ``depth`` plies ahead at every reply."""
        self.nodes += 1
        if depth == 0:
            return score(player, opponent, self.geo)
        moves = bitboard.legal_moves(player, opponent, self.geo)
        if not moves:
            if not bitboard.legal_moves(opponent, player, self.geo):
                return final_score(player, opponent)
            return -self.minimax(opponent, player, depth - 1)  # pass
        best = -INFINITY
        for move in self.ordered(moves):
            flipped = bitboard.flips(move, player, opponent, self.geo)
            value = -self.minimax(opponent & ~flipped, player | move | flipped, depth - 1)
            best = max(best, value)
        return best

    def alphabeta(self, player: int, opponent: int, depth: int, alpha: int, beta: int) -> int:
        """The minimax value, when it lies between ``alpha`` and ``beta``.

        ``alpha`` is what ``player`` is already sure of elsewhere, ``beta`` what the
        opponent is sure of.  Once a move reaches ``beta`` the opponent will never
        allow this position, so the remaining moves need not be looked at.  A value
        outside the window is only a bound (at most ``alpha`` or at least ``beta``).
        """
        self.nodes += 1
        if self.deadline is not None and self.clock() >= self.deadline:
            raise SearchStopped
        if depth == 0:
            return score(player, opponent, self.geo)
        moves = bitboard.legal_moves(player, opponent, self.geo)
        if not moves:
            if not bitboard.legal_moves(opponent, player, self.geo):
                return final_score(player, opponent)
            return -self.alphabeta(opponent, player, depth - 1, -beta, -alpha)  # pass
        best = -INFINITY
        for move in self.ordered(moves):
            flipped = bitboard.flips(move, player, opponent, self.geo)
            child = (opponent & ~flipped, player | move | flipped)
            value = -self.alphabeta(*child, depth - 1, -beta, -alpha)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break  # a cut-off: the opponent has a better choice earlier on
        return best

    def root(self, board: Board, color: Color, depth: int, pruning: bool) -> tuple[Move, int]:
        """The best move at the root and its value; of equally good moves, the last in reading order."""
        player, opponent = board.bits(color), board.bits(color.opponent)
        moves = bitboard.legal_moves(player, opponent, self.geo)
        if not moves:
            if pruning:
                return PASS, self.alphabeta(player, opponent, depth, -INFINITY, INFINITY)
            return PASS, self.minimax(player, opponent, depth)
        self.nodes += 1
        best_move, best = 0, -INFINITY
        for move in self.ordered(moves):
            flipped = bitboard.flips(move, player, opponent, self.geo)
            child = (opponent & ~flipped, player | move | flipped)
            later = move > best_move  # bits run in reading order: an equal value is enough
            if pruning:  # the window (-INFINITY, -best), one point wider when a tie would win
                value = -self.alphabeta(*child, depth - 1, -INFINITY, -best + (1 if later else 0))
            else:
                value = -self.minimax(*child, depth - 1)
            if value > best or (value == best and later):
                best_move, best = move, value
        return square_of(best_move, board.size), best


@student
def move_order(board: Board, color: Color) -> list[Square]:
    """The legal moves in the order both searches try them: heaviest square first, then reading order.

    >>> from reversi.notation import BLACK
    >>> [str(move) for move in move_order(Board(), BLACK)]
    ['d3', 'c4', 'f5', 'e6']
    """
    search = Search(board.size)
    moves = bitboard.legal_moves(board.bits(color), board.bits(color.opponent), search.geo)
    return [square_of(move, board.size) for move in search.ordered(moves)]


@student
def minimax(board: Board, color: Color, depth: Depth) -> SearchResult:
    """Search every line ``depth`` plies deep; the plain method alpha-beta must agree with."""
    search = Search(board.size)
    move, value = search.root(board, color, depth, pruning=False)
    return SearchResult(move, value, depth, search.nodes)


@student
def alphabeta(board: Board, color: Color, depth: Depth) -> SearchResult:
    """The same value and move as :func:`minimax`, visiting fewer positions."""
    search = Search(board.size)
    move, value = search.root(board, color, depth, pruning=True)
    return SearchResult(move, value, depth, search.nodes)


@student
def iterative_deepening(
    board: Board,
    color: Color,
    *,
    max_depth: Depth,
    time_limit: Annotated[float, Between(1e-9, 1e9), N_("a positive number of seconds")],
    clock: Clock = time.perf_counter,
) -> SearchResult:
    """Alpha-beta at depth 1, 2, 3, ... until ``max_depth`` or until ``time_limit`` seconds pass.

    The clock is read at every node, so a search stops within one node of the
    deadline; the answer is the move of the last depth that was completed.  If
    not even depth 1 finished, the first move in search order is returned, with
    ``depth`` 0 and ``value`` 0 (not known).  ``clock`` returns seconds and can be replaced by a fake in tests.

    >>> from reversi.notation import BLACK
    >>> ticks = iter(range(1000))  # a clock that moves one second per reading
    >>> result = iterative_deepening(Board(), BLACK, max_depth=8, time_limit=30.0,
    ...                              clock=lambda: next(ticks))
    >>> result.depth < 8 and Board().is_legal(result.move, BLACK)
    True
    """
    clock = guarded_clock(clock)
    deadline = clock() + time_limit
    moves = move_order(board, color)
    result = SearchResult(moves[0] if moves else PASS, 0, 0, 0)  # in case depth 1 runs out
    nodes = 0
    for depth in range(1, max_depth + 1):
        search = Search(board.size, clock, deadline)
        try:
            move, value = search.root(board, color, depth, pruning=True)
        except SearchStopped:
            return replace(result, nodes=nodes + search.nodes)
        nodes += search.nodes
        result = SearchResult(move, value, depth, nodes)
    return result


def square_of(move: int, size: int) -> Square:
    """The square of a move bit."""
    return Square(*divmod(move.bit_length() - 1, size))


