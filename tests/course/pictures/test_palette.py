"""One palette for every board picture, seen by every eye.

The colour-vision simulation is the independent oracle of ``tests/course/board/test_colours.py``
(Machado, Oliveira and Fernandes 2009: published matrices applied to linear RGB).  Every mark
must keep a WCAG contrast of 3:1 (the guideline for graphics) against the ground it is drawn
on, for normal vision and each simulated deficiency, in the palette and in the pictures drawn.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from course.board.view import PALETTE as BOARD_PALETTE
from course.pictures.palette import MUST_DIFFER, PRINT, SCREEN, THEMES
from course.pictures.svg import board_svg
from reversi import BLACK, WHITE, Board
from reversi.errors import ArgumentError
from tests.course.board.test_colours import MACHADO, contrast

SVG = "{http://www.w3.org/2000/svg}"


def best_contrast(mark: tuple[str, ...], ground: str, vision: str) -> float:
    return max(contrast(colour, ground, vision) for colour in mark)


@pytest.mark.parametrize("vision", MACHADO)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("pair", MUST_DIFFER, ids=lambda pair: f"{'+'.join(pair[0])}-on-{pair[1]}")
def test_every_mark_keeps_3_to_1_against_its_ground(pair, theme, vision):
    mark, ground = pair
    colours = THEMES[theme]
    assert best_contrast(tuple(colours[k] for k in mark), colours[ground], vision) >= 3.0


def test_the_old_pictures_would_fail():
    # The red last-move frame and the pale olive flip highlight the static pictures used to draw.
    assert max(contrast("#e63b2e", SCREEN["board"], v) for v in MACHADO) < 1.5
    olive = "#8cb15e"  # #ffe066 at 45% over the green board
    assert contrast(olive, SCREEN["board"], "normal") < 3.0


def test_the_clickable_board_draws_with_the_same_palette():
    for key, colour in SCREEN.items():
        assert BOARD_PALETTE[key] == colour
    assert BOARD_PALETTE[BLACK] == SCREEN["black"] and BOARD_PALETTE[WHITE] == SCREEN["white"]


def marks(svg: str) -> dict[str, set[str]]:
    """The colours each kind of mark is drawn in: class -> fills and strokes."""
    found: dict[str, set[str]] = {}
    for element in ET.fromstring(svg).iter():
        kind = (element.get("class") or "").split()
        if kind:
            paint = {element.get("fill"), element.get("stroke")} - {None, "none"}
            found.setdefault(" ".join(kind), set()).update(c for c in paint if c is not None)
    return found


@pytest.mark.parametrize("theme", THEMES)
def test_the_pictures_draw_each_mark_in_its_palette_colours(theme):
    board = Board()
    board.play("d3", BLACK)
    svg = board_svg(
        board, highlight=["d4"], markers=board.legal_moves(WHITE), last_move="d3", theme=theme
    )
    colours = THEMES[theme]
    drawn = marks(svg)
    assert drawn["board"] == {colours["board"]}
    assert drawn["highlight"] == {colours["highlight"]}
    assert drawn["marker"] == {colours["hint"], colours["hint-rim"]}
    assert drawn["last-move"] == {colours["last-move"]}
    assert drawn["disc white"] == {colours["white"], colours["rim"]}
    for vision in MACHADO:  # what a reader sees on the picture itself
        for kind in ("highlight", "marker", "last-move", "disc white", "disc black"):
            assert best_contrast(tuple(drawn[kind]), colours["board"], vision) >= 3.0, kind


def test_the_marks_differ_by_shape_as_well():
    board = Board()
    root = ET.fromstring(board_svg(board, highlight=["c4"], markers=["d3"], last_move="e4"))
    shape = {e.get("class"): e.tag.removeprefix(SVG) for e in root.iter() if e.get("class")}
    assert shape["marker"] == "circle"  # a dot, smaller than a disc
    assert shape["last-move"] == "rect" and shape["highlight"] == "rect"
    frame = next(e for e in root.iter() if e.get("class") == "last-move")
    tint = next(e for e in root.iter() if e.get("class") == "highlight")
    assert frame.get("fill") == "none" and tint.get("fill") != "none"  # a frame, a filled square


def test_print_pictures_are_light():
    svg = board_svg(Board(), theme="print")
    drawn = marks(svg)
    assert drawn["board"] == drawn["frame"] == {PRINT["board"]} == {"#ffffff"}
    with pytest.raises(ArgumentError, match="theme must be one of 'screen', 'print', not 'dark'"):
        board_svg(Board(), theme="dark")
