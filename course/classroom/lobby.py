"""The class server's rooms and who is connected to which, without the sockets.

:class:`Lobby` keeps the rooms (loaded from and stored to :class:`~course.classroom.storage.Storage`),
which connection is in which room, the limits per address (connections, new rooms, chat
speed) and the teacher's overview; :meth:`Lobby.deliver` stores a room's change before
anyone is told.  The asyncio shell around it is :class:`course.classroom.server.ClassServer`.
"""

from __future__ import annotations

import hmac
import os
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from course.classroom.connection import Connection, RateLimit
from course.classroom.overview import Section, overview
from course.classroom.people import Limits, Outgoing, RoomSettings
from course.classroom.protocol import MAX_DROPPED, PRACTICE, encode, error
from course.classroom.room import Room
from course.classroom.storage import Storage

#: Rooms one server keeps (a class of 30 needs 15 tables; a flood of new names is refused).
MAX_ROOMS = 500
#: Seconds between two pushes of the teacher's overview (when something changed).
OVERVIEW_EVERY = 0.5
#: Seconds a room with nobody in it and no game running is kept before it is forgotten.
FORGET_AFTER = 60.0
#: Chat at human speed (lichess allows a player 100 lines in 20 s): per connection and per address.
CHAT_PER_SECOND, CHAT_BURST = 1.0, 8
ADDRESS_CHAT_PER_SECOND, ADDRESS_CHAT_BURST = 5.0, 30


class Who(Protocol):
    """A signed-in student, as the server's sign-in decides (course.roster.signin.Identity)."""

    @property
    def key(self) -> str: ...

    @property
    def seat(self) -> str: ...


#: Who a WebSocket (a Starlette HTTPConnection) signs in as (None: nobody); the lobby's ``identify``.
Identify = Callable[[Any], Awaitable["Who | None"]]


class Lobby:
    """Rooms, their connections and their database.

    ``data`` is the folder of the SQLite file (``":memory:"`` for none); running
    games found there are resumed.  ``teacher_key`` (random if left out) lets a
    connection that gives it close a room and export its finished games.
    ``clock`` returns seconds; tests may pass a fake one.  With ``identify`` (the browser
    classroom's sign-in), only signed-in students sit or watch, under the name the
    server gives them; the teacher joins with the key.
    """

    def __init__(
        self,
        data: str | os.PathLike[str] | os.PathLike[bytes] = ":memory:",
        settings: RoomSettings | None = None,
        teacher_key: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        limits: Limits | None = None,
        forget_after: float = FORGET_AFTER,
        sections: Sequence[Section] = (),
        identify: Identify | None = None,
    ) -> None:
        now = clock()
        self.identify = identify
        self.settings = settings or RoomSettings()
        self.limits = limits or Limits()
        self.forget_after = forget_after
        self.teacher_key = teacher_key or secrets.token_urlsafe(9)
        self.clock = clock
        self.storage = Storage(data)
        self.rooms = {room.name: room for room in self.storage.load_rooms(now, self.settings)}
        self.sockets: dict[Connection, str] = {}  # connection -> its room's name
        self.practice: dict[str, str] = {}  # a practice room -> the student (or address) it is for
        self.per_address: dict[str, int] = defaultdict(int)  # open connections
        self.rooms_made: dict[str, deque[float]] = defaultdict(
            deque
        )  # when each address made rooms
        self.chat_buckets: dict[str, RateLimit] = {}
        #: The overview's extra sections (hand-ins, ...) and the pages watching it.
        self.sections: list[Section] = list(sections)
        self.watchers: set[Connection] = set()
        self.last_overview = ""
        self.last_push = 0.0
        self.messages_in = 0
        self.messages_out = 0

    @property
    def resumed(self) -> list[str]:
        """Names of the rooms whose game was resumed from the database and is still running."""
        return sorted(name for name, room in self.rooms.items() if room.running)

    def within_rate(self, conn: Connection, bucket: RateLimit) -> bool:
        if bucket.allow(self.clock()):
            return True
        if bucket.dropped == 1 or bucket.dropped % 50 == 0:
            self.send(conn, error("too many messages: slow down (they were dropped)"))
        if bucket.dropped >= MAX_DROPPED:
            conn.close(1008, "too many messages")
        return False

    def chat_allowed(self, conn: Connection) -> bool:
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
            self.send(conn, error("please slow down: the chat takes about one line a second "
                                   "(lines over that are not sent)", "chat"))  # fmt: skip
        return False

    def left(self, conn: Connection) -> None:
        """A room connection closed: its address holds one fewer, its room hears it left."""
        self.per_address[conn.address] -= 1
        if not self.per_address[conn.address]:
            del self.per_address[conn.address]
        self.chat_buckets.pop(f"c{id(conn)}", None)
        name = self.sockets.pop(conn, None)
        if name is not None and name in self.rooms:
            room = self.rooms[name]
            self.deliver(room, room.leave(conn, self.clock()))
            if not room.members and not room.seats and room.game is None:
                self.forget(room)  # nobody there and nothing played: forget it now

    def forget(self, room: Room) -> None:
        """Drop a closed or idle room from memory and from the live rooms in storage."""
        if self.rooms.get(room.name) is room:
            del self.rooms[room.name]
        self.storage.forget(room)

    def join_room(self, conn: Connection, hello: dict[str, Any], who: Who | None = None) -> Room | None:
        """Join ``hello``'s room; ``who`` is the connection's signed-in student (see ``identify``)."""
        teacher = "key" in hello
        if teacher and not hmac.compare_digest(hello["key"].encode(), self.teacher_key.encode()):
            self.send(conn, error("that is not the teacher key of this server", "hello"))
            return None
        signed_in = self.identify is not None and not teacher
        if signed_in and hello["room"].startswith(PRACTICE):
            owner = who.key if who is not None else f"address {conn.address}"
            if self.practice.setdefault(hello["room"], owner) != owner:
                self.send(conn, error("that practice room is another student's: run the lesson's cells "
                                      "to get a room of your own", "hello"))  # fmt: skip
                return None
            signed_in = False  # the student's own practice: the names are theirs to choose
        if signed_in and who is None:
            self.send(conn, error("you are not signed in on this browser: open the class's address "
                                  "followed by /signin/ and type the code on your card", "hello"))  # fmt: skip
            return None
        if signed_in and who is not None:
            hello = {**hello, "name": who.seat}
        room = self.rooms.get(hello["room"])
        new = room is None
        if room is None:
            refusal = self.may_make_room(conn.address)
            if refusal:
                self.send(conn, error(refusal, "hello"))
                return None
            room = Room(hello["room"], self.settings, now=self.clock())
        out = room.join(conn, hello, self.clock(), teacher=teacher, signed_in=signed_in)
        if conn in room.members:
            if new:
                self.rooms_made[conn.address].append(self.clock())
            self.rooms[room.name] = room
            self.sockets[conn] = room.name
            self.deliver(room, out)
            return room
        if new:  # a refused hello leaves no empty room behind
            for _, message in out:
                self.send(conn, message)
        else:
            self.deliver(room, out)
        return None

    def may_make_room(self, address: str) -> str | None:
        if len(self.rooms) >= MAX_ROOMS:
            return f"this server already has {MAX_ROOMS} rooms"
        made = self.rooms_made[address]
        while made and made[0] <= self.clock() - self.limits.window:
            made.popleft()
        if len(made) >= self.limits.rooms:
            return (f"your address opened {len(made)} rooms in the last {self.limits.window:g} s "
                    f"(at most {self.limits.rooms}): join an existing room")  # fmt: skip
        return None

    def overview_text(self) -> str:
        rooms = sorted(self.rooms.values(), key=lambda room: room.name)
        return encode(overview(rooms, self.sections))

    def push_overview(self, force: bool = False) -> None:
        """Send the overview to every watching page if it changed (at most twice a second unless forced)."""
        now = self.clock()
        if not self.watchers or (not force and now - self.last_push < OVERVIEW_EVERY):
            return
        text = self.overview_text()
        self.last_push = now
        if text != self.last_overview or force:
            self.last_overview = text
            for conn in list(self.watchers):
                conn.send(text)

    def deliver(self, room: Room, out: list[Outgoing]) -> None:
        self.storage.save(room)  # stored first: whatever anyone was told survives a crash
        for to, message in out:
            text = encode(message)
            for conn in to:
                if isinstance(conn, Connection) and conn.send(text):
                    self.messages_out += 1
            if message["type"] == "closed":
                for conn in to:
                    if isinstance(conn, Connection):
                        self.sockets.pop(conn, None)
                        conn.close(1000, message["reason"])
        if room.closed:
            self.forget(room)  # the name is free again; its games stay for export

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn.send(encode(message)):
            self.messages_out += 1
