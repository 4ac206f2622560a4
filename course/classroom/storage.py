"""The class server's memory: every room, game step and chat line in one SQLite file.

Keyed by identity, never by name: each room and each game has an id of its own
(:func:`course.classroom.room.new_id`), so no history of names, closes, rematches
and restarts can make two games share a record.

Tables: ``rooms`` holds each live room's snapshot (by ``room_id``, with its name),
written when its seats or its game change; ``events`` every step of a game (the
actions of :attr:`reversi.Game.actions`, tagged with the game's id), every chat
line and every removed line, in the order they happened; ``games`` each game that
ended, by ``game_id``, with its status (``finished``, or ``abandoned`` / ``aborted``
when it was stopped outside the rules) and its save; ``set_aside`` the snapshots of
rooms that could not be resumed, with the reason (kept, never deleted).

A room is resumed by replaying its current game's stored actions through the rules,
so a damaged record is refused rather than trusted; the room is then set aside and
the server starts with all the others.  A room that is closed or forgotten leaves
``rooms``; its games stay in ``games`` for export.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit is a short
append to the log, made before anyone is told what changed.  A killed process
loses nothing that was committed; a power cut may lose the last commits, never
the file.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from course.classroom.people import _check_now
from course.classroom.protocol import ClassroomError
from course.classroom.room import CHAT_HISTORY, Room, RoomSettings
from reversi.errors import ArgumentError, shown
from reversi.saves import game_from_dict, save_game

__all__ = [
    "Storage",
    "StorageError",
    "FILE_NAME",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    room_id TEXT PRIMARY KEY, name TEXT NOT NULL, snapshot TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, room_id TEXT NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_room ON events (room_id, id);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, game_id TEXT UNIQUE NOT NULL, room TEXT NOT NULL, room_id TEXT NOT NULL,
    status TEXT NOT NULL, ended REAL NOT NULL, save TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS set_aside (
    id INTEGER PRIMARY KEY, room_id TEXT NOT NULL, name TEXT NOT NULL, snapshot TEXT NOT NULL,
    reason TEXT NOT NULL, at REAL NOT NULL);
"""
FILE_NAME = "classroom.sqlite3"

log = logging.getLogger("course.classroom")


class StorageError(ClassroomError):
    """The class server's database cannot be opened, read or written (with the reason)."""


def _folder(value: object, what: str) -> Path:
    """``value`` as a folder path, or the kit's error naming it."""
    if not isinstance(value, str | os.PathLike) or not str(value).strip() or "\x00" in str(value):
        raise ArgumentError(f"{what} must be a folder path (text or a Path), not {shown(value)}")
    return Path(value)


def _name_text(value: object) -> None:
    """Refuse a room's name that is not text the database can hold."""
    if not isinstance(value, str) or any("\ud800" <= char <= "\udfff" for char in value):
        raise ArgumentError(f"room must be a room's name (text), not {shown(value)}")


def _room(value: object) -> Room:
    if not isinstance(value, Room):
        raise ArgumentError(f"the storage keeps Room objects, not {shown(value)}")
    return value


class Storage:
    """The database in folder ``data`` (created if missing); ``":memory:"`` keeps it in memory.

    A folder that cannot be made or a file that is no database gives :class:`StorageError`.
    """

    def __init__(self, data: str | os.PathLike[str]) -> None:
        if isinstance(data, str) and data == ":memory:":
            self.path: Path | None = None
            self.db = sqlite3.connect(":memory:")
        else:
            folder = _folder(data, "the database folder (data)")
            try:
                folder.mkdir(parents=True, exist_ok=True)
                self.path = folder / FILE_NAME
                self.db = sqlite3.connect(self.path)
            except (OSError, ValueError, sqlite3.Error) as failed:
                raise StorageError(f"cannot open the class server's database in {str(folder)!r}: {failed}") from None
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            except sqlite3.Error as failed:
                self.db.close()
                raise StorageError(f"cannot use {str(self.path)!r} as the class server's database: {failed}") from None
        try:
            self._keep_an_older_layout()
            self.db.executescript(SCHEMA)
        except sqlite3.Error as failed:
            self.db.close()
            raise StorageError(f"cannot use {str(self.path or data)!r} as the class server's database: {failed}") from None
        self.writes = 0
        self.write_seconds = 0.0
        #: What :meth:`load_rooms` set aside: "room NAME: reason" lines.
        self.set_aside: list[str] = []

    def _keep_an_older_layout(self) -> None:
        """A database of the first layout (rooms keyed by name) is renamed ``*_v1``, never dropped."""
        columns = [row[1] for row in self.db.execute("PRAGMA table_info(rooms)")]
        if columns and "room_id" not in columns:
            with self.db:
                for table in ("rooms", "events", "games"):
                    self.db.execute(f"ALTER TABLE {table} RENAME TO {table}_v1")
                self.db.execute("DROP INDEX IF EXISTS events_by_room")

    # -- writing -------------------------------------------------------------------------

    def save(self, room: Room) -> None:
        """Store what changed in ``room`` since the last call (one transaction)."""
        _room(room)
        if not room.dirty and not room.records:
            return
        started = time.perf_counter()
        wall = time.time()
        with self.db:
            for kind, data in room.records:
                if kind in ("finished", "stopped"):
                    status = data.get("status", "finished")
                    self.db.execute(
                        "INSERT OR REPLACE INTO games (game_id, room, room_id, status, ended, save) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            data["game"],
                            room.name,
                            room.room_id,
                            status,
                            wall,
                            json.dumps(data["save"]),
                        ),
                    )
                else:
                    self.db.execute(
                        "INSERT INTO events (room_id, at, kind, data) VALUES (?, ?, ?, ?)",
                        (room.room_id, wall, kind, json.dumps(data)),
                    )
            if room.dirty:
                self.db.execute(
                    "INSERT INTO rooms (room_id, name, snapshot, updated) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(room_id) DO UPDATE SET snapshot = excluded.snapshot, "
                    "updated = excluded.updated",
                    (room.room_id, room.name, json.dumps(room.snapshot()), wall),
                )
        room.records.clear()
        room.dirty = False
        self.writes += 1
        self.write_seconds += time.perf_counter() - started

    def forget(self, room: Room) -> None:
        """Drop ``room`` from the live rooms (closed or idle); its games and chat stay for export."""
        _room(room)
        self.save(room)
        with self.db:
            self.db.execute("DELETE FROM rooms WHERE room_id = ?", (room.room_id,))

    # -- reading -------------------------------------------------------------------------

    def load_rooms(self, now: float, settings: RoomSettings | None = None) -> list[Room]:
        """Every live room, rebuilt (games replayed through the rules); broken ones are set aside."""
        _check_now(now)
        if settings is not None and not isinstance(settings, RoomSettings):
            raise ArgumentError(f"settings must be RoomSettings or None, not {shown(settings)}")
        rooms: dict[str, Room] = {}
        rows = list(self.db.execute("SELECT room_id, name, snapshot FROM rooms ORDER BY updated"))
        for room_id, name, snapshot_text in rows:
            try:
                room = self._restore(room_id, snapshot_text, now, settings)
                if room.name in rooms:
                    raise ValueError(f"another stored room is called {room.name!r}")
            except Exception as broken:  # anything a damaged record can raise: set it aside, go on
                self._set_aside(room_id, name, snapshot_text, f"{type(broken).__name__}: {broken}")
                continue
            if not room.closed:
                rooms[room.name] = room
        return sorted(rooms.values(), key=lambda room: room.name)

    def _restore(
        self, room_id: str, snapshot_text: str, now: float, settings: RoomSettings | None
    ) -> Room:
        snapshot = json.loads(snapshot_text)
        removed = {
            json.loads(data)["line"]
            for (data,) in self.db.execute(
                "SELECT data FROM events WHERE room_id = ? AND kind = 'unsay'", (room_id,)
            )
        }
        chat = [
            line
            for (data,) in self.db.execute(
                "SELECT data FROM (SELECT id, data FROM events WHERE room_id = ? AND kind = 'chat' "
                "ORDER BY id DESC LIMIT ?) ORDER BY id",
                (room_id, CHAT_HISTORY + len(removed)),
            )
            if (line := json.loads(data)).get("id") not in removed
        ][-CHAT_HISTORY:]
        finished = [
            json.loads(save)
            for (save,) in self.db.execute(
                "SELECT save FROM games WHERE room_id = ? AND status = 'finished' ORDER BY id",
                (room_id,),
            )
        ]
        game_id = snapshot["game_id"]
        actions = [
            step["action"]
            for (data,) in self.db.execute(
                "SELECT data FROM events WHERE room_id = ? AND kind = 'action' ORDER BY id",
                (room_id,),
            )
            if (step := json.loads(data))["game"] == game_id
        ]
        return Room.restore(snapshot, chat, finished, now, settings, actions)

    def _set_aside(self, room_id: str, name: str, snapshot: str, reason: str) -> None:
        log.error("room %r cannot be resumed and is set aside: %s", name, reason)
        self.set_aside.append(f"room {name!r}: {reason}")
        with self.db:
            self.db.execute(
                "INSERT INTO set_aside (room_id, name, snapshot, reason, at) VALUES (?, ?, ?, ?, ?)",
                (room_id, name, snapshot, reason, time.time()),
            )
            self.db.execute("DELETE FROM rooms WHERE room_id = ?", (room_id,))

    def finished_games(self, room: str | None = None) -> list[dict[str, Any]]:
        """The saves of the finished games, oldest first (of rooms called ``room``, or of all)."""
        if room is not None:
            _name_text(room)
        query = "SELECT save FROM games WHERE status = 'finished'"
        rows = (self.db.execute(query + " ORDER BY id") if room is None
                else self.db.execute(query + " AND room = ? ORDER BY id", (room,)))  # fmt: skip
        return [json.loads(save) for (save,) in rows]

    def export(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Write every ended game as a save file: ``ROOM-N.json``, or ``ROOM-N-abandoned.json``.

        ``N`` counts the games of rooms of that name, oldest first; ``reversi.load_game``
        reads every file (a stopped game loads as the position where it stopped).
        """
        target = _folder(folder, "the export folder")
        written = []
        counts: dict[str, int] = {}
        for room, status, save in self.db.execute(
            "SELECT room, status, save FROM games ORDER BY id"
        ):
            counts[room] = counts.get(room, 0) + 1
            game = game_from_dict(json.loads(save), source=f"a game of room {room!r}")
            suffix = "" if status == "finished" else f"-{status}"
            written.append(save_game(game, target / f"{room}-{counts[room]}{suffix}.json"))
        return written

    def chat_lines(self, room: str) -> list[dict[str, Any]]:
        """Every chat line (alerts included) ever said in rooms called ``room``, oldest first."""
        _name_text(room)
        rows = self.db.execute(
            "SELECT e.data FROM events e WHERE e.kind = 'chat' AND e.room_id IN "
            "(SELECT room_id FROM rooms WHERE name = ? UNION SELECT room_id FROM games WHERE room = ?) "
            "ORDER BY e.id",
            (room, room),
        )
        return [json.loads(data) for (data,) in rows]

    def close(self) -> None:
        """Close the database (everything stored stays in the file)."""
        self.db.close()
