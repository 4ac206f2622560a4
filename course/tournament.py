"""A round-robin tournament between computer players, and charts of its results.

Every pair of entrants plays the same few openings twice, once with each colour, so
neither side profits from moving first or from a lucky start.  An opening is a short
run of random legal moves from a seeded :class:`random.Random`, which gives the
deterministic players different games to play; with the same ``seed`` the whole
tournament, random players included, comes out the same every time.

>>> result = round_robin({"Greedy": entrant("greedy"), "Positional": entrant("positional")},
...                      games_per_pair=2, size=6, seed=3)
>>> print(result)
  #  player      games  wins  draws  losses  points
  1  Positional      2     2      0       0     2.0
  2  Greedy          2     0      0       2     0.0

The games are played by :class:`reversi.game.Game`, the players come from
:func:`reversi.players.make_player` (or any function that returns a
:class:`~reversi.players.Player`); this module only keeps the score.  Its charts are
:class:`course.charts.Chart` descriptions, drawn by Jupyter, which is why they live in
``course`` and not in ``reversi``.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Annotated, Any

from course.browser import browser_games
from course.charts import NAME, NUMBER, ORDERED, Chart, chart, field, grid, table_text
from reversi.board import Board
from reversi.errors import ArgumentError, ReversiError, shown
from reversi.game import Game
from reversi.notation import BLACK, MAX_SIZE, MIN_SIZE, Color, Square
from reversi.outcome import Outcome
from reversi.players import PLAYER_KINDS, Player, make_player
from reversi.surface import student
from reversi.typecheck import Between, Length

#: Makes a fresh player for one game; it is given a seed for that game.
PlayerFactory = Callable[[int], Player]
#: The most openings a tournament draws (each pair plays each twice).
MAX_OPENINGS = 1000
#: The most entrants a tournament and its charts take (a class, the levels, and room to spare).
MAX_ENTRANTS = 64
Size = Annotated[int, Between(MIN_SIZE, MAX_SIZE)]
Plies = Annotated[int, Between(0, 60)]
Seed = Annotated[int, Between(-(10**30) + 1, 10**30 - 1)]


@student
def entrant(kind: str, **options: Any) -> PlayerFactory:
    """A factory for ``make_player(kind, **options)``; a kind with a ``seed`` setting gets the game's.

    >>> entrant("alphabeta", depth=2)(seed=7)
    AlphaBetaPlayer(name='Alpha-beta', depth=2, time_limit=None)
    >>> entrant("random")(seed=7)
    RandomPlayer(name='Randomizer', seed=7)
    """
    if make_player(kind, **options).is_human:  # a bad kind or setting is refused now, too
        raise ArgumentError(f"entrant(): {kind!r} is a person: a tournament plays computer players")
    takes_seed = "seed" in inspect.signature(PLAYER_KINDS[kind]).parameters

    def factory(seed: int) -> Player:
        if takes_seed and "seed" not in options:
            return make_player(kind, seed=seed, **options)
        return make_player(kind, **options)

    return factory


@dataclass(frozen=True)
class GameRecord:
    """One tournament game: who had which colour, the opening it started from, and how it ended."""

    black: str
    white: str
    opening: str
    outcome: Outcome

    def name_of(self, color: Color) -> str:
        """The entrant who played ``color``."""
        return self.black if color is BLACK else self.white

    @property
    def winner(self) -> str | None:
        """The winning entrant's name, or ``None`` for a draw (or a stalemate)."""
        return None if self.outcome.winner is None else self.name_of(self.outcome.winner)

    def points(self, name: str) -> float:
        """What ``name`` scored in this game: 1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == name else 0.0


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the table."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        """One point a win, half a point a draw."""
        return self.wins + self.draws / 2


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a tournament, with the table and the cross-table worked out from them."""

    names: tuple[str, ...]
    games: tuple[GameRecord, ...]

    @property
    def games_per_pair(self) -> int:
        """How many games each pair of entrants played."""
        pairs = len(self.names) * (len(self.names) - 1) // 2
        return len(self.games) // pairs if pairs else 0

    def standings(self) -> list[Standing]:
        """One :class:`Standing` per entrant, most points first (ties keep the entry order)."""
        rows = []
        for name in self.names:
            played = [g for g in self.games if name in (g.black, g.white)]
            wins = sum(g.winner == name for g in played)
            draws = sum(g.winner is None for g in played)
            rows.append(Standing(name, len(played), wins, draws, len(played) - wins - draws))
        return sorted(rows, key=lambda row: -row.points)

    def score(self, name: str, opponent: str) -> float:
        """The points ``name`` took from the games against ``opponent``."""
        return sum(g.points(name) for g in self.games if {g.black, g.white} == {name, opponent})

    def crosstable(self) -> list[list[float | None]]:
        """``table[i][j]``: the points entrant ``i`` took from entrant ``j`` (``None`` on the diagonal)."""
        taken: dict[tuple[str, str], float] = {}
        for g in self.games:  # one pass over the games, however many entrants
            for me, them in ((g.black, g.white), (g.white, g.black)):
                taken[me, them] = taken.get((me, them), 0.0) + g.points(me)
        return [
            [None if me == them else taken.get((me, them), 0.0) for them in self.names]
            for me in self.names
        ]

    def __str__(self) -> str:
        width = max(len("player"), *(len(name) for name in self.names))
        lines = [f"  #  {'player':<{width}}  games  wins  draws  losses  points"]
        for place, row in enumerate(self.standings(), start=1):
            lines.append(
                f"{place:>3}  {row.name:<{width}}  {row.games:>5}  {row.wins:>4}  "
                f"{row.draws:>5}  {row.losses:>6}  {row.points:>6.1f}"
            )
        return "\n".join(lines)


@student
def random_openings(
    count: Annotated[int, Between(1, MAX_OPENINGS)], plies: Plies, size: Size = 8, seed: Seed = 0
) -> list[list[Square]]:
    """``count`` openings of ``plies`` random legal moves each, all different when possible.

    >>> [" ".join(map(str, opening)) for opening in random_openings(2, 3, seed=5)]
    ['f5 f6 e6', 'd3 e3 f3']
    """
    rng = random.Random(seed)
    openings: list[list[Square]] = []
    tries = 0
    while len(openings) < count:
        tries += 1
        board, color = Board(size), BLACK
        moves: list[Square] = []
        while len(moves) < plies and board.has_legal_move(color):
            move = rng.choice(board.legal_moves(color))
            board.play(move, color)
            moves.append(move)
            color = color.opponent
        if moves not in openings or tries > count + 1000:  # repeat one if there are too few
            openings.append(moves)
    return openings


def _made(entrants: Mapping[str, PlayerFactory], name: str, seed: int) -> Player:
    """The player entrant ``name``'s factory makes, refused unless it is a computer player."""
    try:
        player = entrants[name](seed)  # the notebook's own function: it can raise anything
    except ReversiError:
        raise
    except Exception as error:
        raise ArgumentError(f"entrant {shown(name)}'s factory failed: {type(error).__name__}: {error}") from error
    if not isinstance(player, Player):
        raise ArgumentError(f"entrant {shown(name)}'s factory made {shown(player)}, not a player")
    return player


def play_game(black: Player, white: Player, opening: list[Square], size: int = 8) -> Outcome:
    """Play one game from the opening moves to the end and return how it ended.

    Both players are computer players: a person's seat would wait for typed moves (and
    fail at the end of standard input), so it is refused before the game starts.
    """
    for player in (black, white):
        if player.is_human:
            raise ArgumentError(f"{player.name} is a person: tournament games are between computer players")
    game = Game(black, white, size=size)
    for move in opening:
        game.play(move)
    outcome = game.play_out()
    assert outcome is not None  # play_out without a turn limit always finishes the game
    return outcome


@student
def round_robin(
    entrants: Annotated[dict[str, PlayerFactory], Length(2, MAX_ENTRANTS)],
    games_per_pair: Annotated[int, Between(2, 2 * MAX_OPENINGS)] = 4,
    size: Size = 8,
    opening_plies: Plies = 4,
    seed: Seed = 0,
) -> TournamentResult:
    """Every entrant plays every other ``games_per_pair`` games, alternating colours.

    ``entrants`` maps a name to a :data:`PlayerFactory` (see :func:`entrant`).  The pairs
    play ``games_per_pair // 2`` openings of ``opening_plies`` random moves, each opening
    once with each colour; every game gets a fresh pair of players.  In the browser
    classroom, which is slower, fewer games are played and one line says so (see
    :func:`course.browser.browser_games`).
    """
    if games_per_pair % 2:
        raise ArgumentError(f"games_per_pair must be an even number, not {games_per_pair}")
    games_per_pair = browser_games(games_per_pair, len(entrants) * (len(entrants) - 1) // 2)
    openings = random_openings(games_per_pair // 2, opening_plies, size, seed)
    games: list[GameRecord] = []
    for first, second in combinations(entrants, 2):
        for opening in openings:
            for black, white in ((first, second), (second, first)):
                game_seed = seed * 100_000 + len(games)
                outcome = play_game(
                    _made(entrants, black, game_seed), _made(entrants, white, game_seed + 1),
                    opening, size,
                )
                text = "".join(square.name for square in opening)
                games.append(GameRecord(black, white, text, outcome))
    return TournamentResult(tuple(entrants), tuple(games))


# -- charts ---------------------------------------------------------------------------------


#: The stacks of the standings chart, in order, with their colours.
OUTCOMES = {"wins": "#2e8b57", "draws": "#b0b0b0", "losses": "#d9534f"}


@student
def plot_standings(result: TournamentResult) -> Chart:
    """Wins, draws and losses of each entrant as stacked bars, the best entrant on top."""
    _chartable(result)
    rows = [
        {"player": row.name, "result": label, "games": getattr(row, label), "order": order}
        for row in result.standings()
        for order, label in enumerate(OUTCOMES)
    ]
    names = [row.name for row in result.standings()]
    encoding = {
        "y": field("player", NAME, "", sort=names),
        "x": field("games", NUMBER, "games"),
        "color": field("result", NAME, "", sort=list(OUTCOMES),
                       scale={"domain": list(OUTCOMES), "range": list(OUTCOMES.values())}),
        "order": field("order", ORDERED),
        "tooltip": [field("player", NAME), field("result", NAME), field("games", NUMBER)],
    }  # fmt: skip
    text = table_text("Round-robin results", ["player", *OUTCOMES],
                      [[row.name, row.wins, row.draws, row.losses] for row in result.standings()])  # fmt: skip
    return chart("Round-robin results", rows, text, width=420, height={"step": 24},
                 mark={"type": "bar"}, encoding=encoding)  # fmt: skip


@student
def plot_crosstable(result: TournamentResult) -> Chart:
    """The points each entrant (row) took from each opponent (column), as a coloured grid."""
    _chartable(result)
    most = result.games_per_pair or 1
    table = result.crosstable()
    cells = [
        {"row": name, "column": against, "value": cell, "label": "-" if cell is None else f"{cell:g}"}
        for name, line in zip(result.names, table, strict=True)
        for against, cell in zip(result.names, line, strict=True)
    ]  # fmt: skip
    title = f"Points taken, out of {most:g} per pair"
    lines = [[name, *line] for name, line in zip(result.names, table, strict=True)]
    text = table_text(title, ["", *result.names], lines)
    colors = {"scheme": "redyellowgreen", "domain": [0, most]}
    return grid(title, cells, text, colors, x_title="against", side=48)


def _chartable(result: TournamentResult) -> None:
    """Refuse a result too large to chart (one a notebook built by hand, not a round robin)."""
    if len(result.names) > MAX_ENTRANTS:
        raise ArgumentError(
            f"a chart shows at most {MAX_ENTRANTS} entrants, not {len(result.names)}"
        )
