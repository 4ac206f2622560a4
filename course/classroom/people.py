"""Who is in a room and what each may send: roles, the routing table, seats and their tokens.

A room has two seats (Black and White) and any number of observers; a connection
that gave the teacher key is the teacher.  Which role may send which message type
is declared in :data:`course.classroom.protocol.MESSAGES`: the room consults it
before anything else, so an observer's move, undo, resignation or answer never
reaches the rules.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from course.classroom.protocol import MESSAGES, TEACHER
from reversi.errors import ArgumentError, BoardSizeError, shown
from reversi.notation import Color

__all__ = [
    "RoomSettings",
    "Limits",
    "PLAYERS",
]

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

    def __post_init__(self) -> None:
        if self.move_time is not None:
            _check_seconds(self.move_time, "move_time", "seconds per move, or None for no clock")
        _check_seconds(self.grace, "grace", "seconds a seat is held")
        size = self.size
        if not _is_whole(size) or size % 2 or not 4 <= size <= 16:
            raise BoardSizeError(
                f"size must be an even whole number from 4 to 16 (the board's side), not {shown(size)}"
            )
        if self.timeouts_to_end is not None:
            _check_whole(self.timeouts_to_end, "timeouts_to_end", 1, 10**6,
                         "time-outs in a row that end a game, or None for never")  # fmt: skip


@dataclass(frozen=True)
class Limits:
    """What one client address may hold: connections at once, and new rooms per ``window`` seconds."""

    connections: int = 60
    rooms: int = 20
    window: float = 600.0

    def __post_init__(self) -> None:
        _check_whole(self.connections, "connections", 1, 10**9, "connections one address may hold")
        _check_whole(self.rooms, "rooms", 1, 10**9, "new rooms one address may open per window")
        _check_seconds(self.window, "window", "seconds over which new rooms are counted")


@dataclass
class _Seat:
    """A player's chair: their name, a hash of their secret token, and their connection if present."""

    color: Color
    name: str
    token_hash: str
    conn: ConnId | None = None
    away_since: float | None = None


@dataclass
class _Member:
    """Someone connected to a room: the name they joined under and their role."""

    name: str
    role: str  # "black", "white", "observer" or "teacher"


def _token_hash(token: str) -> str:
    """What a room keeps of a seat's token: its SHA-256, so a stolen database gives no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def _not_allowed(role: str, kind: str) -> str:
    """Why ``role`` may not send a ``kind`` message (the refusal sent back)."""
    if MESSAGES[kind].senders == TEACHER:
        return f"only the teacher (with the teacher key) may send {kind!r} in a room"
    if role in ("observer", "teacher"):
        return f"observers can only watch and chat: a {kind!r} request is refused"
    return f"a {role} may not send {kind!r}"


#: The longest number of seconds a room setting or a time takes (about 31 years).
_MAX_SECONDS = 1e9


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_whole(value: object, name: str, low: int, high: int, what: str) -> None:
    """Refuse ``value`` unless it is a whole number from ``low`` to ``high``."""
    if not _is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise ArgumentError(f"{name} must be a whole number from {low} to {high} ({what}), not {shown(value)}")


def _check_address(host: object, port: object) -> None:
    """Refuse a host that is not a name or address, or a port outside 0 to 65535 (0: any free one)."""
    if not isinstance(host, str) or not 0 < len(host) <= 253 or not host.isprintable() or " " in host:
        raise ArgumentError(
            f"host must be a name or address such as 127.0.0.1 or 0.0.0.0, not {shown(host)}"
        )
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ArgumentError(f"port must be a whole number from 0 to 65535, not {shown(port)}")


def _is_finite(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _check_seconds(value: object, name: str, what: str) -> None:
    """Refuse ``value`` unless it is a positive, finite number of seconds."""
    if not _is_finite(value) or not 0 < value <= _MAX_SECONDS:  # type: ignore[operator]
        raise ArgumentError(
            f"{name} must be a positive number of seconds (at most {_MAX_SECONDS:g}; {what}), not {shown(value)}"
        )


def _check_now(value: object) -> None:
    """Refuse a time that is not a finite number of seconds (what the server's clock reads)."""
    if not _is_finite(value) or abs(value) > 1e15:  # type: ignore[arg-type]
        raise ArgumentError(f"now must be a finite number of seconds (a clock reading), not {shown(value)}")


def _check_conn(value: object) -> None:
    """Refuse a connection the room cannot tell apart from others (it must be hashable)."""
    try:
        hash(value)
    except Exception:
        raise ArgumentError(
            f"a connection must be a value the room can tell apart (hashable), not {shown(value)}"
        ) from None
