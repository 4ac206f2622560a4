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

from course.classroom.people import RoomSettings, Seat
from course.classroom.protocol import ClassroomError, RuleError
from course.classroom.room import Room
from course.classroom.state import CHAT_HISTORY
from reversi.errors import ReversiError
from reversi.game import Game
from reversi.notation import Color
from reversi.saves import game_from_dict, save_game

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


def folder_path(value: str | os.PathLike[str] | os.PathLike[bytes]) -> Path:
    """A folder given as text or any path object (one giving bytes too) as a Path."""
    return Path(os.fsdecode(value))


class Storage:
    """The database in folder ``data`` (created if missing); ``":memory:"`` keeps it in memory.

    A folder that cannot be made or a file that is no database gives :class:`StorageError`.
    """

    def __init__(self, data: str | os.PathLike[str] | os.PathLike[bytes]) -> None:
        if isinstance(data, str) and data == ":memory:":
            self.path: Path | None = None
            self.db = sqlite3.connect(":memory:")
        else:
            folder = folder_path(data)
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
        self.save(room)
        with self.db:
            self.db.execute("DELETE FROM rooms WHERE room_id = ?", (room.room_id,))

    # -- reading -------------------------------------------------------------------------

    def load_rooms(self, now: float, settings: RoomSettings | None = None) -> list[Room]:
        """Every live room, rebuilt (games replayed through the rules); broken ones are set aside."""
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
        return restore(snapshot, chat, finished, now, settings, actions)

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
        query = "SELECT save FROM games WHERE status = 'finished'"
        rows = (self.db.execute(query + " ORDER BY id") if room is None
                else self.db.execute(query + " AND room = ? ORDER BY id", (room,)))  # fmt: skip
        return [json.loads(save) for (save,) in rows]

    def export(self, folder: str | os.PathLike[str] | os.PathLike[bytes]) -> list[Path]:
        """Write every ended game as a save file: ``ROOM-N.json``, or ``ROOM-N-abandoned.json``.

        ``N`` counts the games of rooms of that name, oldest first; ``reversi.load_game``
        reads every file (a stopped game loads as the position where it stopped).
        """
        target = folder_path(folder)
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


def restore(
    snapshot: dict[str, Any],
    chat: list[dict[str, Any]],
    finished: list[dict[str, Any]],
    now: float,
    settings: RoomSettings | None = None,
    actions: list[dict[str, Any]] | None = None,
) -> Room:
    """Rebuild a stored room: the game is replayed through the rules, the players are away.

    ``actions`` are the current game's actions as stored one by one (the snapshot's
    copy may be older).  Each seated player gets a fresh grace time from ``now`` to
    come back with their token, and the turn's clock starts again: the time the
    server was down is nobody's fault.  A damaged record raises (the storage sets
    the room aside with the reason).
    """
    saved = snapshot["settings"]
    settings = settings or RoomSettings(saved["move_time"], saved["grace"], saved["size"],
                                        saved.get("timeouts_to_end"))  # fmt: skip
    room = Room(snapshot["name"], settings, now=now, games_played=snapshot["games_played"],
                closed=snapshot["closed"], finished=list(finished), room_id=snapshot["room_id"],
                game_id=snapshot["game_id"], stopped=snapshot["stopped"],
                muted=set(snapshot["muted"]), next_line=snapshot["next_line"])  # fmt: skip
    room.chat.extend(chat)
    room.next_line = max([room.next_line, *(line.get("id", 0) + 1 for line in chat)])
    for color_name, seat in snapshot["seats"].items():
        color = Color(color_name)
        room.seats[color] = Seat(color, seat["name"], seat["token_hash"], None, now)
    if snapshot["game"] is not None:
        saved_game = dict(snapshot["game"], elapsed=0.0)
        if actions is not None:
            saved_game.update(actions=actions, board=None)
        room.game = replay(room, saved_game)
        room.stored_actions = len(room.game.actions)
        room.announced = room.game.is_over
    return room


def replay(room: Room, saved: dict[str, Any]) -> Game:
    """The stored game, replayed action by action under ``room``'s time-out rule."""
    source = f"room {room.name!r}"
    game = game_from_dict(dict(saved, actions=[], board=None), clock=room.clock, source=source)
    game.timeouts_to_end = room.settings.timeouts_to_end
    for number, action in enumerate(saved["actions"], start=1):
        try:
            game.apply(action)
        except (ReversiError, ValueError, TypeError, KeyError) as failed:
            raise RuleError(f"cannot replay {source}: action {number} ({action!r:.60}): {failed}") from None
    if saved.get("board") is not None and str(game.board) != saved["board"]:
        raise RuleError(f"cannot replay {source}: the replayed board differs from the stored one")
    return game
