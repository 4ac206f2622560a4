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

from course.contest._checks import board_size, seconds, text, whole
from course.contest.handins import Entrant
from course.contest.referee import LevelSeat, Played, Seat, referee
from course.contest.sandboxed import SandboxSeat
from course.grading.sandbox import Sandbox
from course.tournament import GameRecord, TournamentResult, entrant, random_openings
from reversi.callables import guarded_callback
from reversi.errors import ArgumentError, ReversiError, shown
from reversi.players import LEVELS

#: The most openings a contest draws (:func:`course.tournament.random_openings` draws at most 1000).
_MAX_OPENINGS = 1000
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

    def __post_init__(self) -> None:
        text(self.name, "a row's player")
        text(self.kind, "a row's kind")
        counts = (self.place, self.games, self.wins, self.draws, self.losses, self.forfeits)
        if not all(type(count) is int and count >= 0 for count in counts):
            raise ArgumentError(
                f"a row's place and counts are whole numbers of at least 0, not {shown(counts)}"
            )
        if type(self.discs) is not int:
            raise ArgumentError(
                f"a row's disc difference is a whole number, not {shown(self.discs)}"
            )
        points = self.points
        is_number = isinstance(points, int | float) and not isinstance(points, bool)
        if not is_number or not 0 <= points <= self.games:
            raise ArgumentError(
                f"a row's points are a number from 0 to its games, not {shown(self.points)}"
            )


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

    def __post_init__(self) -> None:
        games = whole(self.games_per_pair, "games_per_pair", 2, 2 * _MAX_OPENINGS)
        if games % 2:
            raise ArgumentError(
                f"games_per_pair must be an even number of at least 2, not {shown(games)}"
            )
        board_size(self.size)
        whole(self.opening_plies, "opening_plies", 0, 60)
        whole(self.seed, "seed", -(2**63 - 1), 2**63 - 1)
        seconds(self.move_time, "move_time", 3600.0)
        seconds(self.total_time, "total_time", 24 * 3600.0)
        seconds(self.load_time, "load_time", 3600.0)
        if not isinstance(self.isolated, bool):
            raise ArgumentError(f"isolated must be True or False, not {shown(self.isolated)}")


#: The settings a tournament has unless told otherwise.
DEFAULT_SETTINGS = Settings()


@dataclass
class Contest:
    """Every game of a tournament and its entrants; the tables are worked out from the games."""

    entrants: tuple[Entrant, ...]
    settings: Settings
    games: list[Played] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.entrants, tuple | list) or not all(
            isinstance(e, Entrant) for e in self.entrants
        ):
            raise ArgumentError(
                f"a contest's entrants are a tuple of Entrant, not {shown(self.entrants)}"
            )
        if not isinstance(self.settings, Settings):
            raise ArgumentError(
                f"a contest's settings are a contest Settings, not {shown(self.settings)}"
            )
        games = self.games
        if not isinstance(games, list | tuple) or not all(isinstance(g, Played) for g in games):
            raise ArgumentError(f"a contest's games are a list of Played, not {shown(self.games)}")
        self.entrants, self.games = tuple(self.entrants), list(self.games)

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
        try:
            standings = self.result().standings()
        except ReversiError as error:
            raise ArgumentError(f"the contest's games do not add up to a table: {error}") from None
        for standing in standings:
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
    if not isinstance(levels, tuple | list) or not all(isinstance(level, str) for level in levels):
        raise ArgumentError(f"levels is a list of level names, not {shown(levels)}")
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
    if not isinstance(entrants, tuple | list) or not all(isinstance(e, Entrant) for e in entrants):
        raise ArgumentError(f"entrants is a list of Entrant, not {shown(entrants)}")
    if not isinstance(settings, Settings):
        raise ArgumentError(f"settings is a contest Settings, not {shown(settings)}")
    if sandbox is not None and not isinstance(sandbox, Sandbox):
        raise ArgumentError(f"sandbox is a Sandbox or None, not {shown(sandbox)}")
    tell = guarded_callback(progress, "progress", "taking (games done, games in all, the game)")
    unknown = [e.level for e in entrants if e.level is not None and e.level not in LEVEL_KINDS]
    if unknown:
        raise ArgumentError(
            f"{shown(unknown[0])} is not a level: choose from {', '.join(LEVEL_KINDS)}"
        )
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
    for first, second in combinations(entrants, 2):
        for opening in openings:
            for black, white in ((first, second), (second, first)):
                game_seed = settings.seed * 100_000 + len(contest.games)
                seats = (
                    _seat(black, game_seed, settings, sandbox),
                    _seat(white, game_seed + 1, settings, sandbox),
                )
                contest.games.append(referee(*seats, opening, settings.size))
                if tell is not None:
                    tell(len(contest.games), total, contest.games[-1])
    return contest


def _seat(who: Entrant, game_seed: int, settings: Settings, sandbox: Sandbox | None) -> Seat:
    if who.level is not None:
        return LevelSeat(who.name, entrant(who.level)(game_seed))
    if sandbox is None:  # never: play_contest makes one when a student takes part
        raise ArgumentError(f"{shown(who.name)} needs a sandbox to play in")
    return SandboxSeat(
        who.name, who.cells, sandbox, settings.move_time, settings.total_time, settings.load_time
    )
