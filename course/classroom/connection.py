"""The class server's transport: a connection's outbox, its rate limit, and uvicorn tuned for the rooms.

Nothing here knows about rooms: :class:`Connection` queues text for one WebSocket and
writes it in order (a slow reader delays only itself and is cut off when its outbox is
full), :class:`RateLimit` is a token bucket, :func:`quiet_server` serves an app with the
rooms' WebSocket limits (frame size, pings, no compression).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket as sockets
from collections.abc import Iterator

import uvicorn
from starlette.applications import Starlette
from starlette.websockets import WebSocket, WebSocketDisconnect

from course.classroom.protocol import MAX_FRAME_BYTES, RATE_BURST, RATE_PER_SECOND

#: Messages waiting to be written to one connection; a reader that falls this far behind is cut off.
OUTBOX = 256

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
        """Whether a message at time ``now`` is within the rate (it then uses up a token)."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False


class Connection:
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


async def receive(websocket: WebSocket) -> str | bytes | None:
    """The next text or binary frame, or None once the peer has gone."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is not None:
            return str(message["text"])
        if message.get("bytes") is not None:
            return bytes(message["bytes"])


class QuietServer(uvicorn.Server):
    """uvicorn without its own signal handling: the caller decides what Ctrl-C and SIGTERM do."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def quiet_server(app: Starlette) -> uvicorn.Server:
    """A uvicorn server for ``app`` with the rooms' WebSocket limits (frame size, pings, no compression)."""
    config = uvicorn.Config(
        app, lifespan="on", log_level="warning", access_log=False, ws="websockets-sansio",
        ws_max_size=MAX_FRAME_BYTES, ws_ping_interval=10, ws_ping_timeout=10,
        ws_per_message_deflate=False, timeout_graceful_shutdown=5,
    )  # fmt: skip
    return QuietServer(config)


def listen(host: str, port: int) -> sockets.socket:
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
