"""The class server as a JupyterHub service: hand-ins, self-checks, rooms and the teacher page, for hub users.

The hub starts it (a hub-managed service) and routes ``/services/NAME/`` to it; it can
also run on its own beside the hub (an external service: give it the same environment).
Everything is the laptop's class server (:mod:`course.classroom.server`), with the hub's
users in place of the sign-in codes (:class:`~course.hub.identity.HubGate`):

* ``/services/NAME/`` signs a browser in through the hub; a teacher goes on to the
  teacher page (rooms, the live self-checks, each student's term, the hand-ins);
* ``/services/NAME/hand-in``, ``/progress`` and the rooms' WebSocket ``/room`` take a
  kernel's ``Authorization: token ...`` (``course.hub.client`` sends it).

Run by the hub as ``python -m course.hub.service --data FOLDER [--teachers GROUP]``; it
reads ``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_SERVICE_URL`` (where to listen) and
``JUPYTERHUB_SERVICE_PREFIX`` from the environment the hub gives it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from course.classroom.people import Limits, RoomSettings
from course.classroom.progress import Progress
from course.classroom.server import ClassServer, build_app
from course.hub.identity import HubGate
from course.hub.lessons import bundled
from course.roster.store import Places, RosterFile
from course.roster.term import term_section
from course.site.progress_routes import progress_routes
from course.site.routes import HandInEndpoint
from course.site.serving import handins_section, teacher_route, term_route
from course.site.store import Flood, HandInStore

#: The per-address limits on a hub, where the proxy is every student's one address.
EVERYONE = 1_000_000


class Prefixed:
    """An ASGI app served under ``prefix`` (``/services/reversi/``): the prefix is taken off each path."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app, self.prefix = app, "/" + prefix.strip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            path: str = scope["path"]
            if path == self.prefix or path.startswith(self.prefix + "/"):
                scope = {**scope, "path": path[len(self.prefix):] or "/", "root_path": self.prefix}
        await self.app(scope, receive, send)


def exercises() -> frozenset[str]:
    """The exercises of the installed kit (what the service takes hand-ins of), and the project."""
    names = {path.stem for path in bundled("course.exercises", "exercises").glob("*.ipynb")}
    return frozenset(names | {"project_tournament"})


def build(data: Path, auth: Any, prefix: str, teachers: str | None = None,
          settings: RoomSettings | None = None) -> tuple[Prefixed, ClassServer]:  # fmt: skip
    """The service's app (under ``prefix``) and its class server, for the hub users ``auth`` knows."""
    gate = HubGate(auth, teachers)
    # Every request reaches the service from the hub's proxy, one address for the whole hub: the
    # limits that count per address on a laptop are per student here (the stores bound each one).
    server = ClassServer(data, settings or RoomSettings(), identify=gate.who, limits=Limits(EVERYONE, EVERYONE))
    known = exercises()
    store = HandInStore(data, known)
    places = Places(data / "roster.json", data)  # a hub's roster is its users: the file stays empty
    progress = Progress(data, names=lambda key: key)
    routes = [
        *gate.routes(server.teacher_key, prefix),
        teacher_route(store),
        term_route(RosterFile(places.roster), places, sorted(known)),
        *progress_routes(progress, gate, Flood(limit=EVERYONE, window=60.0)),
        Route("/hand-in", HandInEndpoint(store, gate, Flood(limit=EVERYONE, window=60.0)).handle, methods=["GET", "POST"]),
    ]
    sections = [term_section(RosterFile(places.roster), places, sorted(known)), progress.grid,
                handins_section(store)]  # fmt: skip
    return Prefixed(build_app(server, extra_routes=routes, sections=sections), prefix), server


async def serve(data: Path, teachers: str | None, host: str | None = None) -> None:
    from jupyterhub.services.auth import HubOAuth

    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/reversi/")
    where = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    auth = HubOAuth(api_token=os.environ["JUPYTERHUB_API_TOKEN"], cache_max_age=60)
    app, server = build(data, auth, prefix if prefix.endswith("/") else prefix + "/", teachers)
    await server.start(host or where.hostname or "127.0.0.1", where.port or 10101, app)  # type: ignore[arg-type]
    print(f"Reversi class service on {where.geturl()} at {prefix} (data in {data.resolve()})", flush=True)
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.cancel)
    try:
        await stop
    except asyncio.CancelledError:
        pass
    finally:
        await server.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course.hub.service", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("reversi-class"), help="hand-ins, self-checks, rooms")
    parser.add_argument("--teachers", default=None, help="the hub group of teachers (admins always are)")
    parser.add_argument("--host", default=None,
                        help="the address to listen on (default: JUPYTERHUB_SERVICE_URL's; 0.0.0.0 in a pod)")
    args = parser.parse_args(argv)
    if "JUPYTERHUB_API_TOKEN" not in os.environ:
        print("error: run this as a JupyterHub service (JUPYTERHUB_API_TOKEN is not set)", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.data, args.teachers, args.host))
    return 0


if __name__ == "__main__":
    sys.exit(main())
