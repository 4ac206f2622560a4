"""Fixture ``class_server``: real class servers in their own processes, stopped by PID after the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.course.classroom.server_process import ServerProcess


@pytest.fixture
def class_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Factory: ``class_server(grace=2, move_time=None)`` starts a server; all are stopped after."""
    started: list[ServerProcess] = []

    def start(
        grace: float = 60.0, move_time: float | None = None, data: Path | None = None, port: int = 0
    ) -> ServerProcess:
        server = ServerProcess(data or tmp_path / "data", grace, move_time, port).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
