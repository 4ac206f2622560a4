"""The portable sandbox's warm hosts: Deno processes that each run one program at a time.

Starting Deno and Pyodide for every program cost about a second of processor time, and each
program then ran on V8's first, slow compilation of Python's interpreter.  A :class:`Host`
(``runtime/pyodide_host.mjs``) compiles Pyodide once and runs each program in a fresh Worker
(its own V8 isolate, Pyodide, files and input) that may read Pyodide's files and nothing
else; only the compiled, read-only code is shared, and it gets faster as programs run.

:class:`Hosts` keeps the idle hosts of a :class:`~course.grading.sandbox.Sandbox` (one per
memory limit, which is a V8 flag of the whole process).  A run borrows a host and gives it
back when it ended cleanly; a host whose run did not answer, or left a worker of its own
running, is killed.  :class:`Hosted` looks like the ``Popen`` that
:class:`~course.grading.runs.Run` reads and writes.
"""

from __future__ import annotations

import contextlib
import json
import queue
import secrets
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Seconds a host may take to start and connect (compiling Pyodide takes about 0.1 s).
CONNECT = 30.0
#: Bytes of input a host holds for its program beyond what the program took.
WINDOW = 1 << 20
_HEADER = struct.Struct(">cI")
_ENDED = b""  # the end of a run's output, in its queue


class HostError(RuntimeError):
    """A host did not start (its process ended, or never connected)."""


class Host:
    """One Deno process of ``command(port)`` (the port it connects to); ``folders`` are
    removed when it is closed."""

    def __init__(self, command: Callable[[int], list[str]], env: dict[str, str],
                 folders: tuple[str, ...] = (), stderr: Any = subprocess.DEVNULL) -> None:  # fmt: skip
        self._folders = folders
        listener = socket.create_server(("127.0.0.1", 0))
        token = secrets.token_hex(16).encode()
        try:
            port = listener.getsockname()[1]
            self.process = subprocess.Popen(
                command(port), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=stderr, env=env, start_new_session=True, close_fds=True,
            )  # fmt: skip
            assert self.process.stdin is not None
            self.process.stdin.write(token + b"\n")
            self.process.stdin.close()
            self.connection = _accept(listener, token, self.process)
        except BaseException:
            self._remove()
            raise
        finally:
            listener.close()
        self._lock = threading.Lock()
        self._run: Hosted | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def alive(self) -> bool:
        return self.process.poll() is None

    def clean(self) -> bool:
        """Whether no worker thread is left in the host (its last run's worker ended, and
        that run did not start workers of its own, which would outlive it).  Deno names
        each worker's thread ``worker-N``; where threads cannot be read (not Linux), a host
        is never clean, so it runs one program."""
        tasks = Path(f"/proc/{self.process.pid}/task")
        if not tasks.is_dir():
            return False
        calm = 0  # readings in a row with no worker thread
        for _ in range(100):
            calm = 0 if _workers(tasks) else calm + 1
            if calm == 3:
                return True
            time.sleep(0.005)
        return False

    def send(self, kind: bytes, body: bytes) -> bool:
        """Send one frame; False if the host is gone."""
        try:
            with self._lock:
                self.connection.sendall(_HEADER.pack(kind, len(body)) + body)
        except OSError:
            return False
        return True

    def start(self, files: dict[str, str], main: str, output: int,
              give_back: Callable[[], None]) -> Hosted:  # fmt: skip
        """Run ``main`` of ``files``; at most ``output`` bytes of its output are sent on;
        ``give_back()`` once it ended cleanly."""
        self._run = run = Hosted(self, give_back)
        if not self.send(b"R", json.dumps({"main": main, "files": files, "output": output}).encode()):
            run.finish(-9)  # the host was gone
        return run

    def close(self) -> None:
        """Kill the process (its run, if any, ends as killed)."""
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError):
            self.connection.close()
        self.process.wait()
        self._remove()

    def _remove(self) -> None:
        for folder in self._folders:
            shutil.rmtree(folder, ignore_errors=True)

    def _read(self) -> None:
        stream = self.connection.makefile("rb")
        while True:
            try:
                header = stream.read(_HEADER.size)
                kind, length = _HEADER.unpack(header)
                body = stream.read(length)
            except (OSError, struct.error, ValueError):
                break
            run = self._run
            if run is None or len(body) != length or not body:
                continue
            if kind == b"O":
                run.output.put(body)
            elif kind == b"A":
                run.taken(int(json.loads(body)))
            elif kind == b"E":
                self._run = None
                run.finish(int(json.loads(body)))
        self.close()
        run = self._run
        if run is not None:
            run.finish(self.process.returncode or -9)


def _accept(listener: socket.socket, token: bytes, process: subprocess.Popen[bytes]) -> socket.socket:
    """The connection that proves itself with ``token`` (others are closed), within CONNECT."""
    deadline = time.monotonic() + CONNECT
    while (left := deadline - time.monotonic()) > 0 and process.poll() is None:
        listener.settimeout(min(left, 1.0))
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            continue
        connection.settimeout(max(0.1, min(left, 5.0)))
        try:
            said = connection.makefile("rb").readline(len(token) + 2)
        except OSError:
            said = b""
        if said == token + b"\n":
            connection.settimeout(None)
            return connection
        connection.close()
    with contextlib.suppress(OSError):
        process.kill()
    raise HostError("Deno did not start Pyodide's host (it ended, or never connected)")


def _workers(tasks: Path) -> bool:
    """Whether a thread of ``tasks`` (a process's /proc folder of threads) is a worker's."""
    try:
        return any((task / "comm").read_bytes().startswith(b"worker-") for task in tasks.iterdir())
    except OSError:  # a thread ended while it was read
        return True


class Hosts:
    """The idle hosts of one sandbox, by memory limit; ``new(memory_mb)`` starts one."""

    def __init__(self, new: Callable[[int], Host]) -> None:
        self._new = new
        self._idle: dict[int, list[Host]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def start(self, files: dict[str, str], main: str, memory_mb: int, output: int) -> Hosted:
        with self._lock:
            alive = [host for host in self._idle.get(memory_mb, []) if host.alive()]
            host = alive.pop() if alive else None
            self._idle[memory_mb] = alive  # a host that ended while idle closed itself
            self._closed = False  # used again after close()
        host = host or self._new(memory_mb)
        return host.start(files, main, output, lambda: self._give_back(host, memory_mb))

    def _give_back(self, host: Host, memory_mb: int) -> None:
        with self._lock:
            if not self._closed:
                self._idle.setdefault(memory_mb, []).append(host)
                return
        host.close()  # a run that ended after its sandbox was closed

    def close(self) -> None:
        with self._lock:
            hosts = [host for idle in self._idle.values() for host in idle]
            self._idle.clear()
            self._closed = True
        for host in hosts:
            host.close()


class Hosted:
    """One program on a host, as :class:`~course.grading.runs.Run` sees a process."""

    pid = None

    def __init__(self, host: Host, give_back: Callable[[], None]) -> None:
        self.host, self._give_back = host, give_back  # the host is the process it runs in
        self.output: queue.Queue[bytes] = queue.Queue()
        self.returncode: int | None = None
        self._ended = threading.Event()
        self._given = False
        self.stdout, self.stdin = _Output(self), _Input(self)
        self._space = threading.Condition()
        self._unread = 0  # input bytes sent that the program has not taken yet

    def finish(self, status: int) -> None:
        if self._ended.is_set():
            return
        self.returncode = status
        self.output.put(_ENDED)
        with self._space:
            self._ended.set()
            self._space.notify_all()

    def give(self, data: bytes) -> None:
        """Send input once the program took all but :data:`WINDOW` bytes of what came before
        (so a program that does not read holds its writer, as a pipe would)."""
        with self._space:
            self._space.wait_for(lambda: self._unread < WINDOW or self._ended.is_set())
            if self._ended.is_set() or not self.host.send(b"I", data):
                raise OSError("the program ended")
            self._unread += len(data)

    def taken(self, count: int) -> None:
        with self._space:
            self._unread -= count
            self._space.notify_all()

    def close_input(self) -> None:
        """End the program's input; nothing once it ended: its host may run the next program
        by then, and the frame carries no run (Run.kill closes the input after :meth:`kill`)."""
        if not self._given and not self._ended.is_set():
            self.host.send(b"C", b"")

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired("pyodide", timeout or 0.0)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """End the run; the host goes back to the idle ones once it said the run ended."""
        if self._given:
            return
        self._given = True
        if not self._ended.is_set():
            self.host.send(b"K", b"")
        if self._ended.wait(5.0) and self.host.alive() and self.host.clean():
            self.host.send(b"S", b"")
            self._give_back()
        else:
            self.host.close()
            self.finish(-9)


class _Output:
    def __init__(self, run: Hosted) -> None:
        self._run, self._ended = run, False

    def read1(self, size: int = -1) -> bytes:
        if self._ended:
            return b""
        chunk = self._run.output.get()
        self._ended = chunk == _ENDED
        return chunk

    def close(self) -> None:
        pass


class _Input:
    def __init__(self, run: Hosted) -> None:
        self._run = run

    def write(self, data: bytes) -> Any:
        for start in range(0, len(data), WINDOW):
            self._run.give(data[start : start + WINDOW])
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self._run.close_input()
