"""``python -m course serve``: start the class server, or export its finished games."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from course.classroom.room import RoomSettings

if TYPE_CHECKING:
    from starlette.routing import BaseRoute


def serve(
    host: str,
    port: int,
    data: Path,
    grace: float,
    move_time: float | None,
    export: Path | None = None,
    extra_routes: Sequence[BaseRoute] = (),
) -> int:
    """Run the server until Ctrl-C (exit status 0), or export the finished games and exit."""
    if grace <= 0 or (move_time is not None and move_time <= 0):
        print("error: --grace and --move-time must be positive numbers of seconds", file=sys.stderr)
        return 2
    if export is not None:
        from course.classroom.storage import Storage

        storage = Storage(data)
        written = storage.export(export)
        storage.close()
        for path in written:
            print(f"wrote {path}")
        print(f"Exported {len(written)} finished games; open one with reversi.load_game(path).")
        return 0
    from course.classroom.server import run

    # "Press Ctrl-C to stop" holds even when the program that started us ignores Ctrl-C
    # (as a shell does for a job it starts in the background).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        asyncio.run(run(host, port, data, RoomSettings(move_time, grace), say, extra_routes))
    except KeyboardInterrupt:
        pass
    except OSError as failed:
        print(f"error: cannot listen on {host}:{port}: {failed.strerror}", file=sys.stderr)
        return 2
    return 0
