"""The sandboxed side of grading: run a student's answer cells, call their functions, send answers.

This module runs in a fresh Python process that the grader starts for one notebook
(:mod:`course.grading.sandbox`), under CPU, memory and file-size limits, in a process
group of its own.  Everything after :func:`_lock_down` is *hostile territory*: the
student's code can read and change anything in this process, this module included.  So
nothing here decides a grade.  The process only

1. reads its job (the teacher's setup code, the student's answer cells, and the
   arguments of every case, never an expected answer) from standard input;
2. installs an audit hook (which Python code cannot remove) that refuses to start
   processes, send signals, open sockets, load C libraries, write files, or read the
   teacher's, the submissions' and the report folders;
3. runs the setup and answer cells, then calls each question's function on each case;
4. writes every answer as plain JSON (:mod:`course.grading.wire`), tagged with the run's
   secret, to a pipe only the grader reads.

Forging a message forges only the student's own answers, which the grader judges on
cases that include some no notebook shows.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Any, BinaryIO

from course.grading import wire
from course.grading.checks_search import NodeCounter
from course.grading.runner import Raised

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_REFUSED_EVENTS = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "os.remove",
    "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate", "os.link",
    "os.symlink", "os.utime", "os.chdir", "os.chroot", "os.setxattr", "os.removexattr",
    "shutil.", "socket.", "ctypes.", "mmap.", "builtins.input", "pty.", "os.startfile",
    "resource.setrlimit", "resource.prlimit", "sys.remote_exec", "webbrowser.",
)  # fmt: skip
_REFUSED_IMPORTS = (
    "ctypes",
    "_ctypes",
    "cffi",
    "_posixsubprocess",
    "_testcapi",
    "_xxsubinterpreters",
)
PRINTED_LIMIT = 2000


class _Channel:
    """The pipe to the grader: one JSON object per line, each with the run's secret."""

    def __init__(self, stream: BinaryIO, secret: str) -> None:
        self.stream, self.secret = stream, secret

    def send(self, **message: Any) -> None:
        message["secret"] = self.secret
        self.stream.write(json.dumps(message).encode() + b"\n")
        self.stream.flush()


def _lock_down(refused_dirs: list[str]) -> None:
    """Install the audit hook; from here on, the process cannot reach outside its sandbox."""
    refused = tuple(os.path.join(os.path.realpath(d), "") for d in refused_dirs) + ("/proc/",)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = (isinstance(mode, str) and any(m in mode for m in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS
            )
            if writing:
                raise PermissionError(f"grading: writing files is not allowed ({path!r})")
            if isinstance(path, (str, bytes)):
                text = os.fsdecode(path)
                real = os.path.join(os.path.realpath(text), "")
                if real.startswith(refused):
                    raise PermissionError(f"grading: {text!r} cannot be read")
        elif event.startswith(_REFUSED_EVENTS):
            raise PermissionError(f"grading: {event} is not allowed")
        elif event == "import" and args and str(args[0]).split(".")[0] in _REFUSED_IMPORTS:
            raise PermissionError(f"grading: importing {args[0]} is not allowed")

    sys.addaudithook(hook)


def _run_cell(text: str, name: str, namespace: dict[str, Any]) -> str | None:
    """Run one cell's code; the reason it failed, or None."""
    printed = io.StringIO()
    try:
        code = compile(text, f"<{name}>", "exec")
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(code, namespace)
    except (Exception, SystemExit) as error:
        return str(Raised.of(error))
    return None


def _call(function: Any, arguments: list[Any]) -> dict[str, Any]:
    """Call ``function`` on one case's arguments; the reply as plain JSON."""
    args = tuple(wire.load_argument(a, NodeCounter) for a in arguments)
    printed = io.StringIO()
    reply: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            answer = function(*args)
        reply["answer"] = wire.dump_answer(answer)
    except (Exception, SystemExit) as error:
        raised = Raised.of(error)
        reply["raised"] = [raised.kind, raised.message, list(raised.names), raised.line]
    reply["after"] = [wire.dump_after(arg) for arg in args]
    text = printed.getvalue()
    if text:
        reply["printed"] = text[:PRINTED_LIMIT]
    return reply


def main() -> None:
    """Read the job from standard input, run it, report on the file descriptor it names."""
    job = json.loads(sys.stdin.buffer.read())
    channel = _Channel(os.fdopen(job["fd"], "wb"), job["secret"])
    sys.stdin = open(os.devnull)  # noqa: SIM115  (the job is read; nothing else comes in)
    sys.dont_write_bytecode = True
    _lock_down(job["refused"])
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, text in enumerate(job["setup"]):
        problem = _run_cell(text, f"setup {number + 1}", namespace)
        if problem:
            channel.send(event="setup", problem=problem)
            return
    for cell in job["cells"]:
        channel.send(event="cell", index=cell["index"])
        problem = _run_cell(cell["source"], cell["tag"], namespace)
        channel.send(event="ran", index=cell["index"], problem=problem)
    for question in job["questions"]:
        channel.send(event="start", tag=question["tag"])
        function = namespace.get(question["function"])
        if not callable(function):
            replies: list[dict[str, Any]] | None = None
        else:
            replies = [_call(function, arguments) for arguments in question["cases"]]
        channel.send(event="done", tag=question["tag"], replies=replies)
    channel.send(event="end")


if __name__ == "__main__":
    main()
