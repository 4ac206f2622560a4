"""What a game shows: its players, whose turn it is, the moves so far, the counts and the clock.

:class:`GameState` reads a game and changes nothing; :class:`~reversi.game.Game` adds what
changes one (moves, passes, undo, resignation, the clock running out).
"""

from __future__ import annotations

from reversi.actions import Ply
from reversi.board import Board, PawnCounts
from reversi.clock import Clock, MoveClock
from reversi.history import History
from reversi.notation import BLACK, WHITE, Color, Move, Square
from reversi.outcome import Outcome
from reversi.players import Player
from reversi.players.naming import seat_labels, seat_titles
from reversi.surface import student


class GameState:
    """The reading side of a :class:`~reversi.game.Game` (it sets these attributes)."""

    board: Board
    players: dict[Color, Player]
    turn: Color
    history: History
    plies: list[Ply]
    outcome: Outcome | None
    move_clock: MoveClock
    undo_limit: int | None
    undos_used: dict[Color, int]

    @property
    def time_per_move(self) -> float | None:
        """Seconds each side has per move (``None``: no limit)."""
        return self.move_clock.time_per_move

    @property
    def clock(self) -> Clock:
        """The function the game reads the time from."""
        return self.move_clock.clock

    @student
    def player(self, color: Color) -> Player:
        """The player of ``color``."""
        return self.players[color]

    @student
    def label(self, color: Color) -> str:
        """A name for ``color``'s player that tells it from the other one (see
        :func:`~reversi.players.naming.seat_labels`): ``'Ann'``, or ``'Greedy (White)'``
        when both players are called Greedy."""
        return seat_labels(self._name(BLACK), self._name(WHITE))[color]

    @student
    def title(self, color: Color) -> str:
        """``color``'s player with the colour said once: ``'Ann (Black)'``, or just ``'Black'``
        for a player called Black (see :func:`~reversi.players.naming.seat_titles`)."""
        return seat_titles(self._name(BLACK), self._name(WHITE))[color]

    @property
    def current_player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.turn]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (see :attr:`outcome`)."""
        return self.outcome is not None

    @property
    def winner(self) -> Color | None:
        """The winning colour once the game is over; ``None`` while playing or after a draw."""
        return self.outcome.winner if self.outcome else None

    @property
    def last_move(self) -> Square | None:
        """The square of the last disc placed (``None`` before any).

        Passes and turns lost to the clock put no disc down and are skipped, so a
        board keeps framing the last disc that was played.
        """
        return self.history.last_move

    @property
    def moves(self) -> list[Move]:
        """Every turn's move in order: squares, and PASS for passes and lost turns."""
        return [ply.move for ply in self.plies]

    def transcript(self) -> str:
        """The moves in Othello transcript form, for example ``'f5d6c3'`` (passes are implied)."""
        return "".join(ply.move.name for ply in self.plies if isinstance(ply.move, Square))

    def legal_moves(self) -> list[Square]:
        """The legal moves of the side to move (none once the game is over)."""
        return [] if self.is_over else self.board.legal_moves(self.turn)

    @property
    def must_pass(self) -> bool:
        """Whether the side to move has no legal move and must pass (by typing ``0`` or ``pass``)."""
        return not self.is_over and not self.board.has_legal_move(self.turn)

    def counts(self) -> PawnCounts:
        """Black, white, total and empty counts (what a Pawns panel shows)."""
        return self.board.counts()

    @student
    def undos_left(self, color: Color) -> int | None:
        """How many more undos ``color`` may have accepted (``None``: no limit)."""
        if self.undo_limit is None:
            return None
        return self.undo_limit - self.undos_used[color]

    def time_left(self) -> float | None:
        """Seconds left for the side to move (``None`` without a time limit or after the end)."""
        return None if self.is_over else self.move_clock.time_left()

    def elapsed(self) -> float:
        """Seconds the side to move has spent on this turn so far."""
        return self.move_clock.elapsed()

    def __str__(self) -> str:
        state = str(self.outcome) if self.outcome else f"{self.turn} to move"
        black, white, _, _ = self.counts()
        return f"{self.board}\nBlack {black}, White {white}: {state}"

    def _name(self, color: Color) -> str:
        return self.players[color].name
