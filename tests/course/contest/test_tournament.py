"""The tournament with hostile entrants: each loses only its own games, honest results stand.

Every honest game is replayed directly (the same code as a kit player in this process,
the same opening, :func:`course.tournament.play_game`) and must end exactly the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import course
import reversi
from course.contest.handins import Entrant
from course.contest.roundrobin import Settings, level_entrants, play_contest
from course.tournament import entrant, play_game, random_openings

from . import players as p

SETTINGS = Settings(games_per_pair=2, size=6, move_time=1.0, total_time=30.0, load_time=15.0)
HONEST = {"greedy": p.GREEDY, "corners": p.CORNERS, "flooder": p.FLOODER}


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory):
    secret = tmp_path_factory.mktemp("handins") / "greedy" / "12_player.ipynb"
    secret.parent.mkdir()
    secret.write_text("{}")
    teacher = Path(course.__file__)
    hostile = {
        "looper": p.LOOPER, "crasher": p.CRASHER, "illegal": p.ILLEGAL, "malformed": p.MALFORMED,
        "piper": p.PIPER, "importer": p.IMPORTER,
        "snooper": p.snooper(
            [str(secret), str(teacher), str(Path(reversi.__file__)), "/etc/passwd",
             "/root/.bashrc", "/sandbox/../etc/hostname"],
            [str(secret.parent.parent), "/root", "/work", "/etc", str(Path.cwd())],
        ),
    }  # fmt: skip
    entrants = [Entrant(name, cells=(code,)) for name, code in {**HONEST, **hostile}.items()]
    return play_contest([*entrants, *level_entrants(["easy"])], SETTINGS)


REASONS = {
    "looper": "took longer than 1 s for a move",
    "crasher": "choose raised IndexError",
    "illegal": "which is not a legal move",
    "malformed": "returned a dict, not a move",
    "piper": "sent too much output",
    "importer": "choose raised ModuleNotFoundError: No module named 'course'",
    "snooper": "choose raised RuntimeError: blocked: ",
}


@pytest.mark.parametrize("name", sorted(REASONS))
def test_a_hostile_entrant_loses_each_of_its_games_and_only_those(contest, name):
    mine = [g for g in contest.games if name in (g.black, g.white)]
    assert len(mine) == 2 * (len(contest.entrants) - 1)
    for game in mine:
        other = game.black if game.white == name else game.white
        at_fault = game.forfeit is not None and game.name_of(game.forfeit.color) == name
        if other not in REASONS:  # against an honest entrant: lost, for its own reason
            assert at_fault and game.winner == other, game.describe()
        if at_fault:
            assert game.forfeit is not None and REASONS[name] in game.forfeit.reason
        else:  # two hostile entrants: whoever moves first after the opening loses
            assert other in REASONS and game.winner == name, game.describe()


def test_the_snooper_read_nothing_of_other_entrants_or_the_teacher(contest):
    reasons = [g.forfeit.reason for g in contest.games if g.forfeit and "snooper" in
               g.name_of(g.forfeit.color)]  # fmt: skip
    assert reasons
    for reason in reasons:
        blocked = reason.split("blocked: ", 1)[1].split()
        assert len(blocked) == 11, reason  # six files and five folders, none readable


def test_honest_games_end_exactly_as_when_played_directly(contest):
    openings = random_openings(1, SETTINGS.opening_plies, SETTINGS.size, SETTINGS.seed)
    honest = {*HONEST, "Easy"}
    checked = 0
    for number, game in enumerate(contest.games):
        if not {game.black, game.white} <= honest:
            continue
        assert game.forfeit is None, game.describe()
        seed = SETTINGS.seed * 100_000 + number

        def player(name: str, game_seed: int):
            return entrant("easy")(game_seed) if name == "Easy" else p.Direct(name, HONEST[name])

        direct = play_game(player(game.black, seed), player(game.white, seed + 1), openings[0], 6)
        assert game.outcome == direct, (game.describe(), direct)
        checked += 1
    assert checked == 12  # four honest entrants: six pairs, two games each


def test_the_leaderboard_counts_every_game_once(contest):
    rows = contest.table()
    assert [r.place for r in rows] == list(range(1, len(rows) + 1))
    assert sum(r.games for r in rows) == 2 * len(contest.games)
    assert sum(r.wins for r in rows) == sum(r.losses for r in rows)
    assert sum(r.points for r in rows) == len(contest.games)
    assert sum(r.discs for r in rows) == 0
    hostile = {r.name for r in rows if r.name in REASONS}
    assert {r.name for r in rows[: len(rows) - len(hostile)]} == {*HONEST, "Easy"}
    forfeits = sum(1 for g in contest.games if g.forfeit)
    assert sum(r.forfeits for r in rows) == forfeits
    for game in contest.games:
        if game.forfeit:
            assert game.outcome.winner is game.forfeit.color.opponent
            assert game.outcome.reason.value == "resignation"
