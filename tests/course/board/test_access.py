"""Every student's hands and eyes, without a browser: keys, typed moves, the live region,
the picture stored beside the widget, the presenter view and the words on the panels."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest

from course.board import messages as say
from course.board.keys import ARROWS, KeyboardPlay
from course.board.panels import scores_html
from course.board.widget import PRESENTER_WIDTH, GameWidget, play, present
from reversi import BLACK, WHITE, Game, square
from reversi.outcome import NoMovePolicy
from reversi.scores import Scoreboard


def key(widget: GameWidget, name: str) -> None:
    """What ipycanvas does when the browser reports a key pressed on the focused canvas."""
    widget.board.canvas._handle_frontend_event(
        None, {"event": "key_down", "key": name, "shift_key": False, "ctrl_key": False,
               "meta_key": False}, [],
    )  # fmt: skip


def words(widget) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.value))


def test_arrow_keys_move_a_cursor_and_enter_plays_its_square():
    board = play()
    key(board, "ArrowDown")  # the first arrow shows the cursor in the middle (d4)
    assert board.board.cursor == square("d4")
    for name in ("ArrowUp", "ArrowUp"):
        key(board, name)
    assert board.board.cursor == square("d2")
    key(board, "ArrowDown")
    key(board, "Enter")
    assert board.controller.game.board[square("d3")] is BLACK
    assert "Black played d3" in board.controller.message


@pytest.mark.parametrize("name", sorted(ARROWS))
def test_every_arrow_stops_at_the_edge(name):
    board = play(size=4)
    for _ in range(6):
        key(board, name)
    cursor = board.board.cursor
    assert cursor is not None and 0 <= cursor.row < 4 and 0 <= cursor.col < 4
    drow, dcol = ARROWS[name]
    assert (drow == 0 or cursor.row in (0, 3)) and (dcol == 0 or cursor.col in (0, 3))


def test_escape_hides_the_cursor_and_enter_without_cursor_does_nothing():
    board = play()
    key(board, "Enter")
    assert not board.controller.game.plies
    key(board, "ArrowLeft")
    key(board, "Escape")
    assert board.board.cursor is None


def test_a_typed_move_plays_and_a_bad_one_is_refused_with_the_reason():
    board = play()
    board.keyboard.box.value = "d3"
    assert board.controller.game.board[square("d3")] is BLACK and board.keyboard.box.value == ""
    board.keyboard.box.value = "z9"
    assert len(board.controller.game.plies) == 1
    assert "z9" in words(board.status)
    board.keyboard.box.value = "x" * 500  # cut, then refused
    assert len(board.controller.game.plies) == 1


def test_typing_pass_passes_only_when_the_rules_allow():
    board = play()
    board.keyboard.box.value = "pass"
    assert not board.controller.game.plies  # Black has moves: refused
    assert words(board.status).strip()


def test_space_plays_too_and_a_taken_square_is_refused():
    board = play()
    keyboard = KeyboardPlay(board.controller, board.board, board.redraw)
    keyboard.key_down("ArrowRight")  # shows the cursor on d4, which is taken
    keyboard.key_down(" ")
    assert not board.controller.game.plies and board.controller.tone is say.Tone.REFUSAL
    keyboard.key_down("ArrowUp")
    keyboard.key_down(" ")
    assert [str(ply.move) for ply in board.controller.game.plies] == ["d3"]


def test_the_live_region_says_the_last_move_and_the_counts():
    board = play()
    assert 'aria-live="polite"' in board.live.value and "No move yet" in words(board.live)
    board.controller.click("d3")
    assert words(board.live) == say.spoken_position(board.controller.game)
    assert "Last move: Black d3, turning 1 disc. Discs: Black 4, White 1." in words(board.live)


def test_spoken_position_covers_a_pass_a_timeout_and_the_end():
    game = Game(size=4)
    for move in ("b1", "a1", "a2"):
        game.play(move) if game.legal_moves() else game.pass_turn()
    assert "Last move:" in say.spoken_position(game)
    game.resign(WHITE)
    assert "Game over" in say.spoken_position(game)


def test_the_display_carries_an_svg_picture_beside_the_widget():
    board = play()
    board.controller.click("d3")
    bundle = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    svg = ET.fromstring(bundle["image/svg+xml"])
    assert svg.tag.endswith("svg")
    assert bundle["image/svg+xml"].count("<circle") >= 5  # the five discs, at least


def test_the_presenter_view_fills_the_width_with_big_text():
    board = present()
    assert "reversi-present" in board._dom_classes
    assert board.board.canvas.layout.width == PRESENTER_WIDTH
    assert board.board.canvas.width >= 800
    assert "font-size: 22px" in board.css.value
    assert board.controller.is_computer(WHITE) and not board.controller.is_computer(BLACK)


def test_the_panels_say_discs_and_stalemates_only_when_that_rule_ended_a_game():
    board = play()
    assert "Discs" in board.panel_boxes["pawns"].children[0].value
    assert "Stalemate" not in scores_html(Scoreboard())
    board = play(no_move_policy=NoMovePolicy.STALEMATE)
    assert "Stalemate" not in board.scores_panel.value
    assert "Draws" in words(board.scores_panel)


def test_tab_on_the_board_hands_the_focus_on_and_shift_tab_lets_it_go(monkeypatch):
    """ipycanvas keeps every key from the browser, Tab too: the board passes the focus on itself
    (to New game; backwards it lets go), so the keyboard is never trapped on it."""
    board = play()
    sent = []
    for name, widget in (("new", board.buttons["new"]), ("canvas", board.board.canvas)):
        monkeypatch.setattr(
            widget, "send", lambda content, *_, name=name: sent.append((name, content))
        )
    before = (board.board.cursor, board.status.value)
    key(board, "Tab")
    board.board.canvas._handle_frontend_event(
        None, {"event": "key_down", "key": "Tab", "shift_key": True, "ctrl_key": False,
               "meta_key": False}, [],
    )  # fmt: skip
    assert sent == [("new", {"do": "focus"}), ("canvas", {"do": "blur"})]
    assert (board.board.cursor, board.status.value) == before  # Tab plays nothing
