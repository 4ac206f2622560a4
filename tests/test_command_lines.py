"""Every command-line tool, with random flags and random input: no traceback, a clear exit status.

The tools are found by construction: ``python -m reversi``, ``python -m course`` and each
subcommand in :data:`course.__main__.COMMANDS` (a new subcommand is covered the day it is
added), and their flags are read from their own argparse parsers.  Each run gets a random
list of those flags with values good and bad (NaN, infinities, huge and negative numbers,
empty text, control characters, long names, paths that are missing, inside /proc, a
device, a FIFO) and random text on standard input, and must end within
:data:`SECONDS` with status 0, 1 or 2 and no Python traceback.

Safety: every run has a scratch folder as its working directory and as ``HOME``, so
what a tool writes by default (saves, grades, a database) lands there; ``release`` is
always pointed at an empty scratch copy of the sources (so it never writes into the
repository); servers listen on 127.0.0.1 only.  A run still going at the time limit is
killed with its whole process group; that is accepted only for the two cases that
legitimately run until stopped (a class server, and a terminal game between two computer
players), and only if it printed no traceback.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from course.__main__ import COMMANDS

#: Runs per tool, and the longest a run may take.
RUNS = 4
SECONDS = 20.0
#: The tools that may run until stopped are stopped sooner: running that long shows they work.
LONG_RUNNING_SECONDS = {"course serve": 5.0, "reversi": 10.0}

SCRATCH = Path(tempfile.mkdtemp(prefix="reversi-flag-fuzz-"))
FIFO = SCRATCH / "a-fifo"
EMPTY = SCRATCH / "empty-sources"

VALUES = [
    "0", "1", "-1", "2", "4", "7", "8", "16", "17", "65535", "65536", "70000", "-5",
    "99999999999999999999", "1e-300", "1e300", "nan", "inf", "-inf", "0.5", "3", "",
    " ", "x", "\x01", "\n", "a" * 300, "a" * 5000, "/proc/x", "/dev/null", "/dev/zero",
    "/missing/folder", ".", "..", str(FIFO), "out.csv", "notes", "127.0.0.1", "::1",
    "random", "greedy", "human", "easy", "stalemate", "04_flips", "game", "é", "😀",
]

COMPUTERS = {"random", "greedy", "positional", "minimax", "alphabeta", "beginner", "easy",
             "medium", "hard", "expert", "computer", "strong"}


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    """The option strings of ``parser`` (its own, not --help)."""
    return [option for action in parser._actions for option in action.option_strings
            if option not in ("-h", "--help")]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parsers = {}
    for name, (_, arguments, _run) in COMMANDS.items():
        parser = argparse.ArgumentParser(prog=f"python -m course {name}")
        arguments(parser)
        parsers[name] = parser
    return parsers


def _reversi_flags() -> list[str]:
    from reversi import terminal

    flags: list[str] = []
    original = argparse.ArgumentParser.parse_args

    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> object:
        flags.extend(_flags(self))
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = capture  # type: ignore[method-assign]
    try:
        terminal.main([])
    except SystemExit:
        pass
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    return flags


TOOLS: dict[str, tuple[list[str], list[str]]] = {
    "reversi": (["-m", "reversi"], _reversi_flags()),
    "course": (["-m", "course"], ["--help", "--bogus"]),
    **{f"course {name}": (["-m", "course", name], _flags(parser))
       for name, parser in _subparsers().items()},
}


def _arguments(rng: random.Random, flags: list[str]) -> list[str]:
    args: list[str] = []
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.6 and flags:
            args.append(rng.choice(flags))
            if rng.random() < 0.85:
                args.append(rng.choice(VALUES))
        elif roll < 0.8:
            args.append(rng.choice(VALUES))
        else:
            args.append(rng.choice(["--", "-", "--x", "-h"] + sorted(COMMANDS)))
    return args


def _stdin(rng: random.Random) -> bytes:
    lines = [rng.choice(["human", "greedy", "", "Ann", "d3", "c4", "pass", "undo", "y", "save a",
                         "load a", "resign", "n", "quit", "\x00", "é" * 50, "9" * 40])
             for _ in range(rng.randint(0, 12))]
    return ("\n".join(lines) + ("\n" if rng.random() < 0.5 else "")).encode()


def _safe(tool: str, args: list[str]) -> list[str]:
    """The arguments with what keeps the run in its scratch folder added last (argparse keeps
    the last value of an option)."""
    if tool == "course release":
        return [*args, "--source", str(EMPTY), "--out", str(SCRATCH / "released")]
    if tool == "course serve":
        return [*args, "--host", "127.0.0.1"]
    return args


def _may_run_on(tool: str, args: list[str]) -> bool:
    """Whether a run that was still going at the time limit was doing what it should."""
    if tool == "course serve":
        return True
    if tool == "reversi":
        sides = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg in ("--black", "--white")]
        return len(set(sides) & COMPUTERS) >= 1 and "--black" in args and "--white" in args
    return False


@pytest.fixture(scope="module", autouse=True)
def _scratch() -> None:
    if not FIFO.exists():
        os.mkfifo(FIFO)
    EMPTY.mkdir(exist_ok=True)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_random_flags_and_input_end_cleanly(tool: str) -> None:
    command, flags = TOOLS[tool]
    rng = random.Random(f"{tool} 19")
    env = {**os.environ, "HOME": str(SCRATCH), "PYTHONWARNINGS": "ignore"}
    for run in range(RUNS):
        args = _safe(tool, _arguments(rng, flags))
        process = subprocess.Popen(
            [sys.executable, *command, *args], cwd=SCRATCH, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        try:
            _, err = process.communicate(
                _stdin(rng), timeout=LONG_RUNNING_SECONDS.get(tool, SECONDS)
            )
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            _, err = process.communicate()
            timed_out = True
        stderr = err.decode(errors="replace")
        where = f"{tool} {args!r} (run {run})"
        assert "Traceback (most recent call last)" not in stderr, f"{where}:\n{stderr[-3000:]}"
        if timed_out:
            assert _may_run_on(tool, args), f"{where} did not end in time"
        else:
            assert process.returncode in (0, 1, 2), f"{where} exited {process.returncode}"


def test_every_subcommand_is_fuzzed() -> None:
    assert {f"course {name}" for name in COMMANDS} <= set(TOOLS)
    assert "--size" in TOOLS["reversi"][1] and "--port" in TOOLS["course serve"][1]
