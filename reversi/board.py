"""The Reversi board: where the discs are, which moves are legal, and what a move flips.

>>> board = Board()
>>> print(board)
  a b c d e f g h
1 . . . . . . . .
2 . . . . . . . .
3 . . . . . . . .
4 . . . W B . . .
5 . . . B W . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . .
>>> board.legal_moves(BLACK)
[d3, c4, f5, e6]
>>> board.play("d3", BLACK)
[d4]
>>> board.count(BLACK), board.count(WHITE)
(4, 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from reversi import bitboard
from reversi.errors import ArgumentError, BoardSizeError, IllegalMoveError, NotationError, shown
from reversi.i18n import N_, _, colour
from reversi.notation import (
    BLACK,
    COLUMN_LETTERS,
    MAX_SIZE,
    MIN_SIZE,
    WHITE,
    Color,
    Square,
    SquareLike,
)
from reversi.notation import square as read_square
from reversi.surface import student

#: The eight directions a line of discs can run in, as (row step, column step).
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

_DIAGRAM_CELLS = {"B": BLACK, "W": WHITE, ".": None}

# Why a move is illegal, one whole sentence per colour (a colour is an adjective in French).
_TAKEN = {BLACK: N_("{square} is already taken by a Black disc"), WHITE: N_("{square} is already taken by a White disc")}
_NO_NEIGHBOUR = {BLACK: N_("no Black disc is next to {square}"), WHITE: N_("no White disc is next to {square}")}
_NO_LINE = {  # by the side that moves
    BLACK: N_("no line of White discs from {square} ends in a Black disc"),
    WHITE: N_("no line of Black discs from {square} ends in a White disc"),
}


class PawnCounts(NamedTuple):
    """The discs of each colour, in all, and the empty squares (what a Pawns panel shows)."""

    black: int
    white: int
    total: int
    empty: int


@student
class Board:
    """A square Reversi board of even size from 4 to 16 (8 by default).

    ``Board()`` is the standard start: the four centre squares hold two White
    discs on one diagonal (d4, e5 on 8x8) and two Black discs on the other.
    Squares are named ``'d3'`` (column d, row 3 from the top) or given as 0-based
    ``(row, col)`` tuples.  Inside, the discs are two bit masks (see
    :mod:`reversi.bitboard`); outside, everything speaks in squares and colours.
    """

    __slots__ = ("_size", "_geo", "_black", "_white")
    __hash__ = None  # type: ignore[assignment]  # a board changes, so it is not a dict key

    def __init__(self, size: int = 8) -> None:
        check_size(size)
        self._size = size
        self._geo = bitboard.geometry(size)
        half = size // 2
        self._white = self._bit(half - 1, half - 1) | self._bit(half, half)
        self._black = self._bit(half, half - 1) | self._bit(half - 1, half)

    # -- making boards -------------------------------------------------------------

    @classmethod
    @student
    def empty(cls, size: int = 8) -> Board:
        """A board with no discs at all, for setting up a position square by square."""
        board = cls(size)
        board._black = board._white = 0
        return board

    @classmethod
    @student
    def from_bits(cls, size: int, black: int, white: int) -> Board:
        """A board from its two bit masks (bit ``row * size + col`` is square ``(row, col)``)."""
        board = cls.empty(size)
        full = board._geo.full
        if black < 0 or white < 0 or black & white or (black | white) & ~full:
            raise ArgumentError(_("black and white bits must be disjoint and inside the board"))
        board._black, board._white = black, white
        return board

    @classmethod
    @student
    def from_text(cls, diagram: str) -> Board:
        """Read a diagram of ``B`` (black), ``W`` (white) and ``.`` (empty), one row per line.

        Labels and spaces are ignored, so ``Board.from_text(str(board))`` gives the
        board back.  Lines with no ``B``, ``W`` or ``.`` (a column header) are skipped.

        >>> Board.from_text('''
        ...   a b c d
        ... 1 . . . .
        ... 2 . W B .
        ... 3 . B B .
        ... 4 . . . .
        ... ''').count(BLACK)
        3
        """
        rows = []
        for line in diagram.splitlines():
            cells = [c for c in line if c in _DIAGRAM_CELLS]
            if cells:
                rows.append(cells)
        size = len(rows)
        if size == 0:
            raise NotationError(_("{diagram} is not a board diagram: it has no rows of B, W and .").format(
                diagram=shown(diagram)))  # fmt: skip
        for number, cells in enumerate(rows, start=1):
            if len(cells) != size:
                raise NotationError(
                    _("row {number} of the diagram has {count} squares, but the diagram has {size} rows: "
                      "a board is square").format(number=number, count=len(cells), size=size)
                )
        if size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
            raise NotationError(
                _("the diagram is {size}x{size}: a board has an even size from {low} to {high}").format(
                    size=size, low=MIN_SIZE, high=MAX_SIZE)
            )
        board = cls.empty(size)
        for row, cells in enumerate(rows):
            for col, cell in enumerate(cells):
                board[row, col] = _DIAGRAM_CELLS[cell]
        return board

    def copy(self) -> Board:
        """An independent copy: playing on it leaves this board alone."""
        other = Board.__new__(Board)
        other._size, other._geo = self._size, self._geo
        other._black, other._white = self._black, self._white
        return other

    # -- looking at the board -----------------------------------------------------

    @property
    def size(self) -> int:
        """The number of rows (and of columns)."""
        return self._size

    @student
    def square(self, value: SquareLike) -> Square:
        """Read ``value`` as a square of this board (raises :class:`NotationError` if it is not)."""
        return read_square(value, self._size)

    def squares(self) -> Iterator[Square]:
        """Every square, in reading order (row by row from the top, left to right)."""
        for row in range(self._size):
            for col in range(self._size):
                yield Square(row, col)

    @student
    def __getitem__(self, square: SquareLike) -> Color | None:
        """The colour of the disc on a square, or ``None`` if it is empty."""
        bit = self._bit(*self.square(square))
        if self._black & bit:
            return BLACK
        if self._white & bit:
            return WHITE
        return None

    @student
    def __setitem__(self, square: SquareLike, color: Color | None) -> None:
        """Put a disc of ``color`` on a square (or empty it with ``None``), ignoring the rules.

        For setting up positions; a game uses :meth:`play`.
        """
        bit = self._bit(*self.square(square))
        self._black &= ~bit
        self._white &= ~bit
        if color is BLACK:
            self._black |= bit
        elif color is WHITE:
            self._white |= bit

    @student
    def count(self, color: Color | None) -> int:
        """How many discs of ``color`` are on the board (``None`` counts empty squares)."""
        if color is None:
            return self._size * self._size - (self._black | self._white).bit_count()
        return self.bits(color).bit_count()

    def counts(self) -> PawnCounts:
        """Black, white, total and empty counts in one record."""
        black, white = self._black.bit_count(), self._white.bit_count()
        return PawnCounts(black, white, black + white, self._size * self._size - black - white)

    @student
    def discs(self, color: Color) -> list[Square]:
        """The squares holding a disc of ``color``, in reading order."""
        return self._squares_of(self.bits(color))

    @student
    def bits(self, color: Color) -> int:
        """The bit mask of ``color``'s discs (the inside view, for fast search code)."""
        return self._black if color is BLACK else self._white

    # -- the rules --------------------------------------------------------------------

    @student
    def legal_moves(self, color: Color) -> list[Square]:
        """The squares where ``color`` may move, in reading order."""
        return self._squares_of(self._legal_bits(color))

    @student
    def has_legal_move(self, color: Color) -> bool:
        """Whether ``color`` has at least one legal move."""
        return self._legal_bits(color) != 0

    @student
    def is_legal(self, square: SquareLike, color: Color) -> bool:
        """Whether ``color`` may move on the square."""
        return bool(self._flip_bits(self.square(square), color))

    @student
    def flips(self, square: SquareLike, color: Color) -> list[Square]:
        """The discs ``color`` would turn by moving there, in reading order (none if illegal)."""
        return self._squares_of(self._flip_bits(self.square(square), color))

    @student
    def illegal_reason(self, square: SquareLike, color: Color) -> str | None:
        """Why ``color`` may not move on the square, in words, or ``None`` if the move is legal.

        >>> Board().illegal_reason("a1", BLACK)
        'no White disc is next to a1'
        """
        at = self.square(square)
        occupant = self[at]
        if occupant is not None:
            return _(_TAKEN[occupant]).format(square=at)
        if self._flip_bits(at, color):
            return None
        opponent = color.opponent
        row, col = at
        neighbours = [
            (row + dr, col + dc)
            for dr, dc in DIRECTIONS
            if 0 <= row + dr < self._size and 0 <= col + dc < self._size
        ]
        if not any(self[n] is opponent for n in neighbours):
            return _(_NO_NEIGHBOUR[opponent]).format(square=at)
        return _(_NO_LINE[color]).format(square=at)

    @student
    def play(self, square: SquareLike, color: Color) -> list[Square]:
        """Put a ``color`` disc on the square and turn the discs it captures.

        Returns the flipped squares in reading order.  An illegal move raises
        :class:`IllegalMoveError` saying why, and the board is left as it was.
        """
        at = self.square(square)
        flipped = self._flip_bits(at, color)
        if not flipped:
            raise IllegalMoveError(_("{move} is not a legal move for {color}: {reason}").format(
                move=shown(at.name), color=colour(color), reason=self.illegal_reason(at, color)))  # fmt: skip
        move = self._bit(*at)
        if color is BLACK:
            self._black |= move | flipped
            self._white &= ~flipped
        else:
            self._white |= move | flipped
            self._black &= ~flipped
        return self._squares_of(flipped)

    def is_full(self) -> bool:
        """Whether every square holds a disc."""
        return (self._black | self._white) == self._geo.full

    def is_finished(self) -> bool:
        """Whether neither colour can move: the game on this board is over."""
        return not (self._legal_bits(BLACK) or self._legal_bits(WHITE))

    # -- comparing and printing --------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._size, self._black, self._white) == (other._size, other._black, other._white)

    def __str__(self) -> str:
        width = len(str(self._size))
        header = " " * width + " " + " ".join(COLUMN_LETTERS[: self._size])
        lines = [header]
        for row in range(self._size):
            cells = []
            for col in range(self._size):
                color = self[row, col]
                cells.append(color.letter if color else ".")
            lines.append(f"{row + 1:>{width}} " + " ".join(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        black, white, _, _ = self.counts()
        return f"<Board {self._size}x{self._size}: {black} black, {white} white>"

    # -- helpers -------------------------------------------------------------------------

    def _bit(self, row: int, col: int) -> int:
        return 1 << (row * self._size + col)

    def _squares_of(self, mask: int) -> list[Square]:
        size = self._size
        return [Square(*divmod(bit.bit_length() - 1, size)) for bit in bitboard.bits_of(mask)]

    def _legal_bits(self, color: Color) -> int:
        own, other = self._pair(color)
        return bitboard.legal_moves(own, other, self._geo)

    def _flip_bits(self, at: Square, color: Color) -> int:
        move = self._bit(*at)
        own, other = self._pair(color)
        if (self._black | self._white) & move:
            return 0
        return bitboard.flips(move, own, other, self._geo)

    def _pair(self, color: Color) -> tuple[int, int]:
        return (self._black, self._white) if color is BLACK else (self._white, self._black)


def check_size(size: int) -> None:
    """Refuse a board size that is odd or out of range (the type is the surface's to check)."""
    if size % 2:
        raise BoardSizeError(_("board size {size} is not an even whole number").format(size=shown(size)))
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise BoardSizeError(_("board size {size} is out of range: it runs from {low} to {high}").format(
            size=shown(size), low=MIN_SIZE, high=MAX_SIZE))  # fmt: skip

