"""The teacher's commands on a computer that stands for Windows or macOS.

Each command runs through ``kit.py`` in a separate process whose world lacks what only
Linux has: no ``bwrap`` (nor bash, node, npm or anything else of ``/usr/bin``) on PATH,
and a ``sitecustomize`` (:data:`STAND_IN`) that refuses the kit's own code ``os.fork``,
``resource`` and ``fcntl`` and writes down every attempt.  The commands must work there
(open, release, check, grade, serve, tournament, site build), grading must take the
portable sandbox by itself, every solution and stub of every exercise must get the same
points as on the Linux path (bubblewrap), and nothing may have reached for what is missing.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.ports import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = sorted(path.stem for path in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))

#: The stand-in for a computer without fork, resource and fcntl, for the kit's own code.
STAND_IN = '''
"""Stands for Windows: the kit's own code finds no os.fork, resource or fcntl."""
import builtins, os, sys

KIT = ("reversi", "course")
LOG = os.environ["PORTABLE_LOG"]


def _refuse(what, importer):
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"{importer} reached for {what}\\n")


_import = builtins.__import__


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    if level == 0 and name.split(".")[0] in ("resource", "fcntl") and importer.split(".")[0] in KIT:
        _refuse(name, importer)
        raise ImportError(f"No module named {name!r} (this computer stands for Windows)", name=name)
    return _import(name, globals, locals, fromlist, level)


builtins.__import__ = _guarded_import
_fork = os.fork


def _guarded_fork():
    importer = sys._getframe(1).f_globals.get("__name__") or ""
    if importer.split(".")[0] in KIT:
        _refuse("os.fork", importer)
        raise OSError("no fork on this computer (it stands for Windows)")
    return _fork()


os.fork = _guarded_fork
'''


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A folder with spaces and non-ASCII in its name, the stand-in, and a bare PATH."""
    top = tmp_path_factory.mktemp("portable") / "Zoë Martín's class"
    (top / "site-customize").mkdir(parents=True)
    (top / "site-customize" / "sitecustomize.py").write_text(STAND_IN, encoding="utf-8")
    programs = top / "programs"
    programs.mkdir()
    scripts = Path(sys.executable).parent
    for name in ("python", "python3", "deno"):
        if (scripts / name).exists():
            (programs / name).symlink_to(scripts / name)
    log = top / "reached.log"
    env = {
        "PATH": str(programs),
        "PYTHONPATH": str(top / "site-customize"),
        "PORTABLE_LOG": str(log),
        "HOME": str(top),
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    return {"top": top, "env": env, "log": log}


def kit(world: dict[str, Any], *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``kit.py ARGS`` in the stand-in world, from its folder."""
    return subprocess.run(
        [sys.executable, str(ROOT / "kit.py"), *args], cwd=world["top"], env=world["env"],
        capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def started(world: dict[str, Any], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "kit.py"), *args], cwd=world["top"], env=world["env"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def answered(url: str, seconds: float) -> int:
    """The HTTP status of ``url`` once it answers (0 if it never does in time)."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return int(response.status)
        except OSError:
            time.sleep(0.5)
    return 0


def stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    try:
        out, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return out


def nothing_reached(world: dict[str, Any]) -> None:
    log = world["log"]
    assert not log.exists(), log.read_text(encoding="utf-8")


def test_the_stand_in_really_refuses(world: dict[str, Any]) -> None:
    """The stand-in is not a no-op: code of the kit that reaches for fork is refused and logged."""
    probe = subprocess.run(
        [sys.executable, "-c", "import course.pyodide as p; p.__name__; "
         "exec('import resource', {'__name__': 'course.probe'})"],
        env=world["env"], capture_output=True, text=True, cwd=world["top"],
    )  # fmt: skip
    assert "this computer stands for Windows" in probe.stderr
    assert "course.probe reached for resource" in world["log"].read_text(encoding="utf-8")
    world["log"].unlink()
    assert shutil.which("bwrap", path=world["env"]["PATH"]) is None
    assert shutil.which("bash", path=world["env"]["PATH"]) is None
    assert shutil.which("npm", path=world["env"]["PATH"]) is None


def test_release_check_and_the_tournament(world: dict[str, Any]) -> None:
    top = world["top"]
    done = kit(world, "release", "--out", str(top / "handout"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.stem for p in (top / "handout").glob("*.ipynb")) == EXERCISES
    done = kit(world, "check", str(ROOT / "exercises" / "source" / "07_greedy.ipynb"))
    assert done.returncode == 0 and "Score: 2/2 questions" in done.stdout, done.stdout + done.stderr
    player = top / "players" / "ann" / "player.ipynb"
    player.parent.mkdir(parents=True)
    player.write_text(json.dumps(_notebook(GREEDY)), encoding="utf-8")
    done = kit(world, "tournament", str(top / "players"), "--levels", "easy")
    assert done.returncode == 0, done.stdout + done.stderr
    page = (top / "class" / "tournament-results" / "index.html").read_text(encoding="utf-8")
    assert "ann" in page and "NOT isolated" not in page
    nothing_reached(world)


def test_every_solution_and_stub_grades_as_on_linux(world: dict[str, Any]) -> None:
    """The same class graded here (Pyodide, chosen by itself) and on the Linux path."""
    top = world["top"]
    hand_ins = top / "hand-ins"
    for name in EXERCISES:
        for student, folder in (("solutions", ROOT / "exercises" / "source"),
                                ("stubs", ROOT / "exercises")):  # fmt: skip
            (hand_ins / student).mkdir(parents=True, exist_ok=True)
            shutil.copy(folder / f"{name}.ipynb", hand_ins / student / f"{name}.ipynb")
    done = kit(world, "grade", str(hand_ins), "--seed", "7")
    assert done.returncode == 0, done.stdout + done.stderr
    linux = top / "linux" / "grades.csv"
    linux.parent.mkdir()
    plain = subprocess.run(
        [sys.executable, "-m", "course", "grade", str(hand_ins), "--seed", "7", "--out", str(linux),
         "--sandbox", "bubblewrap"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert plain.returncode == 0, plain.stdout + plain.stderr
    here, there = _rows(top / "class" / "grades.csv"), _rows(linux)
    assert set(here) == {"solutions", "stubs"}
    assert here == there
    points = {student: row["points"] for student, row in here.items()}
    assert float(points["stubs"]) == 0 < float(points["solutions"])
    nothing_reached(world)


def test_serve_says_the_address_and_answers_there(world: dict[str, Any]) -> None:
    port = free_port()
    server = started(world, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-site")
    try:
        status = answered(f"http://127.0.0.1:{port}/teacher", 60)
    finally:
        said = stop(server)
    assert status == 200, said
    assert f"http://127.0.0.1:{port}/" in said
    nothing_reached(world)


def test_the_lab_opens(world: dict[str, Any]) -> None:
    port = free_port()
    lab = started(world, "lab", "--no-browser", f"--port={port}", "--ServerApp.token=",
                  "--ServerApp.password=")  # fmt: skip
    try:
        status = answered(f"http://127.0.0.1:{port}/lab", 120)
    finally:
        said = stop(lab)
    assert status == 200, said[-3000:]
    nothing_reached(world)


def test_the_site_builds_without_node_or_npm(world: dict[str, Any]) -> None:
    out = world["top"] / "site"
    done = kit(world, "site", "build", "--out", str(out), timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (out / "static" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert (out / "index.html").is_file()
    nothing_reached(world)


GREEDY = """
def choose(board, color):
    moves = board.legal_moves(color)
    if not moves:
        return PASS
    return max(moves, key=lambda move: len(board.flips(move, color)))
"""


def _notebook(code: str) -> dict[str, Any]:
    cell = {"cell_type": "code", "metadata": {}, "source": code, "outputs": [],
            "execution_count": None}  # fmt: skip
    return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _rows(sheet: Path) -> dict[str, dict[str, str]]:
    """The sheet's rows by student, without the columns that say when or how it ran."""
    with sheet.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    return {row["student_id"]: {k: v for k, v in row.items() if k not in ("graded", "when")}
            for row in rows}  # fmt: skip
