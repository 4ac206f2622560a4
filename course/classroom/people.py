"""Who is in a room and what each may send: roles, settings, seats and their tokens.

A room has two seats (Black and White) and any number of observers; a connection
that gave the teacher key is the teacher.  Which role may send which message type
is declared in :data:`course.classroom.protocol.MESSAGES`: the room consults it
before anything else, so an observer's move, undo, resignation or answer never
reaches the rules.  The settings come from flags argparse already checked (or
from the lesson's own server): they are trusted here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from course.classroom.protocol import MESSAGES, TEACHER
from reversi.notation import Color

#: Whatever the server uses to tell connections apart (the room only compares them).
ConnId = Hashable
#: A message and the connections it goes to.
Outgoing = tuple[tuple[ConnId, ...], dict[str, Any]]

PLAYERS = frozenset({"black", "white"})


@dataclass(frozen=True)
class RoomSettings:
    """``move_time`` seconds per move (``None``: no clock), ``grace`` seconds a seat is held.

    ``timeouts_to_end``: time-outs in a row that end a game (``None``, the default: never;
    running out of time gives up the move, not the game).
    """

    move_time: float | None = None
    grace: float = 60.0
    size: int = 8
    timeouts_to_end: int | None = None


@dataclass(frozen=True)
class Limits:
    """What one client address may hold: connections at once, and new rooms per ``window`` seconds."""

    connections: int = 60
    rooms: int = 20
    window: float = 600.0


@dataclass
class Seat:
    """A player's chair: their name, a hash of their secret token, and their connection if present."""

    color: Color
    name: str
    token_hash: str
    conn: ConnId | None = None
    away_since: float | None = None


@dataclass
class Member:
    """Someone connected to a room: the name they joined under and their role."""

    name: str
    role: str  # "black", "white", "observer" or "teacher"


def token_hash(token: str) -> str:
    """What a room keeps of a seat's token: its SHA-256, so a stolen database gives no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def not_allowed(role: str, kind: str) -> str:
    """Why ``role`` may not send a ``kind`` message (the refusal sent back)."""
    if MESSAGES[kind].senders == TEACHER:
        return f"only the teacher (with the teacher key) may send {kind!r} in a room"
    if role in ("observer", "teacher"):
        return f"observers can only watch and chat: a {kind!r} request is refused"
    return f"a {role} may not send {kind!r}"
