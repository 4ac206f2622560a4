"""The class server's memory: every room, move, event and chat line in one SQLite file.

Three tables: ``rooms`` holds each room's snapshot, written when its seats or its
game change (the game in the kit's save format), ``events`` every step of a game
(move, lost turn, undo request and answer, resignation: the actions of
:attr:`reversi.Game.actions`) and every chat line as they happen (the room's
alerts are chat lines, so disconnections and game ends are there too), and
``games`` each finished game as a save that :func:`reversi.load_game` reads once
exported.  A room is resumed by replaying its game's stored actions through the
rules, so a damaged database is refused rather than trusted.

A move costs one small insert, not a rewrite of the whole game.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit is a short
append to the log, small enough to do on the event loop after each message
(``benchmarks/classroom_load.py`` prints what it costs).  A crash loses at most
the last commits, never the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from course.classroom.room import CHAT_HISTORY, Room, RoomSettings
from reversi.saves import game_from_dict, save_game

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (name TEXT PRIMARY KEY, snapshot TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, room TEXT NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_room ON events (room, id);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, room TEXT NOT NULL, finished REAL NOT NULL, save TEXT NOT NULL);
"""
FILE_NAME = "classroom.sqlite3"


class Storage:
    """The database in folder ``data`` (created if missing); ``":memory:"`` keeps it in memory."""

    def __init__(self, data: str | os.PathLike[str]) -> None:
        if str(data) == ":memory:":
            self.path: Path | None = None
            self.db = sqlite3.connect(":memory:")
        else:
            folder = Path(data)
            folder.mkdir(parents=True, exist_ok=True)
            self.path = folder / FILE_NAME
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self.writes = 0
        self.write_seconds = 0.0

    def save(self, room: Room) -> None:
        """Store what changed in ``room`` since the last call (one transaction)."""
        if not room.dirty and not room.records:
            return
        started = time.perf_counter()
        wall = time.time()
        with self.db:
            for kind, data in room.records:
                if kind == "finished":
                    self.db.execute(
                        "INSERT INTO games (room, finished, save) VALUES (?, ?, ?)",
                        (room.name, wall, json.dumps(data)),
                    )
                else:
                    self.db.execute(
                        "INSERT INTO events (room, at, kind, data) VALUES (?, ?, ?, ?)",
                        (room.name, wall, kind, json.dumps(data)),
                    )
            if room.dirty:
                self.db.execute(
                    "INSERT INTO rooms (name, snapshot, updated) VALUES (?, ?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET snapshot = excluded.snapshot, updated = excluded.updated",
                    (room.name, json.dumps(room.snapshot()), wall),
                )
        room.records.clear()
        room.dirty = False
        self.writes += 1
        self.write_seconds += time.perf_counter() - started

    def load_rooms(self, now: float, settings: RoomSettings | None = None) -> list[Room]:
        """Every room that was not closed, rebuilt (games replayed through the rules)."""
        rooms = []
        for (snapshot_text,) in self.db.execute("SELECT snapshot FROM rooms ORDER BY name"):
            snapshot = json.loads(snapshot_text)
            if snapshot["closed"]:
                continue
            name = snapshot["name"]
            chat = [
                json.loads(data)
                for (data,) in self.db.execute(
                    "SELECT data FROM (SELECT id, data FROM events WHERE room = ? AND kind = 'chat' "
                    "ORDER BY id DESC LIMIT ?) ORDER BY id",
                    (name, CHAT_HISTORY),
                )
            ]
            finished = self.finished_games(name)
            actions = [
                step["action"]
                for (data,) in self.db.execute(
                    "SELECT data FROM events WHERE room = ? AND kind = 'action' ORDER BY id", (name,)
                )
                if (step := json.loads(data))["game"] == snapshot["games_played"]
            ]
            rooms.append(Room.restore(snapshot, chat, finished, now, settings, actions))
        return rooms

    def finished_games(self, room: str | None = None) -> list[dict[str, Any]]:
        """The saves of the finished games, oldest first (of one room, or of all)."""
        if room is None:
            rows = self.db.execute("SELECT save FROM games ORDER BY id")
        else:
            rows = self.db.execute("SELECT save FROM games WHERE room = ? ORDER BY id", (room,))
        return [json.loads(save) for (save,) in rows]

    def export(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Write every finished game as a save file ``ROOM-N.json``; ``reversi.load_game`` reads them."""
        written = []
        counts: dict[str, int] = {}
        for room, save in self.db.execute("SELECT room, save FROM games ORDER BY id"):
            counts[room] = counts.get(room, 0) + 1
            game = game_from_dict(json.loads(save), source=f"a finished game of room {room!r}")
            written.append(save_game(game, Path(folder) / f"{room}-{counts[room]}.json"))
        return written

    def chat_lines(self, room: str) -> list[dict[str, Any]]:
        """Every chat line (alerts included) ever said in ``room``, oldest first."""
        rows = self.db.execute(
            "SELECT data FROM events WHERE room = ? AND kind = 'chat' ORDER BY id", (room,)
        )
        return [json.loads(data) for (data,) in rows]

    def close(self) -> None:
        self.db.close()
