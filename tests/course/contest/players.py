"""Players for the tournament tests, as a student would write them: code cells, as text.

The honest ones are deterministic, so the same game gives the same result however it is
run; :func:`direct` runs the same code in this process, for the games played directly.
"""

from __future__ import annotations

from typing import Any

from course.contest.plain import runtime_text
from reversi.board import Board
from reversi.notation import PASS, Color, Move
from reversi.players import Player

GREEDY = '''
def choose(board, color):
    """The move that turns the most discs (the first of equals in reading order)."""
    moves = board.legal_moves(color)
    return max(moves, key=lambda move: len(board.flips(move, color)))
'''
CORNERS = """
def score(board, move, color):
    after = board.copy()
    after.play(move, color)
    return evaluate(after, color) - len(after.legal_moves(color.opponent))

def choose(board, color):
    return str(max(board.legal_moves(color), key=lambda move: score(board, move, color)))
"""
# Honest, but floods its printing and writes to standard output and error directly.
FLOODER = """
import os, sys
def choose(board, color):
    print("thinking " * 20_000)
    os.write(1, b"move a1\\n" * 100)
    sys.__stdout__.write("{\\"move\\": \\"a1\\"}\\n" * 100)
    moves = board.legal_moves(color)
    return moves[len(moves) // 2]
"""
LOOPER = "def choose(board, color):\n    while True:\n        pass\n"
CRASHER = "def choose(board, color):\n    return board.legal_moves(color)[99]\n"
ILLEGAL = (
    "def choose(board, color):\n"
    "    return next(s for s in board.squares() if board[s] is not None)\n"
)
MALFORMED = "def choose(board, color):\n    return {'move': 'd3'}\n"
# Writes straight into every file descriptor that might be the pipe to the referee.
PIPER = """
import os
def choose(board, color):
    for fd in range(3, 40):
        try:
            os.write(fd, b"x" * 100_000)
        except OSError:
            pass
    return board.legal_moves(color)[0]
"""
IMPORTER = "def choose(board, color):\n    import course.contest\n    return 'd3'\n"


def snooper(paths: list[str], folders: list[str]) -> str:
    """A player that plays only if it can read one of ``paths`` or list one of ``folders``."""
    return f"""
import os
def choose(board, color):
    seen = []
    for path in {paths!r}:
        try:
            with open(path, "rb") as file:
                file.read(10)
            return board.legal_moves(color)[0]
        except Exception as error:
            seen.append(type(error).__name__)
    for folder in {folders!r}:
        try:
            if os.listdir(folder):
                return board.legal_moves(color)[0]
        except Exception as error:
            seen.append(type(error).__name__)
    raise RuntimeError("blocked: " + " ".join(seen))
"""


class Direct(Player):
    """A student's code run in this process as a kit player: the games played directly."""

    label = "Direct"
    kind = "direct"

    def __init__(self, name: str, code: str) -> None:
        super().__init__(name)
        self.space: dict[str, Any] = {}
        exec(runtime_text(), self.space)  # the plain board, as the sandbox holds it
        self.space.update({"__name__": "student"})
        exec(code, self.space)

    def choose_move(self, board: Board, color: Color) -> Move:
        if not board.has_legal_move(color):
            return PASS  # the kit's Game asks a player that must pass; the referee does not
        rows = ["".join((board[r, c].letter if board[r, c] else ".") for c in range(board.size))
                for r in range(board.size)]  # fmt: skip
        plain = self.space["make_board"](board.size, rows, self.space["LENT"], True)
        answer = self.space["choose"](plain, self.space["COLORS"][color.value])
        return PASS if answer is self.space["PASS"] else board.square(str(answer))
