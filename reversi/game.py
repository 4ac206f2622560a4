"""A game of Reversi between two players: turns, passes, the clock, undo, resignation and the log.

>>> game = Game()
>>> game.play("f5")
[Square(row=4, col=4)]
>>> game.play("d6")
[Square(row=4, col=3)]
>>> game.transcript()
'f5d6'
>>> game.log[-1]
'2. White d6 flips d5'

Every change to a game goes through a small set of *actions* (move, pass, timeout,
undo request and answer, resignation).  :attr:`Game.actions` records them, so a game
can be saved and rebuilt exactly by replaying them (see :mod:`reversi.saves`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reversi.board import Board, PawnCounts
from reversi.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    PlayerError,
    TimeExpiredError,
    UndoError,
)
from reversi.notation import BLACK, PASS, WHITE, Color, Move, Square, SquareLike
from reversi.outcome import EndReason, NoMovePolicy, Outcome
from reversi.players import HumanPlayer, Player

#: A game ends when this many turns in a row were lost to the clock (each side twice).
MAX_CONSECUTIVE_TIMEOUTS = 4

Clock = Callable[[], float]


@dataclass(frozen=True)
class Ply:
    """One turn of the game: who, what (a square or PASS), and which discs flipped.

    ``timeout`` is true when the turn was lost to the clock rather than passed.
    """

    color: Color
    move: Move
    flipped: tuple[Square, ...] = ()
    timeout: bool = False


@dataclass(frozen=True)
class _Snapshot:
    """What undo needs to put back: the position and the side to move before a ply."""

    board: Board
    turn: Color
    consecutive_timeouts: int


class Game:
    """Two players, a board, and whose turn it is.

    ``black`` and ``white`` are :class:`~reversi.players.Player` objects (a
    :class:`~reversi.players.HumanPlayer` named after its colour if left out).
    Humans' moves come in through :meth:`play` and :meth:`pass_turn`; a computer
    player is asked for its move by :meth:`step`.

    Settings: ``no_move_policy`` (what happens when the side to move has no
    legal move, see :class:`NoMovePolicy`), ``time_per_move`` in seconds (``None``
    for no limit; running out forfeits the turn), ``undo_limit`` (undos each
    player may have accepted; ``None`` for unlimited) and ``clock``, a function
    returning seconds (tests pass a fake one so they never sleep).
    """

    def __init__(
        self,
        black: Player | None = None,
        white: Player | None = None,
        size: int = 8,
        no_move_policy: NoMovePolicy | str = NoMovePolicy.CHANGE_TURN,
        time_per_move: float | None = None,
        undo_limit: int | None = 1,
        clock: Clock = time.monotonic,
    ) -> None:
        self.board = Board(size)
        self.players = {
            BLACK: black if black is not None else HumanPlayer("Black"),
            WHITE: white if white is not None else HumanPlayer("White"),
        }
        for color, player in self.players.items():
            if not isinstance(player, Player):
                raise PlayerError(f"the {color} player must be a Player, not {player!r}")
        self.no_move_policy = NoMovePolicy(no_move_policy)
        if time_per_move is not None and not time_per_move > 0:
            raise ValueError(
                f"time_per_move must be a positive number of seconds, not {time_per_move!r}"
            )
        if undo_limit is not None and (not isinstance(undo_limit, int) or undo_limit < 0):
            raise ValueError(f"undo_limit must be a whole number >= 0 or None, not {undo_limit!r}")
        self.time_per_move = time_per_move
        self.undo_limit = undo_limit
        self.clock = clock

        self.turn: Color = BLACK
        self.plies: list[Ply] = []
        self.log: list[str] = []
        self.actions: list[dict[str, Any]] = []
        self.outcome: Outcome | None = None
        self.pending_undo: Color | None = None
        self.undos_used = {BLACK: 0, WHITE: 0}
        self._snapshots: list[_Snapshot] = []
        self._consecutive_timeouts = 0
        self._turn_started = clock()
        self.log.append(
            f"New game: {self._name(BLACK)} (Black) against {self._name(WHITE)} (White)"
        )

    # -- reading the game ------------------------------------------------------------

    def player(self, color: Color) -> Player:
        """The player of ``color``."""
        return self.players[color]

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
    def moves(self) -> list[Move]:
        """Every turn's move in order: squares, and PASS for passes and lost turns."""
        return [ply.move for ply in self.plies]

    @property
    def last_move(self) -> Square | None:
        """The square of the last disc placed (passes and lost turns skipped), or ``None``."""
        for ply in reversed(self.plies):
            if isinstance(ply.move, Square):
                return ply.move
        return None

    def transcript(self) -> str:
        """The moves in Othello transcript form, for example ``'f5d6c3'`` (passes are implied)."""
        return "".join(ply.move.name for ply in self.plies if isinstance(ply.move, Square))

    def legal_moves(self) -> list[Square]:
        """The legal moves of the side to move (none once the game is over)."""
        return [] if self.is_over else self.board.legal_moves(self.turn)

    @property
    def must_pass(self) -> bool:
        """Whether the side to move has no legal move and must pass (the ZX-81 player typed 0)."""
        return not self.is_over and not self.board.has_legal_move(self.turn)

    def counts(self) -> PawnCounts:
        """Black, white, total and empty counts (seed 000's Pawns window)."""
        return self.board.counts()

    def undos_left(self, color: Color) -> int | None:
        """How many more undos ``color`` may have accepted (``None``: no limit)."""
        if self.undo_limit is None:
            return None
        return self.undo_limit - self.undos_used[color]

    def time_left(self) -> float | None:
        """Seconds left for the side to move (``None`` without a time limit or after the end)."""
        if self.time_per_move is None or self.is_over:
            return None
        return max(0.0, self.time_per_move - (self.clock() - self._turn_started))

    def elapsed(self) -> float:
        """Seconds the side to move has spent on this turn so far."""
        return self.clock() - self._turn_started

    # -- playing ------------------------------------------------------------------------

    def play(self, where: SquareLike) -> list[Square]:
        """Play the side to move's disc on a square; returns the flipped squares.

        Refused moves raise an error that says why and change nothing: the game
        is over, an undo request waits for its answer, the notation is wrong or
        the move is illegal.  A move that comes after the time ran out forfeits
        the turn instead and raises :class:`TimeExpiredError`.
        """
        self._check_can_act("play")
        self._enforce_clock()
        at = self.board.square(where)
        color = self.turn
        before = self._snapshot()
        flipped = self.board.play(at, color)  # raises IllegalMoveError, board untouched
        self._record(before, Ply(color, at, tuple(flipped)), {"action": "move", "square": at.name})
        flips = " ".join(s.name for s in flipped)
        self.log.append(f"{len(self.plies)}. {color} {at} flips {flips}")
        self._advance(color)
        return flipped

    def pass_turn(self) -> None:
        """Pass because the side to move has no legal move (refused while it has one)."""
        self._check_can_act("pass")
        self._enforce_clock()
        color = self.turn
        legal = self.board.legal_moves(color)
        if legal:
            shown = ", ".join(s.name for s in legal)
            raise IllegalMoveError(f"{color} cannot pass: it has legal moves ({shown})")
        self._record(self._snapshot(), Ply(color, PASS), {"action": "pass"})
        self.log.append(f"{len(self.plies)}. {color} has no legal move and passes")
        self._advance(color)

    def step(self) -> Move:
        """Ask the side to move's player for a move and play it; returns the move.

        The player gets a copy of the board; its answer goes through :meth:`play_choice`.
        """
        self._check_can_act("move")
        self._enforce_clock()
        return self.play_choice(self.current_player.choose_move(self.board.copy(), self.turn))

    def play_choice(self, move: object) -> Move:
        """Play the move the side to move's player chose (a square or PASS); returns it.

        For front ends that ask a computer player elsewhere (in a thread, say) and
        play its answer later.  A move that is not legal is an error
        (:class:`PlayerError`) that names the player, never silently skipped.
        """
        self._check_can_act("move")
        self._enforce_clock()
        color, player = self.turn, self.current_player
        if move is PASS:
            if not self.must_pass:
                raise PlayerError(f"{player.name} ({color}) passed although it has a legal move")
            self.pass_turn()
            return PASS
        try:
            at = self.board.square(move)  # type: ignore[arg-type]
        except NotationError as error:
            raise PlayerError(
                f"{player.name} ({color}) returned {move!r}, which is not a move"
            ) from error
        reason = self.board.illegal_reason(at, color)
        if reason is not None:
            raise PlayerError(f"{player.name} ({color}) chose {at}, which is not legal: {reason}")
        self.play(at)
        return at

    def play_out(self, max_turns: int | None = None) -> Outcome | None:
        """Step the players until the game ends (or ``max_turns`` turns); returns the outcome."""
        turns = 0
        while not self.is_over and (max_turns is None or turns < max_turns):
            self.step()
            turns += 1
        return self.outcome

    def resign(self, color: Color | None = None) -> Outcome:
        """The side ``color`` (the side to move if left out) gives up and loses."""
        self._check_can_act("resign")
        color = color or self.turn
        self.actions.append({"action": "resign", "color": color.value})
        self.log.append(f"{color} ({self._name(color)}) resigns")
        return self._finish(color.opponent, EndReason.RESIGNATION)

    def check_time(self) -> bool:
        """Forfeit the turn if the side to move has run out of time; returns whether it did.

        Front ends call this from a timer.  A turn that nobody checked for a long
        time forfeits one turn per full time limit that passed.
        """
        forfeited = False
        while self._time_is_up():
            self._forfeit()
            forfeited = True
        return forfeited

    # -- undo ----------------------------------------------------------------------------

    def request_undo(self, color: Color) -> None:
        """``color`` asks to take back its last move; the opponent answers with :meth:`answer_undo`."""
        if self.is_over:
            raise GameOverError(f"{color} cannot ask to undo: the game is over ({self.outcome})")
        if self.pending_undo is not None:
            raise UndoError(f"{self.pending_undo} has already asked to undo; answer that first")
        if self._last_move_index(color) is None:
            raise UndoError(f"{color} has no move to take back yet")
        if self.undos_left(color) == 0:
            raise UndoError(f"{color} has used all {self.undo_limit} undo(s) of this game")
        self.pending_undo = color
        self.actions.append({"action": "undo-request", "color": color.value})
        self.log.append(f"{color} asks to take back their last move; {color.opponent} must answer")

    def answer_undo(self, accept: bool) -> None:
        """The opponent accepts or declines the waiting undo request.

        Accepted, the position before the asker's last move comes back (with the
        opponent's reply, if any, taken back too) and the asker's undo is used up.
        Declined, nothing changes and the asker keeps their undo.
        """
        asker = self.pending_undo
        if asker is None:
            raise UndoError("there is no undo request to answer")
        self.pending_undo = None
        self.actions.append({"action": "undo-answer", "accept": bool(accept)})
        if not accept:
            self.log.append(f"{asker.opponent} declines {asker}'s undo request")
            return
        index = self._last_move_index(asker)
        assert index is not None  # checked by request_undo
        taken_back = " ".join(str(ply.move) for ply in self.plies[index:])
        snapshot = self._snapshots[index]
        self.board = snapshot.board.copy()
        self.turn = snapshot.turn
        self._consecutive_timeouts = snapshot.consecutive_timeouts
        del self.plies[index:], self._snapshots[index:]
        self.undos_used[asker] += 1
        self._turn_started = self.clock()
        self.log.append(f"{asker.opponent} accepts {asker}'s undo: taken back {taken_back}")

    # -- new games and replays -------------------------------------------------------

    def new_game(self) -> Game:
        """A fresh game with the same players and settings ("play again")."""
        return Game(
            self.players[BLACK],
            self.players[WHITE],
            size=self.board.size,
            no_move_policy=self.no_move_policy,
            time_per_move=self.time_per_move,
            undo_limit=self.undo_limit,
            clock=self.clock,
        )

    def apply(self, action: dict[str, Any]) -> None:
        """Carry out one recorded action (see :attr:`actions`) without consulting the clock.

        Used to rebuild a saved game; raises the same errors as the actions themselves.
        """
        kind = action.get("action")
        if kind == "move":
            self._without_clock(self.play, action["square"])
        elif kind == "pass":
            self._without_clock(self.pass_turn)
        elif kind == "timeout":
            self._check_can_act("time out")
            self._forfeit()
        elif kind == "undo-request":
            self.request_undo(Color(action["color"]))
        elif kind == "undo-answer":
            self.answer_undo(action["accept"])
        elif kind == "resign":
            self.resign(Color(action["color"]))
        else:
            raise ValueError(f"unknown action {kind!r}")

    def restart_clock(self, elapsed: float = 0.0) -> None:
        """Start the side to move's turn again as if ``elapsed`` seconds had already gone by."""
        self._turn_started = self.clock() - elapsed

    def __str__(self) -> str:
        state = str(self.outcome) if self.outcome else f"{self.turn} to move"
        black, white, _, _ = self.counts()
        return f"{self.board}\nBlack {black}, White {white}: {state}"

    # -- inside ---------------------------------------------------------------------------

    def _name(self, color: Color) -> str:
        return self.players[color].name

    def _check_can_act(self, what: str) -> None:
        if self.outcome is not None:
            raise GameOverError(f"cannot {what}: the game is over ({self.outcome})")
        if self.pending_undo is not None:
            raise UndoError(
                f"cannot {what}: {self.pending_undo}'s undo request waits for "
                f"{self.pending_undo.opponent}'s answer"
            )

    def _without_clock(self, action: Callable[..., Any], *args: Any) -> None:
        limit, self.time_per_move = self.time_per_move, None
        try:
            action(*args)
        finally:
            self.time_per_move = limit

    def _time_is_up(self) -> bool:
        return (
            self.time_per_move is not None
            and not self.is_over
            and self.pending_undo is None
            and self.clock() - self._turn_started > self.time_per_move
        )

    def _enforce_clock(self) -> None:
        late = self.turn
        if self.check_time():
            raise TimeExpiredError(
                f"{late} ran out of time ({self.time_per_move:g} s per move): the turn was forfeited"
            )

    def _forfeit(self) -> None:
        color = self.turn
        limit = self.time_per_move
        self._record(self._snapshot(), Ply(color, PASS, timeout=True), {"action": "timeout"})
        self._consecutive_timeouts += 1
        # The next turn starts when this one ran out, so an unattended game stays exact.
        if limit is not None:
            self._turn_started += limit
        self.log.append(f"{len(self.plies)}. {color} ran out of time and loses the turn")
        if self._consecutive_timeouts >= MAX_CONSECUTIVE_TIMEOUTS:
            self._finish(self._leader(), EndReason.TIMEOUTS)
            return
        self._advance(color, keep_clock=True)

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self.board.copy(), self.turn, self._consecutive_timeouts)

    def _record(self, before: _Snapshot, ply: Ply, action: dict[str, Any]) -> None:
        self._snapshots.append(before)
        self.plies.append(ply)
        self.actions.append(action)
        if not ply.timeout:
            self._consecutive_timeouts = 0

    def _last_move_index(self, color: Color) -> int | None:
        for index in range(len(self.plies) - 1, -1, -1):
            ply = self.plies[index]
            if ply.color is color and isinstance(ply.move, Square):
                return index
        return None

    def _advance(self, mover: Color, keep_clock: bool = False) -> None:
        """Hand the turn on after ``mover``'s turn, ending the game when the rules say so."""
        nxt = mover.opponent
        if not keep_clock:
            self._turn_started = self.clock()
        if self.board.has_legal_move(nxt):
            self.turn = nxt
            return
        if not self.board.has_legal_move(mover):
            self.turn = nxt
            self._finish(self._leader(), EndReason.NO_MOVES)
            return
        policy = self.no_move_policy
        self.turn = nxt
        if policy is NoMovePolicy.CHANGE_TURN:
            self.log.append(f"{nxt} has no legal move and must pass")
        elif policy is NoMovePolicy.STALEMATE:
            self.log.append(f"{nxt} has no legal move: stalemate")
            self._finish(None, EndReason.STALEMATE)
        elif policy is NoMovePolicy.OPPONENT_WINS:
            self.log.append(f"{nxt} has no legal move, so {mover} wins")
            self._finish(mover, EndReason.OPPONENT_WINS)
        else:
            self.log.append(f"{nxt} has no legal move, so the side with more discs wins")
            self._finish(self._leader(), EndReason.MORE_DISCS)

    def _leader(self) -> Color | None:
        black, white, _, _ = self.board.counts()
        if black == white:
            return None
        return BLACK if black > white else WHITE

    def _finish(self, winner: Color | None, reason: EndReason) -> Outcome:
        black, white, _, _ = self.board.counts()
        self.outcome = Outcome(winner, reason, black, white)
        self.log.append(f"Game over: {self.outcome}")
        return self.outcome
