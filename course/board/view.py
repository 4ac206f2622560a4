"""The board drawn on an ipycanvas Canvas: squares, discs, hints, and the flips as a short film.

This module owns the drawing and the pixel-to-square geometry; it reads the board
it is given and never changes a game or decides a rule.

:class:`BoardGeometry` is plain arithmetic (which square is under pixel (x, y)),
so it is tested without a browser.  :class:`BoardCanvas` sends the drawing
commands, each picture in one batch (``hold_canvas``).  An animation is one batch
too: the frames are separated by ``canvas.sleep``, which waits in the browser, so
the kernel is never kept busy by a film.

>>> geometry = BoardGeometry.fit(8, pixels=400)
>>> geometry.square_at(*geometry.centre((2, 3)))
d3
>>> geometry.square_at(5, 5) is None  # the margin with the coordinates
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import NamedTuple

import ipywidgets
from ipycanvas import Canvas, hold_canvas

from course.pictures.palette import SCREEN
from reversi.board import Board
from reversi.notation import BLACK, COLUMN_LETTERS, WHITE, Color, Move, Square

#: The board's colours, safe for colour-blind eyes: every pair that must be told apart keeps a
#: contrast of at least 3:1 under a simulation of protanopia, deuteranopia and tritanopia (see
#: :data:`MUST_DIFFER` and the tests), and the markers differ by shape too: a legal move is a
#: dot, the last move a light frame, the keyboard cursor a double frame,
#: the expected line numbered square tiles.
#: The colours are the kit's one palette (:data:`course.pictures.palette.SCREEN`), shared with the
#: static pictures.
PALETTE: dict[str | Color, str] = {key: colour for key, colour in SCREEN.items()}
PALETTE.update({BLACK: SCREEN["black"], WHITE: SCREEN["white"]})

#: Pairs of colours a person must tell apart on the board (tested against colour-blind vision).
MUST_DIFFER = (
    (BLACK, "board"), (WHITE, "board"), ("hint", "board"), ("last-move", "board"),
    ("cursor-inner", "board"), ("line-ring", "board"), ("coord", "frame"), (BLACK, WHITE),
)  # fmt: skip

#: Frames of one flip and the pause between them (ms), normal and slow (each capture shown on its own).
FLIP_FRAMES = 6
FRAME_MS = 30
SLOW_FRAME_MS = 45
SLOW_PAUSE_MS = 250  # before the first capture and between captures in slow mode


class BoardGeometry(NamedTuple):
    """Where the squares are: ``margin`` pixels for the coordinates, then ``size`` cells."""

    size: int
    cell: int
    margin: int

    @classmethod
    def fit(cls, size: int, pixels: int = 400) -> BoardGeometry:
        """The geometry of a ``size`` x ``size`` board about ``pixels`` wide."""
        margin = max(12, pixels // 32)  # narrow margins: squares of 40 px and more on a phone
        return cls(size, max(16, (pixels - 2 * margin) // size), margin)

    @property
    def pixels(self) -> int:
        """Width (and height) of the whole canvas."""
        return 2 * self.margin + self.size * self.cell

    def square_at(self, x: float, y: float) -> Square | None:
        """The square under canvas pixel ``(x, y)``, or ``None`` outside the squares."""
        col = math.floor((x - self.margin) / self.cell)
        row = math.floor((y - self.margin) / self.cell)
        if 0 <= row < self.size and 0 <= col < self.size:
            return Square(row, col)
        return None

    def corner(self, square: tuple[int, int]) -> tuple[int, int]:
        """Top-left pixel of a square's cell."""
        row, col = square
        return self.margin + col * self.cell, self.margin + row * self.cell

    def centre(self, square: tuple[int, int]) -> tuple[float, float]:
        """Centre pixel of a square's cell."""
        x, y = self.corner(square)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def radius(self) -> float:
        return self.cell * 0.42


class BoardCanvas:
    """An ipycanvas ``Canvas`` showing a board; ``images`` may hold a pawn picture per colour."""

    def __init__(self, size: int = 8, pixels: int = 400, css_width: str | None = None) -> None:
        self.geometry = BoardGeometry.fit(size, pixels)
        self.pixels = pixels
        self.css_width = css_width  # e.g. a presenter's "min(100%, 100vh - 120px)"
        self.cursor: Square | None = None  # the keyboard's square, drawn as a double frame
        side = self.geometry.pixels
        self.canvas = Canvas(width=side, height=side)
        self._fix_css_size()
        self.canvas.add_class("reversi-canvas")
        self.canvas.add_class("kit-presses-only")  # no move messages: course.site.canvas_events
        self.images: dict[Color, ipywidgets.Image | None] = {BLACK: None, WHITE: None}

    def resize(self, size: int) -> None:
        """Fit a board of another size (the canvas is cleared)."""
        if size != self.geometry.size:
            self.geometry = BoardGeometry.fit(size, self.pixels)
            self.canvas.width = self.canvas.height = self.geometry.pixels
            self._fix_css_size()

    # -- whole pictures -----------------------------------------------------------

    def draw(
        self,
        board: Board,
        hints: Iterable[Square] = (),
        last_move: Square | None = None,
        line: Sequence[Move] = (),
        first: Color | None = None,
    ) -> None:
        """Draw the whole board in one batch; ``line``'s moves numbered, ``first`` playing 1."""
        with self._batch():
            self._draw_board(board, hints, last_move)
            if line and first is not None:
                self._draw_line(line, first)

    def animate(
        self,
        board: Board,
        color: Color,
        square: Square,
        flipped: Iterable[Square],
        hints: Iterable[Square] = (),
        last_move: Square | None = None,
        slow: bool = False,
    ) -> float:
        """Show a move made on ``board`` (the position after it); returns the seconds it takes.

        First the new disc appears with the captured discs still in the old
        colour, then the captured discs turn: all together, or in slow mode one
        at a time, nearest first.
        """
        flipped = sorted(
            flipped, key=lambda s: max(abs(s.row - square.row), abs(s.col - square.col))
        )
        before = {s: color.opponent for s in flipped}
        frame_ms = SLOW_FRAME_MS if slow else FRAME_MS
        waited = 0
        with self._batch():
            self._draw_board(board, (), last_move, overrides=before)
            groups = [[s] for s in flipped] if slow else [flipped]
            for group in groups:
                if slow:
                    waited += self._sleep(SLOW_PAUSE_MS)
                for frame in range(1, FLIP_FRAMES + 1):
                    waited += self._sleep(frame_ms)
                    phase = frame / FLIP_FRAMES
                    face = color.opponent if phase < 0.5 else color
                    for sq in group:
                        self._draw_cell(sq, face, squash=abs(math.cos(math.pi * phase)))
            self._draw_board(board, hints, last_move)
        return waited / 1000

    # -- inside -----------------------------------------------------------------------

    def _fix_css_size(self) -> None:
        # Shown at its own size where there is room, never stretched by a taller neighbour in
        # a row; in a narrower window scaled down whole (height follows the width), so no
        # coordinate is cut.  ipycanvas maps clicks on a scaled canvas back to its pixels.
        layout = self.canvas.layout
        layout.width = self.css_width or f"{self.geometry.pixels}px"
        layout.max_width = "100%"
        layout.height = "auto"
        layout.min_width = layout.min_height = "0"
        layout.flex = "0 1 auto"
        layout.align_self = "flex-start"  # a row's default, stretch, would pull it out of square

    @contextmanager
    def _batch(self) -> Iterator[None]:
        # Each batch starts by naming its canvas.  ipycanvas only names the canvas when it
        # changes, so after a page reload the browser could get commands for no canvas and
        # stop drawing for good (ipycanvas issue 322); forgetting the current one avoids it.
        manager = getattr(self.canvas, "_canvas_manager", None)
        if manager is not None and hasattr(manager, "_current_canvas"):
            manager._current_canvas = None
        with hold_canvas():
            yield

    def _sleep(self, ms: int) -> int:
        self.canvas.sleep(ms)
        return ms

    def _draw_board(
        self,
        board: Board,
        hints: Iterable[Square],
        last_move: Square | None,
        overrides: Mapping[Square, Color] | None = None,
    ) -> None:
        c, g = self.canvas, self.geometry
        side, inner = g.pixels, g.size * g.cell
        c.fill_style = PALETTE["frame"]
        c.fill_rect(0, 0, side, side)
        c.fill_style = PALETTE["board"]
        c.fill_rect(g.margin, g.margin, inner, inner)
        c.stroke_style = PALETTE["grid"]
        c.line_width = 2
        c.begin_path()
        for i in range(g.size + 1):
            at = g.margin + i * g.cell
            c.move_to(g.margin, at)
            c.line_to(g.margin + inner, at)
            c.move_to(at, g.margin)
            c.line_to(at, g.margin + inner)
        c.stroke()
        c.fill_style = PALETTE["coord"]
        c.font = f"{max(9, int(g.margin * 0.6))}px sans-serif"
        c.text_align = "center"
        c.text_baseline = "middle"
        far = side - g.margin / 2  # coordinates on all four sides, read from any seat
        for i in range(g.size):
            mid = g.margin + i * g.cell + g.cell / 2
            letter, number = COLUMN_LETTERS[i], str(i + 1)
            c.fill_text(letter, mid, g.margin / 2)
            c.fill_text(letter, mid, far)
            c.fill_text(number, g.margin / 2, mid)
            c.fill_text(number, far, mid)
        discs: dict[Square, Color] = {sq: color for color in (BLACK, WHITE) for sq in board.discs(color)}
        discs.update(overrides or {})
        for color in (BLACK, WHITE):
            self._draw_discs([sq for sq, owner in discs.items() if owner is color], color)
        hints = list(hints)
        if hints:
            c.fill_style = PALETTE["hint"]
            centres = [g.centre(sq) for sq in hints]
            c.fill_circles([x for x, _ in centres], [y for _, y in centres], g.cell * 0.11)
        if hints:
            c.stroke_style = PALETTE["hint-rim"]
            c.line_width = 1
            c.stroke_circles([x for x, _ in centres], [y for _, y in centres], g.cell * 0.11)
        if last_move is not None:
            self._draw_last_move(last_move)
        if self.cursor is not None and self.cursor.row < g.size and self.cursor.col < g.size:
            x, y = g.corner(self.cursor)
            c.line_width = 4
            c.stroke_style = PALETTE["cursor"]
            c.stroke_rect(x + 2, y + 2, g.cell - 4, g.cell - 4)
            c.stroke_style = PALETTE["cursor-inner"]
            c.line_width = 2
            c.stroke_rect(x + 5, y + 5, g.cell - 10, g.cell - 10)

    def _draw_last_move(self, square: Square) -> None:
        """A light frame round the cell: a square shape, where a legal move is a dot."""
        c, g = self.canvas, self.geometry
        x, y = g.corner(square)
        c.stroke_style = PALETTE["last-move"]
        c.line_width = 3
        c.stroke_rect(x + 3, y + 3, g.cell - 6, g.cell - 6)

    def _draw_line(self, line: Sequence[Move], first: Color) -> None:
        """The expected line: square tiles numbered 1, 2, ... in the colour of the side to play them."""
        c, g = self.canvas, self.geometry
        color = first
        c.font = f"bold {max(12, int(g.cell * 0.5))}px sans-serif"
        c.text_align = "center"
        c.text_baseline = "middle"
        half = g.cell * 0.3
        for number, move in enumerate(line, start=1):
            if isinstance(move, Square):
                x, y = g.centre(move)
                c.fill_style = PALETTE["line-ring"]
                c.fill_rect(x - half - 3, y - half - 3, 2 * half + 6, 2 * half + 6)
                c.fill_style = PALETTE[color]
                c.fill_rect(x - half, y - half, 2 * half, 2 * half)
                c.fill_style = PALETTE[color.opponent]
                c.fill_text(str(number), x, y + 1)
            color = color.opponent

    def _draw_discs(self, squares: list[Square], color: Color) -> None:
        if not squares:
            return
        c, g = self.canvas, self.geometry
        image = self.images.get(color)
        if image is not None:
            for sq in squares:
                x, y = g.centre(sq)
                r = g.radius
                c.draw_image(image, x - r, y - r, 2 * r, 2 * r)
            return
        centres = [g.centre(sq) for sq in squares]
        xs, ys = [x for x, _ in centres], [y for _, y in centres]
        c.fill_style = PALETTE[color]
        c.fill_circles(xs, ys, g.radius)
        if color is WHITE:
            c.stroke_style = PALETTE["rim"]
            c.line_width = 1
            c.stroke_circles(xs, ys, g.radius)

    def _draw_cell(self, square: Square, color: Color, squash: float) -> None:
        """One cell with a disc squashed sideways (1: round, 0: seen edge-on)."""
        c, g = self.canvas, self.geometry
        x, y = g.corner(square)
        c.fill_style = PALETTE["board"]
        c.fill_rect(x + 1, y + 1, g.cell - 2, g.cell - 2)  # the grid lines stay
        cx, cy = g.centre(square)
        rx, ry = g.radius * squash, g.radius
        if rx < 0.5:
            return
        image = self.images.get(color)
        if image is not None:
            c.draw_image(image, cx - rx, cy - ry, 2 * rx, 2 * ry)
            return
        c.fill_style = PALETTE[color]
        c.begin_path()
        c.ellipse(cx, cy, rx, ry, 0, 0, 2 * math.pi)
        c.fill()
        if color is WHITE:
            c.stroke_style = PALETTE["rim"]
            c.line_width = 1
            c.stroke()
