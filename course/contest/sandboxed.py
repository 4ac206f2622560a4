"""A student's player in the grading sandbox: one process per seat per game, one line each way.

:class:`SandboxSeat` starts ``runtime/runner.py`` in :class:`course.grading.sandbox.Sandbox`
with the plain board (``allowed.py``) and the student's code cells (``cells.json``), and
nothing else: no kit, no other entrant's code, no teacher file.  It gives the run
``load_time`` seconds to say it is ready and ``move_time`` seconds for each move; the
run's own wall clock (``total_time``, fixed when it starts) bounds the whole game, and
its CPU, memory and output are bounded by :class:`~course.grading.sandbox.Limits`.
Whatever goes wrong becomes the problem of an :class:`~course.contest.referee.Answer`,
which loses this seat the game; the process is killed when the game ends.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from course.contest.plain import encode, runtime_text
from course.contest.referee import Answer
from course.grading.sandbox import Limits, Run, Sandbox
from reversi.board import Board
from reversi.notation import Color

RUNNER = Path(__file__).resolve().parent / "runtime" / "runner.py"
#: Longest answer line read back (a move is a few bytes).
LINE_BYTES = 4096


class SandboxSeat:
    """A student's ``choose`` running in the sandbox for one game."""

    def __init__(
        self,
        name: str,
        cells: tuple[str, ...],
        sandbox: Sandbox,
        move_time: float = 1.0,
        total_time: float = 60.0,
        load_time: float = 10.0,
    ) -> None:
        self.name, self.cells, self.sandbox = name, cells, sandbox
        self.move_time, self.total_time, self.load_time = move_time, total_time, load_time
        self.run: Run | None = None
        self.broken: str | None = None

    def files(self) -> dict[str, str]:
        """The sandbox's files: the runner, the plain board and the student's cells."""
        return {
            "runner.py": RUNNER.read_text(encoding="utf-8"),
            "allowed.py": runtime_text(),
            "cells.json": json.dumps(list(self.cells)),
        }

    def start(self) -> None:
        """Start the student's program in the sandbox; a problem is kept for the first move."""
        loading = self.load_time + self.sandbox.startup  # Pyodide's own start is not the player's
        limits = Limits(
            wall=self.total_time + loading, cpu=math.ceil(self.total_time + loading),
            line_bytes=LINE_BYTES, total_bytes=1 << 20, lines=1000,
        )  # fmt: skip
        try:
            self.run = self.sandbox.start(self.files(), "runner.py", limits)
        except OSError as error:  # the machine is out of processes or files: this game only
            self.broken = f"its program could not start ({error.strerror or error})"
            return
        reply = self._reply(loading, "to load the notebook", shown_seconds=self.load_time)
        if "problem" in reply:
            self.broken = str(reply["problem"])
        elif "ready" not in reply:
            self.broken = str(reply.get("broken", "did not say it was ready"))[:300]
        else:  # the game's own clock starts now, whatever the start left unused
            self.run.deadline = min(self.run.deadline, time.monotonic() + self.total_time)

    def choose(self, board: Board, color: Color) -> Answer:
        """The move of the student's player for ``color`` on ``board``, or the problem it had."""
        if self.broken is not None:
            return Answer(problem=self.broken)
        assert self.run is not None, "the referee starts a seat before asking it"
        if not self.run.send((encode(board, color) + "\n").encode()):
            return Answer(problem=f"its program had ended ({self.run.exit_reason()})")
        reply = self._reply(self.move_time, "for a move")
        for kind in ("problem", "bad", "crash"):
            if kind in reply:
                return Answer(problem=str(reply[kind])[:300])
        move = reply.get("move")
        if not isinstance(move, str):
            return Answer(problem="sent an answer that is not a move")
        return Answer(move)

    def close(self) -> None:
        """Kill the program (the game is over)."""
        if self.run is not None:
            self.run.kill()
            self.run = None

    def _reply(
        self, seconds: float, what: str, shown_seconds: float | None = None
    ) -> dict[str, object]:
        """The next answer line as a dict; ``{"problem": ...}`` when there is none in time
        (``shown_seconds`` is the time the problem names, when not ``seconds``)."""
        run = self.run
        if run is None:
            return {"problem": "its program is not running"}
        whole_game = run.deadline
        run.deadline = min(whole_game, time.monotonic() + seconds)  # this answer's own clock
        try:
            line = run.next_line()
        finally:
            run.deadline = whole_game
        if line is None:
            if run.stopped.startswith("timed out"):
                if time.monotonic() >= whole_game:
                    return {"problem": f"used up its {self.total_time:g} s for the whole game"}
                said = seconds if shown_seconds is None else shown_seconds
                return {"problem": f"took longer than {said:g} s {what}"}
            if run.stopped.startswith("too much"):
                return {"problem": "sent too much output"}
            return {"problem": f"its program ended ({run.exit_reason()})"}
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            return {"problem": "sent a line that is not an answer"}
        if not isinstance(reply, dict):
            return {"problem": "sent a line that is not an answer"}
        return reply
