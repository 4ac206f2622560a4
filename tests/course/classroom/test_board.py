"""The joined board without a browser: what it shows for each message (the browser test clicks it)."""

from __future__ import annotations

import pytest

from course.classroom.board import SHOWN, RoomBoard, join
from course.classroom.client import RoomClient
from course.classroom.protocol import ClassroomError
from tests.course.classroom.helpers import seated


def board_for(conn: str, role: str) -> tuple[RoomBoard, object]:
    desk, _ = seated(move_time=30)
    client = RoomClient("ws://127.0.0.1:1", "table-1", {"a": "Ada", "b": "Bob", "o": "Cy"}[conn])
    board = RoomBoard(client)
    client._take({"type": "welcome", "room": "table-1", "name": client.name, "role": role, "token": None})
    client._take(desk.room.state())
    return board, desk


def test_an_observer_gets_no_player_buttons_and_clicks_do_nothing() -> None:
    board, _ = board_for("o", "observer")
    assert board.player_box.layout.display == "none"
    board._on_click(200, 200)
    assert "Observers watch" in board.status.value
    assert "you are an observer" in board.title.value


def test_a_player_sees_the_buttons_the_clocks_and_whose_move_it_is() -> None:
    board, _ = board_for("a", "black")
    assert board.player_box.layout.display == SHOWN
    assert board.status.value.endswith("Your move.</span>")
    assert "Black (Ada): 30 s" in board.clocks.value and "White (Bob): 30 s" in board.clocks.value
    assert "<b>White</b>: Bob, undo 1" in board.seats.value


def test_the_confirm_box_appears_only_with_a_question_and_goes_with_the_answer() -> None:
    board, desk = board_for("b", "white")
    desk.send("a", "move", square="d3")
    board.client._take(desk.room.state())
    assert board.question_box.layout.display == "none"
    desk.send("a", "undo")
    board.client._take(desk.room.state())
    assert board.question_box.layout.display == "none"  # a state alone asks nothing
    question = desk.got("b", "question")[-1]
    board.client._take(question)
    assert board.question_box.layout.display == SHOWN
    assert "Ada asks to take back their last move" in board.question.value
    desk.send("b", "answer", accept=False)
    board.client._take(desk.room.state())
    assert board.question_box.layout.display == "none"


def test_errors_and_chat_are_shown() -> None:
    board, _ = board_for("a", "black")
    board.client._take({"type": "error", "message": "it is White's turn, not yours (Black)", "about": "move"})
    assert "it is White&#x27;s turn" in board.status.value
    board.client._take({"type": "chat", "from": "Bob", "text": "<b>hi</b>", "alert": False, "audience": "all"})
    assert "Bob: &lt;b&gt;hi&lt;/b&gt;" in board.chat_panel.value  # escaped, never HTML


def test_join_checks_its_arguments_first() -> None:
    with pytest.raises(ClassroomError, match="at most 9"):
        join("ws://127.0.0.1:1", room="table-1", name="Maximilian")
    with pytest.raises(ClassroomError, match="room name"):
        join("ws://127.0.0.1:1", room="table 1", name="Ada")
    with pytest.raises(ClassroomError, match="running asyncio loop"):
        join("ws://127.0.0.1:1", room="table-1", name="Ada")


def test_undo_is_enabled_only_with_something_to_take_back_and_enter_sends_a_line() -> None:
    board, desk = board_for("a", "black")
    assert board.buttons["undo"].disabled  # no move of Ada's yet
    desk.send("a", "move", square="d3")
    board.client._take(desk.room.state())
    assert not board.buttons["undo"].disabled and board.buttons["cancel"].disabled
    desk.send("a", "undo")
    board.client._take(desk.room.state())
    assert board.buttons["undo"].disabled and not board.buttons["cancel"].disabled
    asked: list[tuple[str, dict]] = []
    board._ask = lambda kind, **fields: asked.append((kind, fields))  # type: ignore[method-assign]
    board.chat_input.value = "hello"  # what Enter commits in the browser
    assert asked == [("chat", {"text": "hello"})] and board.chat_input.value == ""


def test_a_removed_line_leaves_the_board() -> None:
    board, desk = board_for("o", "observer")
    board.client._take({"type": "chat", "id": 7, "from": "Bob", "text": "rude", "alert": False, "audience": "all"})
    assert "rude" in board.chat_panel.value
    board.client._take({"type": "unsaid", "line": 7})
    assert "rude" not in board.chat_panel.value
