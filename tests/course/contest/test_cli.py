"""``python -m course tournament``: every flag checked before work, then the files it writes."""

from __future__ import annotations

import csv
import os

import pytest

from course.__main__ import main

from .players import CRASHER, GREEDY
from .test_handins import notebook

BAD_FLAGS = {
    "--levels": ["easy,bogus", "easy,easy", "x" * 5000],
    "--move-time": ["0", "-1", "nan", "61", "fast"],
    "--total-time": ["0", "inf", "3601"],
    "--games-per-pair": ["0", "3", "101", "two", "2.0"],
    "--seed": ["-1", "1.5", "x"],
    "--out": ["/proc/results", "{file}"],
}


@pytest.mark.parametrize(
    ("flag", "value"), [(f, v) for f, values in BAD_FLAGS.items() for v in values]
)
def test_a_bad_flag_stops_before_any_work(tmp_path, capsys, flag, value):
    folder = tmp_path / "handins"
    notebook(folder / "ann" / "player.ipynb", GREEDY)
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", str(folder), flag, value.format(file=a_file), "--out",
              str(tmp_path / "out")] if flag != "--out" else
             ["tournament", str(folder), flag, value.format(file=a_file)])  # fmt: skip
    assert stopped.value.code == 2
    assert f"argument {flag}: " in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_not_there_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", str(tmp_path / "missing")])
    assert stopped.value.code == 2
    assert "argument HANDIN-FOLDER: " in capsys.readouterr().err


def test_a_folder_without_players_says_what_it_looked_for(tmp_path, capsys):
    notebook(tmp_path / "ann" / "04_flips.ipynb", "x = 1")
    assert main(["tournament", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "no player notebooks in it" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_student_named_like_a_level_is_refused(tmp_path, capsys):
    notebook(tmp_path / "Easy" / "player.ipynb", GREEDY)
    assert main(["tournament", str(tmp_path), "--levels", "easy"]) == 2
    assert "'Easy' has a level's name" in capsys.readouterr().err


def test_the_command_writes_the_leaderboard_and_every_game(tmp_path, capsys):
    folder = tmp_path / "handins"
    notebook(folder / "ann" / "player" / "20261124T100000.000000Z.ipynb", GREEDY)
    notebook(folder / "bob__player.ipynb", CRASHER)
    out = tmp_path / "results"
    code = main(["tournament", str(folder), "--levels", "beginner,easy", "--move-time", "2",
                 "--out", str(out), "--seed", "3"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr()
    assert printed.out.endswith(
        f"Wrote {out / 'index.html'} (and leaderboard.csv, games.csv, games/)\n"
    )
    assert printed.err.count("\n") == 12 and printed.err.startswith("[1/12] ann v bob: ann wins")
    with (out / "leaderboard.csv").open() as file:
        board = list(csv.DictReader(file))
    with (out / "games.csv").open() as file:
        games = list(csv.DictReader(file))
    assert sorted(row["player"] for row in board) == ["Beginner", "Easy", "ann", "bob"]
    assert board[-1]["player"] == "bob" and board[-1]["lost_by_fault"] == "6"
    assert len(games) == 12 and len(list((out / "games").glob("game-*.html"))) == 12
    for row in board:
        mine = [g for g in games if row["player"] in (g["black"], g["white"])]
        assert int(row["wins"]) == sum(g["winner"] == row["player"] for g in mine)
        assert float(row["points"]) == int(row["wins"]) + int(row["draws"]) / 2
    page = (out / "index.html").read_text()
    assert "NOT isolated" not in page and page.count("<tr><td>") == 4


def test_without_isolation_the_page_says_so_and_root_is_refused(tmp_path, capsys):
    """Run as root in CI, and as a normal user by tests/test_normal_user.py."""
    notebook(tmp_path / "in" / "ann" / "player.ipynb", GREEDY)
    notebook(tmp_path / "in" / "bob" / "player.ipynb", GREEDY.replace("max(", "min("))
    out = tmp_path / "out"
    done = main(["tournament", str(tmp_path / "in"), "--levels", "", "--no-isolation",
                 "--out", str(out)])  # fmt: skip
    if os.name == "posix" and os.geteuid() == 0:
        assert done == 2 and "refused when run as root" in capsys.readouterr().err
        assert not out.exists()
        return
    assert done == 0
    assert "The students' code was NOT isolated" in (out / "index.html").read_text()


def test_the_portable_sandbox_plays_a_tournament(tmp_path):
    notebook(tmp_path / "in" / "ann" / "player.ipynb", GREEDY)
    out = tmp_path / "out"
    assert main(["tournament", str(tmp_path / "in"), "--levels", "easy", "--sandbox", "pyodide",
                 "--out", str(out)]) == 0  # fmt: skip
    page = (out / "index.html").read_text()
    assert "NOT isolated" not in page and "ann" in page


def test_the_tournament_runs_from_a_notebook_cell(tmp_path):
    from course.contest import run_tournament
    from course.contest.roundrobin import Settings
    from reversi.errors import ReversiError

    notebook(tmp_path / "in" / "ann__player.ipynb", GREEDY)
    contest = run_tournament(tmp_path / "in", ["beginner"], tmp_path / "out", Settings(size=6))
    assert [g.black for g in contest.games] == ["ann", "Beginner"]
    assert (tmp_path / "out" / "games" / "game-002.html").is_file()
    with pytest.raises(ReversiError, match="holds no player notebooks"):
        run_tournament(tmp_path / "out", ["beginner"], tmp_path / "out2")
