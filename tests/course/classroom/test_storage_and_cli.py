"""The database (stored, resumed, exported) and the ``serve`` command's refusals."""

from __future__ import annotations

import socket

import pytest

from course.classroom.cli import serve
from course.classroom.room import Room
from course.classroom.storage import Storage
from reversi import load_game
from tests.course.classroom.helpers import seated


def stored(desk, storage: Storage) -> None:  # type: ignore[no-untyped-def]
    storage.save(desk.room)


def test_a_room_is_stored_resumed_and_its_finished_games_exported(tmp_path) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated()
    for square, conn in (("d3", "a"), ("c5", "b")):
        desk.send(conn, "move", square=square)
        storage.save(desk.room)
    assert not desk.room.records and not desk.room.dirty
    (resumed,) = storage.load_rooms(now=0.0)
    assert resumed.game is not None and resumed.game.transcript() == "d3c5"
    desk.send("a", "resign")
    storage.save(desk.room)
    assert storage.load_rooms(now=0.0)[0].finished[0]["actions"][-1] == {"action": "resign", "color": "black"}
    (path,) = storage.export(tmp_path / "saves")
    assert path.name == "table-1-1.json"
    game = load_game(path)
    assert game.transcript() == "d3c5" and str(game.outcome) == "White wins, Black 3 – White 3 (resignation)"
    assert "Game over: White wins, Black 3 – White 3 (resignation)" in [line["text"] for line in storage.chat_lines("table-1")]
    storage.close()


def test_a_closed_room_is_not_resumed(tmp_path) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated()
    desk.join("t", "Lee", teacher=True)
    desk.send("t", "close")
    storage.save(desk.room)
    assert storage.load_rooms(now=0.0) == []
    other = Room("table-2")
    other.dirty = True
    storage.save(other)
    assert [room.name for room in storage.load_rooms(now=0.0)] == ["table-2"]


def test_serve_refuses_bad_settings_and_a_taken_port(tmp_path, capsys) -> None:
    import subprocess
    import sys

    for flag, value in (("--grace", "0"), ("--move-time", "nan"), ("--grace", "-1")):  # once, where argparse reads it
        refused = subprocess.run([sys.executable, "-m", "course", "serve", "--no-site", flag, value],
                                 capture_output=True, text=True, timeout=60)  # fmt: skip
        assert refused.returncode == 2 and f"argument {flag}: must be a finite number of seconds above 0" in refused.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert serve("127.0.0.1", port, tmp_path, grace=60, move_time=None) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_ctrl_c_stops_the_server_cleanly_and_keeps_everything(class_server) -> None:
    import signal

    server = class_server()
    assert server.key and server.url.startswith("ws://127.0.0.1:")
    rest = server.stop(signal.SIGINT)  # what Ctrl-C sends
    assert "Class server stopped; everything is stored." in rest
    assert (server.data / "classroom.sqlite3").is_file()


def test_the_server_side_imports_no_widget_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys, course.classroom.server, course.classroom.cli, course.classroom.storage; "
        "print(sorted(m for m in ('ipywidgets', 'ipycanvas', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_ctrl_c_stops_the_server_even_if_its_parent_ignores_ctrl_c(class_server) -> None:
    import signal

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by the server process
    try:
        server = class_server()
    finally:
        signal.signal(signal.SIGINT, previous)
    rest = server.stop(signal.SIGINT)
    assert "Class server stopped; everything is stored." in rest


@pytest.mark.parametrize(
    "flags, named",
    [
        (["--port", "-1"], "--port"),
        (["--port", "70000"], "--port"),
        (["--port", "1" * 20], "--port"),
        (["--grace", "nan"], "--grace"),
        (["--grace", "0"], "--grace"),
        (["--move-time", "inf"], "--move-time"),
        (["--move-time", "-3"], "--move-time"),
        (["--host", ""], "--host"),
        (["--max-connections-per-address", "0"], "--max-connections-per-address"),
        (["--max-rooms-per-address", "x"], "--max-rooms-per-address"),
    ],
)
def test_every_serve_flag_refuses_a_bad_value_before_any_work(flags, named, tmp_path) -> None:
    import subprocess
    import sys

    data = tmp_path / "never-made"
    done = subprocess.run([sys.executable, "-m", "course", "serve", "--data", str(data), *flags],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and f"argument {named}" in done.stderr and "Traceback" not in done.stderr
    assert not data.exists()


def test_export_from_a_missing_database_is_refused(tmp_path, capsys) -> None:
    assert serve("127.0.0.1", 0, tmp_path / "missing", 60, None, export=tmp_path / "out") == 2
    assert "argument --data" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and not (tmp_path / "missing").exists()


def test_a_database_of_the_first_layout_is_kept_aside_and_the_server_starts(tmp_path) -> None:
    import sqlite3

    old = sqlite3.connect(tmp_path / "classroom.sqlite3")
    old.executescript(
        "CREATE TABLE rooms (name TEXT PRIMARY KEY, snapshot TEXT NOT NULL, updated REAL NOT NULL);"
        "CREATE TABLE events (id INTEGER PRIMARY KEY, room TEXT, at REAL, kind TEXT, data TEXT);"
        "CREATE INDEX events_by_room ON events (room, id);"
        "CREATE TABLE games (id INTEGER PRIMARY KEY, room TEXT, finished REAL, save TEXT);"
        "INSERT INTO rooms VALUES ('reuse', '{}', 0);"
    )
    old.commit()
    old.close()
    storage = Storage(tmp_path)
    assert storage.load_rooms(now=0.0) == []
    tables = {name for (name,) in storage.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"rooms_v1", "events_v1", "games_v1", "rooms", "events", "games", "set_aside"} <= tables
    assert storage.db.execute("SELECT name FROM rooms_v1").fetchall() == [("reuse",)]
    storage.close()
