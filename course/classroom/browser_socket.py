"""The browser's own WebSocket for a room client in a browser kernel (Pyodide, JupyterLite).

A browser kernel has no sockets, so the ``websockets`` library cannot run there; the
page's ``WebSocket`` can, reached through Pyodide's JavaScript bridge (``js`` and
``create_proxy``).  This module offers the few names :mod:`course.classroom.client`
takes from ``websockets`` (``connect``, the connection's ``send``/``recv``/``close``
and ``async for``, and the errors), so the client is the same code in both kernels.
The JavaScript callbacks are proxies that live as long as the socket and are
destroyed when it closes.  :func:`page_server` is the class server that served the page.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from course.classroom.protocol import ClassroomError
from course.i18n import gettext as _

#: What the browser's WebSocket needs and a computer's Python does not have.
_BROWSER_ONLY = "the page's WebSocket exists only in a browser kernel (Pyodide, JupyterLite)"


class ConnectionClosed(Exception):
    """The connection is closed (by either side)."""


class InvalidHandshake(Exception):
    """The server could not be reached or refused the connection."""


class InvalidURI(Exception):
    """The address is not a WebSocket URL the browser accepts."""


class BrowserSocket:
    """One ``WebSocket`` of the page, with an asyncio face: ``await recv()``, ``await send(text)``."""

    def __init__(self, url: str) -> None:
        try:
            import js
            from pyodide.ffi import create_proxy
        except ImportError:
            raise ClassroomError(f"{_BROWSER_ONLY}: here use the websockets library") from None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise ClassroomError("a page's WebSocket needs a running asyncio loop, as in a notebook") from None
        self.url = url
        self.opened: asyncio.Future[None] = loop.create_future()
        self.arrived: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        try:
            self.socket = js.WebSocket.new(url)
        except Exception as failed:  # the browser's SyntaxError for a bad URL
            raise InvalidURI(f"{url!r}: {failed}") from None
        handlers = {
            "onopen": self._on_open,
            "onmessage": self._on_message,
            "onclose": self._on_close,
            "onerror": self._on_error,
        }
        self.proxies = []
        for name, handler in handlers.items():
            proxy = create_proxy(handler)
            self.proxies.append(proxy)
            setattr(self.socket, name, proxy)

    # -- the browser's events -------------------------------------------------------------

    def _on_open(self, _event: Any) -> None:
        if not self.opened.done():
            self.opened.set_result(None)

    def _on_message(self, event: Any) -> None:
        self.arrived.put_nowait(str(event.data))

    def _on_close(self, event: Any) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(
                InvalidHandshake(f"{self.url} closed the connection (code {event.code})")
            )
        self.arrived.put_nowait(None)
        asyncio.get_running_loop().call_soon(self._release)

    def _on_error(self, _event: Any) -> None:
        if not self.opened.done():
            self.opened.set_exception(
                InvalidHandshake(f"the browser could not connect to {self.url}")
            )

    def _release(self) -> None:
        """Detach and destroy the callbacks, so nothing of this socket stays alive in JavaScript."""
        for name in ("onopen", "onmessage", "onclose", "onerror"):
            setattr(self.socket, name, None)
        for proxy in self.proxies:
            proxy.destroy()
        self.proxies = []

    # -- what the room client uses --------------------------------------------------------

    async def send(self, text: str) -> None:
        if self.closed:
            raise ConnectionClosed(f"the connection to {self.url} is closed")
        self.socket.send(text)

    async def recv(self) -> str:
        text = await self.arrived.get()
        if text is None:
            self.arrived.put_nowait(None)  # every later recv() sees the close too
            raise ConnectionClosed(f"the connection to {self.url} is closed")
        return text

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.socket.close()
            self.arrived.put_nowait(None)
            self._release()

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            try:
                yield await self.recv()
            except ConnectionClosed:
                return


ClientConnection = BrowserSocket


async def connect(url: str, **_options: Any) -> BrowserSocket:
    """Open a WebSocket from the page and wait until it is open (``_options`` are websockets' own)."""
    socket = BrowserSocket(url)
    try:
        await socket.opened
    except BaseException:
        await socket.close()
        raise
    return socket


def page_server() -> str:
    """The room address of the server that served this page (``ws://host:port/room``, or ``wss://``)."""
    try:
        import js
    except ImportError:
        raise ClassroomError(f"{_BROWSER_ONLY}: give the class server's address instead") from None

    origin = str(js.location.origin)
    return (
        "wss://" + origin.removeprefix("https://")
        if origin.startswith("https://")
        else "ws://" + origin.removeprefix("http://")
    ) + "/room"


def page_request(path: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ask the server that served this page (GET, or POST ``fields`` as JSON) and wait for its answer.

    A browser kernel runs in a Web Worker, where a request may wait (synchronous XHR), so
    a refusal reaches the cell that asked.  The browser sends the page's cookies along.
    """
    import json

    try:
        import js
    except ImportError:
        raise ClassroomError(_BROWSER_ONLY) from None
    request = js.XMLHttpRequest.new()
    request.open("GET" if fields is None else "POST", f"{js.location.origin}{path}", False)
    if fields is None:
        request.send()
    else:
        request.setRequestHeader("Content-Type", "application/json")
        request.send(json.dumps(fields))
    try:
        answer = json.loads(str(request.responseText))
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return {"ok": False, "error": _("the class server answered {status} to {path}").format(
            status=request.status, path=path)}  # fmt: skip
    return answer


def take_name(name: str) -> None:
    """In a class without sign-in codes, claim ``name`` on this browser (refused if another has it).

    In a class with codes the server names the student itself, so nothing is asked here.
    """
    if not page_request("/signin/me").get("casual", False):
        return
    answer = page_request("/signin/name", {"student": name})
    if not answer.get("ok"):
        raise ClassroomError(str(answer.get("error", _("the class server refused the name"))))
