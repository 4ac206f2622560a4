"""Helpers for the room tests: a fake room driven by hand, with connections named by strings."""

from __future__ import annotations

from typing import Any

from course.classroom.people import Outgoing, RoomSettings
from course.classroom.protocol import encode, parse
from course.classroom.room import Room


class Desk:
    """A Room and a fake clock; every message goes through the real parser first."""

    def __init__(self, move_time: float | None = None, grace: float = 60.0) -> None:
        self.now = 1000.0
        self.room = Room("table-1", RoomSettings(move_time, grace), now=self.now)
        self.inbox: dict[str, list[dict[str, Any]]] = {}

    def join(self, conn: str, name: str, **extra: Any) -> list[dict[str, Any]]:
        teacher = extra.pop("teacher", False)
        hello = parse(encode({"type": "hello", "room": "table-1", "name": name, **extra}))
        return self._deliver(self.room.join(conn, hello, self.now, teacher=teacher), conn)

    def send(self, conn: str, kind: str, **fields: Any) -> list[dict[str, Any]]:
        message = parse(encode({"type": kind, **fields}))
        return self._deliver(self.room.handle(conn, message, self.now), conn)

    def leave(self, conn: str) -> None:
        self._deliver(self.room.leave(conn, self.now), conn)

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self._deliver(self.room.tick(self.now), None)

    def _deliver(self, out: list[Outgoing], sender: str | None) -> list[dict[str, Any]]:
        mine = []
        for to, message in out:
            for conn in to:
                self.inbox.setdefault(str(conn), []).append(message)
                if conn == sender:
                    mine.append(message)
        return mine

    def got(self, conn: str, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.inbox.get(conn, []) if m["type"] == kind]

    def clear(self) -> None:
        self.inbox.clear()

    def errors(self, conn: str) -> list[str]:
        return [m["message"] for m in self.got(conn, "error")]

    def chat(self, conn: str) -> list[str]:
        return [m["text"] for m in self.got(conn, "chat")]

    @property
    def game(self):  # type: ignore[no-untyped-def]
        assert self.room.game is not None
        return self.room.game


def seated(move_time: float | None = None, grace: float = 60.0) -> tuple[Desk, str]:
    """A desk with Ada (Black, conn "a"), Bob (White, "b") and Cy watching ("o"); returns Ada's token."""
    desk = Desk(move_time, grace)
    welcome = desk.join("a", "Ada")[0]
    desk.join("b", "Bob")
    desk.join("o", "Cy")
    desk.clear()
    return desk, welcome["token"]
