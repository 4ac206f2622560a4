"""``python -m course serve``: start the class server, or export its finished games.

Every flag is checked where argparse reads it (the types of :mod:`course.arguments`),
so a bad port, a ``nan`` grace or an empty host exits 2 naming the flag before the
server opens anything.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from course.arguments import host, output_folder, port, seconds, whole
from course.classroom.people import Limits, _check_address, _is_finite
from course.classroom.protocol import ClassroomError
from course.classroom.room import RoomSettings
from reversi.errors import ArgumentError, shown

__all__ = [
    "add_arguments",
    "serve",
    "MAX_SECONDS",
]

#: Longest grace or move time a room accepts, in seconds (a day).
MAX_SECONDS = 86400.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` command's flags, each with its checked type."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise ArgumentError(f"the serve flags are added to an argparse.ArgumentParser, not {shown(parser)}")
    try:
        _add_arguments(parser)
    except argparse.ArgumentError as clash:
        raise ArgumentError(f"cannot add the serve flags to this parser: {clash}") from None


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", type=host, default="127.0.0.1", help="0.0.0.0 to accept other machines"
    )
    parser.add_argument("--port", type=port, default=8765, help="0 picks a free port")
    parser.add_argument(
        "--data", type=output_folder, default=Path("class/classroom-data"),
        help="database folder (default: class/classroom-data)",
    )
    parser.add_argument(
        "--grace", type=seconds(maximum=MAX_SECONDS), default=60.0, help="seconds a seat is held"
    )
    parser.add_argument(
        "--move-time", type=seconds(maximum=MAX_SECONDS), default=None, help="seconds per move"
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=whole(1, 100_000),
        default=Limits.connections,
        help="connections one client address may hold at once",
    )
    parser.add_argument(
        "--max-rooms-per-address",
        type=whole(1, 100_000),
        default=Limits.rooms,
        help="new rooms one client address may open in 10 minutes",
    )
    parser.add_argument("--export", type=output_folder, default=None, metavar="FOLDER",
                        help="write the finished games as save files and exit")  # fmt: skip


if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from course.classroom.overview import Section


def serve(
    host: str,
    port: int,
    data: Path,
    grace: float,
    move_time: float | None,
    export: Path | None = None,
    limits: Limits | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    sections: Sequence[Section] = (),
) -> int:
    """Run the server until Ctrl-C (exit status 0), or export the finished games and exit.

    Once it listens, the server prints the addresses students type, the teacher's page with
    its key, where hand-ins and games are kept, and how to stop (lines a site build printed
    before, through the same standard output, stay above them).
    """
    _check_serve(host, port, data, grace, move_time, export, limits, extra_routes, sections)
    if grace <= 0 or (move_time is not None and move_time <= 0):
        print("error: --grace and --move-time must be positive numbers of seconds", file=sys.stderr)
        return 2
    if export is not None:
        return _export(data, export)
    from course.classroom.server import run

    # "Press Ctrl-C to stop" holds even when the program that started us ignores Ctrl-C
    # (as a shell does for a job it starts in the background).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        asyncio.run(
            run(
                host,
                port,
                data,
                RoomSettings(move_time, grace),
                say,
                extra_routes,
                sections,
                limits,
            )
        )
    except KeyboardInterrupt:
        pass
    except ClassroomError as failed:  # the port is taken, or the host is not this machine's
        print(f"error: {failed}", file=sys.stderr)
        return 2
    except OSError as failed:
        print(f"error: cannot listen on {host}:{port}: {failed.strerror}", file=sys.stderr)
        return 2
    return 0


def _check_serve(
    host: object, port: object, data: object, grace: object, move_time: object, export: object,
    limits: object, extra_routes: object, sections: object,
) -> None:
    """Refuse what ``serve`` cannot take (the flags give the right types; a script may not)."""
    _check_address(host, port)
    if not isinstance(data, os.PathLike):
        raise ArgumentError(f"data must be the database folder as a Path, not {shown(data)}")
    if export is not None and not isinstance(export, os.PathLike):
        raise ArgumentError(f"export must be a folder as a Path, or None, not {shown(export)}")
    if not _is_finite(grace):
        raise ArgumentError(f"grace must be a number of seconds, not {shown(grace)}")
    if move_time is not None and not _is_finite(move_time):
        raise ArgumentError(f"move_time must be a number of seconds or None, not {shown(move_time)}")
    if limits is not None and not isinstance(limits, Limits):
        raise ArgumentError(f"limits must be Limits or None, not {shown(limits)}")
    from starlette.routing import BaseRoute

    if not isinstance(extra_routes, list | tuple) or not all(isinstance(r, BaseRoute) for r in extra_routes):
        raise ArgumentError(f"extra_routes must be a list of Starlette routes, not {shown(extra_routes)}")
    if not isinstance(sections, list | tuple) or not all(callable(s) for s in sections):
        raise ArgumentError(f"sections must be a list of functions (each returning a table), not {shown(sections)}")


def _export(data: Path, export: Path) -> int:
    from course.classroom.storage import FILE_NAME, Storage

    if not (data / FILE_NAME).is_file():
        print(f"error: argument --data: {str(data)!r} holds no class server database "
              f"({FILE_NAME}): nothing to export", file=sys.stderr)  # fmt: skip
        return 2
    storage = Storage(data)
    written = storage.export(export)
    storage.close()
    for path in written:
        print(f"wrote {path}")
    print(f"Exported {len(written)} finished games; open one with reversi.load_game(path).")
    return 0
