"""A teacher's session in a fresh clone leaves the kit clean: every output goes to ``class/``.

The clone is of the repository's last commit, in a folder whose name has a space and a
non-ASCII letter.  The teacher's commands run there as ``kit.py`` runs them (``python -m
course ...`` in the folder the teacher is in), with this interpreter and the clone first
on the import path: releasing the exercises (the committed copies must come out
byte-identical), the worksheets, checking one notebook, grading two students' hand-ins,
a small tournament and ``kit.py --help``.  Afterwards ``git status`` shows nothing, every
ignored file is in ``class/`` (or a cache, or the teacher's grading seed), and the style
gate ``ruff check .`` passes although ``class/`` holds handed-in notebooks that it would
refuse.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course.__main__ import _grade_arguments, _serve_arguments, _worksheets_arguments
from course.contest.cli import add_arguments as tournament_arguments

ROOT = Path(__file__).resolve().parents[1]
#: A student's tournament player, as the project notebook asks for it.
GREEDY = '''def choose(board, color):
    """The move that turns the most discs."""
    moves = board.legal_moves(color)
    return max(moves, key=lambda move: len(board.flips(move, color)))
'''
#: Ignored files a session may leave outside class/: caches and the teacher's grading seed.
EXPECTED_IGNORED = ("class/", "exercises/source/grading_seed.txt", ".ruff_cache/")


def _notebook(path: Path, *cells: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    code = [{"cell_type": "code", "metadata": {}, "source": cell, "outputs": [],
             "execution_count": None} for cell in cells]  # fmt: skip
    path.write_text(json.dumps({"cells": code, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}), encoding="utf-8")  # fmt: skip


def _rows(sheet: Path) -> dict[str, dict[str, str]]:
    with sheet.open(encoding="utf-8", newline="") as file:
        return {row["student_id"]: row for row in csv.DictReader(file)}


class Clone:
    """A fresh clone of the repository, and its commands run the way kit.py runs them."""

    def __init__(self, folder: Path) -> None:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
        self.folder = folder
        self.env = {**os.environ, "PYTHONPATH": str(folder)}

    def run(self, *args: str, status: int = 0) -> str:
        done = subprocess.run([sys.executable, *args], cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        shown = f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
        assert done.returncode == status, shown
        assert "Traceback (most recent call last)" not in done.stderr, shown
        return done.stdout

    def course(self, *args: str, status: int = 0) -> str:
        return self.run("-m", "course", *args, status=status)

    def git(self, *args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=self.folder, capture_output=True, text=True,
                              check=True)  # fmt: skip
        return done.stdout.splitlines()


@pytest.mark.slow
def test_a_teachers_session_leaves_the_kit_clean(tmp_path: Path) -> None:
    clone = Clone(tmp_path / "Zoë's kit")
    kit = clone.folder
    exercises = sorted(p.name for p in (kit / "exercises").glob("[0-9][0-9]_*.ipynb"))
    first, second = exercises[:2]

    written = clone.course("release")
    assert written.count("wrote ") >= len(exercises)
    assert clone.git("status", "--porcelain") == [], "the released copies changed"
    assert "The student copies are up to date." in clone.course("release", "--check")

    clone.course("worksheets", "--no-pdf")
    assert (kit / "class" / "worksheets" / "index.html").is_file()

    stub = clone.course("check", f"exercises/{first}", status=1)
    assert "Score: 0/" in stub, "a released stub, not answered, passes no question"

    handins = kit / "class" / "handins"
    # alice hands in the teacher's solution of the first exercise and the second one with
    # a stray import (which the style gate would refuse if it read class/); bob a stub
    (handins / "alice").mkdir(parents=True)
    shutil.copy(kit / "exercises" / "source" / first, handins / "alice" / first)
    second_stub = json.loads((kit / "exercises" / second).read_text(encoding="utf-8"))
    second_stub["cells"].append({"cell_type": "code", "metadata": {}, "source": "import os",
                                 "outputs": [], "execution_count": None})  # fmt: skip
    (handins / "alice" / second).write_text(json.dumps(second_stub), encoding="utf-8")
    (handins / "bob").mkdir()
    shutil.copy(kit / "exercises" / first, handins / "bob" / first)
    solved = clone.course("check", f"class/handins/alice/{first}")
    assert "Score: " in solved

    clone.course("grade", "class/handins", "--jobs", "2")
    rows = _rows(kit / "class" / "grades.csv")
    assert sorted(rows) == ["alice", "bob"]
    assert float(rows["alice"]["points"]) > 0 and float(rows["bob"]["points"]) == 0
    assert rows["bob"]["missing"] == second.removesuffix(".ipynb")
    assert (kit / "class" / "grades-journal.jsonl").is_file()
    assert sorted(p.name for p in (kit / "class" / "grades-feedback").glob("*.html"))

    _notebook(kit / "class" / "players" / "alice" / "player.ipynb", GREEDY)
    clone.course("tournament", "class/players", "--levels", "easy", "--games-per-pair", "2")
    results = kit / "class" / "tournament-results"
    with (results / "leaderboard.csv").open(encoding="utf-8", newline="") as file:
        assert sorted(row["player"] for row in csv.DictReader(file)) == ["Easy", "alice"]

    assert "  grade " in clone.run("kit.py", "--help")

    assert clone.git("status", "--porcelain") == []
    ignored = [line[3:] for line in clone.git("status", "--porcelain", "--ignored")]
    strays = [path for path in ignored
              if path not in EXPECTED_IGNORED and not path.endswith("__pycache__/")]  # fmt: skip
    assert strays == [], "teacher outputs outside class/"
    assert "All checks passed!" in clone.run("-m", "ruff", "check", ".")


def test_every_teacher_output_defaults_into_the_class_folder() -> None:
    import argparse

    defaults = {}
    for name, declare in [("grade", _grade_arguments), ("worksheets", _worksheets_arguments),
                          ("tournament", tournament_arguments), ("serve", _serve_arguments)]:  # fmt: skip
        parser = argparse.ArgumentParser()
        declare(parser)
        defaults[name] = {action.dest: action.default for action in parser._actions}
    assert defaults["grade"]["out"] == Path("class/grades.csv")
    assert defaults["worksheets"]["out"] == Path("class/worksheets")
    assert defaults["tournament"]["out"] == Path("class/tournament-results")
    assert defaults["serve"]["data"] == Path("class/classroom-data")
