"""The teacher's overview: what it shows of each room, its extra sections, and the actions it accepts."""

from __future__ import annotations

import json

import pytest

from course.classroom.overview import CHAT_LINES, action, overview
from course.classroom.protocol import MESSAGES, TEACHER, MessageError
from tests.course.classroom.helpers import seated


def test_each_room_shows_board_clocks_away_undo_and_chat_and_sections_come_after() -> None:
    desk, _ = seated(move_time=30)
    desk.send("a", "move", square="d3")
    desk.send("a", "undo")
    desk.leave("b")
    desk.now += 7
    for i in range(CHAT_LINES + 3):
        desk.send("o", "chat", text=f"line {i}")

    def handins() -> dict:
        return {
            "title": "Hand-ins",
            "columns": ["student", "exercise"],
            "rows": [["Ada", "04_flips"]],
        }

    def broken() -> dict:
        raise OSError("the folder went away")

    shown = overview([desk.room], [handins, broken])
    (room,) = shown["rooms"]
    assert room["game"]["rows"][2] == "...B...." and room["game"]["undo_pending"] == "black"
    assert room["seats"]["white"]["away_for"] == 7.0 and room["seats"]["black"]["away_for"] is None
    assert [line["text"] for line in room["chat"]][-1] == f"line {CHAT_LINES + 2}"
    assert len(room["chat"]) == CHAT_LINES
    assert shown["sections"][0]["title"] == "Hand-ins"
    assert shown["sections"][1] == {"title": "A section failed", "columns": ["error"],
                                    "rows": [["the folder went away"]]}  # fmt: skip
    json.dumps(shown)  # it goes over the wire as JSON


@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_the_overview_sends_only_the_teachers_room_actions(kind: str) -> None:
    fields = {
        f.name: {str: "Ada", bool: True, int: 1}[f.kind]
        for f in MESSAGES[kind].fields
        if f.required
    }
    if kind == "move":
        fields["square"] = "d3"
    if kind == "hello":
        fields["room"] = "t1"
    raw = json.dumps({"room": "t1", "message": {"type": kind, **fields}})
    if MESSAGES[kind].senders == TEACHER and kind != "export":
        assert action(raw) == ("t1", {"type": kind, **fields})
    else:
        with pytest.raises(MessageError):
            action(raw)


@pytest.mark.parametrize(
    "raw",
    [b"\xff", "{", "[]", "[" * 1000, '{"room": "t1"}', '{"room": "t 1", "message": {"type": "end"}}',
     '{"room": "t1", "message": {"type": "mute", "name": "\\ud800"}}',
     '{"room": "t1", "message": {"type": "end"}, "x": 1}'],
)  # fmt: skip
def test_malformed_actions_are_refused_with_a_reason(raw: object) -> None:
    with pytest.raises(MessageError):
        action(raw)
