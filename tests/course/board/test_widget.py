"""The board widget without a browser: simulated canvas events and button presses.

Without a frontend the drawing commands go nowhere (the browser tests check the
pixels); here the widgets' values are checked, and that an error in a callback
ends up in the status line rather than in the browser console.
"""

from __future__ import annotations

import asyncio
import html
import re

import ipywidgets
import pytest

from course import GameWidget, ReversiBoard, play
from course.board.view import BoardGeometry
from course.pictures.pawns import SAMPLE_PAWNS
from reversi import BLACK, WHITE, square
from reversi.errors import ArgumentError


def mouse_down(widget: GameWidget, name: str) -> None:
    """What ipycanvas does when the browser reports a mouse-down on square ``name``."""
    x, y = widget.board.geometry.centre(square(name, widget.controller.game.board.size))
    widget.board.canvas._handle_frontend_event(None, {"event": "mouse_down", "x": x, "y": y}, [])


def client_ready(widget: GameWidget) -> None:
    widget.board.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])


def text(html_widget: ipywidgets.HTML) -> str:
    """The words a widget shows, without the warning sign of a refusal or an error."""
    words = re.sub(r'<span class="reversi-sign"[^>]*>[^<]*</span> ', "", html_widget.value)
    return html.unescape(re.sub(r"<[^>]+>", "", words))


def tone(status: ipywidgets.HTML) -> str:
    """The CSS class that gives the status line its look."""
    found = re.match(r'<span class="([a-z-]+)"', status.value)
    assert found, status.value
    return found[1]


def test_play_returns_a_widget_with_the_classes_the_browser_tests_read():
    board = play()
    assert isinstance(board, GameWidget) and ReversiBoard is GameWidget
    assert "reversi-game" in board._dom_classes
    for widget, css in [
        (board.status, "reversi-status"),
        (board.pawns_panel, "reversi-pawns"),
        (board.scores_panel, "reversi-scores"),
        (board.log_panel, "reversi-log"),
        (board.turn, "reversi-turn"),
        (board.board.canvas, "reversi-canvas"),
    ]:
        assert css in widget._dom_classes
    assert text(board.turn) == "Black to move."
    assert re.search(r"Black: 2\nWhite: 2\nTotal: 4\nEmpty: 60", text(board.pawns_panel))


def test_a_click_on_d3_updates_the_panels():
    board = play()
    mouse_down(board, "d3")
    assert re.search(r"Black: 4\nWhite: 1\nTotal: 5\nEmpty: 59", text(board.pawns_panel))
    assert "1. Black d3 flips d4" in text(board.log_panel)
    assert text(board.status) == "Black played d3 and turned 1 disc. White to move."
    assert tone(board.status) == "reversi-note" and "reversi-sign" not in board.status.value
    mouse_down(board, "a1")
    assert text(board.status) == "'a1' is not a legal move for White: no Black disc is next to a1"
    assert tone(board.status) == "reversi-refusal" and "reversi-sign" in board.status.value
    assert "Black: 4" in text(board.pawns_panel)


def test_a_click_in_the_margin_is_not_a_move():
    board = play()
    board.board.canvas._handle_frontend_event(None, {"event": "mouse_down", "x": 3, "y": 3}, [])
    assert text(board.status) == (
        "Click on a square of the board (the coordinates are not squares)."
    )
    assert tone(board.status) == "reversi-refusal"
    assert board.controller.game.plies == []


def test_an_exception_in_a_click_handler_is_shown_in_the_widget(monkeypatch):
    board = play()

    def broken_click(where):
        raise ZeroDivisionError("division by zero in a handler")

    monkeypatch.setattr(board.controller, "click", broken_click)
    mouse_down(board, "d3")  # ipywidgets would only log this to the browser console
    assert text(board.status) == "Error: ZeroDivisionError: division by zero in a handler"
    assert tone(board.status) == "reversi-error-line"
    assert "Traceback" in board.errors.value and "broken_click" in board.errors.value


def test_an_exception_in_a_button_handler_is_shown_in_the_widget(monkeypatch):
    board = play()

    def broken():
        raise KeyError("no such thing")

    monkeypatch.setattr(board.controller, "new_game", broken)
    board.buttons["new"].click()
    assert text(board.status).startswith("Error: KeyError")


def test_an_exception_while_drawing_an_event_is_shown(monkeypatch):
    board = play(animate=False)

    def broken_draw(*args, **kwargs):
        raise RuntimeError("the canvas is on fire")

    monkeypatch.setattr(board.board, "draw", broken_draw)
    mouse_down(board, "d3")
    assert "RuntimeError: the canvas is on fire" in text(board.status)


def test_the_buttons_follow_the_game():
    board = play()
    buttons = board.buttons
    assert buttons["pass"].disabled and buttons["stop"].disabled and not buttons["resign"].disabled
    for move in ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]:
        mouse_down(board, move)
    assert not buttons["pass"].disabled  # Black has no move now
    buttons["pass"].click()
    assert buttons["pass"].disabled and board.controller.game.turn is WHITE
    buttons["resign"].click()
    assert buttons["resign"].disabled and buttons["undo"].disabled
    assert "White resigned" in text(board.status)
    assert re.search(r"Black: 1", text(board.scores_panel))


def test_undo_between_people_shows_accept_and_decline():
    board = play()
    assert board.undo_box.layout.display == "none"
    mouse_down(board, "d3")
    board.buttons["undo"].click()
    assert board.undo_box.layout.display == ""
    assert "White: Black asks to take back their last move." in board.undo_question.value
    accept = board.undo_box.children[1]
    accept.click()
    assert board.undo_box.layout.display == "none"
    assert board.controller.game.plies == []
    assert "Black: 2" in text(board.pawns_panel)


def opened(board):
    """The board's settings panel, opened as a student opens it (its tabs are made then)."""
    board.settings_panel.widget.selected_index = 0
    return board.settings_panel


def test_the_settings_tabs_are_made_when_the_panel_is_first_opened():
    board = play()
    before = len(list(_all_widgets(board)))
    panel = board.settings_panel
    assert panel.setting_controls == {} and panel.player_controls == {} and panel.save_list is None
    panel.sync()
    panel.refresh_saves()  # nothing to show yet: nothing made
    assert panel.setting_controls == {}
    tabs = opened(board).widget.children[0]
    assert isinstance(tabs, ipywidgets.Tab) and len(tabs.children) == 5
    made = len(list(_all_widgets(board)))
    assert made > 2 * before - 20  # the tabs are about half of a board's widgets
    panel.widget.selected_index = None
    panel.widget.selected_index = 0  # closed and opened again: the same tabs
    assert panel.widget.children[0] is tabs and len(list(_all_widgets(board))) == made
    assert panel.setting_controls["size"].value == 8  # they show the game's settings


def test_settings_controls_reach_the_controller():
    board = play()
    controls = opened(board).setting_controls
    controls["animate"].value = False
    controls["no_move_policy"].value = controls["no_move_policy"].options[1][1]
    controls["size"].value = 6
    settings = board.controller.settings
    assert settings.animate is False and settings.no_move_policy.value == "stalemate"
    assert board.controller.game.board.size == 6 and board.board.geometry.size == 6
    kind, name = board.settings_panel.player_controls[WHITE]
    name.value = "Gus"
    kind.value = "greedy"
    assert board.controller.players[WHITE].name == "Gus"
    assert board.controller.players[WHITE].kind == "greedy"
    name.value = "x" * 30
    assert "too long" in text(board.status)


def test_loading_a_save_updates_the_controls(tmp_path):
    first = play(white="greedy", size=6, saves_folder=tmp_path)
    mouse_down(first, first.controller.game.legal_moves()[0].name)
    first.controller.save("six")
    second = play(saves_folder=tmp_path)
    opened(second).save_list.options = second.controller.save_names()
    second.settings_panel.save_list.value = "six"
    load_button = [b for b in _all_widgets(second) if getattr(b, "description", "") == "Load"][0]
    load_button.click()
    assert second.settings_panel.setting_controls["size"].value == 6
    assert second.settings_panel.player_controls[WHITE][0].value == "greedy"
    assert second.board.geometry.size == 6
    assert text(second.status).startswith("Loaded 'six'.")


def test_time_limits_not_in_the_menu_are_added_to_it():
    board = play(time_per_move=15)
    assert opened(board).setting_controls["time_per_move"].value == 15
    assert text(board.clock) == "Black: 15 s left"


def test_pawn_pictures_and_the_fallback_to_discs():
    pictured = play(black_image=SAMPLE_PAWNS[BLACK], white_image=SAMPLE_PAWNS[WHITE])
    assert isinstance(pictured.board.images[BLACK], ipywidgets.Image)
    assert isinstance(pictured.board.images[WHITE], ipywidgets.Image)
    with pytest.raises(ArgumentError, match="black_image cannot use pawn image .* no such file"):
        play(black_image="no-such-picture.png")  # a setting given in the cell is refused
    pictured.set_pawn_images("no-such-picture.png", None)  # typed into the panel: discs, and why
    assert pictured.board.images[BLACK] is None and pictured.board.images[WHITE] is None
    assert "no such file: drawing solid discs instead" in text(pictured.status)
    assert pictured.controller.settings.black_image is None  # a picture that failed is not kept
    assert pictured.controller.update_settings(animate=False)


def test_sound_is_off_unless_asked_for():
    quiet = play()
    mouse_down(quiet, "d3")
    assert quiet.sound.widget.value == ""
    loud = play(sound=True)
    mouse_down(loud, "d3")
    assert "<audio autoplay" in loud.sound.widget.value and loud.sound.plays == 1
    opened(loud).setting_controls["sound"].value = False
    mouse_down(loud, "c3")
    assert loud.sound.widget.value == "" and loud.sound.plays == 1


def test_two_boards_are_independent():
    first, second = play(), play()
    mouse_down(first, "d3")
    assert second.controller.game.plies == []
    assert "Black: 2" in text(second.pawns_panel)


def _models(widget):
    """Every model of a board: each widget, its layout and its style, once each."""
    seen = {}
    for each in _all_widgets(widget):
        for model in (each, getattr(each, "layout", None), getattr(each, "style", None)):
            if model is not None:
                seen[model.model_id] = model
    return seen


def test_a_boards_plain_texts_and_buttons_share_one_layout_and_one_style():
    board = play()
    texts = [board.turn, board.clock, board.status, board.errors, board.live, board.log_panel,
             board.undo_question, board.css]  # fmt: skip
    assert len({t.layout.model_id for t in texts}) == 1 and len({t.style.model_id for t in texts}) == 1
    buttons = [*board.buttons.values(), *board.undo_box.children[1:]]
    assert len({b.style.model_id for b in buttons}) == 1
    assert len({b.layout.model_id for b in board.buttons.values()}) == 1
    # what is shown and hidden by its layout keeps a layout of its own
    shown_or_hidden = [board.undo_box, *board.panel_boxes.values(), board.thinking_panel.text,
                       board.thinking_panel.bar, board.thinking_panel.plot]  # fmt: skip
    shared = {board.turn.layout.model_id, board.buttons["new"].layout.model_id}
    assert len({w.layout.model_id for w in shown_or_hidden} | shared) == len(shown_or_hidden) + 2
    board._show_panel("log", False)
    assert board.panel_boxes["log"].layout.display == "none" and board.turn.layout.display is None
    assert play().turn.layout is not board.turn.layout  # each board has its own
    assert len(_models(board)) < 75  # 103 when every widget had its own layout and style


def test_a_computer_game_starts_when_the_board_is_shown():
    async def scenario():
        board = play("random", "greedy", animate=False)
        await asyncio.sleep(0.05)
        assert board.controller.game.plies == []  # nobody is watching yet
        client_ready(board)
        await board.controller.idle()
        return board

    board = asyncio.run(scenario())
    assert board.controller.game.is_over
    assert text(board.turn).startswith("Game over")


def test_the_panels_can_be_hidden():
    board = play(panels=("pawns",))
    assert board.panel_boxes["log"].layout.display == "none"
    assert board.panel_boxes["pawns"].layout.display == ""


@pytest.mark.parametrize("size", [4, 8, 16])
def test_clicks_map_to_squares_for_every_size(size):
    board = play(size=size)
    assert board.board.geometry == BoardGeometry.fit(size)


def _all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _all_widgets(child)


def test_undo_and_pass_are_disabled_until_they_can_be_used():
    board = play()
    assert board.buttons["undo"].disabled and board.buttons["pass"].disabled
    mouse_down(board, "d3")
    assert not board.buttons["undo"].disabled and board.buttons["pass"].disabled
    board.buttons["resign"].click()
    assert board.buttons["undo"].disabled and board.buttons["resign"].disabled


def test_the_board_and_panels_wrap_and_the_canvas_scales_down_whole():
    board = play()
    row = board.children[1]
    assert row.layout.flex_flow == "row wrap" and board.board.canvas in row.children
    canvas = board.board.canvas.layout
    assert (canvas.max_width, canvas.height, canvas.width) == ("100%", "auto", "400px")
