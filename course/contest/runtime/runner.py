"""The sandboxed side of a tournament game: load one student's player, then answer positions.

This file is never imported by the kit: the tournament copies it into the sandbox
(:mod:`course.grading.sandbox`) beside ``allowed.py`` (the plain board of
:mod:`course.contest.plain`) and ``cells.json`` (the student's code cells), and runs it
there.  It imports only the standard library and ``allowed``.  Once the student's
first cell has run, nothing in this process can be trusted, so nothing here decides a
result: the referee in the teacher's process checks every answer.

The line protocol, one line each way:

* on start it runs the cells in order (a cell that fails, such as one that imports the
  kit, is skipped) and writes ``{"ready": true}``, or ``{"broken": REASON}`` when there
  is no function ``choose``;
* then for each position line in (``black ..../.WB./.BW./....``) it writes one answer
  out: ``{"move": "d3"}`` (or ``"pass"``), ``{"bad": REASON}`` for a value that is not a
  move, ``{"crash": REASON}`` when ``choose`` raised.

The student's own printing and reading never touch the pipe: standard output and input
are pointed at ``/dev/null`` before the first cell runs.
"""

import json
import os
import sys

import allowed

NAMES = ("BLACK", "WHITE", "Board", "PASS", "Square", "DIRECTIONS", "weights", "evaluate")
REASON = 300


def said(error):
    """An error as ``Kind: message``, short, even when its message cannot be read."""
    try:
        message = str(error)
        message = message if type(message) is str else "(unreadable)"
    except BaseException:
        message = "(unreadable)"
    kind = type(error).__name__
    return (f"{kind}: {message}" if message else kind)[:REASON]


def channels():
    """The pipe to the referee, kept private; fds 0 and 1 become ``/dev/null``."""
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8")
    ask = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    sys.stdin = open(os.devnull)  # noqa: SIM115
    return ask, reply


def load(path):
    """Run the cells of ``path`` in one namespace; returns it and the first cell's failure."""
    with open(path, encoding="utf-8") as file:
        cells = json.load(file)
    namespace = {"__name__": "__main__"}
    namespace.update({name: getattr(allowed, name) for name in NAMES})
    failed = None
    for number, text in enumerate(cells, start=1):
        try:
            exec(compile(text, f"<cell {number}>", "exec"), namespace)
        except BaseException as error:
            failed = failed or f"cell {number}: {said(error)}"
    return namespace, failed


def as_move(value, size):
    """What ``choose`` returned, as an answer to send."""
    if value is allowed.PASS:
        return {"move": "pass"}
    if isinstance(value, str):
        return {"move": value[:40]}
    if isinstance(value, tuple) and len(value) == 2:
        try:
            return {"move": allowed.square(tuple(value), size).name}
        except BaseException as error:
            return {"bad": f"returned {value!r:.40}, which is not a square: {said(error)}"}
    return {"bad": f"returned a {type(value).__name__}, not a move like 'd3'"}


def main():
    ask, reply = channels()

    def send(message):
        reply.write(json.dumps(message) + "\n")
        reply.flush()

    namespace, failed = load(os.path.join(os.path.dirname(__file__), "cells.json"))
    choose = namespace.get("choose")
    if not callable(choose):
        because = f" ({failed})" if failed else ""
        send({"broken": f"the notebook has no function choose(board, color){because}"})
        return
    send({"ready": True})
    for line in ask:
        side, rows = line.split()
        grid = rows.split("/")
        board = allowed.make_board(len(grid), grid, allowed.LENT, True)
        try:
            answer = as_move(choose(board, allowed.COLORS[side]), len(grid))
        except BaseException as error:
            answer = {"crash": f"choose raised {said(error)}"}
        send(answer)


main()
