"""Checks for exercises 07 and 08: the greedy player and a positional player.

The expected moves come from :class:`reversi.players.GreedyPlayer` and
:class:`reversi.players.PositionalPlayer`; the expected scores from
:func:`reversi.evaluation.positional`.  Both players keep the course's one tie rule, the
CS106 program's (seed 002): of equally good moves, the last in reading order, the one
farthest down and then farthest right.  Each case lists the other, equally good moves as
``tie rule`` mistakes, so an answer that picks one of them is told the tie rule as its
likely cause (:mod:`course.grading.mistakes`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.grading import answers
from course.grading.cases import colour, pass_positions, random_game, sample_positions, seeded
from course.grading.records import Case
from course.grading.runner import run
from course.grading.views import BoardView
from course.i18n import N_, ngettext
from course.i18n import gettext as _
from reversi import PASS, Board, Color, Square
from reversi.evaluation import positional
from reversi.players import GreedyPlayer, PositionalPlayer

#: ``(kind of mistake, the answer it gives)`` pairs of a case (:attr:`Case.mistaken`).
_Mistaken = tuple[tuple[str, Any], ...]

_CORNER_NAMES = (N_("top-left"), N_("top-right"), N_("bottom-right"), N_("bottom-left"))

#: (size, seed, ply) of random-game positions that test the greedy rule's fine print.
_GREEDY_POSITIONS = (
    (8, 0, 55), (8, 1, 54), (8, 0, 34), (8, 0, 36),  # one corner, fewer flips than another move
    (8, 3, 46), (8, 5, 48), (8, 10, 41), (8, 0, 38), (8, 4, 37), (8, 4, 46),  # two corners
    (8, 10, 55), (8, 143, 54),  # three and four corners
    (6, 1, 14), (6, 10, 25), (10, 4, 49), (10, 10, 84), (10, 0, 37),  # other board sizes
    (8, 0, 0), (8, 0, 2), (6, 0, 2), (10, 0, 2),  # ties for the most flips, no corner
    (8, 11, 47), (6, 11, 25),  # ties far apart: b1 and b8; c2 and e2 in one row
)  # fmt: skip


def _position(size: int, seed: int, ply: int) -> tuple[Board, Color]:
    """The position after ``ply`` plies of the random game ``seed`` on a ``size`` board."""
    return list(random_game(seed, size, stop=ply))[-1]


def _corners(board: Board) -> list[tuple[str, tuple[int, int]]]:
    """The corners in the greedy player's order of preference: clockwise from the top-left
    (each named in English: ``_(name)`` where a student reads it)."""
    last = board.size - 1
    return list(zip(_CORNER_NAMES, ((0, 0), (0, last), (last, last), (last, 0)), strict=True))


def _describe(board: Board, color: Color) -> str:
    moves = board.legal_moves(color)
    if not moves:
        return _("no legal move")
    legal_corners = [f"{_(name)} {board.square(sq)}" for name, sq in _corners(board) if sq in moves]
    if legal_corners:
        return _("corners: {corners}").format(corners=", ".join(legal_corners))
    counts = [len(board.flips(m, color)) for m in moves]
    tied = [str(m) for m, n in zip(moves, counts, strict=True) if n == max(counts)]
    if len(tied) > 1:
        return _("{count} moves flip {flips}: {squares}").format(
            count=len(tied), flips=max(counts), squares=" ".join(tied))  # fmt: skip
    return _("no corner")


def _show_move(value: Any) -> str:
    return "PASS" if value is PASS else str(value)


def _move(value: Any) -> Any:
    return answers.move(value, 16)


def _tied(board: Board, color: Color, expected: Any, worth: Callable[[Square], Any]) -> _Mistaken:
    """The other moves exactly as good as ``expected``: answers that only broke the tie
    the wrong way (see :mod:`course.grading.mistakes`, ``tie rule``)."""
    if expected is PASS:
        return ()
    best = worth(expected)
    return tuple(("tie rule", move) for move in board.legal_moves(color)
                 if move != expected and worth(move) == best)  # fmt: skip


def _greedy_tied(board: Board, color: Color, expected: Any) -> _Mistaken:
    if any(sq in board.legal_moves(color) for _, sq in _corners(board)):
        return ()  # the corner order decides, not the tie rule
    return _tied(board, color, expected, lambda move: len(board.flips(move, color)))


def _positional_tied(board: Board, color: Color, expected: Any) -> _Mistaken:
    def worth(move: Square) -> int:
        after = board.copy()
        after.play(move, color)
        return positional(after.bits(color), after.bits(color.opponent), board.size)

    return _tied(board, color, expected, worth)


def _player_view(board: Board) -> BoardView:
    return BoardView(board, allow=("legal_moves", "flips", "is_legal", "count", "copy", "play"))


def _games_against_random(
    player: Any, games: tuple[tuple[int, int], ...]
) -> list[tuple[str, Board, Color]]:
    """Positions where ``player`` is to move in games against a seeded random mover."""
    found: list[tuple[str, Board, Color]] = []
    for size, seed in games:
        rng, board, ply = seeded(seed), Board(size), 0
        color: Color = Color.BLACK
        while not board.is_finished():
            moves = board.legal_moves(color)
            if color is Color.BLACK:
                label = ngettext("{size}x{size} game {seed} against random moves, after {ply} move",
                                 "{size}x{size} game {seed} against random moves, after {ply} moves", ply)
                found.append((label.format(size=size, seed=seed, ply=ply), board.copy(), color))
                move = player.choose_move(board.copy(), color)
            else:
                move = rng.choice(moves) if moves else PASS
            if move is not PASS:
                board.play(move, color)
            color, ply = color.opponent, ply + 1
    return found


def greedy_move(function: Any) -> None:
    """``greedy_move(board, color)`` on positions chosen for corners, ties and board sizes."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    oracle = GreedyPlayer()
    cases = []
    for size, seed, ply in _GREEDY_POSITIONS:
        board, color = _position(size, seed, ply)
        expected = oracle.choose_move(board.copy(), color)
        label = ngettext("{size}x{size} game {seed}, after {ply} move, {color} ({position})",
                         "{size}x{size} game {seed}, after {ply} moves, {color} ({position})", ply).format(
            size=size, seed=seed, ply=ply, color=colour(color), position=_describe(board, color))  # fmt: skip
        cases.append(Case(label, (_player_view(board), color), expected, board, (expected,),
                          mistaken=_greedy_tied(board, color, expected)))
    for label, board, color in pass_positions()[:2]:
        said = _("{position} ({color} has no move)").format(position=label, color=colour(color))
        cases.append(Case(said, (_player_view(board), color), PASS, board))
    run("greedy_move", function, cases, _move, show=_show_move)


def greedy_games(function: Any) -> None:
    """``greedy_move`` at every turn of whole games (greedy against random moves)."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    oracle = GreedyPlayer()
    cases = []
    for label, board, color in _games_against_random(oracle, ((8, 1), (8, 2), (6, 3))):
        expected = oracle.choose_move(board.copy(), color)
        described = f"{label} ({_describe(board, color)})"
        highlight = () if expected is PASS else (expected,)
        cases.append(Case(described, (_player_view(board), color), expected, board, highlight,
                          mistaken=_greedy_tied(board, color, expected)))
    run("greedy_games", function, cases, _move, show=_show_move)


# -- 08 a positional evaluation ---------------------------------------------------------------


def positional_score(function: Any) -> None:
    """``positional_score(board, color)``: the weights of ``color``'s squares minus the opponent's."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    positions = [
        (b, c)
        for size in (4, 6, 8, 10)
        for b, c in sample_positions(range(size, size + 2), 7, size)
    ]
    cases = [
        Case(_("{size}x{size} position {number}, {color}").format(
                 size=board.size, number=number + 1, color=colour(who)), (BoardView(board), who),
             positional(board.bits(who), board.bits(who.opponent), board.size), board)
        for number, (board, color) in enumerate(positions)
        for who in (color, color.opponent)
    ]  # fmt: skip
    run("positional_score", function, cases, answers.integer)


def positional_move(function: Any) -> None:
    """``positional_move(board, color)``: the move after which ``positional_score`` is best."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    oracle = PositionalPlayer()
    cases = []
    found = _games_against_random(oracle, ((8, 5), (6, 6)))
    found += [(label, board, color) for label, board, color in pass_positions()[:1]]
    for label, board, color in found:
        expected = oracle.choose_move(board.copy(), color)
        highlight = () if expected is PASS else (expected,)
        cases.append(Case(label, (_player_view(board), color), expected, board, highlight,
                          mistaken=_positional_tied(board, color, expected)))
    run("positional_move", function, cases, _move, show=_show_move)
