"""The static SVG picture of a board: valid XML, the right marks, labels, and no side effects."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

import course
from course.pictures.svg import board_svg, game_svg, show
from reversi import BLACK, WHITE, Board, NotationError
from reversi.game import Game

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises if the XML is not well formed
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def test_the_start_position_is_valid_svg_with_four_discs():
    root = parse(board_svg(Board()))
    assert len(with_class(root, "disc")) == 4
    assert len(with_class(root, "black")) == len(with_class(root, "white")) == 2
    titles = sorted(e.find(f"{SVG}title").text for e in with_class(root, "disc"))
    assert titles == ["d4 White", "d5 Black", "e4 Black", "e5 White"]


def test_coordinates_run_a_to_h_across_and_1_to_8_down():
    root = parse(board_svg(Board()))
    labels = [e.text for e in with_class(root, "coord")]
    assert sorted(labels) == sorted(list("abcdefgh") + [str(n) for n in range(1, 9)])
    by_text = {e.text: e for e in with_class(root, "coord")}
    assert float(by_text["a"].get("x")) < float(by_text["h"].get("x"))  # letters left to right
    assert float(by_text["1"].get("y")) < float(by_text["8"].get("y"))  # row 1 at the top
    assert not with_class(parse(board_svg(Board(), coordinates=False)), "coord")


def test_highlights_markers_and_the_last_move():
    board = Board()
    board.play("d3", BLACK)
    root = parse(
        board_svg(board, highlight=["c3", (4, 2)], markers=board.legal_moves(WHITE), last_move="d3")
    )
    assert len(with_class(root, "highlight")) == 2
    markers = sorted(e.find(f"{SVG}title").text for e in with_class(root, "marker"))
    assert markers == ["c3", "c5", "e3"]
    (frame,) = with_class(root, "last-move")
    disc_d3 = [e for e in with_class(root, "disc") if e.find(f"{SVG}title").text == "d3 Black"][0]
    x, size = float(frame.get("x")), float(frame.get("width"))
    assert x < float(disc_d3.get("cx")) < x + size  # the frame is around d3


def test_the_picture_is_a_pure_function_of_the_board():
    board = Board()
    before = board.copy()
    assert board_svg(board, markers=["d3"]) == board_svg(board, markers=["d3"])
    assert board == before


@pytest.mark.parametrize("size", [4, 6, 16])
def test_other_sizes(size):
    root = parse(board_svg(Board(size), size_px=300))
    assert root.get("width") == root.get("height") == "300"
    assert len(with_class(root, "coord")) == 2 * size


def test_squares_off_the_board_are_refused():
    with pytest.raises(NotationError, match="'i1' is not a square of an 8x8 board"):
        board_svg(Board(), highlight=["i1"])
    with pytest.raises(ValueError, match="size_px"):
        board_svg(Board(), size_px=0)


def test_show_and_game_pictures():
    picture = show(Board(), highlight=["d3"])
    assert picture._repr_svg_() == board_svg(Board(), highlight=["d3"])
    assert str(picture) == str(Board())
    game = Game()
    game.play("d3")
    root = parse(game_svg(game))
    assert len(with_class(root, "marker")) == 3 and len(with_class(root, "last-move")) == 1


def test_boards_show_themselves_as_svg_in_ipython():
    from IPython.core.formatters import DisplayFormatter

    shell = SimpleNamespace(display_formatter=DisplayFormatter())  # what IPython's shell has
    assert course.register_formatters(shell) is True
    data, _ = shell.display_formatter.format(Board())
    assert data["image/svg+xml"] == board_svg(Board())
    data, _ = shell.display_formatter.format(Game())
    assert 'class="marker"' in data["image/svg+xml"]


def test_outside_ipython_nothing_is_registered(monkeypatch):
    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    assert course.register_formatters() is False


def test_the_last_move_frame_stays_on_the_last_disc_after_a_pass():
    game = Game()
    for move in ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]:
        game.play(move)
    game.pass_turn()  # Black has no move
    assert game.last_move == game.board.square("c1")
    root = parse(game_svg(game))
    frame = with_class(root, "last-move")
    assert len(frame) == 1
    x, y = float(frame[0].get("x")), float(frame[0].get("y"))
    assert (x, y) == (20 + 2 * 40 + 2, 20 + 0 * 40 + 2)  # c1: column c, row 1


def test_a_board_picture_is_made_of_two_texts() -> None:
    from course.pictures.svg import BoardPicture
    from reversi.errors import ArgumentError

    assert str(BoardPicture("<svg/>", "board")) == "board"
    with pytest.raises(ArgumentError, match="BoardPicture"):
        BoardPicture("<svg/>", Board())  # type: ignore[arg-type]


def test_the_picture_s_words_are_french_when_the_reader_is_and_english_stays_as_it_was() -> None:
    from course.i18n import speaking
    from reversi.errors import ArgumentError

    board = Board(4)
    english = parse(board_svg(board))
    assert english.find(f"{SVG}desc").text == repr(board) == "<Board 4x4: 2 black, 2 white>"
    assert sorted(e.find(f"{SVG}title").text for e in with_class(english, "disc")) == [
        "b2 White", "b3 Black", "c2 Black", "c3 White"]  # fmt: skip
    with speaking("fr"):
        french = parse(board_svg(board))
        with pytest.raises(ArgumentError, match=r"^size_px doit être un nombre entier de pixels de 1 à 10000, pas 0$"):
            board_svg(board, size_px=0)
        with pytest.raises(ArgumentError, match=r"^markers doit être une liste de cases comme \['d3', 'e4'\]"):
            board_svg(board, markers="d3")
    assert french.find(f"{SVG}desc").text == "<Plateau 4x4 : Noir 2, Blanc 2>"
    assert sorted(e.find(f"{SVG}title").text for e in with_class(french, "disc")) == [
        "b2 : pion blanc", "b3 : pion noir", "c2 : pion noir", "c3 : pion blanc"]  # fmt: skip
    with pytest.raises(ArgumentError, match=r"^size_px must be a whole number of pixels from 1 to 10000, not 0$"):
        board_svg(board, size_px=0)
