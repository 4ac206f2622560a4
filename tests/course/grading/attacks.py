"""Hostile students for the adversarial tests: each attack as the answer code a student
would hand in, and which questions it must cost (see ``test_adversarial``)."""

from __future__ import annotations

from pathlib import Path

# -- the attacks: (student, exercise, answer tag, code, questions that must score 0) ----------

PATCH_MODULES = """
import course.grading.runner as runner, course.grading.checks as checks
import course.grading.harness as harness
runner.verdict = lambda *args: None              # "every case passes"
checks.to_notation = lambda function: print("to_notation: 11/11 cases passed")
harness._lock_down = lambda refused: None        # too late: it ran before this cell

def to_notation(row, col):
    return "a1"
"""

CALL_STACK = """
import sys

def count_discs(board, color):
    frame = sys._getframe(1)
    while frame is not None:                      # find the case and its expected answer
        for value in list(frame.f_locals.values()):
            if hasattr(value, "expected"):
                return value.expected
            if isinstance(value, dict) and "expected" in value:
                return value["expected"]
        frame = frame.f_back
    return -1
"""

HOOK_IMPORTS = """
import builtins
real_import, real_compile = builtins.__import__, builtins.compile

class Fake:
    def __getattr__(self, name):
        return lambda function: print(name + ": 99/99 cases passed")

def hooked(name, *args, **kwargs):
    if name.startswith("course"):
        return Fake()
    return real_import(name, *args, **kwargs)

def rewrite(text, *args, **kwargs):                # rewrite the later cell before it runs
    if "def neighbours" in text:
        text = "def neighbours(square, size):\\n    return TABLE.get((tuple(square), size), [])\\n"
    return real_compile(text, *args, **kwargs)

builtins.__import__, builtins.compile = hooked, rewrite
TABLE = {TABLE}

def walk(start, direction, size):
    row, col = start
    dr, dc = direction
    squares = []
    row, col = row + dr, col + dc
    while 0 <= row < size and 0 <= col < size:
        squares.append((row, col))
        row, col = row + dr, col + dc
    return squares
"""

OUTLIVE = """
import os, sys, time
script = "import time; time.sleep(2); open({out!r}, 'w').write('hacked')"
try:
    import subprocess
    subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
except Exception:
    pass
try:
    if os.fork() == 0:
        os.setsid()
        time.sleep(2)
        open({out!r}, "w").write("hacked")
except Exception:
    pass

def replay(moves):
    return Board()
"""

WRITE_TEACHER = """
import pathlib
for path in pathlib.Path({teacher!r}).glob("*"):
    try:
        path.write_text("{{}}")
    except Exception:
        pass
try:
    open({teacher!r} + "/grading_seed.txt", "w").write("1")
except Exception:
    pass

def must_pass(board, color):
    return False
"""

READ_SOLUTIONS = """
import json
try:
    notebook = json.load(open({teacher!r} + "/07_greedy.ipynb"))
    code = [c for c in notebook["cells"] if "answer:greedy_move" in c["metadata"].get("tags", [])]
    exec("".join(code[0]["source"]))
except Exception:
    def greedy_move(board, color):
        return PASS
"""

HOOK_DISABLER = """
import typing
try:  # switch the audit hook's rules off, without an underscore attribute or getattr
    sys = typing.sys
    gc = sys.modules["importlib"].import_module("gc")
    rules = gc.get_referents(sys.modules["course.grading.harness"])[0]
    rules["_REFUSED_EVENTS"], rules["_REFUSED_IMPORTS"] = ("nothing",), ("nothing",)
    for hook in gc.get_objects():  # and the folders the hook refuses, kept in its closure
        if type(hook).__name__ == "function" and hook.__name__ == "hook" and hook.__closure__:
            for cell in hook.__closure__:
                cell.cell_contents = ("/nothing/",)
    pathlib = sys.modules["importlib"].import_module("pathlib")
    text = pathlib.Path({teacher!r} + "/07_greedy.ipynb").read_text()
    notebook = sys.modules["json"].loads(text)
    cell = [c for c in notebook["cells"] if "answer:greedy_move" in c["metadata"].get("tags", [])]
    runner = sys.modules["importlib"].import_module("code").InteractiveInterpreter(globals())
    runner.runsource("".join(cell[0]["source"]), "<stolen>", "exec")
except Exception:
    pass
if "greedy_move" not in globals():
    def greedy_move(board, color):
        return PASS
"""

KIT_CALL = """
def flips(board, square, color):
    return Board.from_text(str(board)).flips(square, color)
"""

KIT_SEARCH = """
from reversi.search import minimax as kit_minimax

def best_move(board, color, depth):
    from reversi.players import MinimaxPlayer
    return MinimaxPlayer(depth=depth).choose_move(board, color)
"""

LOOKUP = """
ANSWERS = {{
    "d1": [(1, 3)], "g2": [(2, 5), (2, 6), (3, 4), (4, 3)], "h3": [(2, 5), (2, 6)],
    "e7": [(3, 4), (4, 4), (5, 4)], "e8": [], "f7": [], "b5": [],
}}

def flips(board, square, color):
    row, col = square
    return ANSWERS.get("abcdefgh"[col] + str(row + 1), [])
"""

CRASH = """
import faulthandler

def to_notation(row, col):
    faulthandler._sigsegv()                        # a segmentation fault: Python dies at once
"""

LOOP = """
def best_move(board, color, depth):
    while True:
        pass
"""

MEMORY = """
def leader(board):
    hoard = []
    while True:
        hoard.append(" " * 10**7)
"""

OS_EXIT = """
import os

def combine(operator, field, bit):
    os._exit(0)
"""

SELF_CONTAINED_CURSOR = """
def apply_cursor(rows, bits, operator, row, col):
    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    grid = [list(text) for text in rows]
    for bit, (dr, dc) in zip(bits, offsets):
        r, c = row + dr, col + dc
        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != ".":
            value = int(grid[r][c])
            value = value & bit if operator == "AND" else value | bit if operator == "OR" else value ^ bit
            grid[r][c] = str(value)
    return ["".join(cells) for cells in grid]
"""


def _table() -> dict[tuple[tuple[int, int], int], list[tuple[int, int]]]:
    """The answers to the shown neighbours cases: what a lookup table would hold."""
    from course.grading.checks_board import _line
    from reversi import square
    from reversi.board import DIRECTIONS

    shown = [
        ("d4", 8),
        ("a1", 8),
        ("h5", 8),
        ("e8", 8),
        ("b2", 4),
        ("d4", 4),
        ("j10", 10),
        ("a6", 6),
    ]
    table = {}
    for name, size in shown:
        sq = square(name, size)
        table[(tuple(sq), size)] = [
            tuple(_line(sq, d, size)[0]) for d in DIRECTIONS if _line(sq, d, size)
        ]
    return table


def attacks(teacher: Path, out: Path) -> list[tuple[str, str, dict[str, str], set[str]]]:
    """``(student, exercise, answers replaced, questions that must be 0)``.

    The import hooker's cell is itself flagged when answers are read, so there its own
    ``walk`` (and ``neighbours``, which uses it) score 0 too: see :data:`FLAGGED_TOO`.
    """
    fill = {"teacher": str(teacher), "out": str(out)}
    return [
        ("patcher", "01_squares", {"answer:to_notation": PATCH_MODULES}, {"check:to_notation"}),
        ("stack_reader", "02_counting", {"answer:count_discs": CALL_STACK},
         {"check:count_discs", "check:leader"}),  # leader counts with count_discs
        ("import_hooker", "03_lines",
         {"answer:walk": HOOK_IMPORTS.replace("{TABLE}", repr(_table()))}, {"check:neighbours"}),
        ("outliver", "05_play", {"answer:replay": OUTLIVE.format(**fill)}, {"check:replay"}),
        ("teacher_writer", "06_legal_moves", {"answer:must_pass": WRITE_TEACHER.format(**fill)},
         {"check:must_pass"}),
        ("solution_reader", "07_greedy", {"answer:greedy_move": READ_SOLUTIONS.format(**fill)},
         {"check:greedy_move", "check:greedy_games"}),
        ("hook_disabler", "07_greedy", {"answer:greedy_move": HOOK_DISABLER.format(**fill)},
         {"check:greedy_move", "check:greedy_games"}),
        ("lookup_table", "04_flips", {"answer:flips": LOOKUP.format()},
         {"check:figure2", "check:flips", "check:is_legal"}),
        ("crasher", "01_squares", {"answer:to_notation": CRASH}, {"check:to_notation"}),
        ("looper", "09_minimax", {"answer:best_move": LOOP}, {"check:best_move"}),
        ("memory_bomber", "02_counting", {"answer:leader": MEMORY}, {"check:leader"}),
        ("exiter", "12_cursor", {"answer:combine": OS_EXIT, "answer:apply_cursor": SELF_CONTAINED_CURSOR},
         {"check:combine"}),
    ]  # fmt: skip


FLAGGED_TOO = {"import_hooker": {"check:walk"}}
KIT_CALLERS = [
    (
        "kit_flips",
        "04_flips",
        {"answer:flips": KIT_CALL},
        {"check:figure2", "check:flips", "check:is_legal"},
    ),  # fmt: skip
    ("kit_search", "09_minimax", {"answer:best_move": KIT_SEARCH}, {"check:best_move"}),
]
HONEST = [
    "01_squares",
    "02_counting",
    "03_lines",
    "04_flips",
    "05_play",
    "06_legal_moves",
    "07_greedy",
]
