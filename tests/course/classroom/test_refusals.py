"""What the classroom refuses at its edges, with the reason, changing nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from course.classroom.connection import RateLimit
from course.classroom.protocol import ClassroomError, MessageError, room_name
from course.classroom.server import ClassServer
from course.classroom.storage import Storage, restore
from tests.course.classroom.helpers import seated


class BytesPath(os.PathLike[bytes]):
    """A path object giving bytes (``os.fspath`` returns bytes)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __fspath__(self) -> bytes:
        return os.fsencode(self.path)


def test_storage_takes_any_path_object_even_one_giving_bytes(tmp_path: Path) -> None:
    storage = Storage(BytesPath(tmp_path / "data"))
    assert storage.path == tmp_path / "data" / "classroom.sqlite3" and storage.path.is_file()
    storage.close()
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(ClassroomError, match="cannot open"):
        Storage(tmp_path / "file")


def test_a_room_name_from_a_person_is_refused_with_the_reason() -> None:
    with pytest.raises(MessageError, match="'no spaces' is not valid"):
        room_name("no spaces")


def test_a_damaged_snapshot_raises_and_leaves_nothing_behind() -> None:
    desk, _ = seated()
    snapshot = desk.room.snapshot()
    del snapshot["seats"]
    with pytest.raises(KeyError, match="seats"):
        restore(snapshot, [], [], now=1.0)


def test_a_server_has_no_address_before_it_starts() -> None:
    with pytest.raises(ClassroomError, match="has not started"):
        _ = ClassServer().url


def test_the_rate_limit_refills_with_time() -> None:
    bucket = RateLimit(rate=1, burst=2, now=0.0)
    assert [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)] == [True, True, False, True]
    assert bucket.dropped == 1
