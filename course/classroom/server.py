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

Trust boundary: a connected peer can send anything.  What it sends is read as
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
import inspect
import json
import logging
import os
import secrets
import socket as sockets
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import BaseRoute, Match, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from course.classroom.overview import PAGE, Section, action, overview
from course.classroom.people import (
    Limits,
    _check_address,
    _check_now,
    _check_seconds,
    _check_whole,
)
from course.classroom.protocol import (
    MAX_DROPPED,
    MAX_FRAME_BYTES,
    MAX_MESSAGE_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
    ClassroomError,
    MessageError,
    encode,
    error,
    parse,
)
from course.classroom.room import Outgoing, Room, RoomSettings
from course.classroom.storage import Storage
from reversi.callables import guarded_clock, require_callable
from reversi.errors import ArgumentError, ReversiError, shown

__all__ = [
    "RateLimit",
    "ClassServer",
    "build_app",
    "run",
]

#: How often clocks and grace times are checked, in seconds.
TICK = 0.2
#: A connection must say hello within this many seconds.
HELLO_TIMEOUT = 10.0
#: Rooms one server keeps (a class of 30 needs 15 tables; a flood of new names is refused).
MAX_ROOMS = 500
#: Messages waiting to be written to one connection; a reader that falls this far behind is cut off.
OUTBOX = 256
#: Seconds between two pushes of the teacher's overview (when something changed).
OVERVIEW_EVERY = 0.5
#: Seconds a room with nobody in it and no game running is kept before it is forgotten.
FORGET_AFTER = 60.0
#: Chat at human speed (lichess allows a player 100 lines in 20 s): per connection and per address.
CHAT_PER_SECOND, CHAT_BURST = 1.0, 8
ADDRESS_CHAT_PER_SECOND, ADDRESS_CHAT_BURST = 5.0, 30


log = logging.getLogger("course.classroom")


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``.

    >>> bucket = RateLimit(rate=1, burst=2, now=0.0)
    >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST, now: float = 0.0):
        _check_seconds(rate, "rate", "messages a second")
        _check_whole(burst, "burst", 1, 10**9, "messages at once")
        _check_now(now)
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), now
        self.dropped = 0

    def allow(self, now: float) -> bool:
        """Whether a message at time ``now`` is within the rate (it then uses up a token)."""
        _check_now(now)
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False


class _Connection:
    """One WebSocket of the rooms: what the rooms know it by, and its outbox.

    :meth:`send` never waits: it queues the text for the writer task, which writes
    in order; :meth:`close` queues the close after what is already queued.
    """

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        client = websocket.client
        self.address = client.host if client else "unknown"
        self.outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(OUTBOX)
        self.closing = False

    def send(self, text: str) -> bool:
        """Queue ``text``; False if the connection is closing or too far behind (then it is cut off)."""
        if self.closing:
            return False
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.warning(
                "cutting off a connection from %s: it does not read its messages", self.address
            )
            self.closing = True
            self._drop_queue()
            self.outbox.put_nowait((1008, "too slow: messages were piling up"))
            return False
        return True

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is already queued."""
        if self.closing:
            return
        self.closing = True
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait((code, reason[:100]))

    async def write_forever(self) -> None:
        """Write the outbox to the socket until closed (run as the connection's task)."""
        while True:
            item = await self.outbox.get()
            try:
                if isinstance(item, tuple):
                    await self.websocket.close(*item)
                    return
                await self.websocket.send_text(item)
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.closing = True
                return

    def _drop_queue(self) -> None:
        while not self.outbox.empty():
            self.outbox.get_nowait()


class ClassServer:
    """Rooms, their connections and their database.

    In an app: ``build_app(ClassServer(...))`` (its lifespan calls :meth:`startup`
    and :meth:`shutdown`).  In a test or a script: ``url = await start(host, port)``,
    then ``await close()``, which serve the app with uvicorn in this event loop.

    ``data`` is the folder of the SQLite file (``":memory:"`` for none); running
    games found there are resumed.  ``teacher_key`` (random if left out) lets a
    connection that gives it close a room and export its finished games.
    ``clock`` returns seconds; tests may pass a fake one.
    """

    def __init__(
        self,
        data: str | os.PathLike[str] = ":memory:",
        settings: RoomSettings | None = None,
        teacher_key: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        limits: Limits | None = None,
        forget_after: float = FORGET_AFTER,
        sections: Sequence[Section] = (),
    ) -> None:
        if settings is not None and not isinstance(settings, RoomSettings):
            raise ArgumentError(f"settings must be RoomSettings or None, not {shown(settings)}")
        if limits is not None and not isinstance(limits, Limits):
            raise ArgumentError(f"limits must be Limits or None, not {shown(limits)}")
        if teacher_key is not None and (
            not isinstance(teacher_key, str) or not teacher_key.strip() or len(teacher_key) > 64
        ):
            raise ArgumentError(
                f"teacher_key must be text of 1 to 64 characters, or None for a random one, not {shown(teacher_key)}"
            )
        require_callable(clock, "clock", "returning seconds")
        _check_seconds(forget_after, "forget_after", "seconds an empty room is kept")
        if not isinstance(sections, list | tuple) or not all(callable(s) for s in sections):
            raise ArgumentError(f"sections must be a list of functions (each returning a table), not {shown(sections)}")
        clock = guarded_clock(clock)
        now = clock()
        self.settings = settings or RoomSettings()
        self.limits = limits or Limits()
        self.forget_after = forget_after
        self.teacher_key = teacher_key or secrets.token_urlsafe(9)
        self.clock = clock
        self.storage = Storage(data)
        self.rooms = {room.name: room for room in self.storage.load_rooms(now, self.settings)}
        self.sockets: dict[_Connection, str] = {}  # connection -> its room's name
        self.per_address: dict[str, int] = defaultdict(int)  # open connections
        self.rooms_made: dict[str, deque[float]] = defaultdict(
            deque
        )  # when each address made rooms
        self.chat_buckets: dict[str, RateLimit] = {}
        #: The overview's extra sections (hand-ins, ...) and the pages watching it.
        self.sections: list[Section] = list(sections)
        self.watchers: set[_Connection] = set()
        self._last_overview = ""
        self._last_push = 0.0
        self.messages_in = 0
        self.messages_out = 0
        self._ticker: asyncio.Task[None] | None = None
        self._uvicorn: uvicorn.Server | None = None
        self._serving: asyncio.Task[None] | None = None
        self._address: tuple[str, int] | None = None

    @property
    def resumed(self) -> list[str]:
        """Names of the rooms whose game was resumed from the database and is still running."""
        return sorted(name for name, room in self.rooms.items() if room.running)

    # -- the app's lifespan --------------------------------------------------------------

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

    # -- serving it here -----------------------------------------------------------------

    async def start(
        self, host: str = "127.0.0.1", port: int = 0, app: Starlette | None = None
    ) -> str:
        """Serve ``app`` (the rooms alone by default) on ``host``:``port`` (0: a free port); returns the URL."""
        _check_address(host, port)
        if app is not None and not isinstance(app, Starlette):
            raise ArgumentError(f"app must be the Starlette app of build_app(), not {shown(app)}")
        if self._uvicorn is not None:
            raise ClassroomError(f"the class server is already serving on {self.url}")
        try:
            listening = _listen(host, port)
        except OSError as error:
            raise ClassroomError(
                f"the class server cannot listen on {host}:{port}: {error.strerror or error}"
            ) from None
        self._address = listening.getsockname()[:2]
        self._uvicorn = _quiet_server(app or build_app(self))
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

    # -- one connection -------------------------------------------------------------------

    async def _connection(self, websocket: WebSocket) -> None:
        """The ASGI WebSocket endpoint of the rooms: one person in one room."""
        await websocket.accept()
        conn = _Connection(websocket)
        writer = asyncio.get_running_loop().create_task(conn.write_forever())
        self.per_address[conn.address] += 1
        try:
            if self.per_address[conn.address] > self.limits.connections:
                self._send(conn, error(f"too many connections from your address "
                                       f"(at most {self.limits.connections})", "hello"))  # fmt: skip
                conn.close(1008, "too many connections from one address")
            else:
                await self._converse(conn)
        except WebSocketDisconnect:
            pass
        finally:
            self.per_address[conn.address] -= 1
            if not self.per_address[conn.address]:
                del self.per_address[conn.address]
            self._left(conn)
            conn.close()
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(writer, 2)

    async def _converse(self, conn: _Connection) -> None:
        bucket = RateLimit(now=self.clock())
        room = await self._hello(conn, bucket)
        if room is None:
            return
        while not conn.closing:
            raw = await _receive(conn.websocket)
            if raw is None:
                return
            self.messages_in += 1
            if not self._within_rate(conn, bucket):
                continue
            try:
                message = parse(raw)
            except MessageError as refused:
                self._send(conn, error(str(refused)))
                continue
            if message["type"] == "hello":
                self._send(
                    conn, error("you are already in a room: one room per connection", "hello")
                )
                continue
            if message["type"] == "chat" and not self._chat_allowed(conn):
                continue
            self._deliver(room, room.handle(conn, message, self.clock()))
            if room.closed:
                return

    def _within_rate(self, conn: _Connection, bucket: RateLimit) -> bool:
        if bucket.allow(self.clock()):
            return True
        if bucket.dropped == 1 or bucket.dropped % 50 == 0:
            self._send(conn, error("too many messages: slow down (they were dropped)"))
        if bucket.dropped >= MAX_DROPPED:
            conn.close(1008, "too many messages")
        return False

    def _chat_allowed(self, conn: _Connection) -> bool:
        """Chat at human speed, per connection and per address; a polite refusal otherwise."""
        now = self.clock()
        mine = self.chat_buckets.setdefault(
            f"c{id(conn)}", RateLimit(CHAT_PER_SECOND, CHAT_BURST, now)
        )
        address = self.chat_buckets.setdefault(
            f"a{conn.address}", RateLimit(ADDRESS_CHAT_PER_SECOND, ADDRESS_CHAT_BURST, now)
        )
        if mine.allow(now) and address.allow(now):
            return True
        refused = mine.dropped + address.dropped
        if refused == 1 or refused % 20 == 0:  # polite, not a flood of its own
            self._send(conn, error("please slow down: the chat takes about one line a second "
                                   "(lines over that are not sent)", "chat"))  # fmt: skip
        return False

    def _left(self, conn: _Connection) -> None:
        self.chat_buckets.pop(f"c{id(conn)}", None)
        name = self.sockets.pop(conn, None)
        if name is not None and name in self.rooms:
            room = self.rooms[name]
            self._deliver(room, room.leave(conn, self.clock()))
            if not room.members and not room.seats and room.game is None:
                self._forget(room)  # nobody there and nothing played: forget it now

    def _forget(self, room: Room) -> None:
        """Drop a closed or idle room from memory and from the live rooms in storage."""
        if self.rooms.get(room.name) is room:
            del self.rooms[room.name]
        self.storage.forget(room)

    async def _hello(self, conn: _Connection, bucket: RateLimit) -> Room | None:
        """Read messages until a valid hello joins a room (errors are answered, not fatal)."""
        deadline = self.clock() + HELLO_TIMEOUT
        while not conn.closing:
            try:
                raw = await asyncio.wait_for(
                    _receive(conn.websocket), max(0.1, deadline - self.clock())
                )
            except asyncio.TimeoutError:
                conn.close(1008, "no hello")
                return None
            if raw is None:
                return None
            self.messages_in += 1
            if not self._within_rate(conn, bucket):
                continue
            try:
                hello = parse(raw)
                if hello["type"] != "hello":
                    raise MessageError(
                        f"say hello first (a {hello['type']!r} message came before it)"
                    )
            except MessageError as refused:
                self._send(conn, error(str(refused), "hello"))
                continue
            room = self._join(conn, hello)
            if room is not None:
                return room
        return None

    def _join(self, conn: _Connection, hello: dict[str, Any]) -> Room | None:
        teacher = "key" in hello
        if teacher and not hmac.compare_digest(hello["key"].encode(), self.teacher_key.encode()):
            self._send(conn, error("that is not the teacher key of this server", "hello"))
            return None
        room = self.rooms.get(hello["room"])
        new = room is None
        if room is None:
            refusal = self._may_make_room(conn.address)
            if refusal:
                self._send(conn, error(refusal, "hello"))
                return None
            room = Room(hello["room"], self.settings, now=self.clock())
        out = room.join(conn, hello, self.clock(), teacher=teacher)
        if conn in room.members:
            if new:
                self.rooms_made[conn.address].append(self.clock())
            self.rooms[room.name] = room
            self.sockets[conn] = room.name
            self._deliver(room, out)
            return room
        if new:  # a refused hello leaves no empty room behind
            for _, message in out:
                self._send(conn, message)
        else:
            self._deliver(room, out)
        return None

    def _may_make_room(self, address: str) -> str | None:
        if len(self.rooms) >= MAX_ROOMS:
            return f"this server already has {MAX_ROOMS} rooms"
        made = self.rooms_made[address]
        while made and made[0] <= self.clock() - self.limits.window:
            made.popleft()
        if len(made) >= self.limits.rooms:
            return (f"your address opened {len(made)} rooms in the last {self.limits.window:g} s "
                    f"(at most {self.limits.rooms}): join an existing room")  # fmt: skip
        return None

    # -- the teacher's overview ---------------------------------------------------------------

    async def _teacher_page(self, request: Request) -> HTMLResponse:
        """``GET /teacher``: the overview page (it asks for the key, then goes live)."""
        return HTMLResponse(PAGE, headers={"Cache-Control": "no-store"})

    async def _teacher_live(self, websocket: WebSocket) -> None:
        """``/teacher/live``: the first message gives the key; then the overview comes live and actions go."""
        await websocket.accept()
        conn = _Connection(websocket)
        writer = asyncio.get_running_loop().create_task(conn.write_forever())
        try:
            if await self._teacher_key(conn):
                self.watchers.add(conn)
                conn.send(self._overview_text())
                await self._moderate_forever(conn)
        except WebSocketDisconnect:
            pass
        finally:
            self.watchers.discard(conn)
            conn.close()
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(writer, 2)

    async def _teacher_key(self, conn: _Connection) -> bool:
        try:
            raw = await asyncio.wait_for(_receive(conn.websocket), HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            raw = None
        key = None
        with contextlib.suppress(ValueError, RecursionError, TypeError):
            data = (
                json.loads(raw) if isinstance(raw, str) and len(raw) <= MAX_MESSAGE_BYTES else None
            )
            key = data.get("key") if isinstance(data, dict) else None
        if (
            isinstance(key, str)
            and len(key) <= 64
            and hmac.compare_digest(key.encode("utf-8", "replace"), self.teacher_key.encode())
        ):
            return True
        self._send(conn, error("that is not the teacher key of this server", "key"))
        conn.close(1008, "not the teacher key")
        return False

    async def _moderate_forever(self, conn: _Connection) -> None:
        bucket = RateLimit(now=self.clock())
        while not conn.closing:
            raw = await _receive(conn.websocket)
            if raw is None:
                return
            if not self._within_rate(conn, bucket):
                continue
            try:
                name, message = action(raw)
                room = self.rooms.get(name)
                if room is None:
                    raise ClassroomError(f"there is no room {name!r} (any more)")
                self._deliver(room, room.moderate(message, self.clock()))
            except ReversiError as refused:
                self._send(conn, error(str(refused), "action"))
            self._push_overview(force=True)

    def _overview_text(self) -> str:
        rooms = sorted(self.rooms.values(), key=lambda room: room.name)
        return encode(overview(rooms, self.sections))

    def _push_overview(self, force: bool = False) -> None:
        """Send the overview to every watching page if it changed (at most twice a second unless forced)."""
        now = self.clock()
        if not self.watchers or (not force and now - self._last_push < OVERVIEW_EVERY):
            return
        text = self._overview_text()
        self._last_push = now
        if text != self._last_overview or force:
            self._last_overview = text
            for conn in list(self.watchers):
                conn.send(text)

    # -- delivering and storing --------------------------------------------------------------

    def _deliver(self, room: Room, out: list[Outgoing]) -> None:
        self.storage.save(room)  # stored first: whatever anyone was told survives a crash
        for to, message in out:
            text = encode(message)
            for conn in to:
                if isinstance(conn, _Connection) and conn.send(text):
                    self.messages_out += 1
            if message["type"] == "closed":
                for conn in to:
                    if isinstance(conn, _Connection):
                        self.sockets.pop(conn, None)
                        conn.close(1000, message["reason"])
        if room.closed:
            self._forget(room)  # the name is free again; its games stay for export

    def _send(self, conn: _Connection, message: dict[str, Any]) -> None:
        if conn.send(encode(message)):
            self.messages_out += 1

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            now = self.clock()
            for room in list(self.rooms.values()):
                try:
                    self._deliver(room, room.tick(now))
                    if room.idle_since is not None and now - room.idle_since >= self.forget_after:
                        self._forget(room)
                except Exception:  # one broken room must not stop the others' clocks
                    log.exception("room %s failed to tick", room.name)
            self._push_overview()


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next text or binary frame, or None once the peer has gone."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is not None:
            return str(message["text"])
        if message.get("bytes") is not None:
            return bytes(message["bytes"])


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
    if server is not None and not isinstance(server, ClassServer):
        raise ArgumentError(f"server must be a ClassServer or None, not {shown(server)}")
    if not isinstance(extra_routes, list | tuple) or not all(isinstance(r, BaseRoute) for r in extra_routes):
        raise ArgumentError(f"extra_routes must be a list of Starlette routes, not {shown(extra_routes)}")
    if not isinstance(sections, list | tuple) or not all(callable(s) for s in sections):
        raise ArgumentError(f"sections must be a list of functions (each returning a table), not {shown(sections)}")
    known = set(inspect.signature(ClassServer).parameters)
    unknown = sorted(set(options) - known)
    if unknown:
        raise ArgumentError(f"build_app() has no option {unknown[0]!r}: the options are ClassServer's ({', '.join(sorted(known))})")
    if server is not None and options:
        raise ArgumentError("give build_app() either a server or the options to make one, not both")
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


class _QuietServer(uvicorn.Server):
    """uvicorn without its own signal handling: the caller decides what Ctrl-C and SIGTERM do."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _quiet_server(app: Starlette) -> uvicorn.Server:
    """A uvicorn server for ``app`` with the rooms' WebSocket limits (frame size, pings, no compression)."""
    config = uvicorn.Config(
        app, lifespan="on", log_level="warning", access_log=False, ws="websockets-sansio",
        ws_max_size=MAX_FRAME_BYTES, ws_ping_interval=10, ws_ping_timeout=10,
        ws_per_message_deflate=False, timeout_graceful_shutdown=5,
    )  # fmt: skip
    return _QuietServer(config)


def _listen(host: str, port: int) -> sockets.socket:
    """A listening TCP socket on ``host``:``port`` (raises OSError if it is taken)."""
    family = sockets.AF_INET6 if ":" in host else sockets.AF_INET
    listening = sockets.socket(family, sockets.SOCK_STREAM)
    listening.setsockopt(sockets.SOL_SOCKET, sockets.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen(128)
    except OSError:
        listening.close()
        raise
    listening.set_inheritable(True)
    return listening


async def run(
    host: str,
    port: int,
    data: str | os.PathLike[str],
    settings: RoomSettings,
    print_: Callable[[str], Any] = print,
    extra_routes: Sequence[BaseRoute] = (),
    sections: Sequence[Section] = (),
    limits: Limits | None = None,
) -> None:
    """Serve until cancelled (Ctrl-C) or SIGTERM, printing what the teacher needs to know.

    Once the server listens: the addresses students type (every address of this computer
    when ``host`` is 0.0.0.0), the teacher's page with its key, where hand-ins and games
    are kept (see :func:`_ready_lines`), and how to stop.
    """
    import signal

    _check_address(host, port)

    server = ClassServer(data, settings, limits=limits)
    app = build_app(server, extra_routes=extra_routes, sections=sections)
    url = await server.start(host, port, app)
    stop = asyncio.get_running_loop().create_future()
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.cancel)
    clock = "no move clock" if settings.move_time is None else f"{settings.move_time:g} s per move"
    print_(f"Class server listening on {url} ({clock}; seats held {settings.grace:g} s)")
    # Looking the name up may wait for a slow DNS: in a thread, while the server serves.
    machine = await asyncio.to_thread(_machine_addresses) if host in _EVERYWHERE else []
    kept = str(data) if str(data) == ":memory:" else str(Path(data).resolve())
    site = any(_answers(route, "/") for route in extra_routes)
    for line in _ready_lines(host, int(url.rsplit(":", 1)[1]), machine, server.teacher_key, kept, site):
        print_(line)
    if server.resumed:
        print_(f"Resumed games in rooms: {', '.join(server.resumed)}")
    for line in server.storage.set_aside:
        print_(f"Set aside (kept in the database, table set_aside): {line}")
    print_("Press Ctrl-C to stop.")
    try:
        await stop
    except asyncio.CancelledError:
        pass
    finally:
        await server.close()
        storage = server.storage
        mean = 1000 * storage.write_seconds / max(1, storage.writes)
        print_(
            f"Stored {storage.writes} changes ({mean:.2f} ms each on average); "
            f"{server.messages_in} messages in, {server.messages_out} out."
        )
        print_("Class server stopped; everything is stored.")


# -- what the teacher reads at the start -------------------------------------------------------

#: Hosts that mean "every address of this computer".
_EVERYWHERE = ("0.0.0.0", "::")
#: An address of TEST-NET-1 (RFC 5737, never routed): "connecting" a UDP socket to it sends
#: nothing, but makes the system choose the interface it would send from, its main address.
_PROBE = ("192.0.2.1", 9)
#: What students type when this computer's address could not be found.
_UNKNOWN = "<this computer's address>"


def _machine_addresses() -> list[str]:
    """This computer's IPv4 addresses that other machines may reach, its main one first.

    The standard library alone, on Windows, macOS and Linux: the main address (the UDP
    trick of :data:`_PROBE`), then every address the computer's name has.  Loopback
    (127.x) is left out; ``[]`` when nothing else is found (no network).
    """
    found = []
    with contextlib.suppress(OSError), sockets.socket(sockets.AF_INET, sockets.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        found.append(str(probe.getsockname()[0]))
    with contextlib.suppress(OSError):
        for *_, address in sockets.getaddrinfo(sockets.gethostname(), None, sockets.AF_INET):
            found.append(str(address[0]))
    return _reachable(found)


def _reachable(addresses: Sequence[str]) -> list[str]:
    """``addresses`` without repeats, loopback (127.x) and the unspecified 0.0.0.0, in order.

    >>> _reachable(["192.168.1.20", "127.0.1.1", "10.0.0.5", "192.168.1.20", "0.0.0.0"])
    ['192.168.1.20', '10.0.0.5']
    """
    kept: list[str] = []
    for address in addresses:
        if address not in kept and not address.startswith("127.") and address != "0.0.0.0":
            kept.append(address)
    return kept


def _answers(route: BaseRoute, path: str) -> bool:
    """Whether ``route`` answers a browser's ``GET path`` (the browser classroom answers ``/``)."""
    scope = {"type": "http", "path": path, "method": "GET", "root_path": ""}
    return route.matches(scope)[0] is Match.FULL


def _ready_lines(
    host: str, port: int, machine: Sequence[str], key: str, data: str, site: bool
) -> list[str]:
    """What the teacher reads once the server listens: the addresses students type, the
    teacher's page with its key, where hand-ins and games are kept.

    ``machine`` is this computer's addresses (:func:`_machine_addresses`), used when
    ``host`` is every address (0.0.0.0); ``data`` is the database folder (or ``:memory:``);
    ``site`` says whether the browser classroom is served at ``/``.

    >>> for line in _ready_lines("0.0.0.0", 8765, ["192.168.1.20", "10.0.0.5"], "K3y", "/srv/class", True):
    ...     print(line)
    Students open one of these addresses in a browser (the one of the network they are on):
      http://192.168.1.20:8765/
      http://10.0.0.5:8765/
    In a notebook of their own, students join with:  from course import join; join("ws://192.168.1.20:8765", room="table-1", name="Ada")
    Teacher key: K3y
    Teacher's page (on this computer): http://127.0.0.1:8765/teacher#key=K3y
    Hand-ins and games are kept in /srv/class
    """
    everywhere = host in _EVERYWHERE
    hosts = [f"[{h}]" if ":" in h else h for h in (machine if everywhere else [host])] or [_UNKNOWN]
    note = []
    if hosts == [_UNKNOWN]:
        note = ["  (no network address of this computer was found: see its network settings)"]
    elif not everywhere and (host.startswith("127.") or host in ("localhost", "::1")):
        note = ["  (this computer only: --host 0.0.0.0 lets the students' machines in)"]
    lines = []
    if site and len(hosts) == 1:
        lines += [f"Students open this address in a browser: http://{hosts[0]}:{port}/", *note]
    elif site:
        lines.append("Students open one of these addresses in a browser (the one of the network they are on):")
        lines += [f"  http://{h}:{port}/" for h in hosts]
    joining = "In a notebook of their own, students join with:" if site else "Students join with:"
    lines.append(f'{joining}  from course import join; join("ws://{hosts[0]}:{port}", room="table-1", name="Ada")')
    if not site:
        others = [f"  (or with another address of this computer: {', '.join(hosts[1:])})"]
        lines += others if len(hosts) > 1 else note
    local = ("127.0.0.1" if host == "0.0.0.0" else "[::1]") if everywhere else hosts[0]
    lines.append(f"Teacher key: {key}")
    where = " (on this computer)" if everywhere else ""
    lines.append(f"Teacher's page{where}: http://{local}:{port}/teacher#key={key}")
    if data == ":memory:":
        lines.append("Nothing is kept: the database is in memory")
    elif site:
        lines.append(f"Hand-ins and games are kept in {data}")
    else:
        lines.append(f"Games are kept in {data} (no hand-ins without the browser classroom)")
    return lines
