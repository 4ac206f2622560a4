"""What a cursor-map picture is made of: a pure list of shapes, drawn by SVG or by a canvas.

:func:`scene` turns a map (and optionally a cursor and where its centre stands) into
rectangles, texts, ellipses and polygons in pixel coordinates.  :mod:`.svg` writes them
as SVG and :mod:`.view` paints them on an ipycanvas, so the static picture in a lesson
and the live board can never disagree.  :class:`Layout` also answers the reverse
question a click asks: which field lies under this pixel?

>>> from reversi.cursormap import load_sample
>>> board = load_sample("01_first_steps")
>>> layout = Layout.for_map(board)
>>> layout.cell, layout.canvas_width, layout.canvas_height
(48, 336, 288)
>>> layout.field_at(layout.margin + 1, layout.margin + 1)
Position(row=0, col=0)
>>> layout.field_at(0, 0) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

from reversi.cursormap import OFFSETS, Cursor, CursorMap, Field, Position, Value
from reversi.errors import ArgumentError
from reversi.typecheck import Between

#: The widest picture asked for, in pixels.
MAX_PIXELS = 4096
#: How wide a picture may be asked to be.
Pixels = Annotated[int, Between(64, MAX_PIXELS)]

# Two shades per owner colour (Owner.color): ON is the strong one, OFF the pale one.  The blue
# and the red stay apart for colour-blind eyes (tests/course/board/test_colours.py), and each
# player's fields carry a letter too (OWNER_LETTERS), so no one tells owners by colour alone.
PALETTE = {
    "blue": {Value.ON: "#0062a3", Value.OFF: "#b9d7ee"},
    "red": {Value.ON: "#b2182b", Value.OFF: "#f6bfb3"},
    "grey": {Value.ON: "#666666", Value.OFF: "#cfcfcf"},
}
#: The letter in the corner of a player's field, as in `print(map)` and the map files: B for player
#: one (blue), R for player two (red).
OWNER_LETTERS = {"one": "B", "two": "R"}
EMPTY_FILL = "#f4f0e6"  # an empty field: plain paper
ICE_FILL = "#e4f3fb"  # the ice a penguin stands on
BACKGROUND = "#fbfaf7"
GRID = "#ffffff"
CURSOR_FRAME = "#f2b705"
CURSOR_FACE = "#222222"
BIT_BADGE = "#111111"
OFF_MAP_BADGE = "#9a9a9a"  # a bit hanging over the edge: ignored
FONT = "sans-serif"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str | None
    stroke: str | None = None
    line_width: float = 1.0
    css: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    color: str
    size: float
    bold: bool = False


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str


Shape = Rect | Text | Ellipse | Polygon


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of a map picture: square cells and a one-cell margin all round, so
    that a cursor standing on an edge field shows its bits hanging over the edge."""

    columns: int
    rows: int
    cell: int

    @classmethod
    def for_map(cls, cursor_map: CursorMap, pixels: int = 480) -> Layout:
        """Cells from 16 to 48 pixels, as large as fit the map (with margins) in ``pixels``."""
        side = max(cursor_map.width, cursor_map.height) + 2
        return cls(cursor_map.width, cursor_map.height, max(16, min(48, pixels // side)))

    @property
    def margin(self) -> int:
        return self.cell

    @property
    def canvas_width(self) -> int:
        return self.columns * self.cell + 2 * self.margin

    @property
    def canvas_height(self) -> int:
        return self.rows * self.cell + 2 * self.margin

    def corner(self, row: int, col: int) -> tuple[int, int]:
        """The pixel ``(x, y)`` of the top-left corner of the cell at ``(row, col)``;
        rows and columns just outside the map (-1, ``rows``) lie in the margin."""
        return self.margin + col * self.cell, self.margin + row * self.cell

    def centre(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.corner(row, col)
        return x + self.cell / 2, y + self.cell / 2

    def field_at(self, x: float, y: float) -> Position | None:
        """The field under pixel ``(x, y)``, or None for the margin (and for no number at all)."""
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        col = math.floor((x - self.margin) / self.cell)
        row = math.floor((y - self.margin) / self.cell)
        if 0 <= row < self.rows and 0 <= col < self.columns:
            return Position(row, col)
        return None


def _field_fill(field: Field) -> str:
    """The colour a field is painted: its owner's colour, strong when ON, pale when OFF."""
    if field.value is Value.EMPTY:
        return EMPTY_FILL
    if field.value is Value.PENGUIN:
        return ICE_FILL
    return PALETTE[field.owner.color][field.value]


def _penguin(cx: float, cy: float, cell: float) -> list[Shape]:
    """A small penguin standing on ``(cx, cy)``: body, white belly, eye and beak."""
    return [
        Ellipse(cx, cy + 0.04 * cell, 0.24 * cell, 0.36 * cell, "#1c1c1c"),
        Ellipse(cx, cy + 0.12 * cell, 0.15 * cell, 0.25 * cell, "#ffffff"),
        Ellipse(cx + 0.07 * cell, cy - 0.18 * cell, 0.035 * cell, 0.035 * cell, "#ffffff"),
        Polygon(
            (
                (cx + 0.12 * cell, cy - 0.16 * cell),
                (cx + 0.30 * cell, cy - 0.11 * cell),
                (cx + 0.12 * cell, cy - 0.06 * cell),
            ),
            "#f39c12",
        ),
    ]


def _field_shapes(field: Field, row: int, col: int, layout: Layout) -> list[Shape]:
    """One field: its rectangle (CSS class ``field``), then its value or its penguin."""
    x, y = layout.corner(row, col)
    cx, cy = layout.centre(row, col)
    cell = layout.cell
    css = f"field owner-{field.owner.value} value-{field.value.value}"
    shapes: list[Shape] = [Rect(x, y, cell, cell, _field_fill(field), GRID, 1.0, css)]
    if field.value.switchable:
        color = "#ffffff" if field.value is Value.ON else "#1b1b1b"
        shapes.append(Text(cx, cy, str(field.value.bit), color, 0.45 * cell, bold=True))
        letter = OWNER_LETTERS.get(field.owner.value)
        if letter:
            shapes.append(Text(x + 0.2 * cell, y + cell - 0.2 * cell, letter, color, 0.25 * cell))
    elif field.value is Value.PENGUIN:
        shapes += _penguin(cx, cy, cell)
    return shapes


def _cursor_shapes(cursor: Cursor, position: tuple[int, int], layout: Layout) -> list[Shape]:
    """The 3x3 cursor centred on ``position``: a badge with each bit in the corner of the
    cell it covers (greyed where it hangs off the map), the operator (or ``?``) in the
    centre, and a frame around it all."""
    row, col = position
    cell = layout.cell
    radius = 0.17 * cell
    shapes: list[Shape] = []
    for bit, (drow, dcol) in zip(cursor.bits, OFFSETS, strict=True):
        r, c = row + drow, col + dcol
        x, y = layout.corner(r, c)
        on_map = 0 <= r < layout.rows and 0 <= c < layout.columns
        bx, by = x + cell - radius - 2, y + radius + 2
        badge, ink = (BIT_BADGE, CURSOR_FRAME) if on_map else (OFF_MAP_BADGE, "#ffffff")
        shapes.append(Ellipse(bx, by, radius, radius, badge))
        shapes.append(Text(bx, by, str(bit), ink, 1.3 * radius, bold=True))
    x, y = layout.corner(row, col)
    shapes.append(Rect(x + 3, y + 3, cell - 6, cell - 6, CURSOR_FACE, css="cursor-face"))
    size = 0.3 * cell if len(cursor.label) > 2 else 0.42 * cell
    cx, cy = layout.centre(row, col)
    shapes.append(Text(cx, cy, cursor.label, CURSOR_FRAME, size, bold=True))
    fx, fy = layout.corner(row - 1, col - 1)
    shapes.append(Rect(fx, fy, 3 * cell, 3 * cell, None, CURSOR_FRAME, 4.0, "cursor"))
    return shapes


def check_cursor(
    cursor_map: CursorMap, cursor: Cursor | None, position: tuple[int, int] | None
) -> None:
    """Refuse a cursor without its position (or the reverse), or a centre off the map."""
    if (cursor is None) != (position is None):
        raise ArgumentError("give both a cursor and the position of its centre, or neither")
    if position is not None and not cursor_map.contains(position):
        raise ArgumentError(f"the cursor's centre {position} is off the map")


def scene(
    cursor_map: CursorMap,
    cursor: Cursor | None = None,
    position: tuple[int, int] | None = None,
    layout: Layout | None = None,
) -> list[Shape]:
    """Every shape of the picture, back to front: background, fields, then the cursor."""
    check_cursor(cursor_map, cursor, position)
    layout = layout or Layout.for_map(cursor_map)
    shapes: list[Shape] = [
        Rect(0, 0, layout.canvas_width, layout.canvas_height, BACKGROUND, css="background")
    ]
    for row, fields in enumerate(cursor_map.fields):
        for col, field in enumerate(fields):
            shapes += _field_shapes(field, row, col, layout)
    if cursor is not None and position is not None:
        shapes += _cursor_shapes(cursor, position, layout)
    return shapes
