"""Boards handed to students' functions: only the parts of the Board an exercise allows.

An exercise that asks for ``flips`` must not be answered with ``board.flips``.  A
:class:`BoardView` is made from a :class:`~reversi.Board` but keeps only its discs (a
tuple of rows), never the Board itself: nothing reachable from a view leads to the kit's
code for the function being asked.  It lets through reading squares (``board[row, col]``
or ``board['d3']``), ``board.size``, ``board.squares()`` and the methods an exercise names
(each answered by a Board built for that one call); anything else raises an
AttributeError that says why.

>>> from reversi import BLACK, Board
>>> view = BoardView(Board(), allow=("count",))
>>> view["d4"], view.size, view.count(BLACK)
(<Color.WHITE: 'white'>, 8, 2)
>>> view.flips("d3", BLACK)
Traceback (most recent call last):
...
AttributeError: this exercise lets you read squares (board[row, col]), board.size, board.squares() and board.count; board.flips is not allowed here
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from course.i18n import N_
from course.i18n import gettext as _
from reversi import BLACK, WHITE, Board, Color, Square, square

#: The grader's reads and makings of its own boards, without the student surface's argument
#: checks: the values are the kit's own, typed (checking them was half of grading 04_flips).
_BITS: Callable[[Board, Color], int] = inspect.unwrap(Board.bits)
_FROM_BITS: Callable[[type[Board], int, int, int], Board] = inspect.unwrap(Board.from_bits.__func__)  # type: ignore[attr-defined]

#: The Board methods an exercise may lend to a view (the rest are never reachable).
LENDABLE = ("flips", "is_legal", "legal_moves", "count", "play", "illegal_reason")


class BoardView:
    """A window onto a position: squares can be read (and written, if ``writable``), plus ``allow``."""

    __slots__ = ("_size", "_discs", "_allow", "_writable")
    _size: int
    _discs: list[list[Color | None]]
    _allow: tuple[str, ...]
    _writable: bool

    def __init__(self, board: Board, allow: tuple[str, ...] = (), writable: bool = False) -> None:
        _fill(self, discs(board), allow, writable)

    @property
    def allowed(self) -> tuple[str, ...]:
        """The methods this view lends."""
        return self._allow

    @property
    def writable(self) -> bool:
        return self._writable

    def fresh(self) -> BoardView:
        """The same view of a copy of the position."""
        return BoardView(position(self), self._allow, self._writable)

    @property
    def size(self) -> int:
        return self._size

    def squares(self) -> Iterator[Square]:
        for row in range(self._size):
            for col in range(self._size):
                yield Square(row, col)

    def __getitem__(self, where: Any) -> Color | None:
        row, col = square(where, self._size)
        return self._discs[row][col]

    def __setitem__(self, where: Any, color: Color | None) -> None:
        if not self._writable:
            raise TypeError(
                _("this exercise's board is read-only: look at squares, do not change them")
            )
        if color is not None and not isinstance(color, Color):
            raise TypeError(_("a square holds BLACK, WHITE or None, not {value!r}").format(value=color))
        row, col = square(where, self._size)
        self._discs[row][col] = color

    def __getattr__(self, name: str) -> Any:
        # ``copy`` too is lent here, not a method: a view that does not lend it has none
        if name == "copy" and "copy" in self._allow:
            return self.fresh
        if name.startswith("_") or name not in self._allow or name not in LENDABLE:
            self._refuse(name)
        return self._lend(name)

    def _lend(self, name: str) -> Callable[..., Any]:
        def method(*args: Any) -> Any:
            board = position(self)
            result = getattr(board, name)(*args)
            if name == "play":
                for row in range(self._size):
                    for col in range(self._size):
                        self._discs[row][col] = board[row, col]
            return result

        method.__name__ = name
        return method

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(_("cannot set board.{name} in an exercise").format(name=name))

    def _refuse(self, name: str) -> None:
        allowed = [_("read squares (board[row, col])"), "board.size", "board.squares()"]
        allowed += [f"board.{name}" for name in self._allow]
        listing = _("{some} and {last}").format(some=", ".join(allowed[:-1]), last=allowed[-1])
        raise AttributeError(_("this exercise lets you {listing}; board.{name} is not allowed here")
                             .format(listing=listing, name=name))  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BoardView):
            return self._discs == other._discs
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return str(position(self))

    def __repr__(self) -> str:
        return repr(position(self))


def position(view: BoardView) -> Board:
    """A Board with the discs of ``view``, for the checks.  It is a function, not a method,
    so nothing a student's function receives leads to a Board and its rules."""
    size, rows = view.size, object.__getattribute__(view, "_discs")
    black = white = 0
    for row, cells in enumerate(rows):
        for col, color in enumerate(cells):
            if color is BLACK:
                black |= 1 << (row * size + col)
            elif color is WHITE:
                white |= 1 << (row * size + col)
    return _FROM_BITS(Board, size, black, white)


def view_of(rows: list[list[Color | None]], allow: tuple[str, ...] = (), writable: bool = False) -> BoardView:
    """A view of the position whose discs are ``rows`` (square; the view keeps them: give it its own)."""
    view = object.__new__(BoardView)
    _fill(view, rows, allow, writable)
    return view


def _fill(view: BoardView, rows: list[list[Color | None]], allow: tuple[str, ...], writable: bool) -> None:
    for name, value in (("_size", len(rows)), ("_discs", rows), ("_allow", allow), ("_writable", writable)):
        object.__setattr__(view, name, value)


def view_discs(view: BoardView) -> list[list[Color | None]]:
    """The discs of ``view`` row by row: the view's own rows, to read and not to change."""
    rows: list[list[Color | None]] = object.__getattribute__(view, "_discs")
    return rows


def discs(board: Board) -> list[list[Color | None]]:
    """The board's discs row by row (read from its two bit masks, which is fast)."""
    black, white, size = _BITS(board, BLACK), _BITS(board, WHITE), board.size
    return [
        [BLACK if black >> (r * size + c) & 1 else WHITE if white >> (r * size + c) & 1 else None
         for c in range(size)]
        for r in range(size)
    ]  # fmt: skip


def board_text(board: Board, highlight: Iterable[Any] = ()) -> str:
    """The text diagram of ``board`` with highlighted squares shown as ``*`` (empty) or ``b``/``w``.

    >>> from reversi import Board
    >>> print(board_text(Board(4), ["a1", "b2"]))
      a b c d
    1 * . . .
    2 . w B .
    3 . B W .
    4 . . . .
    (marked: a1 b2)
    """
    marked = {board.square(sq) for sq in highlight}
    width = len(str(board.size))
    lines = [" " * width + " " + " ".join("abcdefghijklmnop"[: board.size])]
    for row in range(board.size):
        cells = []
        for col in range(board.size):
            color = board[row, col]
            letter = color.letter if color else "."
            if (row, col) in marked:
                letter = letter.lower() if color else "*"
            cells.append(letter)
        lines.append(f"{row + 1:>{width}} " + " ".join(cells))
    if marked:
        lines.append(_("(marked: {squares})").format(squares=" ".join(sq.name for sq in sorted(marked))))
    return "\n".join(lines)


#: The most differing squares :func:`board_differences` names (it counts the others).
_MAX_DIFFERENCES = 4
_COLOR_WORDS = {"B": N_("Black"), "W": N_("White"), ".": N_("empty")}


def board_differences(expected: str, actual: str) -> list[str] | None:
    """The squares where two text boards of one size differ, in words: a few, then how many
    more; None when the texts are not two boards of one size.

    >>> from reversi import Board
    >>> board_differences(str(Board(4)), str(Board(6)))
    >>> after = Board(4)
    >>> after.play("a2", BLACK)
    [b2]
    >>> board_differences(str(after), str(Board(4)))
    ['a2 should be Black; yours is empty', 'b2 should be Black; yours is White']
    """
    wanted, got = _cells(expected), _cells(actual)
    if wanted is None or got is None or len(wanted) != len(got):
        return None
    differ = [
        _("{square} should be {wanted}; yours is {have}").format(
            square=name, wanted=_(_COLOR_WORDS[want]), have=_(_COLOR_WORDS[have]))  # fmt: skip
        for name, want, have in (
            (f"{'abcdefghijklmnop'[col]}{row + 1}", want, have)
            for row in range(len(wanted))
            for col, (want, have) in enumerate(zip(wanted[row], got[row], strict=True))
        )
        if want != have
    ]
    if len(differ) > _MAX_DIFFERENCES:
        more = len(differ) - _MAX_DIFFERENCES + 1
        differ = differ[: _MAX_DIFFERENCES - 1] + [_("and {count} more squares differ").format(count=more)]
    return differ


def _cells(text: str) -> list[str] | None:
    """The letters of a text board (``B``, ``W``, ``.``) row by row, or None."""
    lines = text.strip("\n").splitlines()
    size = len(lines) - 1
    if size < 1 or lines[0].split() != list("abcdefghijklmnop"[:size]):
        return None
    rows = []
    for number, line in enumerate(lines[1:], start=1):
        label, *cells = line.split()
        if label != str(number) or len(cells) != size or set(cells) - set(_COLOR_WORDS):
            return None
        rows.append("".join(cells))
    return rows
