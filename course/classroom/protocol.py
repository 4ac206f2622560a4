r"""The room protocol: JSON objects with a ``"type"``, their limits, and their validation.

This module is the trust boundary of the class server.  Whatever arrives over the
network was written by a program we do not control (a student's notebook, a
script, a fuzzer), so every message is parsed and checked here, on arrival, into
plain values; the rules never see raw text.  A message that breaks a limit is
refused with a :class:`MessageError` that names the field and the reason.

Client to server (``type`` and its fields):

=========  ===================================================  ==============
type       fields                                               who may send
=========  ===================================================  ==============
hello      room, name, token (optional), watch (optional),      anyone, first
           key (optional teacher key)
move       square (``"d3"``)                                    the player to move
undo       (none)                                               a player
answer     accept (true/false)                                  the asked player
resign     (none)                                               a player
rematch    (none)                                               a player, after the end
chat       text                                                 everyone
close      (none)                                               the teacher
export     (none)                                               the teacher
=========  ===================================================  ==============

A forced pass is made by the server itself, so no client ever sends one.

Server to client: ``welcome`` (your role and seat token), ``state`` (the whole
game, after every change), ``chat`` (a line, ``alert`` true for the room's own
notices), ``question`` (the undo confirm, sent to the asked player only),
``error`` (to the sender only), ``export`` (finished games for the teacher),
``closed``.

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
from typing import Any

from reversi.errors import ReversiError, shown

#: Longest player name (the ZX-81 program's limit of 9 letters).
MAX_NAME = 9
#: Longest chat line, in characters.
MAX_CHAT = 200
#: Longest message the server reads, in bytes of UTF-8; a longer one gets an error.
MAX_MESSAGE_BYTES = 2048
#: Above this the websocket library closes the connection (code 1009) without reading it.
MAX_FRAME_BYTES = 16 * 1024
#: Per connection: this many messages a second on average, with bursts up to RATE_BURST.
RATE_PER_SECOND = 20.0
RATE_BURST = 40
#: A connection that sends this many messages over its rate is disconnected.
MAX_DROPPED = 200

ROOM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}\Z")
SQUARE = re.compile(r"^[a-p](1[0-6]|[1-9])\Z")

#: Fields each client message type may carry (besides ``type``).
FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"room": str, "name": str, "token": str, "watch": bool, "key": str},
    "move": {"square": str},
    "undo": {},
    "answer": {"accept": bool},
    "resign": {},
    "rematch": {},
    "chat": {"text": str},
    "close": {},
    "export": {},
}
REQUIRED = {"hello": ("room", "name"), "move": ("square",), "answer": ("accept",), "chat": ("text",)}


class ClassroomError(ReversiError):
    """Base class of every error of the class server and the board that joins it."""


class MessageError(ClassroomError, ValueError):
    """A message that is not valid JSON, not a known type, or breaks a limit."""


class RuleError(ClassroomError):
    """A well-formed request the rules refuse (out of turn, illegal, not yours to send)."""


def parse(raw: str | bytes) -> dict[str, Any]:
    """Check one incoming message and return it as a clean dict (names stripped, squares lower case)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise MessageError(f"the message is {len(raw)} bytes; at most {MAX_MESSAGE_BYTES} are read")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MessageError("the message is not UTF-8 text") from None
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise MessageError(f"the message is {size} bytes; at most {MAX_MESSAGE_BYTES} are read")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise MessageError("the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise MessageError(f"a message must be a JSON object with a 'type', not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        shown = repr(kind)[:40]
        raise MessageError(f"unknown message type {shown}; known: {', '.join(FIELDS)}")
    allowed = FIELDS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in allowed:
            raise MessageError(f"a {kind!r} message has no field {key[:30]!r}")
        want = allowed[key]
        if not isinstance(value, want) or (want is not bool and isinstance(value, bool)):
            raise MessageError(f"field {key!r} of a {kind!r} message has the wrong type")
    for key in REQUIRED.get(kind, ()):
        if key not in data:
            raise MessageError(f"a {kind!r} message needs the field {key!r}")
    clean: dict[str, Any] = dict(data)
    if kind == "hello":
        clean["room"] = room_name(data["room"])
        clean["name"] = player_name(data["name"])
        if "token" in data:
            clean["token"] = _text(data["token"], "token", 64)
    elif kind == "move":
        square = data["square"].strip().lower()
        if not SQUARE.match(square):
            raise MessageError(f"{data['square'][:10]!r} is not a square like 'd3'")
        clean["square"] = square
    elif kind == "chat":
        clean["text"] = chat_text(data["text"])
    return clean


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


def room_name(name: str) -> str:
    """A room's name: letters, digits, ``-`` and ``_``, at most 24, like ``table-3``."""
    if not isinstance(name, str) or not ROOM_NAME.match(name):
        raise MessageError(
            f"the room name {shown(name)} is not valid: use 1 to 24 letters, digits, '-' or '_'"
        )
    return name


def chat_text(text: str) -> str:
    """A chat line: not blank, at most :data:`MAX_CHAT` characters, no control characters."""
    return _text(text, "text", MAX_CHAT)


def encode(message: dict[str, Any]) -> str:
    """The JSON text of an outgoing message (compact)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(message: str, about: str | None = None) -> dict[str, Any]:
    """An ``error`` message for the sender alone."""
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
