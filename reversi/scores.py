"""The scores kept across games: one point per win for the player in each seat.

Scores are keyed by the seat's colour and its player's name, never by a display
name alone, so two players called alike on the two sides never merge; the rows
for a Scores panel name them by the shared naming rule
(:mod:`reversi.players.naming`).

>>> from reversi.game import Game
>>> scores = Scoreboard()
>>> game = Game()
>>> _ = game.resign()  # Black gives up
>>> scores.record(game), scores.record(game)
(True, False)
>>> scores.rows()
[('White', 1), ('Draws', 0), ('Stalemates', 0)]
"""

from __future__ import annotations

import weakref
from collections import Counter
from typing import NamedTuple

from reversi.errors import GameOverError
from reversi.game import Game
from reversi.notation import Color
from reversi.surface import student


class Seat(NamedTuple):
    """A side of the board and the name of the player who sat there."""

    color: Color
    name: str


class Scoreboard:
    """Scores across games: wins per seat, plus draws and stalemates.

    Each game is counted once, however often it is recorded.
    """

    def __init__(self) -> None:
        self.wins: Counter[Seat] = Counter()
        self.draws = 0
        self.stalemates = 0
        self.games = 0
        self.seats: dict[Seat, None] = {}  # every seat of every game scored, in order
        self._recorded: weakref.WeakSet[Game] = weakref.WeakSet()

    @student
    def record(self, game: Game) -> bool:
        """Add a finished game's result; returns ``False`` if that game was already counted."""
        outcome = game.outcome
        if outcome is None:
            raise GameOverError("only a finished game can be scored; this one is still going")
        if game in self._recorded:
            return False
        self._recorded.add(game)
        self.games += 1
        for color in Color:
            self.seats.setdefault(Seat(color, game.player(color).name), None)
        if outcome.is_stalemate:
            self.stalemates += 1
        elif outcome.winner is None:
            self.draws += 1
        else:
            self.wins[Seat(outcome.winner, game.player(outcome.winner).name)] += 1
        return True

    def labels(self) -> dict[Seat, str]:
        """A distinct name for each seat scored: its player's name, with the colour added
        when a player in another seat has the same name (two Greedy players, say)."""
        seen = Counter(_key(seat.name) for seat in self.seats)
        return {
            seat: seat.name if seen[_key(seat.name)] == 1 else f"{seat.name} ({seat.color})"
            for seat in self.seats
        }

    def rows(self) -> list[tuple[str, int]]:
        """``(label, count)`` rows for a Scores panel: each seat's wins, then draws and stalemates."""
        labels = self.labels()
        wins = sorted((labels[seat], count) for seat, count in self.wins.items())
        return [*wins, ("Draws", self.draws), ("Stalemates", self.stalemates)]


def _key(name: str) -> str:
    return name.strip().casefold()
