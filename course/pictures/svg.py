"""Static pictures of a board as SVG: a pure function of the board, like python-chess's renderer.

This module owns the SVG drawing of boards and games; it reads what it is given
and never changes it, and it imports no widget.  The same board always gives the
same picture.  :func:`course.register_formatters` makes a notebook show every
:class:`~reversi.Board` (and :class:`~reversi.game.Game`) as such a picture;
:func:`show` adds highlights.

>>> from reversi import Board, BLACK
>>> board = Board()
>>> picture = board_svg(board, markers=board.legal_moves(BLACK), last_move="e4")
>>> picture.startswith("<svg") and picture.count('class="disc black"')
2
>>> picture.count('class="marker"'), picture.count('class="last-move"')
(4, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from itertools import islice

from course.i18n import N_
from course.i18n import gettext as _
from course.pictures.palette import THEMES
from reversi.board import Board
from reversi.errors import ArgumentError, ReversiError, shown
from reversi.game import Game
from reversi.notation import BLACK, COLUMN_LETTERS, WHITE, Square, SquareLike

CELL = 40  # SVG units per square; the picture is scaled to size_px
MARGIN = 20  # room for the coordinates
MAX_PIXELS = 10_000  # the widest picture drawn
#: A disc's hover title (what a screen reader says of it), by colour.
DISC_TITLES = {BLACK: N_("{square} Black"), WHITE: N_("{square} White")}


def board_svg(
    board: Board,
    *,
    highlight: Iterable[SquareLike] = (),
    markers: Iterable[SquareLike] = (),
    last_move: SquareLike | None = None,
    size_px: int | None = None,
    coordinates: bool = True,
    theme: str = "screen",
) -> str:
    """The board as an SVG document (a string).

    ``highlight`` squares are filled yellow, ``markers`` get a small dot with a dark
    rim (legal moves, say), ``last_move`` a white frame: the palette and shapes of
    :mod:`course.pictures.palette`.  ``theme="print"`` draws for paper: white
    squares, dark outlines, grey highlights, hollow dots and a black frame.  Squares are written ``'d3'`` or
    ``(row, col)``; a square that is not on the board raises
    :class:`~reversi.errors.NotationError`.  Columns are lettered a, b, ... along
    the top and rows numbered 1, 2, ... down the left side, as in ``print(board)``.
    Every option is given by name; one the picture cannot take raises
    :class:`~reversi.errors.ArgumentError` naming it.
    """
    if not isinstance(board, Board):
        raise ArgumentError(_("a picture is drawn of a Board, not {given}").format(given=shown(board)))
    n = board.size
    tinted = _squares(board, highlight, "highlight")
    dotted = _squares(board, markers, "markers")
    framed = board.square(last_move) if last_move is not None else None
    if not isinstance(coordinates, bool):
        raise ArgumentError(_("coordinates must be True or False, not {given}").format(
            given=shown(coordinates)))  # fmt: skip
    if not isinstance(theme, str) or theme not in THEMES:
        raise ArgumentError(_("theme must be one of {themes}, not {given}").format(
            themes=", ".join(map(repr, THEMES)), given=shown(theme)))  # fmt: skip
    colors = THEMES[theme]
    margin = MARGIN if coordinates else 0
    full = 2 * margin + n * CELL
    pixels = _pixels(size_px, full)

    def corner(sq: Square) -> tuple[int, int]:
        return margin + sq.col * CELL, margin + sq.row * CELL

    def centre(sq: Square) -> tuple[float, float]:
        x, y = corner(sq)
        return x + CELL / 2, y + CELL / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{pixels}" '
        f'height="{pixels}" viewBox="0 0 {full} {full}">',
        f"<desc>{escape(description(board))}</desc>",
        f'<rect class="frame" x="0" y="0" width="{full}" height="{full}" '
        f'fill="{colors["frame"]}"/>',
        f'<rect class="board" x="{margin}" y="{margin}" width="{n * CELL}" height="{n * CELL}" '
        f'fill="{colors["board"]}"/>',
    ]
    for sq in tinted:
        x, y = corner(sq)
        parts.append(
            f'<rect class="highlight" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{colors["highlight"]}"/>'
        )
    lines = []
    for i in range(n + 1):
        at = margin + i * CELL
        lines.append(f"M{margin} {at}H{margin + n * CELL}M{at} {margin}V{margin + n * CELL}")
    parts.append(
        f'<path class="grid" d="{"".join(lines)}" stroke="{colors["grid"]}" stroke-width="1.5" '
        'fill="none"/>'
    )
    radius = CELL * 0.42
    for color, fill, rim in (
        (BLACK, colors["black"], colors["black"]),
        (WHITE, colors["white"], colors["rim"]),
    ):
        for sq in board.discs(color):
            cx, cy = centre(sq)
            parts.append(
                f'<circle class="disc {color.value}" cx="{cx:g}" cy="{cy:g}" r="{radius:g}" '
                f'fill="{fill}" stroke="{rim}" stroke-width="1">'
                f"<title>{escape(_(DISC_TITLES[color]).format(square=sq))}</title></circle>"
            )
    for sq in dotted:
        cx, cy = centre(sq)
        parts.append(
            f'<circle class="marker" cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.12:g}" '
            f'fill="{colors["hint"]}" stroke="{colors["hint-rim"]}" stroke-width="1.5">'
            f"<title>{sq}</title></circle>"
        )
    if framed is not None:
        x, y = corner(framed)
        parts.append(
            f'<rect class="last-move" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
            f'height="{CELL - 4}" fill="none" stroke="{colors["last-move"]}" stroke-width="3"/>'
        )
    if coordinates:
        style = (
            f'fill="{colors["coord"]}" font-family="sans-serif" font-size="13" text-anchor="middle"'
        )
        for i in range(n):
            mid = margin + i * CELL + CELL / 2
            parts.append(
                f'<text class="coord" x="{mid:g}" y="{margin * 0.72:g}" {style}>'
                f"{COLUMN_LETTERS[i]}</text>"
            )
            parts.append(
                f'<text class="coord" x="{margin / 2:g}" y="{mid + 4.5:g}" {style}>{i + 1}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts)


def description(board: Board) -> str:
    """What the picture shows, in words (its ``<desc>``): the board's size and its discs.

    >>> description(Board(4))
    '<Board 4x4: 2 black, 2 white>'
    """
    counts = board.counts()
    return _("<Board {size}x{size}: {black} black, {white} white>").format(
        size=board.size, black=counts.black, white=counts.white)  # fmt: skip


def _pixels(size_px: object, natural: int) -> int:
    """The picture's width in pixels: ``size_px``, or the natural size when it is ``None``."""
    if size_px is None:
        return natural
    if isinstance(size_px, bool) or not isinstance(size_px, int) or not 0 < size_px <= MAX_PIXELS:
        raise ArgumentError(_("size_px must be a whole number of pixels from 1 to {most}, not {given}").format(
            most=MAX_PIXELS, given=shown(size_px)))  # fmt: skip
    return size_px


def _squares(board: Board, squares: object, name: str) -> list[Square]:
    """The squares of ``squares`` (an iterable of square names or pairs) on ``board``."""
    if isinstance(squares, str | bytes) or not isinstance(squares, Iterable):
        raise ArgumentError(_("{name} must be a list of squares such as ['d3', 'e4'], not {given}").format(
            name=name, given=shown(squares)))  # fmt: skip
    most = board.size * board.size
    try:
        given = list(islice(squares, most + 1))
    except ReversiError:
        raise
    except Exception as error:  # a caller's iterator can raise anything
        raise ArgumentError(_("{name} could not be read: {error}").format(
            name=name, error=type(error).__name__)) from error  # fmt: skip
    if len(given) > most:
        raise ArgumentError(_("{name} lists more than the board's {most} squares").format(name=name, most=most))
    return [board.square(square) for square in given]


def game_svg(game: Game, *, size_px: int | None = None) -> str:
    """A game's board with the side to move's legal moves dotted and the last move framed."""
    if not isinstance(game, Game):
        raise ArgumentError(_("game_svg draws a Game, not {given}").format(given=shown(game)))
    return board_svg(
        game.board, markers=game.legal_moves(), last_move=game.last_move, size_px=size_px
    )


class BoardPicture:
    """A board drawn as SVG, displayed as a picture by Jupyter (``_repr_svg_``)."""

    def __init__(self, svg: str, text: str) -> None:
        if not isinstance(svg, str) or not isinstance(text, str):
            raise ArgumentError(_("a BoardPicture is an SVG text and a plain text, not {svg}, {text}").format(
                svg=shown(svg), text=shown(text)))  # fmt: skip
        self.svg = svg
        self._text = text

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<BoardPicture of\n{self._text}>"


def show(
    board: Board,
    *,
    highlight: Iterable[SquareLike] = (),
    markers: Iterable[SquareLike] = (),
    last_move: SquareLike | None = None,
    size_px: int | None = None,
) -> BoardPicture:
    """A picture of ``board`` for a notebook cell, with optional highlights (see :func:`board_svg`).

    >>> from reversi import Board
    >>> print(show(Board(4), highlight=["a1"]))
      a b c d
    1 . . . .
    2 . W B .
    3 . B W .
    4 . . . .
    """
    svg = board_svg(
        board, highlight=highlight, markers=markers, last_move=last_move, size_px=size_px
    )
    return BoardPicture(svg, str(board))
