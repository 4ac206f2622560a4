"""Computer players that look one move ahead: random, greedy and positional."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from reversi.board import Board
from reversi.errors import PlayerError, shown
from reversi.evaluation import positional
from reversi.i18n import _
from reversi.notation import PASS, Color, Move, Square
from reversi.players.base import Player
from reversi.surface import student

#: The largest seed (and the smallest is its negative): a save holds it as a JSON number.
MAX_SEED = 10**30 - 1


class RandomPlayer(Player):
    """Plays a legal move chosen uniformly at random (its label is "Randomizer").

    ``seed`` makes the games repeatable; the generator's state is the player's
    state, so a saved game goes on with exactly the moves it would have made.

    >>> from reversi.notation import BLACK
    >>> first, again = RandomPlayer(seed=7), RandomPlayer(seed=7)
    >>> first.choose_move(Board(), BLACK) == again.choose_move(Board(), BLACK)
    True
    """

    kind = "random"
    label = "Randomizer"

    def __init__(self, name: str | None = None, *, seed: int | None = None) -> None:
        super().__init__(name)
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED <= seed <= MAX_SEED
        ):
            raise PlayerError(
                _("seed {seed} is not a whole number of at most {digits} digits (or None for a random start)").format(
                    seed=shown(seed), digits=len(str(MAX_SEED)))
            )
        self.seed = seed
        self._random = random.Random(seed)

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        """A random legal move, or ``PASS`` when there is none."""
        moves = board.legal_moves(color)
        return self._random.choice(moves) if moves else PASS

    def options(self) -> dict[str, Any]:
        return {"seed": self.seed}

    def get_state(self) -> list[Any]:
        """The generator's state as ``[version, [625 whole numbers], gauss_next]``."""
        version, internal, gauss_next = self._random.getstate()
        return [version, list(internal), gauss_next]

    def set_state(self, state: object | None) -> None:
        """Continue from a state given by :meth:`get_state` (``None`` keeps the current one)."""
        if state is None:
            return
        problem = _random_state_problem(state)
        if problem:
            raise PlayerError(_("{name}'s random state is not valid: {problem}").format(name=self.name, problem=problem))
        checked = cast("tuple[int, list[int], float | None]", state)  # checked just above
        version, internal, gauss_next = checked
        try:
            self._random.setstate((version, tuple(internal), gauss_next))
        except (TypeError, ValueError) as error:
            raise PlayerError(_("{name}'s random state is not valid: {problem}").format(name=self.name, problem=error)) from error


def _random_state_problem(state: object) -> str | None:
    """Why ``state`` cannot be a :class:`random.Random` state, or ``None`` if it can."""
    if not isinstance(state, (list, tuple)) or len(state) != 3:
        return "it must be a list [version, numbers, gauss_next]"
    version, internal, gauss_next = state
    expected_version, expected_numbers, _ = random.Random(0).getstate()
    if version != expected_version or isinstance(version, bool):
        return f"version {version!r} is not the generator's version"
    if not isinstance(internal, (list, tuple)) or len(internal) != len(expected_numbers):
        return f"it must hold a list of {len(expected_numbers)} whole numbers"
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**32 for n in internal):
        return "its numbers must be whole numbers from 0 to 2**32 - 1"
    if gauss_next is not None and not isinstance(gauss_next, (int, float)):
        return f"gauss_next {gauss_next!r} is not a number or None"
    return None


class GreedyPlayer(Player):
    """The CS106 computer player: a corner if it can, else the move that turns the most discs.

    Corners are tried top-left, top-right, bottom-right, bottom-left (a1, h1, h8,
    a8 on 8x8).  Among moves that turn equally many discs it takes the *last* in
    reading order: the one farthest down, and in that row the one farthest right,
    as the CS106 program does when it scans its rows top to bottom and keeps a move
    that turns at least as many as the best so far.  That is the kit's one tie
    rule.  Any board size works.

    >>> from reversi.notation import BLACK, WHITE
    >>> board = Board.from_text('''
    ... . W B .
    ... B W W .
    ... W . W .
    ... W B W .
    ... ''')
    >>> [(square.name, len(board.flips(square, BLACK))) for square in board.legal_moves(BLACK)]
    [('a1', 1), ('d2', 3), ('d4', 1)]
    >>> GreedyPlayer().choose_move(board, BLACK)  # a corner beats d2; a1 is tried before d4
    a1
    >>> board = Board()
    >>> board.play("f5", BLACK)  # the disc it turns
    [e5]
    >>> GreedyPlayer().choose_move(board, WHITE)  # f4, d6 and f6 turn one disc each
    f6
    """

    kind = "greedy"
    label = "Greedy"

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        moves = board.legal_moves(color)
        if not moves:
            return PASS
        last = board.size - 1
        for corner in ((0, 0), (0, last), (last, last), (last, 0)):
            if corner in moves:
                return moves[moves.index(corner)]
        return _last_best(moves, lambda move: len(board.flips(move, color)))


class PositionalPlayer(Player):
    """Plays the move after which its discs stand on the best squares (one move ahead).

    A position is worth the weights of the player's discs minus those of the
    opponent's (:func:`reversi.evaluation.weights`: corners high, X- and
    C-squares low).  Of equally good moves it takes the last in reading order.
    """

    kind = "positional"
    label = "Positional"

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        moves = board.legal_moves(color)
        if not moves:
            return PASS

        def value(move: Square) -> int:
            after = board.copy()
            after.play(move, color)
            return positional(after.bits(color), after.bits(color.opponent), board.size)

        return _last_best(moves, value)


def _last_best(moves: Sequence[Square], value: Callable[[Square], int]) -> Square:
    """The move of highest ``value``; of equally good ones, the last (``moves`` in reading order).

    The kit's one tie rule, the CS106 program's: go through the moves in reading
    order and keep a move whose value is at least (``>=``) the best so far, so the
    last of equals stays: the one farthest down, and in its row the one farthest
    right.  ``max(moves, key=value)`` would keep the first.

    >>> from reversi.notation import Square
    >>> _last_best([Square(2, 3), Square(3, 2), Square(4, 5)], lambda move: 1)
    f5
    """
    best, best_value = moves[0], value(moves[0])
    for move in moves[1:]:
        move_value = value(move)
        if move_value >= best_value:
            best, best_value = move, move_value
    return best
