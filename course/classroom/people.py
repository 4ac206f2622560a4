"""Who is in a room and what each may send: roles, the routing table, seats and their tokens.

A room has two seats (Black and White) and any number of observers; a connection
that gave the teacher key is the teacher.  :data:`ROUTES` says which role may send
which message type: the room consults it before anything else, so an observer's
move, undo, resignation or answer never reaches the rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from reversi.notation import Color

#: Whatever the server uses to tell connections apart (the room only compares them).
ConnId = Hashable
#: A message and the connections it goes to.
Outgoing = tuple[tuple[ConnId, ...], dict[str, Any]]

PLAYERS = frozenset({"black", "white"})
EVERYONE = frozenset({"black", "white", "observer", "teacher"})
#: Which role may send which message type: the one place where the room routes by role.
ROUTES: dict[str, frozenset[str]] = {
    "move": PLAYERS,
    "undo": PLAYERS,
    "answer": PLAYERS,
    "resign": PLAYERS,
    "rematch": PLAYERS,
    "chat": EVERYONE,
    "close": frozenset({"teacher"}),
    "export": frozenset({"teacher"}),
}


@dataclass(frozen=True)
class RoomSettings:
    """``move_time`` seconds per move (``None``: no clock), ``grace`` seconds a seat is held."""

    move_time: float | None = None
    grace: float = 60.0
    size: int = 8


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
    name: str
    role: str  # "black", "white", "observer" or "teacher"


def token_hash(token: str) -> str:
    """What a room keeps of a seat's token: its SHA-256, so a stolen database gives no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def not_allowed(role: str, kind: str) -> str:
    """Why ``role`` may not send a ``kind`` message (the refusal sent back)."""
    if role in ("observer", "teacher") and kind != "close" and kind != "export":
        return f"observers can only watch and chat: a {kind!r} request is refused"
    if kind in ("close", "export"):
        return f"only the teacher (with the teacher key) may {kind} a room"
    return f"a {role} may not send {kind!r}"
