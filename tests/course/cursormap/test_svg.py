"""The static picture: valid SVG, one rectangle per field, the cursor, and click geometry."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from course.cursormap import (
    CursorMapPicture,
    Layout,
    MapErrorReport,
    cursormap_svg,
    point_at,
    preview_map,
)
from course.cursormap.scene import PALETTE, scene
from reversi.cursormap import CursorGame, MapFileError, Value, load_sample, sample_maps, sample_text

SVG = "{http://www.w3.org/2000/svg}"


def _rects(svg: str, css: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # raises on invalid XML
    return [r for r in root.iter(f"{SVG}rect") if css in r.get("class", "").split()]


@pytest.mark.parametrize("name", sample_maps())
def test_every_sample_is_valid_svg_with_one_rectangle_per_field(name):
    cursor_map = load_sample(name)
    fields = _rects(cursormap_svg(cursor_map), "field")
    assert len(fields) == cursor_map.width * cursor_map.height
    penguins = sum(1 for f in cursor_map if f.value is Value.PENGUIN)
    assert sum("value-penguin" in r.get("class") for r in fields) == penguins


def test_fields_are_painted_in_their_owners_colour():
    cursor_map = load_sample("01_first_steps")
    fields = _rects(cursormap_svg(cursor_map), "field")
    for rect, field in zip(fields, cursor_map, strict=True):
        if field.value.switchable:
            assert rect.get("fill") == PALETTE[field.owner.color][field.value]


def test_the_cursor_is_drawn_with_its_label_where_it_stands():
    game = CursorGame(load_sample("01_first_steps"), seed=7)
    svg = cursormap_svg(game.map, game.cursor, game.position)
    (frame,) = _rects(svg, "cursor")
    layout = Layout.for_map(game.map)
    x, y = layout.corner(game.position.row - 1, game.position.col - 1)
    assert (float(frame.get("x")), float(frame.get("y"))) == (x, y)
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert game.cursor.label in texts
    assert sorted(texts[-9:-1]) == sorted(str(b) for b in game.cursor.bits)


def test_a_cursor_needs_a_position():
    game = CursorGame(load_sample("01_first_steps"), seed=7)
    with pytest.raises(ValueError, match="both a cursor and the position"):
        scene(game.map, game.cursor)


@pytest.mark.parametrize("name", ["01_first_steps", "06_labyrinth"])
def test_a_click_in_a_cell_finds_that_field_and_the_margin_finds_none(name):
    cursor_map = load_sample(name)
    layout = Layout.for_map(cursor_map)
    for position in cursor_map.positions():
        x, y = layout.corner(*position)
        assert layout.field_at(x + 0.5, y + layout.cell - 0.5) == position
    assert layout.field_at(layout.margin - 1, layout.margin) is None
    assert layout.field_at(layout.canvas_width - 1, layout.canvas_height - 1) is None


def test_the_picture_object_shows_itself_as_svg():
    game = CursorGame(load_sample("03_penguins"), seed=3)
    picture = CursorMapPicture.of_game(game)
    assert picture._repr_svg_() == cursormap_svg(game.map, game.cursor, game.position)
    assert str(picture) == str(game.map)


def test_preview_points_at_the_mistake():
    bad = sample_text("01_first_steps").replace('"01.10"', '"01x10"')
    report = preview_map(bad)
    assert isinstance(report, MapErrorReport)
    line = bad.split("\n").index('"01x10"') + 1
    assert str(report).startswith(f"Map error: line {line}, column 4:")
    pointer = str(report).splitlines()[-1]
    source_line = str(report).splitlines()[-2]
    assert source_line[pointer.index("^")] == "x"
    assert isinstance(preview_map(sample_text("01_first_steps")), CursorMapPicture)


def test_point_at_is_silent_for_errors_without_a_place():
    assert point_at("width=4;", MapFileError("the file does not exist")) == ""


def test_a_picture_refuses_what_is_not_a_map_or_a_game() -> None:
    from reversi.errors import ArgumentError

    with pytest.raises(ArgumentError, match="CursorMap"):
        CursorMapPicture("width=4;")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="CursorGame"):
        CursorMapPicture.of_game(load_sample("01_first_steps"))  # type: ignore[arg-type]
