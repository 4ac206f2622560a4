"""The board widget without a browser: its handlers, texts, map picker and error display.

Drawing commands without a frontend are fire-and-forget, so these tests check what the
handlers do to the controller and the text widgets; tests/browser/test_cursormap_board.py
checks the pixels in a real browser.
"""

from __future__ import annotations

import datetime

import pytest

from course.cursormap import CursorMapWidget, play_cursormap
from reversi.cursormap import Owner, load_sample, sample_text

NO_MODIFIERS = (False, False, False)


@pytest.fixture
def board() -> CursorMapWidget:
    return play_cursormap("01_first_steps", seed=2024)


def test_texts_carry_css_classes_for_browser_tests(board):
    for widget, css in [
        (board.turn, "cursormap-turn"),
        (board.status, "cursormap-status"),
        (board.log_panel, "cursormap-log"),
        (board.error, "cursormap-error"),
        (board.remaining, "cursormap-remaining"),
    ]:
        assert css in widget._dom_classes
    assert "Turn 1: player one (blue) to play" in board.turn.value
    assert "at (1, 2)" in board.status.value


def test_keys_on_the_canvas_move_and_apply(board):
    board._on_key_down("ArrowRight", *NO_MODIFIERS)
    assert "at (1, 3)" in board.status.value
    board._on_key_down("Enter", *NO_MODIFIERS)
    assert "player two (red) to play" in board.turn.value
    assert "Turn 1: player one (blue) applied" in board.log_panel.value
    assert board.error.value == ""


def test_tab_on_the_canvas_hands_the_focus_on_and_shift_tab_lets_it_go(board, monkeypatch):
    """ipycanvas keeps Tab from the browser: the board passes the focus on (no keyboard trap)."""
    sent = []
    for name, widget in (("up", board.buttons["up"]), ("canvas", board.canvas)):
        monkeypatch.setattr(
            widget, "send", lambda content, *_, name=name: sent.append((name, content))
        )
    status = board.status.value
    board._on_key_down("Tab", *NO_MODIFIERS)
    board._on_key_down("Tab", True, False, False)
    assert sent == [("up", {"do": "focus"}), ("canvas", {"do": "blur"})]
    assert board.status.value == status  # the cursor stays put


def test_a_click_on_a_field_moves_the_cursor_there_and_the_margin_does_nothing(board):
    x, y = board.geometry.corner(3, 0)
    board._on_mouse_down(x + 10.4, y + 10.7)
    assert board.controller.game.position == (3, 0)
    board._on_mouse_down(2, 2)
    assert board.controller.game.position == (3, 0)


def test_buttons_do_what_the_keys_do(board):
    board.buttons["left"].click()
    board.buttons["up"].click()
    assert board.controller.game.position == (0, 1)
    board.buttons["apply"].click()
    assert board.controller.game.player is Owner.TWO
    board.buttons["new"].click()
    assert board.controller.game.turn == 1


def test_an_exception_in_a_handler_is_shown_under_the_board(board, monkeypatch):
    def broken(key):
        raise RuntimeError("the controller broke")

    monkeypatch.setattr(board.controller, "key", broken)
    board.canvas._handle_frontend_event(None, {"event": "key_down", "key": "Enter",
                                               "shift_key": False, "ctrl_key": False,
                                               "meta_key": False}, [])  # fmt: skip
    assert "RuntimeError" in board.error.value
    assert "the controller broke" in board.error.value


def test_a_bad_map_text_is_shown_and_the_game_goes_on(board):
    board._on_key_down("Enter", *NO_MODIFIERS)
    game = board.controller.game
    board.map_text.value = sample_text("01_first_steps").replace("two=r;", "two=b;")
    board.load_button.click()
    assert "Map not loaded: your map: line" in board.error.value
    assert board.controller.game is game
    assert "player two (red) to play" in board.turn.value


def test_picking_a_sample_resizes_the_canvas(board):
    width = board.canvas.width
    board.sample_picker.value = "06_labyrinth"
    assert board.controller.game.map == load_sample("06_labyrinth")
    assert board.canvas.width == board.geometry.canvas_width != width
    assert "width=12;" in board.map_text.value


def test_an_uploaded_map_file_is_played(board):
    text = sample_text("03_penguins").encode()
    board.upload.value = (
        {"name": "mine.map", "type": "", "size": len(text), "content": memoryview(text),
         "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)},
    )  # fmt: skip
    assert board.controller.map_name == "mine.map"
    assert board.controller.game.map == load_sample("03_penguins")


def test_two_boards_are_independent():
    first, second = play_cursormap(seed=1), play_cursormap(seed=1)
    first._on_key_down("ArrowLeft", *NO_MODIFIERS)
    assert first.controller.game.position == (1, 1)
    assert second.controller.game.position == (1, 2)
