"""``python -m course serve``: start the class server, or export its finished games.

Every flag is checked where argparse reads it (the types of :mod:`course.arguments`),
so a bad port, a ``nan`` grace or an empty host exits 2 naming the flag before the
server opens anything; after that the values are trusted.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from course.arguments import host, output_folder, port, seconds, whole
from course.classroom.people import Limits, RoomSettings
from course.classroom.protocol import ClassroomError
from course.i18n import gettext as _

#: Longest grace or move time a room accepts, in seconds (a day).
MAX_SECONDS = 86400.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` command's flags, each with its checked type."""
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

    from course.classroom.lobby import Identify
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
    identify: Identify | None = None,
) -> int:
    """Run the server until Ctrl-C (exit status 0), or export the finished games and exit.

    Once it listens, the server prints the addresses students type, the teacher's page with
    its key, where hand-ins and games are kept, and how to stop (lines a site build printed
    before, through the same standard output, stay above them).
    """
    if export is not None:
        return _export(data, export)
    # "Press Ctrl-C to stop" holds even when the program that started us ignores Ctrl-C
    # (as a shell does for a job it starts in the background).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def say(line: str) -> None:
        print(line, flush=True)

    from course.classroom.announce import run

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
                identify,
            )
        )
    except KeyboardInterrupt:
        pass
    except ClassroomError as failed:  # the port is taken, or the host is not this machine's
        print(_("error: {reason}").format(reason=failed), file=sys.stderr)
        return 2
    except OSError as failed:
        print(_("error: cannot listen on {host}:{port}: {reason}").format(
            host=host, port=port, reason=failed.strerror), file=sys.stderr)  # fmt: skip
        return 2
    return 0


def _export(data: Path, export: Path) -> int:
    from course.classroom.storage import FILE_NAME, Storage

    if not (data / FILE_NAME).is_file():
        print(_("error: argument --data: {folder!r} holds no class server database "
                "({file}): nothing to export").format(folder=str(data), file=FILE_NAME),
              file=sys.stderr)  # fmt: skip
        return 2
    storage = Storage(data)
    written = storage.export(export)
    storage.close()
    for path in written:
        print(_("wrote {path}").format(path=path))
    print(_("Exported {count} finished games; open one with reversi.load_game(path).").format(
        count=len(written)))  # fmt: skip
    return 0
