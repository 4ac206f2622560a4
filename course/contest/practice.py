"""Practice for the tournament in the student's own notebook: a few games against a level.

>>> from course.contest.plain import plain
>>> def first_move(board, color):
...     return board.legal_moves(color)[0]
>>> practice = try_player(first_move, against="easy", games=2, size=6)
>>> len(practice.games), practice.forfeits
(2, 0)

The games are refereed exactly as in the tournament (:func:`~course.contest.referee.referee`,
the same openings, the same plain board, the same time limit per move), but the
function runs here, in the student's kernel, so an error shows its traceback.
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from course.contest.referee import FunctionSeat, LevelSeat, Played, positions, referee
from course.pictures.svg import board_svg
from course.tournament import entrant, random_openings
from reversi.errors import ArgumentError
from reversi.surface import student
from reversi.typecheck import Between

#: The most games :func:`try_player` plays at once.
MAX_GAMES = 100


@dataclass(repr=False)
class Practice:
    """The practice games and what went wrong in them; shows itself as a small report."""

    name: str
    against: str
    games: list[Played]
    error: BaseException | None = None

    @property
    def forfeits(self) -> int:
        """Games the student's function lost by a fault (a crash, a bad move, too slow)."""
        return sum(1 for g in self.games if g.forfeit and g.name_of(g.forfeit.color) == self.name)

    def score(self) -> tuple[int, int, int]:
        """(wins, draws, losses) of the student's function."""
        wins = sum(g.winner == self.name for g in self.games)
        draws = sum(g.winner is None for g in self.games)
        return wins, draws, len(self.games) - wins - draws

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        wins, draws, losses = self.score()
        lines = [
            f"{len(self.games)} games against {self.against}: "
            f"{wins} won, {draws} drawn, {losses} lost"
        ]
        for number, game in enumerate(self.games, start=1):
            lines.append(f"  game {number}: {game.black} (Black) v {game.white} (White): "
                         f"{game.describe()}")  # fmt: skip
        if self.error is not None:
            lines.append("Your function's error:")
            lines += traceback.format_exception(self.error)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        pictures = "".join(
            f"<figure style='display:inline-block;margin:4px'>{_final_board(g)}"
            f"<figcaption style='max-width:220px'>{html.escape(g.describe())}</figcaption></figure>"
            for g in self.games
        )
        return f"<pre>{html.escape(str(self))}</pre><div>{pictures}</div>"


def _final_board(game: Played) -> str:
    board = positions(game)[-1][0]
    return board_svg(board, size_px=200)


@student
def try_player(
    choose: Callable[[Any, Any], Any],
    against: str = "easy",
    games: Annotated[int, Between(2, MAX_GAMES)] = 2,
    size: Annotated[int, Between(4, 16)] = 8,
    seed: Annotated[int, Between(-(2**63 - 1), 2**63 - 1)] = 0,
    move_time: Annotated[float, Between(0.01, 60)] = 1.0,
) -> Practice:
    """Play ``games`` games (half with each colour) of ``choose`` against the level ``against``.

    ``choose(board, color)`` gets the plain board of the tournament and returns a move
    (``"d3"``); it loses a game where it raises, returns something that is not a legal
    move or takes more than ``move_time`` seconds, as in the tournament.
    """
    from course.contest.roundrobin import level_entrants

    if games % 2:
        raise ArgumentError(f"games must be an even number (half with each colour), not {games}")
    label = level_entrants([against])[0].name  # an unknown level is refused, naming the levels
    name = getattr(choose, "__name__", "you")
    name = "you" if name == label or not isinstance(name, str) or not name.strip() else name[:100]
    played: list[Played] = []
    error = None
    for number, opening in enumerate(random_openings(games // 2, 4, size, seed)):
        for you_black in (True, False):
            you = FunctionSeat(name, choose, move_time)
            level = LevelSeat(label, entrant(against)(seed * 100_000 + number))
            black, white = (you, level) if you_black else (level, you)
            played.append(referee(black, white, opening, size))
            error = error or you.error
    return Practice(name, label, played, error)
