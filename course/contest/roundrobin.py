"""The class tournament: every student's player and the kit's levels, each against each.

:func:`play_contest` pairs every two entrants (:class:`~course.contest.handins.Entrant`)
for ``games_per_pair`` games: the openings of :func:`course.tournament.random_openings`,
each played once with each colour, the levels made by :func:`course.tournament.entrant`
with the same game seeds as :func:`course.tournament.round_robin` gives them.  A student
seat is a :class:`~course.contest.sandboxed.SandboxSeat` (a fresh sandboxed process per
game); the referee (:func:`~course.contest.referee.referee`) is the only judge.  The
result, :class:`Contest`, keeps every game and works out the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from course.contest.handins import Entrant
from course.contest.referee import LevelSeat, Played, Seat, referee
from course.contest.sandboxed import SandboxSeat
from course.grading.sandbox import Sandbox
from course.tournament import GameRecord, TournamentResult, entrant, random_openings
from reversi.errors import ArgumentError
from reversi.players import LEVELS

#: The kit's levels by kind: ``{"beginner": Beginner, ...}``.
LEVEL_KINDS = {level.kind: level for level in LEVELS}
#: Told after each game: (games done, games in all, the game).
Progress = Callable[[int, int, Played], None]


@dataclass(frozen=True)
class Row:
    """One entrant's line of the leaderboard."""

    place: int
    name: str
    kind: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    discs: int
    forfeits: int


@dataclass(frozen=True)
class Settings:
    """How the tournament was played (shown on the page)."""

    games_per_pair: int = 2
    size: int = 8
    opening_plies: int = 4
    seed: int = 0
    move_time: float = 1.0
    total_time: float = 60.0
    load_time: float = 10.0
    isolated: bool = True


#: The settings a tournament has unless told otherwise.
DEFAULT_SETTINGS = Settings()


@dataclass
class Contest:
    """Every game of a tournament and its entrants; the tables are worked out from the games."""

    entrants: tuple[Entrant, ...]
    settings: Settings
    games: list[Played] = field(default_factory=list)

    def result(self) -> TournamentResult:
        """The games as :mod:`course.tournament` keeps them (its standings and cross-table)."""
        records = tuple(
            GameRecord(g.black, g.white, "".join(g.opening), g.outcome) for g in self.games
        )
        return TournamentResult(tuple(e.name for e in self.entrants), records)

    def table(self) -> list[Row]:
        """The leaderboard: most points first, then the larger disc difference."""
        kinds = {e.name: "kit level" if e.is_level else "student" for e in self.entrants}
        rows = []
        for standing in self.result().standings():
            name = standing.name
            mine = [g for g in self.games if name in (g.black, g.white)]
            discs = sum(g.disc_difference(name) for g in mine)
            forfeits = sum(1 for g in mine if g.forfeit and g.name_of(g.forfeit.color) == name)
            rows.append((standing, discs, forfeits, kinds.get(name, "student")))
        rows.sort(key=lambda item: (-item[0].points, -item[1]))
        return [
            Row(place, s.name, kind, s.games, s.wins, s.draws, s.losses, s.points, discs, lost)
            for place, (s, discs, lost, kind) in enumerate(rows, start=1)
        ]


def level_entrants(levels: Sequence[str]) -> list[Entrant]:
    """The kit's levels as entrants, named as the board's menu names them (``Easy``)."""
    unknown = [level for level in levels if level not in LEVEL_KINDS]
    if unknown:
        known = ", ".join(LEVEL_KINDS)
        raise ArgumentError(f"{unknown[0]!r} is not a level: choose from {known}")
    return [Entrant(LEVEL_KINDS[level].label, level=level) for level in levels]


def play_contest(
    entrants: Sequence[Entrant],
    settings: Settings = Settings(),
    sandbox: Sandbox | None = None,
    progress: Progress | None = None,
) -> Contest:
    """Play the round robin (see the module's text); ``sandbox`` runs the students' code."""
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ArgumentError(f"two entrants share a name: {sorted(names)}")
    if len(entrants) < 2:
        raise ArgumentError("a tournament needs at least two entrants")
    if settings.games_per_pair < 2 or settings.games_per_pair % 2:
        raise ArgumentError(
            f"games_per_pair must be an even number of at least 2, not {settings.games_per_pair!r}"
        )
    if sandbox is None and any(not e.is_level for e in entrants):
        sandbox = Sandbox("auto" if settings.isolated else "none")
    openings = random_openings(
        settings.games_per_pair // 2, settings.opening_plies, settings.size, settings.seed
    )
    contest = Contest(tuple(entrants), settings)
    total = len(openings) * 2 * len(entrants) * (len(entrants) - 1) // 2
    try:
        for first, second in combinations(entrants, 2):
            for opening in openings:
                for black, white in ((first, second), (second, first)):
                    game_seed = settings.seed * 100_000 + len(contest.games)
                    seats = (
                        _seat(black, game_seed, settings, sandbox),
                        _seat(white, game_seed + 1, settings, sandbox),
                    )
                    contest.games.append(referee(*seats, opening, settings.size))
                    if progress is not None:
                        progress(len(contest.games), total, contest.games[-1])
    finally:
        if sandbox is not None:
            sandbox.close()  # its idle Pyodide hosts
    return contest


def _seat(who: Entrant, game_seed: int, settings: Settings, sandbox: Sandbox | None) -> Seat:
    if who.level is not None:
        return LevelSeat(who.name, entrant(who.level)(game_seed))
    assert sandbox is not None  # play_contest makes one when a student takes part
    return SandboxSeat(
        who.name, who.cells, sandbox, settings.move_time, settings.total_time, settings.load_time
    )
