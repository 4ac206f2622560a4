"""A game of Reversi between two players: turns, passes, the clock, undo, resignation and the log.

>>> game = Game()
>>> game.play("f5")
[e5]
>>> game.play("d6")
[d5]
>>> game.transcript(), game.last_move
('f5d6', d6)
>>> game.log[-1]
'2. White d6 flips d5'

The log and the errors are in the reader's language (see :mod:`reversi.i18n`).

Every change to a game goes through a small set of *actions* (move, pass, timeout,
undo request and answer, resignation; see :mod:`reversi.actions`).  :attr:`Game.actions`
records them, so a game can be saved and rebuilt exactly by replaying them (see
:mod:`reversi.saves`).  The time of each turn is kept by a :class:`~reversi.clock.MoveClock`.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from reversi.actions import (
    ACTION_TYPES,
    Action,
    MoveAction,
    PassAction,
    Ply,
    Resignation,
    TimeoutAction,
    UndoAnswer,
    UndoRequest,
    action_from_dict,
)
from reversi.board import Board
from reversi.clock import Clock, MoveClock, TimePerMove
from reversi.errors import (
    GameOverError,
    IllegalMoveError,
    InputEnded,
    NotationError,
    PlayerError,
    TimeExpiredError,
    UndoError,
    shown,
)
from reversi.gamestate import GameState
from reversi.history import History, Snapshot
from reversi.i18n import N_, _, colour
from reversi.notation import BLACK, PASS, WHITE, Color, Move, Square, SquareLike
from reversi.outcome import EndReason, NoMovePolicy, Outcome, hand_over, leader
from reversi.players import HumanPlayer, Player
from reversi.surface import Between, student

#: A game ends when this many turns in a row were lost to the clock (each side twice).
MAX_CONSECUTIVE_TIMEOUTS = 4

#: The most undos a game may allow each player (``None`` allows any number).
MAX_UNDO_LIMIT = 10**9

#: Why an action is refused, in whole sentences by action: the game is over, or an undo
#: request waits for its answer.
_REFUSED = {
    "play": (N_("cannot play: the game is over ({outcome})"), N_("cannot play: {asker}'s undo request waits for {answerer}'s answer")),
    "pass": (N_("cannot pass: the game is over ({outcome})"), N_("cannot pass: {asker}'s undo request waits for {answerer}'s answer")),
    "move": (N_("cannot move: the game is over ({outcome})"), N_("cannot move: {asker}'s undo request waits for {answerer}'s answer")),
    "resign": (N_("cannot resign: the game is over ({outcome})"), N_("cannot resign: {asker}'s undo request waits for {answerer}'s answer")),
    "time out": (N_("cannot time out: the game is over ({outcome})"), N_("cannot time out: {asker}'s undo request waits for {answerer}'s answer")),
}


@student
class Game(GameState):
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
        no_move_policy: NoMovePolicy = NoMovePolicy.CHANGE_TURN,
        time_per_move: TimePerMove | None = None,
        undo_limit: Annotated[int, Between(0, MAX_UNDO_LIMIT)] | None = 1,
        clock: Clock = time.monotonic,
    ) -> None:
        self.board = Board(size)
        self.players = {
            BLACK: black if black is not None else HumanPlayer("Black"),
            WHITE: white if white is not None else HumanPlayer("White"),
        }
        self.no_move_policy = NoMovePolicy(no_move_policy)
        self.undo_limit = undo_limit
        self.move_clock = MoveClock(time_per_move, clock)

        self.turn: Color = BLACK
        self.history = History()
        self.plies: list[Ply] = self.history.plies  # the turns, oldest first
        self.log: list[str] = []
        self.actions: list[Action] = self.history.actions  # what replays the game (saves)
        self.outcome: Outcome | None = None
        self.pending_undo: Color | None = None
        self.undos_used = {BLACK: 0, WHITE: 0}
        self._consecutive_timeouts = 0
        #: Time-outs in a row that end the game (``None``: never; the class server's rooms).
        self.timeouts_to_end: int | None = MAX_CONSECUTIVE_TIMEOUTS
        self.log.append(_("New game: {black} against {white}").format(
            black=self.title(BLACK), white=self.title(WHITE)))  # fmt: skip

    # -- playing ------------------------------------------------------------------------

    @student
    def play(self, square: SquareLike) -> list[Square]:
        """Play the side to move's disc on a square; returns the flipped squares.

        Refused moves raise an error that says why and change nothing: the game
        is over, an undo request waits for its answer, the notation is wrong or
        the move is illegal.  A move that comes after the time ran out forfeits
        the turn instead and raises :class:`TimeExpiredError`.
        """
        self._check_can_act("play")
        self._enforce_clock()
        return self._move(square)

    @student
    def pass_turn(self) -> None:
        """Pass because the side to move has no legal move (refused while it has one)."""
        self._check_can_act("pass")
        self._enforce_clock()
        self._pass()

    def step(self) -> Move | None:
        """Ask the side to move's player for a move and play it; returns the move.

        The player gets a copy of the board; its answer goes through :meth:`play_choice`.
        A person whose input has ended (:class:`InputEnded`) resigns, and ``None`` is returned.
        """
        self._check_can_act("move")
        self._enforce_clock()
        try:
            choice = self.current_player.choose_move(self.board.copy(), self.turn)
        except InputEnded as ended:
            self.log.append(str(ended))
            self.resign()
            return None
        return self.play_choice(choice)

    def play_choice(self, move: object) -> Move:
        """Play the move the side to move's player chose (a square or PASS); returns it.

        For front ends that ask a computer player elsewhere (in a thread, say) and
        play its answer later.  A move that is not legal is an error
        (:class:`PlayerError`) that names the player, never silently skipped.
        """
        self._check_can_act("move")
        self._enforce_clock()
        color, player = self.turn, self.current_player
        named = {"player": player.name, "color": colour(color)}
        if move is PASS:
            if not self.must_pass:
                raise PlayerError(_("{player} ({color}) passed although it has a legal move").format(**named))
            self.pass_turn()
            return PASS
        try:
            at = self.board.square(move)  # type: ignore[arg-type]
        except NotationError as error:
            raise PlayerError(_("{player} ({color}) returned {value}, which is not a move").format(
                value=shown(move), **named)) from error  # fmt: skip
        reason = self.board.illegal_reason(at, color)
        if reason is not None:
            raise PlayerError(_("{player} ({color}) chose {square}, which is not legal: {reason}").format(
                square=at, reason=reason, **named))  # fmt: skip
        self.play(at)
        return at

    @student
    def play_out(self, max_turns: Annotated[int, Between(0, 10**9)] | None = None) -> Outcome | None:
        """Step the players until the game ends (or ``max_turns`` turns); returns the outcome."""
        turns = 0
        while not self.is_over and (max_turns is None or turns < max_turns):
            self.step()
            turns += 1
        return self.outcome

    @student
    def resign(self, color: Color | None = None) -> Outcome:
        """The side ``color`` (the side to move if left out) gives up and loses."""
        self._check_can_act("resign")
        color = self.turn if color is None else color
        self.history.add_action(Resignation(color))
        self.log.append(_("{player} resigns").format(player=self.title(color)))
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

    @student
    def request_undo(self, color: Color) -> None:
        """``color`` asks to take back its last move; the opponent answers with :meth:`answer_undo`."""
        if self.is_over:
            raise GameOverError(_("{color} cannot ask to undo: the game is over ({outcome})").format(
                color=colour(color), outcome=self.outcome))  # fmt: skip
        if self.pending_undo is not None:
            raise UndoError(_("{color} has already asked to undo; answer that first").format(
                color=colour(self.pending_undo)))  # fmt: skip
        if self.history.last_move_index(color) is None:
            raise UndoError(_("{color} has no move to take back yet").format(color=colour(color)))
        if self.undos_left(color) == 0:
            raise UndoError(_("{color} has used all {limit} undo(s) of this game").format(
                color=colour(color), limit=self.undo_limit))  # fmt: skip
        self.pending_undo = color
        self.history.add_action(UndoRequest(color))
        self.log.append(_("{color} asks to take back their last move; {opponent} must answer").format(
            color=colour(color), opponent=colour(color.opponent)))  # fmt: skip

    @student
    def answer_undo(self, accept: bool) -> None:
        """The opponent accepts or declines the waiting undo request.

        Accepted, the position before the asker's last move comes back (with the
        opponent's reply, if any, taken back too) and the asker's undo is used up.
        Declined, nothing changes and the asker keeps their undo.
        """
        asker = self.pending_undo
        if asker is None:
            raise UndoError(_("there is no undo request to answer"))
        self.pending_undo = None
        self.history.add_action(UndoAnswer(accept))
        if not accept:
            self.log.append(_("{answerer} declines {asker}'s undo request").format(
                answerer=colour(asker.opponent), asker=colour(asker)))  # fmt: skip
            return
        index = self.history.last_move_index(asker)
        assert index is not None  # checked by request_undo
        snapshot, taken = self.history.take_back(index)
        self.board = snapshot.board.copy()
        self.turn = snapshot.turn
        self._consecutive_timeouts = snapshot.consecutive_timeouts
        taken_back = " ".join(str(ply.move) for ply in taken)
        self.undos_used[asker] += 1
        self.move_clock.start()
        self.log.append(_("{answerer} accepts {asker}'s undo: taken back {moves}").format(
            answerer=colour(asker.opponent), asker=colour(asker), moves=taken_back))  # fmt: skip

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

    @student
    def apply(self, action: Annotated[Action | dict[str, Any], N_("an action or its JSON form (a dict)")]) -> None:
        """Carry out one recorded action (see :attr:`actions`) without consulting the clock.

        ``action`` is an action record or its JSON form (``{"action": "move", "square": "d3"}``).
        Used to rebuild a saved game; raises the same errors as the actions themselves,
        and :class:`ArgumentError` for something that is not an action.
        """
        if not isinstance(action, ACTION_TYPES):
            action = action_from_dict(action)
        if isinstance(action, MoveAction):
            self._check_can_act("play")
            self._move(action.square)
        elif isinstance(action, PassAction):
            self._check_can_act("pass")
            self._pass()
        elif isinstance(action, TimeoutAction):
            self._check_can_act("time out")
            self._forfeit()
        elif isinstance(action, UndoRequest):
            self.request_undo(action.color)
        elif isinstance(action, UndoAnswer):
            self.answer_undo(action.accept)
        else:
            self.resign(action.color)

    @student
    def restart_clock(self, elapsed: Annotated[float, Between(0, 1e15)] = 0.0) -> None:
        """Start the side to move's turn again as if ``elapsed`` seconds had already gone by."""
        self.move_clock.start(elapsed)

    # -- inside ---------------------------------------------------------------------------

    def _check_can_act(self, what: str) -> None:
        if self.outcome is not None:
            raise GameOverError(_(_REFUSED[what][0]).format(outcome=self.outcome))
        if self.pending_undo is not None:
            raise UndoError(_(_REFUSED[what][1]).format(
                asker=colour(self.pending_undo), answerer=colour(self.pending_undo.opponent)))  # fmt: skip

    def _move(self, where: SquareLike) -> list[Square]:
        at = self.board.square(where)
        color = self.turn
        before = self._snapshot()
        flipped = self.board.play(at, color)  # raises IllegalMoveError, board untouched
        self._record(before, Ply(color, at, tuple(flipped)), MoveAction(at))
        flips = " ".join(s.name for s in flipped)
        self.log.append(_("{number}. {color} {square} flips {flips}").format(
            number=len(self.plies), color=colour(color), square=at, flips=flips))  # fmt: skip
        self._advance(color)
        return flipped

    def _pass(self) -> None:
        color = self.turn
        legal = self.board.legal_moves(color)
        if legal:
            moves = ", ".join(s.name for s in legal)
            raise IllegalMoveError(_("{color} cannot pass: it has legal moves ({moves})").format(
                color=colour(color), moves=moves))  # fmt: skip
        self._record(self._snapshot(), Ply(color, PASS), PassAction())
        self.log.append(_("{number}. {color} has no legal move and passes").format(
            number=len(self.plies), color=colour(color)))  # fmt: skip
        self._advance(color)

    def _time_is_up(self) -> bool:
        return not self.is_over and self.pending_undo is None and self.move_clock.is_up()

    def _enforce_clock(self) -> None:
        late = self.turn
        if self.check_time():
            raise TimeExpiredError(
                _("{color} ran out of time ({seconds:g} s per move): the turn was forfeited").format(
                    color=colour(late), seconds=self.time_per_move)
            )

    def _forfeit(self) -> None:
        color = self.turn
        self._record(self._snapshot(), Ply(color, PASS, timeout=True), TimeoutAction())
        self._consecutive_timeouts += 1
        self.move_clock.forfeit()
        self.log.append(_("{number}. {color} ran out of time and loses the turn").format(
            number=len(self.plies), color=colour(color)))  # fmt: skip
        if self.timeouts_to_end is not None and self._consecutive_timeouts >= self.timeouts_to_end:
            self._finish(leader(self.board), EndReason.TIMEOUTS)
            return
        self._advance(color, keep_clock=True)

    def _snapshot(self) -> Snapshot:
        return Snapshot(self.board.copy(), self.turn, self._consecutive_timeouts)

    def _record(self, before: Snapshot, ply: Ply, action: Action) -> None:
        self.history.add_turn(before, ply, action)
        if not ply.timeout:
            self._consecutive_timeouts = 0

    def _advance(self, mover: Color, keep_clock: bool = False) -> None:
        """Hand the turn on after ``mover``'s turn, ending the game when the rules say so."""
        if not keep_clock:
            self.move_clock.start()
        handover = hand_over(self.board, mover, self.no_move_policy)
        self.turn = handover.turn
        if handover.note:
            self.log.append(handover.note)
        if handover.reason is not None:
            self._finish(handover.winner, handover.reason)

    def _finish(self, winner: Color | None, reason: EndReason) -> Outcome:
        counts = self.board.counts()
        self.outcome = Outcome(winner, reason, counts.black, counts.white)
        self.log.append(_("Game over: {outcome}").format(outcome=self.outcome))
        return self.outcome

