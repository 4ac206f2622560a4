r"""The room protocol: one table of message kinds, their fields and limits, and the parser.

This module is the trust boundary of the class server.  Whatever arrives over the
network was written by a program we do not control (a student's notebook, a
script, a fuzzer), so every message is parsed and checked here, on arrival, into
plain values; the rules never see raw text.  A message that breaks a limit is
refused with a :class:`MessageError` that names the field and the reason.

:data:`MESSAGES` declares each kind a client may send once: its fields (type,
limits, required or not), who may send it, and what it does.  :func:`parse`
checks against it (through :mod:`course.schema`, the kit's one reader of bytes from
outside), the room routes by its ``senders`` and dispatches to the
handler registered for the kind (``handles`` in :mod:`course.classroom.room`), and the
developer guide's list of messages is :func:`readme_table` (a test compares the two).  Adding a kind is one
entry here and its handler in :mod:`course.classroom.room`.

:data:`SERVER_MESSAGES` lists what the server sends.

>>> parse('{"type": "move", "square": "D3"}')
{'type': 'move', 'square': 'd3'}
>>> parse('{"type": "chat", "text": "hi\\u0007"}')
Traceback (most recent call last):
...
course.classroom.protocol.MessageError: 'text' contains the control character '\x07'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from course.schema import Field, Limits, Schema, SchemaError, read_json, text
from reversi.errors import ReversiError

#: Longest player name (the ZX-81 program's limit of 9 letters).
MAX_NAME = 9
#: Longest chat line, in characters.
MAX_CHAT = 200
#: Rooms whose name starts so are one student's practice (lesson 06 plays several people there):
#: only the browser that opened one may join it, under any names, and nobody else sees them.
PRACTICE = "practice-"
#: The cookie holding a signed-in browser's session (set by the sign-in page, course.site.signin_routes).
SESSION_COOKIE = "reversi_session"
#: Longest seat token or teacher key read, in characters.
MAX_TOKEN = 64
#: Longest message the server reads, in bytes of UTF-8; a longer one gets an error.
MAX_MESSAGE_BYTES = 2048
#: How much JSON one message may hold: a flat object of a few short fields.
JSON_LIMITS = Limits(bytes=MAX_MESSAGE_BYTES, depth=2, items=32)
#: Above this the server closes the connection (code 1009) without reading it.
MAX_FRAME_BYTES = 16 * 1024
#: Per connection: this many messages a second on average, with bursts up to RATE_BURST.
RATE_PER_SECOND = 20.0
RATE_BURST = 40
#: A connection that sends this many messages over its rate is disconnected.
MAX_DROPPED = 200
#: Largest chat line number a ``unsay`` may name.
MAX_LINE_ID = 2**53

ROOM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,23}\Z")
SQUARE = re.compile(r"[a-p](1[0-6]|[1-9])\Z")

PLAYERS = frozenset({"black", "white"})
EVERYONE = frozenset({"black", "white", "observer", "teacher"})
TEACHER = frozenset({"teacher"})
#: ``senders`` of the first message, which joins a room.
ANYONE_FIRST = frozenset({"anyone, first"})


class ClassroomError(ReversiError):
    """Base class of every error of the class server and the board that joins it."""


class MessageError(ClassroomError, SchemaError):
    """A message that is not valid JSON, not a known type, or breaks a limit."""


class RuleError(ClassroomError):
    """A well-formed request the rules refuse (out of turn, illegal, not yours to send)."""


@dataclass(frozen=True)
class Message:
    """One kind of client message: its fields, who may send it, and what it does."""

    kind: str
    fields: tuple[Field, ...]
    senders: frozenset[str]
    does: str

    @property
    def schema(self) -> Schema[dict[str, Any]]:
        """The schema that reads this kind: the clean fields, with the ``type`` first."""
        return Schema(f"a {self.kind!r} message", self.fields, lambda **clean: {"type": self.kind, **clean},
                      ignored=frozenset({"type"}))  # fmt: skip


def _square(name: str) -> str:
    square = name.lower()
    if not SQUARE.match(square):
        raise MessageError(f"{name[:10]!r} is not a square like 'd3'")
    return square


def room_name(name: str) -> str:
    """A room's name: letters, digits, ``-`` and ``_``, at most 24, like ``table-3``.

    >>> room_name("d3\\n")
    Traceback (most recent call last):
    ...
    course.classroom.protocol.MessageError: the room name 'd3\\n' is not valid: use 1 to 24 letters, digits, '-' or '_'
    """
    if not ROOM_NAME.match(name):
        raise MessageError(
            f"the room name {name[:30]!r} is not valid: use 1 to 24 letters, digits, '-' or '_'"
        )
    return name


def player_name(name: str) -> str:
    """A name to sit or watch under: 1 to :data:`MAX_NAME` characters, no control characters.

    >>> player_name("  Ada ")
    'Ada'
    >>> player_name("Maximilian")
    Traceback (most recent call last):
    ...
    course.classroom.protocol.MessageError: the name 'Maximilian' has 10 characters; at most 9 are allowed
    """
    try:
        name = text(name, "the name", MAX_NAME)
    except SchemaError as refused:
        raise MessageError(str(refused)) from None
    if name.lower() in ("room", "teacher"):
        raise MessageError(f"the name {name!r} is kept for the room's own messages")
    return name


ROOM = Field("room", str, limit=24, clean=room_name, strip=False)
NAME = Field("name", str, limit=MAX_NAME, what="the name", clean=player_name)
TARGET = Field("name", str, limit=MAX_NAME, what="the name")

#: Every message a client may send: the one table of the protocol.
MESSAGES: dict[str, Message] = {
    m.kind: m
    for m in (
        Message("hello", (ROOM, NAME, Field("token", str, False, MAX_TOKEN),
                          Field("watch", bool, False), Field("key", str, False, MAX_TOKEN)),
                ANYONE_FIRST, "join a room: back to your seat with its token, a free seat, "
                "or watch (`watch` true, or the seats are taken); `key` is the teacher key"),
        Message("move", (Field("square", str, limit=3, clean=_square),), PLAYERS,
                "play a disc on `square` (like `d3`), on your turn"),
        Message("undo", (), PLAYERS, "ask the opponent to take back your last move (once a game)"),
        Message("cancel", (), PLAYERS, "withdraw your undo question before it is answered"),
        Message("answer", (Field("accept", bool),), PLAYERS, "accept or decline the undo question asked of you"),
        Message("resign", (), PLAYERS, "give up the game"),
        Message("rematch", (), PLAYERS, "after the end: both ask, and a new game starts with colours swapped"),
        Message("chat", (Field("text", str, limit=MAX_CHAT),), EVERYONE,
                "say a line (observers reach only observers while a game runs)"),
        Message("mute", (TARGET,), TEACHER, "silence the person called `name` in this room"),
        Message("unmute", (TARGET,), TEACHER, "let the person called `name` chat again"),
        Message("unsay", (Field("line", int, limit=MAX_LINE_ID),), TEACHER,
                "remove chat line number `line` for everyone"),
        Message("kick", (TARGET,), TEACHER,
                "disconnect the person called `name` (a player's seat is held for the grace time)"),
        Message("end", (), TEACHER, "end the running game as abandoned (no winner)"),
        Message("close", (), TEACHER, "close the room: its game stops, recorded as aborted"),
        Message("export", (), TEACHER, "get the room's finished games as saves"),
    )
}  # fmt: skip

#: What the server sends, and when.
SERVER_MESSAGES: dict[str, str] = {
    "welcome": "your role (`black`, `white`, `observer`, `teacher`) and your seat's token",
    "history": "the chat lines so far (right after `welcome`)",
    "state": "the whole room and its game, after every change (the same text for everyone)",
    "chat": "a chat line (`id`, `from`, `text`; `alert` true for the room's own notices)",
    "unsaid": "chat line `line` was removed by the teacher",
    "question": "the undo question, to the asked player only",
    "error": "why your message was refused (to you alone)",
    "export": "the finished games (to the teacher)",
    "closed": "the room closed or you were disconnected, with the reason",
}


def parse(raw: bytes | str) -> dict[str, Any]:
    """Check one incoming message and return it as a clean dict (names stripped, squares lower case)."""
    try:
        data = read_json(raw, "the message", JSON_LIMITS)
        if not isinstance(data, dict):
            raise MessageError(f"a message must be a JSON object with a 'type', not {type(data).__name__}")
        return checked(data)
    except MessageError:
        raise
    except SchemaError as refused:
        raise MessageError(str(refused)) from None


def checked(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a JSON object read) checked against :data:`MESSAGES`, as a clean dict."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise MessageError(f"unknown message type {repr(kind)[:40]}; known: {', '.join(MESSAGES)}")
    return MESSAGES[kind].schema.read(data)


def readme_table() -> str:
    """The README's list of messages, made from :data:`MESSAGES` and :data:`SERVER_MESSAGES`."""
    lines = ["| client sends | fields | who may send | what it does |", "|---|---|---|---|"]
    for m in MESSAGES.values():
        fields = "; ".join(f.describe() for f in m.fields) or "(none)"
        senders = ", ".join(sorted(m.senders))
        lines.append(f"| `{m.kind}` | {fields} | {senders} | {m.does} |")
    lines += ["", "| server sends | when |", "|---|---|"]
    lines += [f"| `{kind}` | {when} |" for kind, when in SERVER_MESSAGES.items()]
    return "\n".join(lines)


def encode(message: dict[str, Any]) -> str:
    """The JSON text of an outgoing message (compact)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def error(message: str, about: str | None = None) -> dict[str, Any]:
    """An ``error`` message for the sender alone."""
    return {"type": "error", "message": message, "about": about}
