"""What the classroom's public names refuse, and that a refusal names the input and changes nothing."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from course.classroom.cli import add_arguments, serve
from course.classroom.client import RoomClient
from course.classroom.overview import overview, summary
from course.classroom.people import Limits, RoomSettings
from course.classroom.protocol import ClassroomError, MessageError, error, room_name
from course.classroom.room import Room
from course.classroom.server import ClassServer, RateLimit, build_app
from course.classroom.storage import Storage
from course.classroom.views import rows, state_message
from reversi import BLACK, ArgumentError, Board, BoardSizeError, ReversiError
from tests.course.classroom.helpers import seated


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"move_time": math.nan}, "move_time"),
        ({"move_time": 0}, "move_time"),
        ({"grace": -1}, "grace"),
        ({"grace": "60"}, "grace"),
        ({"timeouts_to_end": 0}, "timeouts_to_end"),
        ({"timeouts_to_end": True}, "timeouts_to_end"),
    ],
)
def test_room_settings_refuse_what_no_room_can_run(settings: dict[str, object], words: str) -> None:
    with pytest.raises(ArgumentError, match=words):
        RoomSettings(**settings)  # type: ignore[arg-type]


def test_a_board_size_and_limits_are_checked_too() -> None:
    with pytest.raises(BoardSizeError, match="size"):
        RoomSettings(size=7)
    with pytest.raises(ArgumentError, match="connections"):
        Limits(connections=0)
    with pytest.raises(ArgumentError, match="window"):
        Limits(window=math.inf)
    assert RoomSettings(move_time=5, grace=0.3, size=6).size == 6  # valid settings still work


def test_a_room_refuses_a_bad_name_settings_or_clock_reading() -> None:
    with pytest.raises(MessageError, match="room name"):
        Room("no spaces here")
    with pytest.raises(MessageError, match="must be text"):
        room_name(Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="settings"):
        Room("t1", Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="now"):
        Room("t1", now=math.nan)


def test_a_refused_call_leaves_the_room_as_it_was() -> None:
    desk, _ = seated(move_time=10)
    room = desk.room
    before = (room.now, room.snapshot(), list(room.chat))
    with pytest.raises(MessageError, match="hello"):
        room.join("z", Board(), desk.now + 1)  # type: ignore[arg-type]
    with pytest.raises(MessageError, match="hello"):
        room.join("z", {"type": "move", "square": "d3"}, desk.now + 1)
    with pytest.raises(ArgumentError, match="hashable"):
        room.leave([], desk.now + 1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="earlier"):
        room.tick(desk.now - 5)  # backwards while the game's clock runs
    with pytest.raises(MessageError, match="teacher's actions"):
        room.moderate({"type": "move", "square": "d3"}, desk.now + 1)
    with pytest.raises(ArgumentError, match="colour"):
        room.can_undo("black")  # type: ignore[arg-type]
    assert (room.now, room.snapshot(), list(room.chat)) == before
    assert room.can_undo(BLACK) is False  # a colour is still answered


def test_a_damaged_snapshot_is_refused_with_the_kits_error() -> None:
    desk, _ = seated()
    snapshot = desk.room.snapshot()
    del snapshot["seats"]
    with pytest.raises(ReversiError, match="damaged"):
        Room.restore(snapshot, [], [], now=1.0)
    with pytest.raises(ArgumentError, match="chat"):
        Room.restore(desk.room.snapshot(), "chat", [], now=1.0)  # type: ignore[arg-type]


def test_views_and_the_overview_take_rooms_and_boards_only() -> None:
    with pytest.raises(ArgumentError, match="Room"):
        state_message(Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Board"):
        rows("8x8")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Room"):
        summary(Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="rooms"):
        overview(lambda: [], [])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="sections"):
        overview([], ["not a function"])  # type: ignore[list-item]
    assert rows(Board(4)) == ["....", ".WB.", ".BW.", "...."]


def test_storage_refuses_what_is_not_a_folder_or_a_room(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="folder"):
        Storage(Board())  # type: ignore[arg-type]
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(ClassroomError, match="cannot open"):
        Storage(tmp_path / "file")
    storage = Storage(":memory:")
    with pytest.raises(ArgumentError, match="Room"):
        storage.save(Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="room"):
        storage.chat_lines(Board())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="now"):
        storage.load_rooms(math.inf)
    storage.close()


def test_the_server_and_its_parts_refuse_bad_arguments() -> None:
    with pytest.raises(ArgumentError, match="rate"):
        RateLimit(rate=math.nan)
    bucket = RateLimit(rate=1, burst=2, now=0.0)
    with pytest.raises(ArgumentError, match="now"):
        bucket.allow("soon")  # type: ignore[arg-type]
    assert bucket.tokens == 2.0 and bucket.dropped == 0  # the refused call used no token
    with pytest.raises(ClassroomError, match="has not started"):
        _ = ClassServer().url
    with pytest.raises(ArgumentError, match="clock"):
        ClassServer(clock=lambda: "noon")  # type: ignore[arg-type,return-value]
    with pytest.raises(ArgumentError, match="teacher_key"):
        ClassServer(teacher_key="")
    with pytest.raises(ArgumentError, match="bogus"):
        build_app(bogus=1)
    with pytest.raises(ArgumentError, match="server"):
        build_app(Board())  # type: ignore[arg-type]


def test_the_command_line_and_the_client_check_their_arguments() -> None:
    with pytest.raises(ArgumentError, match="ArgumentParser"):
        add_arguments(Board())  # type: ignore[arg-type]
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(ArgumentError, match="cannot add"):
        add_arguments(parser)  # its flags are there already
    with pytest.raises(ArgumentError, match="port"):
        serve("127.0.0.1", -1, Path("data"), 60.0, None)
    with pytest.raises(ArgumentError, match="data"):
        serve("127.0.0.1", 8765, "data", 60.0, None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="watch"):
        RoomClient("ws://127.0.0.1:1", "t1", "Ada", watch="yes")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="about"):
        error("refused", about=3)  # type: ignore[arg-type]
