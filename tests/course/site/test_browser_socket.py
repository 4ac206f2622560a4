"""The browser WebSocket transport, driven here through a fake of Pyodide's ``js`` bridge.

The fake WebSocket plays the browser's part (events on the loop, as the page delivers
them); the real one is proven in Chromium by tests/browser/test_lite.py.
"""

from __future__ import annotations

import asyncio
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from course.classroom import browser_socket
from course.classroom.browser_socket import ConnectionClosed, InvalidHandshake, InvalidURI, connect


class FakeProxy:
    live: list[FakeProxy] = []

    def __init__(self, function: Any) -> None:
        self.function, self.destroyed = function, False
        FakeProxy.live.append(self)

    def __call__(self, *args: Any) -> Any:
        assert not self.destroyed, "a destroyed proxy was called"
        return self.function(*args)

    def destroy(self) -> None:
        self.destroyed = True


class FakeWebSocket:
    made: list[FakeWebSocket] = []
    refuse = False

    def __init__(self, url: str) -> None:
        if not url.startswith(("ws://", "wss://")):
            raise SyntaxError(f"The URL '{url}' is invalid.")
        self.url, self.sent, self.closed = url, [], False
        self.onopen = self.onmessage = self.onclose = self.onerror = None
        FakeWebSocket.made.append(self)
        loop = asyncio.get_running_loop()
        if FakeWebSocket.refuse:
            loop.call_soon(
                lambda: (self.onerror({}), self.onclose(types.SimpleNamespace(code=1006)))
            )
        else:
            loop.call_soon(lambda: self.onopen({}))

    @classmethod
    def new(cls, url: str) -> FakeWebSocket:
        return cls(url)

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self) -> None:
        self.closed = True

    def deliver(self, text: str) -> None:
        self.onmessage(types.SimpleNamespace(data=text))

    def hang_up(self) -> None:
        self.onclose(types.SimpleNamespace(code=1000))


@pytest.fixture(autouse=True)
def fake_pyodide(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    js = types.ModuleType("js")
    js.WebSocket = FakeWebSocket  # type: ignore[attr-defined]
    js.location = types.SimpleNamespace(origin="http://10.0.0.5:8765")  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = FakeProxy  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    FakeProxy.live, FakeWebSocket.made, FakeWebSocket.refuse = [], [], False
    yield


def test_messages_flow_both_ways_and_the_close_ends_the_loop() -> None:
    async def scenario() -> list[str]:
        socket = await connect("ws://10.0.0.5:8765/room", max_size=2**20, compression=None)
        await socket.send('{"type": "hello"}')
        page = FakeWebSocket.made[0]
        assert page.sent == ['{"type": "hello"}']
        page.deliver("one")
        page.deliver("two")
        asyncio.get_running_loop().call_soon(page.hang_up)
        got = [text async for text in socket]
        with pytest.raises(ConnectionClosed):
            await socket.recv()
        with pytest.raises(ConnectionClosed):
            await socket.send("late")
        await asyncio.sleep(0)
        return got

    assert asyncio.run(scenario()) == ["one", "two"]
    assert FakeProxy.live and all(proxy.destroyed for proxy in FakeProxy.live)


def test_close_from_our_side_closes_the_page_socket_and_frees_the_callbacks() -> None:
    async def scenario() -> None:
        socket = await connect("ws://h/room")
        await socket.close()
        assert FakeWebSocket.made[0].closed and FakeWebSocket.made[0].onmessage is None
        with pytest.raises(ConnectionClosed):
            await socket.recv()

    asyncio.run(scenario())
    assert all(proxy.destroyed for proxy in FakeProxy.live)


def test_an_unreachable_server_and_a_bad_url_are_the_errors_the_client_catches() -> None:
    FakeWebSocket.refuse = True
    with pytest.raises(InvalidHandshake, match="could not connect"):
        asyncio.run(connect("ws://nowhere/room"))
    assert all(proxy.destroyed for proxy in FakeProxy.live)
    with pytest.raises(InvalidURI, match="invalid"):
        asyncio.run(connect("http:/x"))


@pytest.mark.parametrize(
    ("origin", "room"),
    [
        ("http://10.0.0.5:8765", "ws://10.0.0.5:8765/room"),
        ("https://school.example", "wss://school.example/room"),
    ],
)
def test_the_page_server_is_the_origin_that_served_the_page(origin: str, room: str) -> None:
    sys.modules["js"].location = types.SimpleNamespace(origin=origin)  # type: ignore[attr-defined]
    assert browser_socket.page_server() == room


def test_join_without_an_address_outside_the_browser_says_what_to_give() -> None:
    from course.classroom.board import join
    from course.classroom.protocol import ClassroomError

    with pytest.raises(ClassroomError, match="give the class server's address"):
        join(room="t1", name="Ada")
