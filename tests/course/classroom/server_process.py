"""A real class server in its own process on 127.0.0.1, started by ``python -m course serve``.

The server picks a free port (``--port 0``) and prints its address and teacher
key; :class:`ServerProcess` reads them, and is stopped by its PID.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

START_TIMEOUT = 30.0


class ServerProcess:
    """``python -m course serve`` with its own data folder; ``url`` and ``key`` once started.

    With ``site``, the browser classroom in that folder is served too (``--no-site`` otherwise).
    """

    def __init__(
        self, data: Path, grace: float, move_time: float | None, port: int = 0, extra: tuple[str, ...] = (),
        site: Path | None = None,
    ) -> None:
        self.data, self.grace, self.move_time, self.port = data, grace, move_time, port
        self.extra, self.site = extra, site
        self.process: subprocess.Popen[str] | None = None
        self.url = self.key = ""
        self.lines: list[str] = []

    def start(self) -> ServerProcess:
        command = [sys.executable, "-m", "course", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--data", str(self.data), "--grace", str(self.grace)]  # fmt: skip
        command += ["--no-site"] if self.site is None else ["--site", str(self.site),
                                                            "--roster", str(Path(self.data).parent / "roster.json")]
        if self.move_time is not None:
            command += ["--move-time", str(self.move_time)]
        command += self.extra
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        deadline = time.monotonic() + START_TIMEOUT
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip())
            if found := re.search(r"listening on (ws://127\.0\.0\.1:\d+)", line):
                self.url = found[1]
            if found := re.search(r"Teacher key: (\S+)", line):
                self.key = found[1]
            if line.startswith("Press Ctrl-C"):
                return self
        self.stop()
        raise AssertionError("the class server did not start:\n" + "\n".join(self.lines))

    def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the process by its PID; returns the rest of what it printed."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return ""
        os.kill(process.pid, sig)
        try:
            rest, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            rest, _ = process.communicate(timeout=5)
        return rest or ""
