"""The class server: the rooms as an ASGI app (Starlette routes, served by uvicorn).

The server owns the sockets, the clock and the database; the rules live in
:class:`~course.classroom.room.Room` (and, below it, :class:`reversi.Game`).
:func:`build_app` makes the Starlette app: the rooms' WebSocket at ``/`` and
``/room`` (so ``join("ws://HOST:PORT", ...)`` works), the teacher's overview under
``/teacher``, and whatever ``extra_routes`` another part of the kit adds on the
same port (the static site, the hand-ins).  Its lifespan starts and stops the
:class:`ClassServer`: the clock ticker and the database.

Each connection's first message is a ``hello``; every message after it is read,
rate-limited, checked by :func:`~course.classroom.protocol.parse` and handed to
its room, whose answer is stored and then delivered.  Each connection has an
outbox drained by its own writer task, so a slow reader delays only itself (and
is cut off when its outbox is full).

Trust boundary: a connected peer can send anything, and a page of any web site a
student's browser opens can try to connect: a WebSocket whose ``Origin`` is not this
server's own host and port is refused before it is accepted (a program that sends no
``Origin``, like the kit's own client, is let in).  What it sends is read as
text of bounded size (uvicorn closes a connection whose frame is over
:data:`~course.classroom.protocol.MAX_FRAME_BYTES`, code 1009), validated into
plain values, and decided on here; nothing it computed is trusted.  An error in
one message is answered to its sender alone and never touches another room.
This module imports no widget library.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from course.classroom.connection import Connection, RateLimit, listen, quiet_server, receive
from course.classroom.lobby import Lobby
from course.classroom.overview import Section, action, page
from course.classroom.protocol import (
    JSON_LIMITS,
    ClassroomError,
    MessageError,
    error,
    parse,
)
from course.classroom.room import Room
from course.schema import Field, Schema, SchemaError
from reversi.errors import ReversiError

#: How often clocks and grace times are checked, in seconds.
TICK = 0.2
#: A connection must say hello within this many seconds.
HELLO_TIMEOUT = 10.0
#: The teacher page's first message: ``{"key": KEY}``.
KEY: Schema[dict[str, Any]] = Schema("the teacher key message", (Field("key", str, limit=64),), dict)

log = logging.getLogger("course.classroom")


async def same_origin(websocket: WebSocket) -> bool:
    """Whether a WebSocket may be accepted: no ``Origin`` (not a browser) or this server's own.

    A page of another site is refused (HTTP 403) before anything is read, so a student's
    browser cannot be made to join or flood a room by a page it happened to open.
    """
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    if origin is None or urlsplit(origin).netloc.lower() == host.lower():
        return True
    log.warning("refused a WebSocket from another site (Origin %.80s, Host %.80s)", origin, host)
    await websocket.close(code=1008)
    return False


class ClassServer(Lobby):
    """The rooms served over WebSockets, with the clock that ticks them.

    In an app: ``build_app(ClassServer(...))`` (its lifespan starts and stops the
    ticker and the database).  In a test or a script: ``url = await start(host, port)``,
    then ``await close()``, which serve the app with uvicorn in this event loop.
    The arguments are :class:`~course.classroom.lobby.Lobby`'s.
    """

    _ticker: asyncio.Task[None] | None = None
    _uvicorn: uvicorn.Server | None = None
    _serving: asyncio.Task[None] | None = None
    _address: tuple[str, int] | None = None

    async def _startup(self) -> None:
        """Start the clocks (the app's lifespan calls it)."""
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())

    async def _shutdown(self) -> None:
        """Stop the clocks, store every room and close the database (the app's lifespan calls it)."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        for room in self.rooms.values():
            self.storage.save(room)
        self.storage.close()

    async def start(
        self, host: str = "127.0.0.1", port: int = 0, app: Starlette | None = None
    ) -> str:
        """Serve ``app`` (the rooms alone by default) on ``host``:``port`` (0: a free port); returns the URL."""
        if self._uvicorn is not None:
            raise ClassroomError(f"the class server is already serving on {self.url}")
        try:
            listening = listen(host, port)
        except OSError as error:
            raise ClassroomError(
                f"the class server cannot listen on {host}:{port}: {error.strerror or error}"
            ) from None
        self._address = listening.getsockname()[:2]
        self._uvicorn = quiet_server(app or build_app(self))
        self._serving = asyncio.get_running_loop().create_task(
            self._uvicorn.serve(sockets=[listening])
        )
        while not self._uvicorn.started:
            if self._serving.done():
                self._serving.result()
                raise ClassroomError(f"the class server did not start on {host}:{port}")
            await asyncio.sleep(0.01)
        return self.url

    @property
    def url(self) -> str:
        """The address students join (``ws://HOST:PORT``), once :meth:`start` has run."""
        if self._address is None:
            raise ClassroomError("the server has not started: await start() first, then read its url")
        host, port = self._address
        return f"ws://{host}:{port}"

    async def close(self) -> None:
        """Stop serving (closing every connection), then the lifespan stores everything."""
        if self._uvicorn is not None and self._serving is not None:
            self._uvicorn.should_exit = True
            await self._serving
            self._uvicorn = self._serving = None

    async def _socket(
        self, websocket: WebSocket, talk: Callable[[Connection], Awaitable[None]], done: Callable[[Connection], None]
    ) -> None:
        """Accept a WebSocket of this server's own pages (or of no page), ``talk`` over it, then ``done``."""
        if not await same_origin(websocket):
            return
        await websocket.accept()
        conn = Connection(websocket)
        writer = asyncio.get_running_loop().create_task(conn.write_forever())
        try:
            await talk(conn)
        except WebSocketDisconnect:
            pass
        finally:
            done(conn)
            conn.close()
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(writer, 2)

    async def _connection(self, websocket: WebSocket) -> None:
        """The ASGI WebSocket endpoint of the rooms: one person in one room."""
        await self._socket(websocket, self._converse, self.left)

    async def _converse(self, conn: Connection) -> None:
        """Read, rate-limit and parse each message: the first must be a hello joining a room."""
        self.per_address[conn.address] += 1
        if self.per_address[conn.address] > self.limits.connections:
            self.send(conn, error(f"too many connections from your address (at most {self.limits.connections})", "hello"))
            conn.close(1008, "too many connections from one address")
            return
        bucket = RateLimit(now=self.clock())
        deadline = self.clock() + HELLO_TIMEOUT
        room: Room | None = None
        who = await self.identify(conn.websocket) if self.identify else None
        while not conn.closing:
            waiting = None if room else max(0.1, deadline - self.clock())
            try:
                raw = await asyncio.wait_for(receive(conn.websocket), waiting)
            except asyncio.TimeoutError:
                conn.close(1008, "no hello")
                return
            if raw is None:
                return
            self.messages_in += 1
            if not self.within_rate(conn, bucket):
                continue
            try:
                message = parse(raw)
            except MessageError as refused:
                self.send(conn, error(str(refused), None if room else "hello"))
                continue
            kind = message["type"]
            if room is None and kind != "hello":
                self.send(conn, error(f"say hello first (a {kind!r} message came before it)", "hello"))
            elif room is None:
                room = self.join_room(conn, message, who)
            elif kind == "hello":
                self.send(conn, error("you are already in a room: one room per connection", "hello"))
            elif kind != "chat" or self.chat_allowed(conn):
                self.deliver(room, room.handle(conn, message, self.clock()))
                if room.closed:
                    return

    async def _teacher_page(self, request: Request) -> HTMLResponse:
        """``GET /teacher``: the overview page (it asks for the key, then goes live)."""
        return HTMLResponse(page(), headers={"Cache-Control": "no-store"})

    async def _teacher_live(self, websocket: WebSocket) -> None:
        """``/teacher/live``: the first message gives the key; then the overview comes live and actions go."""
        await self._socket(websocket, self._moderate, self.watchers.discard)

    async def _moderate(self, conn: Connection) -> None:
        """The key first (or the page is closed); then the overview goes live and each action is carried out."""
        try:
            raw = await asyncio.wait_for(receive(conn.websocket), HELLO_TIMEOUT)
            key = "" if raw is None else KEY.load(raw, JSON_LIMITS)["key"]
        except (asyncio.TimeoutError, SchemaError):
            key = ""
        if not hmac.compare_digest(key.encode(), self.teacher_key.encode()):
            self.send(conn, error("that is not the teacher key of this server", "key"))
            conn.close(1008, "not the teacher key")
            return
        self.watchers.add(conn)
        conn.send(self.overview_text())
        bucket = RateLimit(now=self.clock())
        while not conn.closing and (raw := await receive(conn.websocket)) is not None:
            if not self.within_rate(conn, bucket):
                continue
            try:
                name, message = action(raw)
                room = self.rooms.get(name)
                if room is None:
                    raise ClassroomError(f"there is no room {name!r} (any more)")
                self.deliver(room, room.moderate(message, self.clock()))
            except ReversiError as refused:
                self.send(conn, error(str(refused), "action"))
            self.push_overview(force=True)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            now = self.clock()
            for room in list(self.rooms.values()):
                try:
                    self.deliver(room, room.tick(now))
                    if room.idle_since is not None and now - room.idle_since >= self.forget_after:
                        self.forget(room)
                except Exception:  # one broken room must not stop the others' clocks
                    log.exception("room %s failed to tick", room.name)
            self.push_overview()



def build_app(
    server: ClassServer | None = None,
    *,
    extra_routes: Sequence[BaseRoute] = (),
    sections: Sequence[Section] = (),
    **options: Any,
) -> Starlette:
    """The Starlette app of the class server: the rooms' WebSocket, the overview, then ``extra_routes``.

    ``server`` is the :class:`ClassServer` to serve (made from ``options``, the
    arguments of :class:`ClassServer`, if left out); ``app.state.classroom`` holds
    it.  ``sections`` are added to the teacher's overview (see
    :mod:`course.classroom.overview`).  The app's lifespan starts and stops it.
    """
    classroom = server if server is not None else ClassServer(**options)
    classroom.sections.extend(sections)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await classroom._startup()
        try:
            yield
        finally:
            await classroom._shutdown()

    routes: list[BaseRoute] = [
        WebSocketRoute("/", classroom._connection),
        WebSocketRoute("/room", classroom._connection),
        Route("/teacher", classroom._teacher_page),
        WebSocketRoute("/teacher/live", classroom._teacher_live),
        *extra_routes,
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.classroom = classroom
    return app


