"""Checks for exercises 05 and 06: playing a move, legal moves, passing and the end of a game.

The expected answers come from :class:`reversi.Board` (``play``, ``legal_moves``,
``has_legal_move``, ``is_finished``, ``count``).
"""

from __future__ import annotations

from typing import Any

from course.grading import answers
from course.grading.cases import (
    FIGURE_2,
    FIGURE_2_MOVES,
    a_game,
    blocked_position,
    color_name,
    colour,
    early_ends,
    flip_positions,
    full_draw,
    names,
    pass_positions,
    random_game,
    sample_positions,
)
from course.grading.records import Case, NotAnAnswer, Raises
from course.grading.runner import run
from course.grading.views import BoardView, position
from course.i18n import N_
from course.i18n import gettext as _
from reversi import BLACK, WHITE, Board, Color, Square

# -- 05 playing a move ------------------------------------------------------------------------


def _play_cases() -> list[Case]:
    cases = [_move_case(_("Figure 2"), FIGURE_2, at, BLACK) for at in FIGURE_2_MOVES]
    for label, board, color in flip_positions()[:14]:
        legal = board.legal_moves(color)
        taken = [sq for sq in board.squares() if board[sq] is not None][:1]
        lonely = [sq for sq in board.squares() if board[sq] is None and sq not in legal][:1]
        for at in legal[:3] + legal[-1:] + taken + lonely:
            cases.append(_move_case(label, board, at, color))
    return cases


def _move_case(label: str, board: Board, at: Square, color: Color) -> Case:
    view = BoardView(board, allow=("flips", "is_legal"), writable=True)
    if not board.is_legal(at, color):
        return Case(
            _("{position}, {color} on {square} (illegal)").format(position=label, color=colour(color), square=at),
            (view, at, color),
            Raises(ValueError, N_("and leave the board as it was")),
            board,
            (at,),
        )
    after = board.copy()
    flipped = sorted(after.play(at, color))
    return Case(
        _("{position}, {color} on {square}").format(position=label, color=colour(color), square=at),
        (view, at, color), (flipped, str(after)), board, (at, *flipped),
    )


def _played(answer: Any, args: tuple[Any, ...]) -> tuple[list[Square], str]:
    return answers.squares(answer), str(position(args[0]))


def _show_move(value: Any) -> str:
    if isinstance(value, tuple):
        return _("returns {squares}; the board after it:\n{board}").format(squares=names(value[0]), board=value[1])
    return str(value)


def play(function: Any) -> None:
    """``play(board, square, color)`` places the disc, turns the captured ones, returns them."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    run("play", function, _play_cases(), show=_show_move, unchanged=False, outcome=_played)


def _openings() -> list[str]:
    """Move lists from the start without a pass: the first 8 to 40 moves of random games."""
    found = []
    for seed, plies in ((11, 8), (12, 15), (13, 24), (14, 31), (15, 40), (16, 3), (17, 1)):
        game = list(random_game(seed, stop=plies))
        board, color, moves = Board(), BLACK, []
        for after, _turn in game[1:]:
            placed = [sq for sq in after.squares() if board[sq] is None and after[sq] is not None]
            if not placed:  # a pass: a list of moves cannot say it, so the opening ends here
                break
            at = placed[0]
            board.play(at, color)
            moves.append(at.name)
            color = color.opponent
        found.append("".join(moves))
    return found


def _replayed(moves: str) -> Board:
    board, color = Board(), BLACK
    for index in range(0, len(moves), 2):
        board.play(moves[index : index + 2], color)
        color = color.opponent
    return board


def _board_answer(value: Any) -> str:
    if isinstance(value, BoardView):
        value = position(value)
    if not isinstance(value, Board):
        raise NotAnAnswer(_("expected a Board"))
    return str(value)


def replay(function: Any) -> None:
    """``replay(moves)`` plays a move list like ``'f5d6c3'`` from the start, Black first."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for moves in _openings():
        board = _replayed(moves)
        cases.append(Case(_("{count} moves: {moves}").format(count=len(moves) // 2, moves=moves),
                          (moves,), str(board), board))  # fmt: skip
    run("replay", function, cases, _board_answer, show=lambda text: "\n" + text)


# -- 06 legal moves, passing, the end ---------------------------------------------------------


def _game_positions() -> list[tuple[str, Board, Color]]:
    found = [
        (_("position {number}").format(number=n + 1), b, c)
        for n, (b, c) in enumerate(sample_positions(range(20, 23), every=9))
    ]
    found += pass_positions()
    found += [(label, board, BLACK) for label, board in early_ends()]
    for seed in range(30, 34):
        board, color = list(random_game(seed, size=6 if seed % 2 else 8))[-1]
        found.append((_("the end of {game} (seed {seed})").format(game=a_game(board.size), seed=seed),
                      board, color))  # fmt: skip
    found += [
        (_("a wipe-out"), blocked_position(), WHITE),
        (_("a full board, drawn"), full_draw(), BLACK),
    ]
    return found


def _restricted(board: Board) -> BoardView:
    return BoardView(board, allow=("flips", "is_legal", "count"))


def legal_moves(function: Any) -> None:
    """``legal_moves(board, color)``: every square where ``color`` may play."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(_("{position}, {color} to move").format(position=label, color=colour(color)),
             (_restricted(board), color), board.legal_moves(color), board,
             tuple(board.legal_moves(color)))
        for label, board, color in _game_positions()
        for color in (color, color.opponent)
    ]  # fmt: skip
    run("legal_moves", function, cases, answers.squares, show=names)


def must_pass(function: Any) -> None:
    """``must_pass(board, color)``: ``color`` cannot move, but the game is not over."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(f"{label}, {colour(color)}", (_restricted(board), color),
             not board.has_legal_move(color) and not board.is_finished(), board)
        for label, board, color in _game_positions()
        for color in (color, color.opponent)
    ]  # fmt: skip
    run("must_pass", function, cases, answers.boolean)


def game_over(function: Any) -> None:
    """``game_over(board)``: neither side can move, whether or not the board is full."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(label, (_restricted(board),), board.is_finished(), board)
        for label, board, _color in _game_positions()
    ]
    run("game_over", function, cases, answers.boolean)


def winner(function: Any) -> None:
    """``winner(board)`` of a finished game: the colour with more discs, None for a draw."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = []
    for label, board, _color in _game_positions():
        if board.is_finished():
            black, white = board.count(BLACK), board.count(WHITE)
            expected = None if black == white else BLACK if black > white else WHITE
            cases.append(
                Case(
                    _("{board} ({black} Black, {white} White)").format(board=label, black=black, white=white),
                    (_restricted(board),),
                    expected,
                    board,
                )
            )
    run("winner", function, cases, answers.color_or_none, show=color_name)
