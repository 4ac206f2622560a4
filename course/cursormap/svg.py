"""Static pictures of a cursor map: an SVG string from a pure function, and an object that
shows itself as that picture in Jupyter (so a lesson reads in a static notebook viewer).

>>> from reversi.cursormap import load_sample
>>> svg = cursormap_svg(load_sample("01_first_steps"))
>>> svg.startswith("<svg") and svg.count('class="field ') == 5 * 4
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from course.cursormap.scene import (
    FONT,
    Ellipse,
    Layout,
    Pixels,
    Polygon,
    Rect,
    Shape,
    Text,
    check_cursor,
    scene,
)
from course.i18n import _
from reversi.cursormap import Cursor, CursorGame, CursorMap, MapFileError, parse_map
from reversi.surface import student


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _shape_svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    n = _number
    if isinstance(shape, Rect):
        css = f" class={quoteattr(shape.css)}" if shape.css else ""
        stroke = (
            f' stroke="{shape.stroke}" stroke-width="{n(shape.line_width)}"' if shape.stroke else ""
        )
        return (
            f'<rect x="{n(shape.x)}" y="{n(shape.y)}" width="{n(shape.width)}"'
            f' height="{n(shape.height)}" fill="{shape.fill or "none"}"{stroke}{css}/>'
        )
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        return (
            f'<text x="{n(shape.x)}" y="{n(shape.y)}" font-size="{n(shape.size)}"'
            f' font-family="{FONT}" fill="{shape.color}" text-anchor="middle"'
            f' dominant-baseline="central"{weight}>{escape(shape.text)}</text>'
        )
    if isinstance(shape, Ellipse):
        return (
            f'<ellipse cx="{n(shape.cx)}" cy="{n(shape.cy)}" rx="{n(shape.rx)}"'
            f' ry="{n(shape.ry)}" fill="{shape.fill}"/>'
        )
    assert isinstance(shape, Polygon)
    points = " ".join(f"{n(x)},{n(y)}" for x, y in shape.points)
    return f'<polygon points="{points}" fill="{shape.fill}"/>'


@student
def cursormap_svg(
    cursor_map: CursorMap,
    cursor: Cursor | None = None,
    position: tuple[int, int] | None = None,
    pixels: Pixels = 480,
) -> str:
    """The map as an SVG picture, with the cursor centred on ``position`` if one is given.

    Each field is a ``<rect class="field owner-... value-...">``; the cursor's frame is
    the ``<rect class="cursor">``.
    """
    layout = Layout.for_map(cursor_map, pixels)
    width, height = layout.canvas_width, layout.canvas_height
    title = f"A {cursor_map.width}x{cursor_map.height} cursor map"
    if cursor is not None and position is not None:
        title += f" with the cursor {cursor} at {tuple(position)}"
    body = "\n".join(_shape_svg(s) for s in scene(cursor_map, cursor, position, layout))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" role="img">\n'
        f"<title>{escape(title)}</title>\n{body}\n</svg>"
    )


@student
class CursorMapPicture:
    """A map (and perhaps a cursor) that shows itself as an SVG picture in Jupyter and as
    the model's text grid elsewhere.  ``CursorMapPicture.of_game(game)`` pictures a game
    as it stands."""

    def __init__(
        self,
        cursor_map: CursorMap,
        cursor: Cursor | None = None,
        position: tuple[int, int] | None = None,
    ) -> None:
        check_cursor(cursor_map, cursor, position)
        self.map = cursor_map
        self.cursor = cursor
        self.position = position

    @classmethod
    @student
    def of_game(cls, game: CursorGame) -> CursorMapPicture:
        """The picture of ``game`` as it stands: its map, its cursor and where it stands."""
        return cls(game.map, game.cursor, game.position)

    def _repr_svg_(self) -> str:
        return cursormap_svg(self.map, self.cursor, self.position)

    def __str__(self) -> str:
        return str(self.map)

    def __repr__(self) -> str:
        return f"<CursorMapPicture of {self.map!r}>"


@student
def point_at(text: str, error: MapFileError) -> str:
    """The line of ``text`` that ``error`` names, with a caret under its column.

    >>> error = MapFileError("height must be a positive integer, got 'x'", line=2, column=8)
    >>> print(point_at("width=4;\\nheight=x;", error))
    line 2 | height=x;
                    ^
    """
    lines = text.split("\n")
    if not 1 <= error.line <= len(lines):
        return ""
    # TRANSLATORS: before a line of a map text, its number (keep the " | ")
    prefix = _("line {line} | ").format(line=error.line)
    caret = " " * (len(prefix) + max(error.column - 1, 0)) + "^"
    return f"{prefix}{lines[error.line - 1].rstrip()}\n{caret}"


class MapErrorReport:
    """A map text that could not be read: shows the error and points at its place."""

    def __init__(self, text: str, error: MapFileError) -> None:
        self.text = text
        self.error = error

    def __str__(self) -> str:
        pointer = point_at(self.text, self.error)
        said = _("Map error: {error}").format(error=self.error)
        return said + (f"\n{pointer}" if pointer else "")

    def __repr__(self) -> str:
        return str(self)


@student
def preview_map(text: str) -> CursorMapPicture | MapErrorReport:
    """Read map-file ``text``: its picture, or a report of what is wrong and where."""
    try:
        return CursorMapPicture(parse_map(text))
    except MapFileError as error:
        return MapErrorReport(text, error)
