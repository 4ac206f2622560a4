"""A connection to a room of the class server, for a notebook, a test or a script.

:class:`RoomClient` speaks the protocol of :mod:`course.classroom.protocol` over a
``websockets`` connection.  Its receiving loop is an asyncio task; in a notebook
it runs on the kernel's own event loop, so the board keeps updating while no
cell runs.  Every message received is kept in order (``received``) and handed to
the listeners; ``state``, ``chat`` and ``question`` always hold the latest view
of the room.  If the connection drops, the client comes back to its seat with
the seat's token.

In a notebook cell (top-level ``await`` works there)::

    ada = await RoomClient("ws://127.0.0.1:8765", "table-3", "Ada").connect()
    await ada.move("d3")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

if sys.platform == "emscripten":  # a browser kernel: the page's own WebSocket
    from course.classroom.browser_socket import (
        ClientConnection,
        ConnectionClosed,
        InvalidHandshake,
        InvalidURI,
        connect,
    )
else:
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from course.classroom.protocol import SESSION_COOKIE, ClassroomError, MessageError
from course.schema import Limits, SchemaError, read_json
from reversi.board import Board
from reversi.surface import student

Listener = Callable[[dict[str, Any]], None]
#: What opening a connection may raise when the server cannot be reached.
UNREACHABLE = (OSError, InvalidHandshake, InvalidURI, asyncio.TimeoutError)
#: What the client reads of one message from the server (the server is outside this process too).
FROM_SERVER = Limits(bytes=2**20, depth=8, items=20_000)
#: Seconds between attempts to come back after the connection dropped.
RECONNECT_DELAY = 1.0


async def _open_websocket(url: str, timeout: float = 10.0, headers: dict[str, str] | None = None) -> ClientConnection:
    """The one place where a client opens its connection (``send``, ``recv``, ``close``, ``async for``).

    ``headers`` say who connects outside the browser (a sign-in session's cookie, a hub
    user's token); in a browser, the page's cookie goes along by itself.  Raises one of
    :data:`UNREACHABLE` if the server cannot be reached.
    """
    options: dict[str, Any] = {"max_size": 2**20, "compression": None}
    if headers:
        options["additional_headers"] = headers
    return await asyncio.wait_for(connect(url, **options), timeout)


def hub_server() -> str | None:
    """On a JupyterHub: the class service's address, when the kernel has its user's hub token.

    The hub's configuration gives every user's server ``REVERSI_CLASS_SERVER`` (such as
    ``http://127.0.0.1:8000/services/reversi``); the hub gives it ``JUPYTERHUB_API_TOKEN``.
    """
    if os.environ.get("JUPYTERHUB_API_TOKEN") and os.environ.get("REVERSI_CLASS_SERVER"):
        return os.environ["REVERSI_CLASS_SERVER"].rstrip("/")
    return None


def hub_room() -> str:
    """The class service's room address on a hub (``ws://.../services/reversi/room``)."""
    server = hub_server() or ""
    return server.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/room"


def hub_headers() -> dict[str, str]:
    """What says who a kernel on a hub acts for: its user's own hub token."""
    return {"Authorization": f"token {os.environ.get('JUPYTERHUB_API_TOKEN', '')}"}


def session_headers(session: str | None) -> dict[str, str] | None:
    """The headers a WebSocket carries for a sign-in session (None: none)."""
    return {"Cookie": f"{SESSION_COOKIE}={session}"} if session else None


def sign_in(url: str, name: str = "", code: str | None = None, timeout: float = 10.0) -> str | None:
    """Outside the browser: sign in at the class server of the room address ``url``; the session, or None.

    With ``code`` (a class with a roster) the code on the student's card; without, ``name``
    is claimed (a casual class).  None when the server has no sign-in (``serve --no-site``).
    """
    import urllib.error
    import urllib.request
    from http.cookies import SimpleCookie

    base = url.replace("ws://", "http://", 1).replace("wss://", "https://", 1).removesuffix("/room").rstrip("/")
    path, body = ("/signin/code", {"code": code}) if code else ("/signin/name", {"student": name})
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            cookie = SimpleCookie(answer.headers.get("Set-Cookie", ""))
    except urllib.error.HTTPError as refused:
        if refused.code in (404, 405):
            return None  # rooms only: nobody signs in
        try:
            reason = json.loads(refused.read(2000))["error"]
        except (ValueError, KeyError, TypeError):
            reason = f"HTTP {refused.code}"
        raise ClassroomError(f"the class server refused the sign-in: {reason}") from None
    except (OSError, ValueError):
        return None  # unreachable here: connecting says so
    return cookie[SESSION_COOKIE].value if SESSION_COOKIE in cookie else None


@student
class RoomClient:
    """One person in one room: ``await connect()``, then ``move``, ``undo``, ``chat``..."""

    def __init__(
        self,
        url: str,
        room: str,
        name: str,
        token: str | None = None,
        watch: bool = False,
        key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url, self.room, self.name = url, room, name
        self.token, self.watch, self.key, self.headers = token, watch, key, headers
        self.role: str | None = None
        self.state: dict[str, Any] | None = None
        self.chat: list[dict[str, Any]] = []
        self.question: dict[str, Any] | None = None
        self.last_error: str | None = None
        self.received: list[dict[str, Any]] = []
        self.state_received_at = 0.0
        self.closed_reason: str | None = None
        self.listeners: list[Listener] = []
        self._socket: ClientConnection | None = None
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # -- connecting -----------------------------------------------------------------------

    async def connect(self, timeout: float = 10.0) -> RoomClient:
        """Open the connection, say hello and wait for the welcome; keeps receiving afterwards.

        Raises :class:`ClassroomError` with the server's reason if the room refuses.
        """
        try:
            socket = await _open_websocket(self.url, timeout, self.headers)
        except UNREACHABLE as failed:
            raise ClassroomError(f"cannot reach the class server at {self.url!r}: {failed}") from None
        self._socket = socket
        hello: dict[str, Any] = {"type": "hello", "room": self.room, "name": self.name}
        if self.token:
            hello["token"] = self.token
        if self.watch:
            hello["watch"] = True
        if self.key:
            hello["key"] = self.key
        with contextlib.suppress(ConnectionClosed):  # a refusal may close first: it is read below
            await socket.send(json.dumps(hello))
        while True:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout)
            except (ConnectionClosed, asyncio.TimeoutError) as failed:
                raise ClassroomError(f"the class server did not welcome {self.name!r}: {failed}") from None
            message = _read(raw)
            if message["type"] == "error":
                await socket.close()
                raise ClassroomError(f"room {self.room!r} refused {self.name!r}: {message['message']}")
            self._take(message)
            if message["type"] == "history":  # it follows the welcome: the chat so far
                break
        self._task = asyncio.get_running_loop().create_task(self._receive_forever())
        return self

    async def close(self) -> None:
        """Leave the room (the seat is held for the grace time, as after any disconnection)."""
        self._stopping = True
        if self._socket is not None:
            await self._socket.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def drop(self) -> None:
        """Cut the connection without coming back (tests use it to play a lost cable)."""
        await self.close()

    # -- asking -------------------------------------------------------------------------

    async def send(self, kind: str, **fields: Any) -> None:
        """Send a message of type ``kind`` (the server answers with state, chat or an error)."""
        try:
            text = json.dumps({"type": kind, **fields})
        except (TypeError, ValueError, RecursionError) as failed:
            raise MessageError(f"a {kind!r} message cannot be sent as JSON: {failed}") from None
        if self._socket is None:
            raise ClassroomError("not connected: call connect() first")
        await self._socket.send(text)

    async def move(self, square: str) -> None:
        await self.send("move", square=square)

    async def undo(self) -> None:
        await self.send("undo")

    async def answer(self, accept: bool) -> None:
        await self.send("answer", accept=accept)

    async def cancel(self) -> None:
        await self.send("cancel")

    async def resign(self) -> None:
        await self.send("resign")

    async def rematch(self) -> None:
        await self.send("rematch")

    async def say(self, text: str) -> None:
        await self.send("chat", text=text)

    # -- waiting ---------------------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0, since: int = 0
    ) -> dict[str, Any]:
        """The first message received (from index ``since``) for which ``predicate`` is true."""
        deadline = time.monotonic() + timeout
        seen = since
        while True:
            for message in self.received[seen:]:
                if predicate(message):
                    return message
            seen = len(self.received)
            left = deadline - time.monotonic()
            if left <= 0:
                kinds = [m["type"] for m in self.received[-8:]]
                raise TimeoutError(f"{self.name} waited {timeout:g} s in vain; last messages: {kinds}")
            self._arrived.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def next(self, kind: str, timeout: float = 5.0, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (with these field values) from now on."""
        since = len(self.received)
        return await self.wait_for(
            lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()), timeout, since
        )

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the latest ``state`` satisfies ``predicate`` (the current one counts); returns it."""
        if self.state is not None and predicate(self.state):
            return self.state
        return await self.wait_for(lambda m: m["type"] == "state" and predicate(m), timeout, len(self.received))

    async def expect_error(self, timeout: float = 5.0) -> str:
        """Wait for the next error message and return its text."""
        return str((await self.next("error", timeout))["message"])

    def board(self) -> Board:
        """The board of the latest state, as a :class:`reversi.Board` (the start position before a game)."""
        game = self.state and self.state.get("game")
        return Board.from_text("\n".join(game["rows"])) if game else Board()

    def chat_texts(self) -> list[str]:
        """The chat lines this client has seen, oldest first (alerts marked with ``*``)."""
        return [("* " if line["alert"] else f"{line['from']}: ") + line["text"] for line in self.chat]

    def time_left(self) -> float | None:
        """Seconds the side to move has left, counted down since the last state."""
        game = self.state and self.state.get("game")
        if not game or game["time_left"] is None or game["outcome"] or game["undo_pending"]:
            return None
        return max(0.0, float(game["time_left"]) - (time.monotonic() - self.state_received_at))

    # -- inside ----------------------------------------------------------------------------------

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.role, self.name = message["role"], message["name"]
            self.token = message.get("token") or self.token
        elif kind == "state":
            self.state = message
            self.state_received_at = time.monotonic()
            game = message.get("game")
            if not game or not game["undo_pending"]:
                self.question = None
        elif kind == "history":
            self.chat = list(message["lines"])
        elif kind == "chat":
            self.chat.append(message)
        elif kind == "unsaid":
            self.chat = [line for line in self.chat if line.get("id") != message["line"]]
        elif kind == "question":
            self.question = message
        elif kind == "error":
            self.last_error = message["message"]
        elif kind == "closed":
            self.closed_reason = message["reason"]
            self._stopping = True
        self.received.append(message)
        self._arrived.set()
        for listener in list(self.listeners):
            listener(message)

    async def _receive_forever(self) -> None:
        while True:
            socket = self._socket
            assert socket is not None
            try:
                async for raw in socket:
                    try:
                        message = _read(raw)
                    except SchemaError:
                        continue
                    self._take(message)
            except ConnectionClosed:
                pass
            if self._stopping or not await self._come_back():
                self._take({"type": "disconnected", "reason": self.closed_reason or "connection lost"})
                return

    async def _come_back(self) -> bool:
        """Reconnect to our seat with its token, while the server may still hold it."""
        if self.role not in ("black", "white") or not self.token:
            return False
        grace = (self.state or {}).get("grace") or 60
        deadline = time.monotonic() + grace
        self._take({"type": "reconnecting", "seconds": grace})
        while time.monotonic() < deadline and not self._stopping:
            await asyncio.sleep(RECONNECT_DELAY)
            try:
                socket = await _open_websocket(self.url, headers=self.headers)
                hello = {"type": "hello", "room": self.room, "name": self.name, "token": self.token}
                await socket.send(json.dumps(hello))
                first = _read(await asyncio.wait_for(socket.recv(), 5))
            except (*UNREACHABLE, ConnectionClosed, SchemaError):
                continue
            if first.get("type") == "error":
                await socket.close()
                return False
            self._socket = socket
            self._take(first)
            return True
        return False


def _read(raw: str | bytes) -> dict[str, Any]:
    """One message from the server, as a JSON object with a ``type`` (or a SchemaError)."""
    message = read_json(raw, "a message from the class server", FROM_SERVER)
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise MessageError("a message from the class server is not a JSON object with a 'type'")
    return message
