r"""The room protocol: one table of message kinds, their fields and limits, and the parser.

This module is the trust boundary of the class server.  Whatever arrives over the
network was written by a program we do not control (a student's notebook, a
script, a fuzzer), so every message is parsed and checked here, on arrival, into
plain values; the rules never see raw text.  A message that breaks a limit is
refused with a :class:`MessageError` that names the field and the reason.

:data:`MESSAGES` declares each kind a client may send once: its fields (type,
limits, required or not), who may send it, and what it does.  :func:`parse`
checks against it, the room routes by its ``senders`` and dispatches to the
handler registered for the kind (``_handles`` in :mod:`course.classroom.room`), and the developer guide's list of
messages is :func:`readme_table` (a test compares the two).  Adding a kind is one
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
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reversi.errors import ArgumentError, ReversiError, shown

__all__ = [
    "ClassroomError",
    "MessageError",
    "RuleError",
    "chat_text",
    "encode",
    "error",
    "parse",
    "player_name",
    "readme_table",
    "room_name",
]

#: Longest player name (the ZX-81 program's limit of 9 letters).
MAX_NAME = 9
#: Longest chat line, in characters.
MAX_CHAT = 200
#: Longest seat token or teacher key read, in characters.
MAX_TOKEN = 64
#: Longest message the server reads, in bytes of UTF-8; a longer one gets an error.
MAX_MESSAGE_BYTES = 2048
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


class MessageError(ClassroomError, ValueError):
    """A message that is not valid JSON, not a known type, or breaks a limit."""


class RuleError(ClassroomError):
    """A well-formed request the rules refuse (out of turn, illegal, not yours to send)."""


@dataclass(frozen=True)
class _Field:
    """One field of a message: its JSON type, whether it is required, and its limit.

    Strings are stripped and must be non-blank, at most ``limit`` characters, with
    no control character or lone surrogate; whole numbers are at most ``limit``
    and at least 0; ``clean`` (if any) checks and normalises the value further.
    """

    name: str
    kind: type
    required: bool = True
    limit: int = 0
    clean: Callable[[Any], Any] | None = None
    what: str = ""
    #: Whether surrounding spaces are dropped (a room name is taken exactly as sent).
    strip: bool = True

    def read(self, message: str, raw: object) -> Any:
        """The checked value of this field in a ``message`` message, or a MessageError."""
        value: Any = raw
        if type(value) is not self.kind and not (self.kind is float and type(value) is int):
            raise MessageError(f"field {self.name!r} of a {message!r} message has the wrong type")
        if isinstance(value, str):
            checked = _text(value, self.name, self.limit, self.what or None)
            if self.strip:
                value = checked
        elif self.kind is int and isinstance(value, int) and not 0 <= value <= self.limit:
            raise MessageError(f"field {self.name!r} must be from 0 to {self.limit}, not {value}")
        return self.clean(value) if self.clean else value

    def describe(self) -> str:
        optional = "" if self.required else " (optional)"
        limit = {str: f", 1-{self.limit} characters", int: f", 0 to {self.limit}"}.get(
            self.kind, ""
        )
        return f"{self.name}{optional}: {self.kind.__name__}{limit}"


@dataclass(frozen=True)
class _Message:
    """One kind of client message: its fields, who may send it, and what it does."""

    kind: str
    fields: tuple[_Field, ...]
    senders: frozenset[str]
    does: str

    def field(self, name: str) -> _Field | None:
        return next((f for f in self.fields if f.name == name), None)


def _square(text: str) -> str:
    square = text.lower()
    if not SQUARE.match(square):
        raise MessageError(f"{text[:10]!r} is not a square like 'd3'")
    return square


def room_name(name: str) -> str:
    """A room's name: letters, digits, ``-`` and ``_``, at most 24, like ``table-3``.

    >>> room_name("d3\\n")
    Traceback (most recent call last):
    ...
    course.classroom.protocol.MessageError: the room name 'd3\\n' is not valid: use 1 to 24 letters, digits, '-' or '_'
    """
    if not isinstance(name, str):
        raise MessageError(f"the room name must be text of 1 to 24 letters, digits, '-' or '_', not {shown(name)}")
    if not ROOM_NAME.match(name):
        raise MessageError(
            f"the room name {str(name)[:30]!r} is not valid: use 1 to 24 letters, digits, '-' or '_'"
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
    name = _text(name, "name", MAX_NAME, what="the name")
    if name.lower() in ("room", "teacher"):
        raise MessageError(f"the name {name!r} is kept for the room's own messages")
    return name


def chat_text(text: str) -> str:
    """A chat line: not blank, at most :data:`MAX_CHAT` characters, no control characters."""
    return _text(text, "text", MAX_CHAT)


ROOM = _Field("room", str, limit=24, clean=room_name, strip=False)
NAME = _Field("name", str, limit=MAX_NAME, what="the name", clean=player_name)
TARGET = _Field("name", str, limit=MAX_NAME, what="the name")

#: Every message a client may send: the one table of the protocol.
MESSAGES: dict[str, _Message] = {
    m.kind: m
    for m in (
        _Message("hello", (ROOM, NAME, _Field("token", str, False, MAX_TOKEN),
                          _Field("watch", bool, False), _Field("key", str, False, MAX_TOKEN)),
                ANYONE_FIRST, "join a room: back to your seat with its token, a free seat, "
                "or watch (`watch` true, or the seats are taken); `key` is the teacher key"),
        _Message("move", (_Field("square", str, limit=3, clean=_square),), PLAYERS,
                "play a disc on `square` (like `d3`), on your turn"),
        _Message("undo", (), PLAYERS, "ask the opponent to take back your last move (once a game)"),
        _Message("cancel", (), PLAYERS, "withdraw your undo question before it is answered"),
        _Message("answer", (_Field("accept", bool),), PLAYERS, "accept or decline the undo question asked of you"),
        _Message("resign", (), PLAYERS, "give up the game"),
        _Message("rematch", (), PLAYERS, "after the end: both ask, and a new game starts with colours swapped"),
        _Message("chat", (_Field("text", str, limit=MAX_CHAT),), EVERYONE,
                "say a line (observers reach only observers while a game runs)"),
        _Message("mute", (TARGET,), TEACHER, "silence the person called `name` in this room"),
        _Message("unmute", (TARGET,), TEACHER, "let the person called `name` chat again"),
        _Message("unsay", (_Field("line", int, limit=MAX_LINE_ID),), TEACHER,
                "remove chat line number `line` for everyone"),
        _Message("kick", (TARGET,), TEACHER,
                "disconnect the person called `name` (a player's seat is held for the grace time)"),
        _Message("end", (), TEACHER, "end the running game as abandoned (no winner)"),
        _Message("close", (), TEACHER, "close the room: its game stops, recorded as aborted"),
        _Message("export", (), TEACHER, "get the room's finished games as saves"),
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


def parse(raw: Any) -> dict[str, Any]:
    """Check one incoming message and return it as a clean dict (names stripped, squares lower case)."""
    return _checked(_json_object(raw))


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a JSON object read) checked against :data:`MESSAGES`, as a clean dict."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = repr(kind)[:40]
        raise MessageError(f"unknown message type {shown}; known: {', '.join(MESSAGES)}")
    declared = MESSAGES[kind]
    clean: dict[str, Any] = {"type": kind}
    for key, value in data.items():
        if key == "type":
            continue
        found = declared.field(key)
        if found is None:
            raise MessageError(f"a {kind!r} message has no field {str(key)[:30]!r}")
        clean[key] = found.read(kind, value)
    for needed in declared.fields:
        if needed.required and needed.name not in data:
            raise MessageError(f"a {kind!r} message needs the field {needed.name!r}")
    return clean


def _json_object(raw: Any) -> dict[str, Any]:
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise MessageError(
                f"the message is {len(raw)} bytes; at most {MAX_MESSAGE_BYTES} are read"
            )
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MessageError("the message is not UTF-8 text") from None
    if not isinstance(raw, str):
        raise MessageError(f"a message must be JSON text, not {type(raw).__name__}")
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise MessageError(f"the message is {size} bytes; at most {MAX_MESSAGE_BYTES} are read")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise MessageError("the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise MessageError(
            f"a message must be a JSON object with a 'type', not {type(data).__name__}"
        )
    return data


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
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise MessageError(f"an outgoing message is a dict with a 'type', not {repr(message)[:60]}")
    try:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise MessageError(f"a {message['type']!r} message cannot be sent as JSON: {error}") from None


def _checked_message(message: object, what: str = "message") -> dict[str, Any]:
    """A message already parsed (a dict) checked again, for the room that takes one directly."""
    if not isinstance(message, dict):
        raise MessageError(f"the {what} must be a checked message (a dict from parse()), not {shown(message)}")
    return _checked(message)


def error(message: str, about: str | None = None) -> dict[str, Any]:
    """An ``error`` message for the sender alone."""
    if not isinstance(message, str):
        raise ArgumentError(f"an error message's text must be a string, not {shown(message)}")
    if about is not None and not isinstance(about, str):
        raise ArgumentError(f"what an error is about must be a message type (text) or None, not {shown(about)}")
    return {"type": "error", "message": message, "about": about}


def _text(value: str, field: str, limit: int, what: str | None = None) -> str:
    what = what or repr(field)
    if not isinstance(value, str):  # the check at the boundary (issue 19)
        raise MessageError(f"{what} must be text, not {type(value).__name__}")
    stripped = value.strip()
    if not stripped:
        raise MessageError(f"{what} is blank")
    for char in stripped:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise MessageError(f"{what} contains the control character {char!r}")
    if len(stripped) > limit:
        shown = stripped if len(stripped) <= 30 else stripped[:27] + "..."
        raise MessageError(
            f"{what} {shown!r} has {len(stripped)} characters; at most {limit} are allowed"
            if what.startswith("the name")
            else f"{what} has {len(stripped)} characters; at most {limit} are allowed"
        )
    return stripped
