"""How a game ends: the no-move policies, the reasons a game ends, and the outcome record."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from reversi.notation import Color


class NoMovePolicy(enum.Enum):
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


_POLICY_LABELS = {
    NoMovePolicy.CHANGE_TURN: "Change turn: the player passes and the opponent moves again",
    NoMovePolicy.STALEMATE: "Stalemate: the game ends and nobody wins",
    NoMovePolicy.OPPONENT_WINS: "Opponent wins: the player who could still move wins",
    NoMovePolicy.MORE_DISCS_WINS: "More discs wins: the player with more discs wins now",
}


class EndReason(enum.Enum):
    """Why a game ended."""

    NO_MOVES = "neither side can move"
    STALEMATE = "stalemate: a player had no move"
    OPPONENT_WINS = "a player had no move, so the opponent wins"
    MORE_DISCS = "a player had no move, so the side with more discs wins"
    RESIGNATION = "resignation"
    TIMEOUTS = "both players kept running out of time"


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
        score = f"{self.black}-{self.white}"
        if self.is_stalemate:
            return f"Stalemate at {score} ({self.reason.value})"
        if self.winner is None:
            return f"Draw, {score} ({self.reason.value})"
        return f"{self.winner} wins, {score} ({self.reason.value})"
