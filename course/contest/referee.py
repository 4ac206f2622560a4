"""The referee: one game between two seats, played on the kit's :class:`reversi.game.Game`.

A *seat* answers positions with moves.  The referee asks the side to move's seat for a
move (never when that side must pass: it passes for it), checks the answer against the
real board and plays it.  An answer that is not a move, an illegal move, a crash or a
time-out loses that game: the referee resigns it for that side, and the game's
:class:`Forfeit` says why.  Nothing a seat does can stop the referee.

Three kinds of seat: :class:`LevelSeat` (one of the kit's levels, in this process),
:class:`FunctionSeat` (a ``choose(board, color)`` function in this process: practice in
the student's own kernel) and :class:`course.contest.sandboxed.SandboxSeat` (a student's
notebook in the grading sandbox).
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from course.contest.plain import decode_plain, encode, plain
from reversi.board import Board
from reversi.errors import ReversiError
from reversi.game import Game
from reversi.notation import BLACK, PASS, WHITE, Color, Square
from reversi.outcome import Outcome
from reversi.players import Player

#: The longest reason a forfeit keeps, and the longest answer a seat gives.
_REASON = 100_000


@dataclass(frozen=True)
class Answer:
    """A seat's answer: the move as text (``"d3"``, ``"pass"``), or the problem that loses the game."""

    move: str | None = None
    problem: str | None = None


@runtime_checkable
class Seat(Protocol):
    """What the referee needs of a player (:class:`LevelSeat`, :class:`FunctionSeat`...)."""

    name: str

    @abc.abstractmethod
    def start(self) -> None:
        """Get ready for a game (a sandboxed seat starts its process here)."""

    @abc.abstractmethod
    def choose(self, board: Board, color: Color) -> Answer:
        """The move for ``color`` on ``board`` (a copy: the seat may change it)."""

    @abc.abstractmethod
    def close(self) -> None:
        """The game is over: let go of everything the seat holds."""


class LevelSeat:
    """One of the kit's players (a level), trusted and untimed."""

    def __init__(self, name: str, player: Player) -> None:
        self.name, self.player = name, player

    def start(self) -> None:
        pass

    def choose(self, board: Board, color: Color) -> Answer:
        move = self.player.choose_move(board, color)
        return Answer("pass" if move is PASS else str(move))

    def close(self) -> None:
        pass


class FunctionSeat:
    """A ``choose(board, color)`` function of this process, given the plain board, timed per move."""

    def __init__(self, name: str, choose: Callable[[Any, Any], Any], move_time: float) -> None:
        self.name, self.function, self.move_time = name, choose, move_time
        self.error: BaseException | None = None  # what choose raised, for the student to read

    def start(self) -> None:
        pass

    def choose(self, board: Board, color: Color) -> Answer:
        plain_board, plain_color = decode_plain(encode(board, color))
        started = time.monotonic()
        try:
            value = self.function(plain_board, plain_color)
        except Exception as error:
            self.error = error
            return Answer(problem=f"choose raised {type(error).__name__}: {error}"[:_REASON])
        took = time.monotonic() - started
        if took > self.move_time:
            return Answer(
                problem=f"took {took:.2f} s for a move (the limit is {self.move_time:g} s)"
            )
        return _plain_answer(value, board.size)

    def close(self) -> None:
        pass


def _plain_answer(value: object, size: int) -> Answer:
    """What a player function returned, as an answer (the sandboxed runner does the same)."""
    module = plain()
    if value is module.PASS:
        return Answer("pass")
    if isinstance(value, str):
        return Answer(value[:40])
    if isinstance(value, tuple) and len(value) == 2:
        try:
            return Answer(module.square(tuple(value), size).name)
        except ValueError as error:
            return Answer(problem=f"returned {value!r:.40}, which is not a square: {error}")
    return Answer(problem=f"returned a {type(value).__name__}, not a move like 'd3'")


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a seat's fault: which side, and why."""

    color: Color
    reason: str


@dataclass(frozen=True)
class Played:
    """One finished game: the seats' names, the opening, every move, the outcome, any forfeit."""

    black: str
    white: str
    opening: tuple[str, ...]
    moves: tuple[str, ...]
    outcome: Outcome
    forfeit: Forfeit | None = None
    size: int = 8
    seconds: dict[str, float] = field(default_factory=dict)

    def name_of(self, color: Color) -> str:
        """The seat that played ``color``."""
        return self.black if color is BLACK else self.white

    @property
    def winner(self) -> str | None:
        """The winner's name (``None`` for a draw)."""
        return None if self.outcome.winner is None else self.name_of(self.outcome.winner)

    def disc_difference(self, name: str) -> int:
        """``name``'s discs minus the opponent's; a forfeit counts as every square to none."""
        if self.forfeit is not None:
            full = self.size * self.size
            return -full if self.name_of(self.forfeit.color) == name else full
        margin = self.outcome.black - self.outcome.white
        return margin if name == self.black else -margin

    def describe(self) -> str:
        """``'ann wins 40-24'``, ``'a draw 32-32'``, or who lost by a fault, where and why."""
        score = f"{self.outcome.black}-{self.outcome.white}"
        if self.forfeit:
            loser = self.name_of(self.forfeit.color)
            return (f"{self.winner} wins ({loser} loses the game at {score}: "
                    f"{self.forfeit.reason})")  # fmt: skip
        return f"{self.winner} wins {score}" if self.winner else f"a draw {score}"


def referee(
    black: Seat, white: Seat, opening: Sequence[Square | str] = (), size: int = 8
) -> Played:
    """Play one game from ``opening`` to the end; the seats are started and closed here."""
    game = Game(size=size)
    for move in opening:
        game.play(move)
    seats = {BLACK: black, WHITE: white}
    spent = {black.name: 0.0, white.name: 0.0}
    forfeit = None
    try:
        for seat in (black, white):
            seat.start()
        while not game.is_over:
            if game.must_pass:
                game.pass_turn()
                continue
            color, seat = game.turn, seats[game.turn]
            started = time.monotonic()
            answer = seat.choose(game.board.copy(), color)
            spent[seat.name] = spent.get(seat.name, 0.0) + time.monotonic() - started
            problem = answer.problem or _play(game, answer.move or "", color)
            if problem:
                forfeit = Forfeit(color, problem)
                game.resign(color)
    finally:
        for seat in (black, white):
            seat.close()
    outcome = game.outcome
    assert outcome is not None  # the loop above runs until the game is over
    return Played(
        black.name, white.name, tuple(str(move) for move in opening),
        tuple(str(move) for move in game.moves), outcome, forfeit, size, spent,
    )  # fmt: skip


def positions(game: Played) -> list[tuple[Board, Square | None, list[Square]]]:
    """Every position of a played game, from the start: (board, last disc put down, its flips).

    The board is replayed from the moves with the kit's rules; a pass keeps the board.
    """
    board = Board(game.size)
    seen: list[tuple[Board, Square | None, list[Square]]] = [(board.copy(), None, [])]
    color = BLACK
    for move in game.moves:
        if move == str(PASS):
            seen.append((board.copy(), None, []))
        else:
            flipped = board.play(move, color)
            seen.append((board.copy(), board.square(move), flipped))
        color = color.opponent
    return seen


def _play(game: Game, text: str, color: Color) -> str | None:
    """Play ``text`` for ``color``; None if it was played, else why it cannot be."""
    if text.strip().lower() == "pass":
        return "passed although it had a legal move"
    try:
        at = game.board.square(text)
    except ReversiError:
        return f"returned {text!r}, which is not a square of this board"
    reason = game.board.illegal_reason(at, color)
    if reason is not None:
        return f"chose {at}, which is not a legal move: {reason}"
    game.play(at)
    return None
