"""The class server: the asyncio shell around the rooms, on the ``websockets`` library.

The server owns the sockets, the clock and the database; the rules live in
:class:`~course.classroom.room.Room` (and, below it, :class:`reversi.Game`).
Each connection's first message is a ``hello``; every message after it is read,
rate-limited, checked by :func:`~course.classroom.protocol.parse` and handed to
its room, whose answer is delivered and stored.  A background task ticks every
room's clocks and grace times.

Trust boundary: a connected peer can send anything.  What it sends is read as
text of bounded size (the library drops frames over
:data:`~course.classroom.protocol.MAX_FRAME_BYTES`), validated into plain values,
and decided on here; nothing it computed is trusted.  An error in one message is
answered to its sender alone and never touches another room.  This module
imports no widget library.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from course.classroom.protocol import (
    MAX_DROPPED,
    MAX_FRAME_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
    MessageError,
    encode,
    error,
    parse,
)
from course.classroom.room import Outgoing, Room, RoomSettings
from course.classroom.storage import Storage

#: How often clocks and grace times are checked, in seconds.
TICK = 0.2
#: A connection must say hello within this many seconds.
HELLO_TIMEOUT = 10.0
#: Rooms one server keeps (a class of 30 needs 15 tables; a flood of new names is refused).
MAX_ROOMS = 500

log = logging.getLogger("course.classroom")


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``.

    >>> bucket = RateLimit(rate=1, burst=2, now=0.0)
    >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST, now: float = 0.0):
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), now
        self.dropped = 0

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False


class ClassServer:
    """Rooms, their connections and their database.  ``await start(host, port)``, then ``close()``.

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
    ) -> None:
        self.settings = settings or RoomSettings()
        self.teacher_key = teacher_key or secrets.token_urlsafe(9)
        self.clock = clock
        self.storage = Storage(data)
        self.rooms = {room.name: room for room in self.storage.load_rooms(clock(), self.settings)}
        self.sockets: dict[ServerConnection, str] = {}  # connection -> its room's name
        self.messages_in = 0
        self.messages_out = 0
        self._server: Server | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    @property
    def resumed(self) -> list[str]:
        """Names of the rooms whose game was resumed from the database and is still running."""
        return sorted(name for name, room in self.rooms.items() if room.running)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on ``host``:``port`` (0: a free port); returns the address for ``join``."""
        self._server = await serve(
            self._connection, host, port, max_size=MAX_FRAME_BYTES, max_queue=16,
            ping_interval=10, ping_timeout=10, close_timeout=2, compression=None,
        )  # fmt: skip
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        return self.url

    @property
    def url(self) -> str:
        assert self._server is not None, "the server has not started"
        host, port = list(self._server.sockets)[0].getsockname()[:2]
        return f"ws://{host}:{port}"

    async def close(self) -> None:
        """Stop listening, close every connection, store every room and close the database."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for room in self.rooms.values():
            self.storage.save(room)
        self.storage.close()

    # -- one connection -------------------------------------------------------------------

    async def _connection(self, socket: ServerConnection) -> None:
        bucket = RateLimit(now=self.clock())
        try:
            room = await self._hello(socket, bucket)
            if room is None:
                return
            async for raw in socket:
                self.messages_in += 1
                if not bucket.allow(self.clock()):
                    if bucket.dropped == 1 or bucket.dropped % 50 == 0:
                        self._send(socket, error("too many messages: slow down (they were dropped)"))
                    if bucket.dropped >= MAX_DROPPED:
                        await socket.close(1008, "too many messages")
                        return
                    continue
                try:
                    message = parse(raw)
                except MessageError as refused:
                    self._send(socket, error(str(refused)))
                    continue
                if message["type"] == "hello":
                    self._send(socket, error("you are already in a room: one room per connection", "hello"))
                    continue
                self._deliver(room, room.handle(socket, message, self.clock()))
                if room.closed:
                    return
        except ConnectionClosed:
            pass
        finally:
            name = self.sockets.pop(socket, None)
            if name is not None and name in self.rooms:
                room = self.rooms[name]
                self._deliver(room, room.leave(socket, self.clock()))
                if not room.members and not room.seats and room.game is None:
                    del self.rooms[name]  # nobody there and nothing played: forget it

    async def _hello(self, socket: ServerConnection, bucket: RateLimit) -> Room | None:
        """Read messages until a valid hello joins a room (errors are answered, not fatal)."""
        deadline = self.clock() + HELLO_TIMEOUT
        while True:
            try:
                raw = await asyncio.wait_for(socket.recv(), max(0.1, deadline - self.clock()))
            except asyncio.TimeoutError:
                await socket.close(1008, "no hello")
                return None
            self.messages_in += 1
            if not bucket.allow(self.clock()):
                if bucket.dropped >= MAX_DROPPED:
                    await socket.close(1008, "too many messages")
                    return None
                continue
            try:
                hello = parse(raw)
                if hello["type"] != "hello":
                    raise MessageError(f"say hello first (a {hello['type']!r} message came before it)")
            except MessageError as refused:
                self._send(socket, error(str(refused), "hello"))
                continue
            teacher = "key" in hello
            if teacher and not hmac.compare_digest(hello["key"].encode(), self.teacher_key.encode()):
                self._send(socket, error("that is not the teacher key of this server", "hello"))
                continue
            room = self.rooms.get(hello["room"])
            new = room is None
            if room is None:
                if len(self.rooms) >= MAX_ROOMS:
                    self._send(socket, error(f"this server already has {MAX_ROOMS} rooms", "hello"))
                    continue
                room = Room(hello["room"], self.settings, now=self.clock())
            out = room.join(socket, hello, self.clock(), teacher=teacher)
            if socket in room.members:
                self.rooms[room.name] = room
                self.sockets[socket] = room.name
                self._deliver(room, out)
                return room
            if new:  # a refused hello leaves no empty room behind
                for _, message in out:
                    self._send(socket, message)
            else:
                self._deliver(room, out)

    # -- delivering and storing --------------------------------------------------------------

    def _deliver(self, room: Room, out: list[Outgoing]) -> None:
        self.storage.save(room)  # stored first: whatever anyone was told survives a crash
        for to, message in out:
            text = encode(message)
            sockets = [c for c in to if isinstance(c, ServerConnection)]
            broadcast(sockets, text)
            self.messages_out += len(sockets)
            if message["type"] == "closed":
                for socket in sockets:
                    self.sockets.pop(socket, None)
                    task = asyncio.get_running_loop().create_task(socket.close(1000, message["reason"][:100]))
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)

    def _send(self, socket: ServerConnection, message: dict[str, Any]) -> None:
        broadcast([socket], encode(message))
        self.messages_out += 1

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            now = self.clock()
            for room in list(self.rooms.values()):
                try:
                    self._deliver(room, room.tick(now))
                except Exception:  # one broken room must not stop the others' clocks
                    log.exception("room %s failed to tick", room.name)


async def run(
    host: str,
    port: int,
    data: str | os.PathLike[str],
    settings: RoomSettings,
    print_: Callable[[str], Any] = print,
) -> None:
    """Serve until cancelled (Ctrl-C) or SIGTERM, printing what the teacher needs to know."""
    import signal

    server = ClassServer(data, settings)
    url = await server.start(host, port)
    stop = asyncio.get_running_loop().create_future()
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.cancel)
    clock = "no move clock" if settings.move_time is None else f"{settings.move_time:g} s per move"
    print_(f"Class server listening on {url} ({clock}; seats held {settings.grace:g} s)")
    if host in ("0.0.0.0", "::"):
        print_("Give students this machine's address in place of the 0.0.0.0 above.")
    print_(f'Students join with:  from course import join; join("{url}", room="table-1", name="Ada")')
    print_(f"Teacher key: {server.teacher_key}")
    if server.resumed:
        print_(f"Resumed games in rooms: {', '.join(server.resumed)}")
    print_("Press Ctrl-C to stop.")
    try:
        await stop
    except asyncio.CancelledError:
        pass
    finally:
        await server.close()
        storage = server.storage
        mean = 1000 * storage.write_seconds / max(1, storage.writes)
        print_(f"Stored {storage.writes} changes ({mean:.2f} ms each on average); "
               f"{server.messages_in} messages in, {server.messages_out} out.")
        print_("Class server stopped; everything is stored.")
