"""``python -m course tournament HANDIN-FOLDER``: the class tournament from the command line.

Every flag is checked by the types of :mod:`course.arguments` before any work: a bad
one exits with status 2 naming it.  Then the players are collected
(:mod:`~course.contest.handins`), the sandbox checked, the round robin played (a line
per game on standard error) and the results written (:mod:`~course.contest.page`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from course.arguments import FlagError, existing_folder, names, output_folder, seconds, whole
from course.contest.handins import PROJECT_NAMES, collect
from course.contest.page import write_results
from course.contest.referee import Played
from course.contest.roundrobin import (
    DEFAULT_SETTINGS,
    LEVEL_KINDS,
    Contest,
    Settings,
    level_entrants,
    play_contest,
)
from course.grading.sandbox import IsolationError, Sandbox, sandbox_options
from reversi.errors import ArgumentError, ReversiError
from reversi.surface import student


@student
def run_tournament(
    folder: str | Path,
    levels: Sequence[str] = ("easy", "medium", "hard"),
    out: str | Path = "tournament-results",
    settings: Settings = DEFAULT_SETTINGS,
) -> Contest:
    """The tournament from a notebook cell: collect, play, write the pages; returns the games.

    The same as the command (without its progress lines); a folder without players, an
    unknown level or a machine that cannot isolate (unless ``settings.isolated`` is False)
    raises the kit's error.
    """
    students, _ = collect(Path(folder))
    if not students:
        raise ArgumentError(f"{str(folder)!r} holds no player notebooks")
    contest = play_contest([*students, *level_entrants(list(levels))], settings)
    write_results(contest, Path(out))
    return contest


def _even_games(value: str) -> int:
    """Games per pair: an even whole number (each opening once with each colour)."""
    number = whole(2, 100, "an even whole number")(value)
    if number % 2:
        raise FlagError(
            f"must be an even whole number from 2 to 100, not {value!r}"
        )
    return number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's flags on ``parser`` (``python -m course tournament``'s)."""
    parser.add_argument(
        "folder", type=existing_folder, metavar="HANDIN-FOLDER",
        help="the hand-in store (DATA/handins) or a folder of STUDENT/NN_player.ipynb "
        "or STUDENT__player.ipynb notebooks",
    )  # fmt: skip
    parser.add_argument(
        "--levels", type=names(tuple(LEVEL_KINDS)), default=["easy", "medium", "hard"],
        help=f"the kit's levels that take part, by name ({', '.join(LEVEL_KINDS)}); "
        "default: easy,medium,hard",
    )  # fmt: skip
    parser.add_argument("--move-time", type=seconds(0.0, 60.0), default=1.0,
                        help="seconds a player has for each move (default 1)")  # fmt: skip
    parser.add_argument("--total-time", type=seconds(0.0, 3600.0), default=None,
                        help="seconds a player has for a whole game (default: 30 moves' time)")  # fmt: skip
    parser.add_argument("--games-per-pair", type=_even_games, default=2,
                        help="games between each two players, an even number (default 2)")  # fmt: skip
    parser.add_argument("--out", type=output_folder, default=Path("class/tournament-results"),
                        help="folder for the pages and CSVs (default: class/tournament-results)")  # fmt: skip
    parser.add_argument("--seed", type=whole(0, 2**63 - 1), default=0,
                        help="seed of the random openings (default 0)")  # fmt: skip
    sandbox_options(parser, "students' players")


def run(args: argparse.Namespace) -> int:
    """Play the tournament the flags describe; 0 when the results are written."""
    students, warnings = collect(args.folder)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not students:
        project = ", ".join(PROJECT_NAMES)
        print(f"error: {args.folder}: no player notebooks in it (looked for STUDENT/NN_NAME.ipynb, "
              f"STUDENT__NAME.ipynb and STUDENT/NAME/STAMP.ipynb with NAME one of {project})",
              file=sys.stderr)  # fmt: skip
        return 2
    taken = {level.name.lower() for level in level_entrants(args.levels)}
    clash = [s.name for s in students if s.name.lower() in taken]
    if clash:
        print(f"error: the student {clash[0]!r} has a level's name: leave that level out "
              "(--levels) or rename the folder", file=sys.stderr)  # fmt: skip
        return 2
    try:
        sandbox = Sandbox(args.sandbox)
    except IsolationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    total = args.total_time if args.total_time is not None else 30 * args.move_time
    settings = Settings(
        games_per_pair=args.games_per_pair, seed=args.seed, move_time=args.move_time,
        total_time=total, isolated=sandbox.isolated,
    )  # fmt: skip

    def progress(done: int, count: int, game: Played) -> None:
        print(f"[{done}/{count}] {game.black} v {game.white}: {game.describe()}", file=sys.stderr)

    try:
        contest = play_contest(
            [*students, *level_entrants(args.levels)], settings, sandbox, progress
        )
    except ReversiError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_results(contest, args.out)
    for row in contest.table():
        print(f"{row.place:>3}  {row.name:<24} {row.points:>5g} points  "
              f"{row.wins}-{row.draws}-{row.losses}  discs {row.discs:+d}")  # fmt: skip
    print(f"Wrote {Path(args.out) / 'index.html'} (and leaderboard.csv, games.csv, games/)")
    return 0
