"""Boards handed to students' functions: only the parts of the Board an exercise allows.

An exercise that asks for ``flips`` must not be answered with ``board.flips``.  A
:class:`BoardView` wraps a real :class:`~reversi.Board` and lets through reading squares
(``board[row, col]`` or ``board['d3']``), ``board.size``, ``board.squares()`` and the
methods an exercise names; anything else raises an AttributeError that says why.

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

from collections.abc import Iterable, Iterator
from typing import Any

from reversi import Board, Color, Square

_ALWAYS = ("size", "squares")


class BoardView:
    """A window onto a board: squares can be read (and written, if ``writable``), plus ``allow``."""

    __slots__ = ("_board", "_allow", "_writable")

    def __init__(self, board: Board, allow: Iterable[str] = (), writable: bool = False) -> None:
        object.__setattr__(self, "_board", board)
        object.__setattr__(self, "_allow", tuple(allow))
        object.__setattr__(self, "_writable", writable)

    @property
    def underlying(self) -> Board:
        """The real board behind the view (for the checks, not for students)."""
        return self._board

    def fresh(self) -> BoardView:
        """The same view of a copy of the board."""
        return BoardView(self._board.copy(), self._allow, self._writable)

    @property
    def size(self) -> int:
        return self._board.size

    def squares(self) -> Iterator[Square]:
        return self._board.squares()

    def __getitem__(self, where: Any) -> Color | None:
        return self._board[where]

    def __setitem__(self, where: Any, color: Color | None) -> None:
        if not self._writable:
            raise TypeError(
                "this exercise's board is read-only: look at squares, do not change them"
            )
        self._board[where] = color

    def copy(self) -> BoardView:
        if "copy" not in self._allow:
            self._refuse("copy")
        return self.fresh()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in self._allow:
            self._refuse(name)
        method = getattr(self._board, name)
        return method

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot set board.{name} in an exercise")

    def _refuse(self, name: str) -> None:
        allowed = ["read squares (board[row, col])", "board.size", "board.squares()"]
        allowed += [f"board.{name}" for name in self._allow]
        listing = ", ".join(allowed[:-1]) + " and " + allowed[-1]
        raise AttributeError(f"this exercise lets you {listing}; board.{name} is not allowed here")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BoardView):
            return self._board == other._board
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return str(self._board)

    def __repr__(self) -> str:
        return repr(self._board)


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
        lines.append("(marked: " + " ".join(sq.name for sq in sorted(marked)) + ")")
    return "\n".join(lines)
