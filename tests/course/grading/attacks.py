"""Hostile students for the adversarial tests, one family of attack each.

Most attacks are *canaries*: the answer is right only if the escape worked (it found the
kit's own function, the teacher's solution or seed, a classmate's notebook, root's
secrets), and wrong otherwise.  So a 0 proves that the escape failed, and a test that
sees full marks has found a hole.  The others attack the grader itself (floods, nesting
bombs, forged messages, endless loops, crashes) and must cost only their own question.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Looks for any way to the kit's implementation of ``NAME``; ``found`` is it, or None.
REACH_KIT = """
import gc, inspect, dataclasses, operator, string, sys, os

def _reach(board, name):
    routes = []
    cls = type(board)
    routes.append(lambda: getattr(inspect.getmodule(cls), name))
    routes.append(lambda: dict(dataclasses.inspect.getmembers(cls))[name])
    routes.append(lambda: getattr(sys.modules[cls.__module__], name))
    routes.append(lambda: operator.attrgetter(name)(board))
    routes.append(lambda: string.Formatter().get_field("0." + name, [board], {{}})[0])
    for module in ("reversi", "reversi.board", "reversi.search", "course.grading.checks",
                   "course.grading.runner", "reversi.rules"):
        routes.append(lambda module=module: getattr(len.__self__.__import__(module), name))
        routes.append(lambda module=module: getattr(__import__(module, fromlist=[name]), name))
    def from_random():
        from random import __builtins__ as b
        return getattr(b["__import__"]("reversi"), name)
    routes.append(from_random)
    def matched():
        match board:
            case object(flips=found):
                return found
    routes.append(matched)
    def collected():
        for thing in gc.get_objects():
            if (callable(thing) and getattr(thing, "__name__", "") == name
                    and getattr(thing, "__module__", "__main__") != "__main__"):
                return thing
    routes.append(collected)
    def on_disk():
        for top in ("/", os.path.expanduser("~")):
            for folder, subfolders, files in os.walk(top):
                subfolders[:] = [s for s in subfolders if os.path.join(folder, s)
                                 not in ("/proc", "/sys", "/usr", "/dev")]
                for file in files:
                    try:
                        text = open(os.path.join(folder, file)).read()
                    except Exception:
                        continue
                    if "def " + name + "(" in text and "BEGIN SOLUTION" not in text:
                        space = {{}}
                        exec(text, space)
                        return space[name]
    routes.append(on_disk)
    for route in routes:
        try:
            found = route()
        except Exception:
            continue
        if callable(found):
            return found
    return None
"""

KIT_FLIPS = (
    REACH_KIT
    + """

def flips(board, square, color):
    kit = _reach(board, "flips")
    if kit is None:
        return []
    try:
        return list(kit(square, color))
    except TypeError:
        return list(kit(board, square, color))
"""
)

KIT_PLAY = (
    REACH_KIT
    + """

def play(board, square, color):
    kit = _reach(board, "play")
    if kit is None:
        return []
    try:
        return kit(square, color)
    except TypeError:
        return kit(board, square, color)
"""
)

KIT_MINIMAX = (
    REACH_KIT
    + """

def minimax(board, color, depth, counter):
    counter.visit()
    for name in ("minimax", "negamax", "alphabeta"):
        kit = _reach(board, name)
        if kit is not None:
            result = kit(board, color, depth)
            counter.nodes = getattr(result, "nodes", counter.nodes)
            return getattr(result, "value", result)
    return 0
"""
)

#: Looks everywhere for a file holding ``MARK`` and runs the answer cell ``TAG`` in it.
STEAL = """
import json, os

def _steal(tag, names):
    places = [{places}, os.getcwd(), os.path.expanduser("~"), "/", "/tmp", "/home", "/root",
              "/work", "/var/tmp", "/dev/shm"]
    for place in places:
        try:
            fd = os.open(place, os.O_RDONLY)
            for name in names:
                try:
                    text = os.read(os.open(name, os.O_RDONLY, dir_fd=fd), 1 << 24).decode()
                    return text
                except OSError:
                    pass
        except OSError:
            pass
    for folder, subfolders, files in os.walk("/"):
        subfolders[:] = [s for s in subfolders if os.path.join(folder, s)
                         not in ("/proc", "/sys", "/usr", "/dev")]
        for file in files:
            if file in names or file.endswith(".ipynb"):
                try:
                    return open(os.path.join(folder, file)).read()
                except OSError:
                    pass
    return None

def _answer(tag, names):
    text = _steal(tag, names)
    if text is None:
        return None
    if tag is None:
        return text
    cells = json.loads(text)["cells"]
    code = [c for c in cells if tag in c.get("metadata", {{}}).get("tags", [])]
    space = dict(globals())
    exec("".join(code[0]["source"]), space)
    return space
"""

TEACHER_SOLUTION = (
    STEAL
    + """

def greedy_move(board, color):
    space = _answer("answer:greedy_move", ["07_greedy.ipynb"])
    if space is None:
        return PASS
    return space["greedy_move"](board, color)
"""
)

CLASSMATE = (
    STEAL
    + """

def count_discs(board, color):
    space = _answer("answer:count_discs", ["02_counting.ipynb"])
    if space is None:
        return -1
    return space["count_discs"](board, color)
"""
)

SEED = (
    STEAL
    + """

def to_notation(row, col):
    seed = _answer(None, ["grading_seed.txt"])
    if seed is None:
        return "??"
    return "abcdefghijklmnop"[col] + str(row + 1)
"""
)

ROOT_SECRETS = """
import os

def from_notation(text):
    secret = open("/etc/shadow").read()
    assert os.getuid() == 0 or secret
    return ("abcdefghijklmnop".index(text[0].lower()), int(text[1:]) - 1)[::-1]
"""

#: Writes to every open file descriptor: the pipe to the grader is one of them.
FORGE = """
import json, os

def _forge(payload, times=1):
    for _ in range(times):
        for fd in range(1, 64):
            try:
                os.write(fd, payload)
            except OSError:
                pass
"""

FORGED_EVENTS = (
    FORGE
    + """
def _events():
    lines = []
    for tag in ("check:play", "check:replay", "check:made_up_{{n}}"):
        for n in range(50):
            lines.append(json.dumps({{"event": "question", "tag": tag.format(n=n),
                                      "replies": [{{"answer": {{"object": "x" * 1000}}}}]}}))
    lines += [json.dumps({{"event": "cell", "index": 0, "problem": None}})] * 50
    lines += [json.dumps({{"event": "ready"}}), json.dumps({{"event": "end"}})]
    return ("\\n" + "\\n".join(lines) + "\\n").encode()

_forge(_events())

def replay(moves):
    import time
    while True:  # forged "cell" events every moment: the clock must not move
        _forge(_events())
        time.sleep(0.05)
"""
)

NESTING_BOMB = (
    FORGE
    + """
_forge(b"\\n" + b"[" * 1000000 + b"]" * 1000000 + b"\\n")

def walk(start, direction, size):
    _forge(b'\\n{{"event": "question", "tag": "check:walk", "replies": ' + b"[" * 800
           + b"]" * 800 + b"}}\\n")
    deep = []
    for _ in range(100000):
        deep = [deep]
    return deep
"""
)

FLOOD = (
    FORGE
    + """
def winner(board):
    _forge(b"x" * (1 << 20), times=64)
    return None
"""
)

#: Every capability of the host a program in Pyodide could reach through Deno's JavaScript:
#: the answer is right only if one of them worked (in bubblewrap there is no ``js`` at all).
HOST = """
def _escaped():
    try:
        import js
    except ImportError:
        return False
    for code in ("Deno.readTextFileSync({teacher!r} + '/02_counting.ipynb')",
                 "Deno.readDirSync('/')", "Deno.env.toObject()", "Deno.hostname()",
                 "Deno.writeTextFileSync({out!r}, 'hacked')",
                 "new Deno.Command('id').outputSync()", "Deno.dlopen('libc.so.6', {{}})",
                 "Deno.listen({{port: 0}})"):
        try:
            js.eval(code)  # a refusal raises (NotCapable); anything else is an escape
        except Exception:
            continue
        return True
    return False

def leader(board):
    if not _escaped():
        return "no escape"  # wrong on every case
    black, white = count_discs(board, BLACK), count_discs(board, WHITE)
    return BLACK if black > white else WHITE if white > black else None
"""

LOOKUP = """
ANSWERS = {
    "d1": [(1, 3)], "g2": [(2, 5), (2, 6), (3, 4), (4, 3)], "h3": [(2, 5), (2, 6)],
    "e7": [(3, 4), (4, 4), (5, 4)], "e8": [], "f7": [], "b5": [],
}

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

def must_pass(board, color):
    for path in ({teacher!r} + "/06_legal_moves.ipynb", {out!r}):
        try:
            open(path, "w").write("{{}}")
        except OSError:
            pass
    return False
"""

#: A cell that looks for the cases' arguments (grade-time ones included) while it runs.
CELL_SPY = """
import gc

def _seen():
    needle = '"' + "cas" + 'es": [['  # built, so that this cell's own text does not hold it
    for thing in gc.get_objects():
        if (isinstance(thing, dict) and isinstance(thing.get("cases"), list)
                and "function" in thing):  # (Pyodide keeps a table of names as a dict)
            return True
        if isinstance(thing, str) and needle in thing:
            return True
        if isinstance(thing, bytes) and needle.encode() in thing:
            return True
    return False

if _seen():
    def flips(board, square, color):
        row, col = square
        if board[row, col] is not None:
            return []
        taken = []
        for dr, dc in DIRECTIONS:
            line = []
            r, c = row + dr, col + dc
            while 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color.opponent:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color:
                taken += line
        return taken
else:
    def flips(board, square, color):
        return []
"""

CELL_LOOP = """
while True:
    pass
"""


@dataclass(frozen=True)
class Attack:
    """A student who hands in the teacher's solution with some answer cells replaced."""

    student: str
    exercise: str
    answers: dict[str, str]
    zeroed: frozenset[str]  # the questions that must score 0 (all others: full marks)


def attacks(teacher: Path, out: Path, classmates: Path) -> list[Attack]:
    """Every family of attack, given the places a student would aim at."""
    places = ", ".join(repr(str(p)) for p in (teacher, classmates, classmates / "honest"))
    steal = {"teacher": str(teacher), "out": str(out)}

    def a(student: str, exercise: str, answers: dict[str, str], *zeroed: str) -> Attack:
        return Attack(student, exercise, answers, frozenset(f"check:{z}" for z in zeroed))

    return [
        a("kit_flips", "04_flips", {"answer:flips": KIT_FLIPS.format()},
          "figure2", "flips", "is_legal"),
        a("kit_play", "05_play", {"answer:play": KIT_PLAY.format()}, "play", "replay"),
        a("kit_minimax", "09_minimax", {"answer:minimax": KIT_MINIMAX.format()},
          "minimax_value", "minimax_nodes", "best_move"),
        a("solution_thief", "07_greedy",
          {"answer:greedy_move": TEACHER_SOLUTION.format(places=places)},
          "greedy_move", "greedy_games"),
        a("classmate_reader", "02_counting",
          {"answer:count_discs": CLASSMATE.format(places=places)}, "count_discs", "leader"),
        a("seed_thief", "01_squares", {"answer:to_notation": SEED.format(places=places)},
          "to_notation"),
        a("root_reader", "01_squares", {"answer:from_notation": ROOT_SECRETS}, "from_notation"),
        a("cell_spy", "04_flips", {"answer:flips": CELL_SPY},
          "figure2", "flips", "is_legal"),
        a("lookup_table", "04_flips", {"answer:flips": LOOKUP},
          "figure2", "flips", "is_legal"),
        a("forger", "05_play", {"answer:replay": FORGED_EVENTS.format()}, "replay"),
        a("nester", "03_lines", {"answer:walk": NESTING_BOMB.format()}, "walk", "neighbours"),
        a("flooder", "06_legal_moves", {"answer:winner": FLOOD.format()}, "winner"),
        a("crasher", "01_squares", {"answer:to_notation": CRASH}, "to_notation"),
        a("looper", "09_minimax", {"answer:best_move": LOOP}, "best_move"),
        a("cell_looper", "08_positional", {"answer:positional_score": CELL_LOOP},
          "positional_score", "positional_move"),
        a("memory_bomber", "02_counting", {"answer:leader": MEMORY}, "leader"),
        a("host_reacher", "02_counting", {"answer:leader": HOST.format(**steal)}, "leader"),
        a("exiter", "12_cursor", {"answer:combine": OS_EXIT}, "combine", "apply_cursor"),
        a("outliver", "06_legal_moves", {"answer:must_pass": OUTLIVE.format(**steal)},
          "must_pass"),
    ]  # fmt: skip


#: Exercises an honest student hands in (the teacher's solutions), graded beside the attacks.
HONEST = ["01_squares", "02_counting", "04_flips", "05_play", "07_greedy"]
