"""The sandboxed side of grading: run a student's answer cells, call their functions, send answers.

This file is never imported by the kit: the grader copies it, with the exercise's
``allowed`` module (composed from :mod:`pieces`), into the sandbox
(:mod:`course.grading.sandbox`), and runs it there.  It imports only the standard
library and ``allowed``.  Everything here is *hostile territory* once the student's
first cell has run: the student's code can change anything in this process.  So
nothing here decides a grade; it only

1. reads its job from standard input: the answer cells and the names the exercise
   offers; then, only once the cells have run, each question's case arguments (never an
   expected answer), so no cell can see a grade-time case;
2. runs the cells in order (an alarm stops them once they have run ``timeout`` seconds);
3. calls each question's function on its cases in a forked child, which the parent ends
   after ``timeout`` seconds, so an endless loop costs only that question; where Python
   cannot fork (Pyodide, the portable sandbox) it says ``asking`` and calls the function
   itself, and the grader, whose clock runs outside, ends the whole run when a question
   takes too long and starts it again without that question;
4. writes one JSON line per cell and per question to its standard output (the pipe to
   the grader); the student's own printing goes nowhere.
"""

import contextlib
import importlib
import io
import json
import math
import os
import select
import signal
import sys
import time

import allowed

PRINTED = 2000
SENT = 17  # the exit code of a question's child that sent its answers
MAX_ITEMS = 200_000
MAX_DEPTH = 12
MAX_TEXT = 100_000
#: Whether a question can run in a child of its own (not in Pyodide, which cannot fork).
FORKS = sys.platform != "emscripten" and hasattr(os, "fork")


class TimedOut(BaseException):
    """Raised by the alarm in a cell that runs too long."""


class Bounded(io.StringIO):
    """Keeps the first :data:`PRINTED` characters of what is written."""

    def write(self, text):
        if self.tell() < PRINTED:
            super().write(str(text)[: PRINTED - self.tell()])
        return len(text)


def send(channel, **message):
    channel.write(b"\n" + json.dumps(message).encode() + b"\n")
    channel.flush()


def raised(error):
    """An error as plain data: its kind, message, class names and ``line``."""
    try:
        message = str(error)
        message = message[:500] if type(message) is str else "(unreadable)"
    except Exception:
        message = "(unreadable)"
    names = [f"{c.__module__}.{c.__qualname__}" for c in type(error).__mro__][:20]
    line = getattr(error, "line", None)
    return [type(error).__name__, message, names, line if type(line) is int else None,
            where(error)]  # fmt: skip


#: The answer cells' code by file name (``<answer:flips>``), to quote the line that failed.
SOURCES = {}


def where(error):
    """``'line 5 of your code, in flips: return row[8]'``, the last cell line it passed."""
    trace, found = error.__traceback__, ""
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_filename in SOURCES:
            lines = SOURCES[code.co_filename].splitlines()
            number = trace.tb_lineno
            text = lines[number - 1].strip() if 0 < number <= len(lines) else ""
            found = f"line {number} of your code, in {code.co_name}: {text}"[:300]
        trace = trace.tb_next
    return found


# -- arguments in ---------------------------------------------------------------------------------


def argument(data):
    """A case argument as the student's function receives it."""
    if isinstance(data, list):
        return [argument(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "float" in data:
        return float(data["float"])
    if "square" in data:
        return allowed.Square(*data["square"])
    if "color" in data:
        return allowed.COLORS[data["color"]]
    if "pass" in data:
        return allowed.PASS
    if "board" in data:
        return allowed.make_board(data["board"], data["rows"], allowed.LENT, True)
    if "view" in data:
        return allowed.make_board(data["view"], data["rows"], data["allow"], data["writable"])
    if "tuple" in data:
        return tuple(argument(item) for item in data["tuple"])
    if "counter" in data:
        return allowed.NodeCounter()
    raise ValueError(f"unknown argument {data!r}")


# -- answers out ----------------------------------------------------------------------------------


class TooBig(Exception):
    pass


def rows(board):
    cells = object.__getattribute__(board, "_rows")
    return ["".join(c.letter if c is not None else "." for c in row) for row in cells]


def dump(value, depth, budget):
    """A returned value as JSON, reading only exact built-in types and the runtime's own."""
    budget[0] -= 1
    if budget[0] < 0 or depth < 0:
        raise TooBig
    kind = type(value)
    if value is None or kind is bool or kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": float.__repr__(value)}
    if kind is str:
        if len(value) > MAX_TEXT:
            raise TooBig
        return value
    if kind is allowed.Square:
        row, col = tuple.__getitem__(value, 0), tuple.__getitem__(value, 1)
        if type(row) is int and type(col) is int:
            return {"square": [row, col]}
        return {"object": "Square of non-numbers"}
    if value is allowed.BLACK or value is allowed.WHITE:
        return {"color": value.value}
    if value is allowed.PASS:
        return {"pass": 1}
    if kind is allowed.Board:
        return {"board": object.__getattribute__(value, "_size"), "rows": rows(value)}
    if kind in (list, tuple, set, frozenset):
        items = [dump(item, depth - 1, budget) for item in kind.__iter__(value)]
        return items if kind is list else {kind.__name__: items}
    if kind is dict:
        return {"dict": [[dump(k, depth - 1, budget), dump(v, depth - 1, budget)]
                         for k, v in dict.items(value)]}  # fmt: skip
    name = type.__getattribute__(kind, "__name__")
    return {"object": name if type(name) is str else "unknown"}


def answer(value):
    try:
        return dump(value, MAX_DEPTH, [MAX_ITEMS])
    except TooBig:
        return {"object": "answer too big"}
    except Exception:
        return {"object": "unreadable answer"}


def after(value):
    """An argument after the call, as far as a check looks at it (a board, a counter)."""
    try:
        if type(value) is allowed.Board:
            return {"board": object.__getattribute__(value, "_size"), "rows": rows(value)}
        if type(value) is allowed.NodeCounter:
            nodes = object.__getattribute__(value, "nodes")
            return {"counter": nodes if type(nodes) is int else -1}
    except Exception:
        return {"object": "broken argument"}
    return None


def call(function, arguments):
    """Call ``function`` on one case's arguments; the reply as plain JSON."""
    args = tuple(argument(a) for a in arguments)
    printed = Bounded()
    reply = {}
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            reply["answer"] = answer(function(*args))
    except (Exception, SystemExit) as error:
        reply["raised"] = raised(error)
    reply["after"] = [after(arg) for arg in args]
    if printed.getvalue():
        reply["printed"] = printed.getvalue()
    return reply


# -- the job ----------------------------------------------------------------------------------------


def alarm(signum, frame):
    raise TimedOut


def run_cell(text, name, namespace, left, timeout):
    """Run one cell's code for at most ``left`` seconds; the reason it failed, or None."""
    printed = Bounded()
    SOURCES[f"<{name}>"] = text
    if FORKS:  # elsewhere the grader's own clock stops a cell that runs too long
        signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, left)
    try:
        code = compile(text, f"<{name}>", "exec")
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(code, namespace)
    except TimedOut:
        return f"the answer cells ran longer than {timeout:g} s"
    except (Exception, SystemExit) as error:
        kind, message, _, _, _ = raised(error)
        line = error.lineno if isinstance(error, SyntaxError) else _line(error, name)
        where = f" (line {line})" if line else ""
        return f"raised {kind}{where}: {message}" if message else f"raised {kind}{where}"
    finally:
        if FORKS:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return None


def _line(error, name):
    trace = error.__traceback__
    found = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == f"<{name}>":
            found = trace.tb_lineno
        trace = trace.tb_next
    return found


def answer_question(channel, job, namespace):
    """Call the question's function on each of its cases and send the replies."""
    function = namespace.get(job["function"])
    if not callable(function):
        send(channel, event="question", tag=job["tag"], replies=None)
    else:
        replies = [call(function, arguments) for arguments in job["cases"]]
        send(channel, event="question", tag=job["tag"], replies=replies)


def question(channel, job, namespace, timeout):
    """Answer one question in a forked child; the parent ends it after ``timeout``.
    Without fork, answer it here, after saying which question the grader's clock times."""
    if not FORKS:
        send(channel, event="asking", tag=job["tag"])
        answer_question(channel, job, namespace)
        return None
    child = os.fork()
    if child == 0:
        try:
            os.setpgid(0, 0)
            answer_question(channel, job, namespace)
            os._exit(SENT)
        finally:
            os._exit(1)
    status = wait(child, timeout)
    with contextlib.suppress(OSError):
        os.killpg(child, signal.SIGKILL)
    if status is None:
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        return f"timed out after {timeout:g} s"
    return None if os.WIFEXITED(status) and os.WEXITSTATUS(status) == SENT else status


def wait(child, timeout):
    """The child's wait status, or None if it is still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with contextlib.suppress(OSError):
        handle = os.pidfd_open(child)
        select.select([handle], [], [], timeout)
        os.close(handle)
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.005)


def stopped_reason(status):
    if isinstance(status, str):
        return status
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return "it used up its CPU time (an endless loop?)"
        if number == signal.SIGKILL:
            return "Python was killed (out of memory?)"
        return f"Python was stopped by signal {number}"
    code = os.WEXITSTATUS(status)
    if code == 0:
        return "Python stopped before the end (os._exit or exit?)"
    return f"Python stopped with exit code {code} (os._exit, memory?)"


def main():
    inbox = os.fdopen(os.dup(0), "rb")
    job = json.loads(inbox.readline())
    channel = os.fdopen(os.dup(1), "wb")
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    sys.stdin = open(os.devnull)  # noqa: SIM115
    timeout = float(job["timeout"])
    namespace = {"__name__": "__main__"}
    namespace.update({name: getattr(allowed, name) for name in job["names"]})
    namespace.update({name: importlib.import_module(name) for name in job["modules"]})
    send(channel, event="ready")
    ends = time.monotonic() + timeout  # the cells share one timeout
    for cell in job["cells"]:
        left = ends - time.monotonic()
        if left > 0:
            problem = run_cell(cell["source"], cell["tag"], namespace, left, timeout)
        else:
            problem = f"not run: the answer cells had run for {timeout:g} s"
        send(channel, event="cell", index=cell["index"], problem=problem)
    questions = json.loads(inbox.readline() or "[]")  # sent once the cells have run
    for each in questions:
        status = question(channel, each, namespace, timeout)
        if status is not None:
            send(channel, event="question", tag=each["tag"], stopped=stopped_reason(status))
    send(channel, event="end")


if __name__ == "__main__":
    main()
