"""A term of class play: restarts in any order, undo questions that never freeze, moderation, lifecycle."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from course.classroom.people import RoomSettings
from course.classroom.protocol import MESSAGES, MessageError, parse, readme_table
from course.classroom.room import Room
from course.classroom.storage import Storage
from reversi.notation import BLACK, WHITE
from tests.course.classroom.helpers import Desk, seated

REPO = Path(__file__).resolve().parents[3]


def restart(desk: Desk, storage: Storage) -> Room:
    """Store the desk's room, then load it back as a restarted server would."""
    storage.save(desk.room)
    rooms = {
        room.name: room for room in storage.load_rooms(now=desk.now, settings=desk.room.settings)
    }
    return rooms[desk.room.name]


def test_a_closed_name_reused_then_a_restart_resumes_the_new_game_and_keeps_the_old(
    tmp_path,
) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated()
    desk.join("t", "Lee", teacher=True)
    desk.send("a", "move", square="d3")
    desk.send("b", "resign")
    desk.send("t", "close")
    storage.forget(desk.room)  # what the server does with a closed room
    again = Desk()
    again.join("a", "Ada")
    again.join("b", "Bob")
    again.send("a", "move", square="d3")
    again.send("b", "move", square="c5")
    resumed = restart(again, storage)
    assert resumed.game is not None and resumed.game.transcript() == "d3c5"
    assert resumed.games_played == 1 and resumed.room_id != desk.room.room_id
    assert [game["actions"][-1]["action"] for game in storage.finished_games("table-1")] == [
        "resign"
    ]
    (again_resumed,) = Storage(tmp_path).load_rooms(now=0.0)  # and every later start
    assert again_resumed.game is not None and again_resumed.game.transcript() == "d3c5"


def test_a_record_that_cannot_be_replayed_is_set_aside_and_the_others_start(tmp_path) -> None:
    storage = Storage(tmp_path)
    broken, _ = seated()
    broken.send("a", "move", square="d3")
    storage.save(broken.room)
    fine = Desk()
    fine.room = Room("table-2")
    fine.join("a", "Ada")
    fine.join("b", "Bob")
    storage.save(fine.room)
    with storage.db:  # damage one stored step: d3 becomes a1, which is not legal
        storage.db.execute(
            "UPDATE events SET data = replace(data, '\"d3\"', '\"a1\"') WHERE kind = 'action'"
        )
    assert [room.name for room in storage.load_rooms(now=0.0)] == ["table-2"]
    assert storage.set_aside and "table-1" in storage.set_aside[0]
    kept = sqlite3.connect(tmp_path / "classroom.sqlite3").execute(
        "SELECT name, reason FROM set_aside"
    )
    ((name, reason),) = kept.fetchall()
    assert name == "table-1" and "a1" in reason
    assert [room.name for room in Storage(tmp_path).load_rooms(now=0.0)] == ["table-2"]  # and again


def test_an_undo_question_charges_its_wait_to_no_one() -> None:
    desk, _ = seated(move_time=5)
    desk.send("a", "move", square="d3")
    desk.wait(2)  # Bob thinks 2 s, then Ada asks
    desk.send("a", "undo")
    desk.wait(20)  # the question waits far longer than a move's time
    assert desk.room.state()["game"]["time_left"] == pytest.approx(3.0)  # shown frozen, 20 s later
    assert not [p for p in desk.game.plies if p.timeout]
    desk.send("b", "answer", accept=False)
    assert desk.game.time_left() == pytest.approx(3.0)  # Bob has what he had when asked
    assert desk.room.can_undo(BLACK)  # declined: Ada keeps her one chance
    assert desk.game.undos_left(BLACK) == 1


def test_the_asker_can_withdraw_and_an_unanswered_question_lapses_with_an_alert() -> None:
    desk, _ = seated()
    assert not desk.room.can_undo(BLACK)  # nothing to take back yet
    desk.send("a", "move", square="d3")
    assert desk.room.can_undo(BLACK) and not desk.room.can_undo(WHITE)
    desk.send("a", "undo")
    assert not desk.room.can_undo(BLACK)
    desk.send("b", "cancel")
    assert desk.errors("b") == ["you have no undo question waiting to withdraw"]
    desk.send("a", "cancel")
    assert desk.game.pending_undo is None and "Ada withdraws the undo question" in desk.chat("o")
    desk.send("a", "undo")
    desk.wait(desk.room.undo_wait + 0.5)
    assert desk.game.pending_undo is None
    assert "Nobody answered Ada's undo question within 30 s: it lapsed" in desk.chat("b")
    assert desk.game.undos_left(BLACK) == 1


def test_closing_a_room_stops_its_game_as_aborted_and_the_clock_plays_no_more(tmp_path) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated(move_time=1)
    desk.join("t", "Lee", teacher=True)
    desk.send("a", "move", square="d3")
    desk.send("t", "close")
    plies = len(desk.game.plies)
    desk.wait(30)
    assert len(desk.game.plies) == plies and desk.room.stopped == "aborted"
    storage.save(desk.room)
    assert storage.finished_games() == []
    status = storage.db.execute("SELECT status FROM games").fetchall()
    assert status == [("aborted",)]
    (path,) = storage.export(tmp_path / "out")
    assert path.name == "table-1-1-aborted.json"


def test_when_neither_player_comes_back_after_a_restart_the_game_is_abandoned(tmp_path) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated(grace=5)
    desk.send("a", "move", square="d3")
    room = restart(desk, storage)
    out = room.tick(desk.now + 6)
    texts = [m["text"] for _, m in out if m["type"] == "chat"]
    assert texts == ["Neither player came back (Ada and Bob): the game is abandoned"]
    assert room.stopped == "abandoned" and room.game is not None and room.game.outcome is None


def test_the_teacher_ends_an_abandoned_game() -> None:
    desk, _ = seated()
    desk.join("t", "Lee", teacher=True)
    desk.send("a", "end")
    assert desk.errors("a") == ["only the teacher (with the teacher key) may send 'end' in a room"]
    desk.send("t", "end")
    assert (
        desk.room.stopped == "abandoned"
        and desk.got("o", "state")[-1]["game"]["stopped"] == "abandoned"
    )
    desk.send("a", "move", square="d3")
    assert "the game was stopped (abandoned)" in desk.errors("a")[-1]


def test_moderation_mute_unsay_and_kick(tmp_path) -> None:
    storage = Storage(tmp_path)
    desk, _ = seated()
    desk.join("t", "Lee", teacher=True)
    desk.send("b", "chat", text="rude line")
    line = next(m for m in desk.got("a", "chat") if m["text"] == "rude line")
    desk.send("t", "unsay", line=line["id"])
    assert {"type": "unsaid", "line": line["id"]} in desk.got("o", "unsaid")
    assert "rude line" not in [x["text"] for x in desk.room.chat]
    assert "rude line" not in [x["text"] for x in restart(desk, storage).chat]
    desk.send("t", "mute", name="bob")
    desk.send("b", "chat", text="again")
    assert desk.errors("b")[-1].startswith("the teacher has muted you")
    desk.send(
        "b", "move", square="d3"
    )  # muted players still play (it is Black's turn: refused by the rules)
    assert "not yours" in desk.errors("b")[-1]
    desk.send("t", "unmute", name="Bob")
    desk.send("b", "chat", text="sorry")
    assert "sorry" in desk.chat("a")
    desk.send("t", "kick", name="Bob")
    assert desk.got("b", "closed")[-1]["reason"] == "the teacher disconnected you"
    assert desk.room.seats[WHITE].conn is None and desk.room.seats[WHITE].away_since == desk.now
    desk.send("t", "kick", name="Nobody")
    assert desk.errors("t")[-1] == "nobody called 'Nobody' is connected to this room"


@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_every_field_of_every_kind_refuses_wrong_types_and_hostile_text(kind: str) -> None:
    for field in MESSAGES[kind].fields:
        good = {
            f.name: {str: "Ada", bool: True, int: 1}[f.kind]
            for f in MESSAGES[kind].fields
            if f.required
        }
        if kind == "move":
            good["square"] = "d3"
        hostile: list[object] = [None, [], {}, 1.5]
        hostile += [True, "x"] if field.kind is int else [1] if field.kind is bool else [1, True]
        if field.kind is str:
            hostile += ["\ud800", "a\u0000b", " ", "x" * (field.limit + 1), "\u202e"]
        if field.kind is int:
            hostile += [-1, field.limit + 1, 10**30]
        for value in hostile:
            raw = json.dumps({"type": kind, **good, field.name: value})
            with pytest.raises(MessageError):
                parse(raw)


def test_the_developer_guide_lists_exactly_the_message_table() -> None:
    readme = (REPO / "docs" / "developer-guide.md").read_text(encoding="utf-8")
    start, end = (
        "<!-- messages: made by course.classroom.protocol.readme_table() -->",
        "<!-- /messages -->",
    )
    assert start in readme and end in readme
    block = readme.split(start, 1)[1].split(end, 1)[0].strip()
    assert block == readme_table()


def test_time_outs_forfeit_the_move_only_unless_the_room_says_otherwise(tmp_path) -> None:
    desk, _ = seated(move_time=1)
    desk.wait(10.5)  # ten time-outs in a row: the game goes on
    assert sum(p.timeout for p in desk.game.plies) == 10 and desk.game.outcome is None
    assert "ran out of time" in desk.chat("o")[-1]
    resumed = restart(desk, Storage(tmp_path))  # and replays the same after a restart
    assert (
        resumed.game is not None and resumed.game.outcome is None and len(resumed.game.plies) == 10
    )
    strict = Desk(move_time=1)
    strict.room.settings = RoomSettings(move_time=1, timeouts_to_end=4)
    strict.join("a", "Ada")
    strict.join("b", "Bob")
    strict.wait(4.5)
    assert strict.game.outcome is not None and "kept running out of time" in str(
        strict.game.outcome
    )
