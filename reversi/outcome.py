"""How a game ends: the no-move policies and how a turn is handed over under them,
the reasons a game ends, and the outcome record.

>>> board = Board.from_text('''
... W W W .
... W B . .
... . . . .
... . . . .
... ''')
>>> after = hand_over(board, WHITE, NoMovePolicy.OPPONENT_WINS)
>>> after.turn, after.note, after.winner
(<Color.BLACK: 'black'>, 'Black has no legal move, so White wins', <Color.WHITE: 'white'>)
>>> hand_over(board, WHITE, NoMovePolicy.CHANGE_TURN).reason is None
True

The notes and an outcome's ``str`` are in the reader's language (see :mod:`reversi.i18n`);
an :class:`EndReason`'s value stays English, since saves and tables key on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from reversi.board import Board
from reversi.i18n import N_, _, colour
from reversi.notation import BLACK, WHITE, Color
from reversi.surface import Choice


class NoMovePolicy(Choice):
    """What happens when the side to move has no legal move but the other side has one.

    When neither side can move, the game always ends and the side with more discs wins.
    """

    CHANGE_TURN = "change-turn"
    STALEMATE = "stalemate"
    OPPONENT_WINS = "opponent-wins"
    MORE_DISCS_WINS = "more-discs-wins"

    @property
    def label(self) -> str:
        """A short description for menus."""
        return _POLICY_LABELS[self]

    @classmethod
    def read(cls, value: NoMovePolicy | str) -> NoMovePolicy:
        """A policy given as itself or as text (``"stalemate"``); :class:`ArgumentError` otherwise."""
        return cls(value)


_POLICY_LABELS = {
    NoMovePolicy.CHANGE_TURN: "Change turn: the player passes and the opponent moves again",
    NoMovePolicy.STALEMATE: "Stalemate: the game ends and nobody wins",
    NoMovePolicy.OPPONENT_WINS: "Opponent wins: the player who could still move wins",
    NoMovePolicy.MORE_DISCS_WINS: "More discs wins: the player with more discs wins now",
}


class EndReason(Choice):
    """Why a game ended."""

    NO_MOVES = N_("neither side can move")
    STALEMATE = N_("stalemate: a player had no move")
    OPPONENT_WINS = N_("a player had no move, so the opponent wins")
    MORE_DISCS = N_("a player had no move, so the side with more discs wins")
    RESIGNATION = N_("resignation")
    TIMEOUTS = N_("both players kept running out of time")


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: the winner (``None`` for a draw or a stalemate), why, and the counts."""

    winner: Color | None
    reason: EndReason
    black: int
    white: int

    @property
    def is_stalemate(self) -> bool:
        """Whether the game ended in a stalemate (nobody scores; counted apart from draws)."""
        return self.reason is EndReason.STALEMATE

    @property
    def is_draw(self) -> bool:
        """Whether the game ended level (not a stalemate)."""
        return self.winner is None and not self.is_stalemate

    def __str__(self) -> str:
        named = {"score": _("Black {black} – White {white}").format(black=self.black, white=self.white),
                 "reason": _(self.reason.value)}  # fmt: skip
        if self.is_stalemate:
            return _("Stalemate at {score} ({reason})").format(**named)
        if self.winner is None:
            return _("Draw, {score} ({reason})").format(**named)
        return _("{winner} wins, {score} ({reason})").format(winner=colour(self.winner), **named)


@dataclass(frozen=True)
class Handover:
    """What follows a turn: who is to move, a line for the game's log (or ``None``), and,
    when the game ends there, the winner (``None``: nobody) and the reason."""

    turn: Color
    note: str | None = None
    winner: Color | None = None
    reason: EndReason | None = None


def hand_over(board: Board, mover: Color, policy: NoMovePolicy) -> Handover:
    """The turn after ``mover`` played (or passed) on ``board``, under the no-move ``policy``."""
    nxt = mover.opponent
    if board.has_legal_move(nxt):
        return Handover(nxt)
    if not board.has_legal_move(mover):
        return Handover(nxt, None, leader(board), EndReason.NO_MOVES)
    stuck, other = colour(nxt), colour(mover)
    if policy is NoMovePolicy.CHANGE_TURN:
        return Handover(nxt, _("{color} has no legal move and must pass").format(color=stuck))
    if policy is NoMovePolicy.STALEMATE:
        note = _("{color} has no legal move: stalemate").format(color=stuck)
        return Handover(nxt, note, None, EndReason.STALEMATE)
    if policy is NoMovePolicy.OPPONENT_WINS:
        note = _("{color} has no legal move, so {winner} wins").format(color=stuck, winner=other)
        return Handover(nxt, note, mover, EndReason.OPPONENT_WINS)
    note = _("{color} has no legal move, so the side with more discs wins").format(color=stuck)
    return Handover(nxt, note, leader(board), EndReason.MORE_DISCS)


def leader(board: Board) -> Color | None:
    """The colour with more discs on ``board`` (``None`` when level)."""
    counts = board.counts()
    if counts.black == counts.white:
        return None
    return BLACK if counts.black > counts.white else WHITE
