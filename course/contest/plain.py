"""The plain board a tournament player sees, the same in the sandbox and in the student's kernel.

A player is ``choose(board, color) -> move``.  Its ``board`` is the student runtime's
board (:mod:`course.grading.runtime.pieces`): read squares (``board["d3"]``,
``board[row, col]``), ``board.size``, ``board.squares()``, and the methods
``legal_moves``, ``flips``, ``is_legal``, ``count``, ``copy`` and ``play``; its
``color`` is that runtime's ``BLACK`` or ``WHITE``.  No kit module is in it, so what a
player does in the tournament's sandbox is exactly what it does in the notebook.

:data:`PLAYER` declares that runtime as a grading table entry would;
:func:`runtime_text` composes its source (the file ``allowed.py`` of a sandboxed run),
and :func:`plain` loads the same text as a module in this process (only the kit's own
text is ever executed here, never a student's).

A position travels as one line of text, the side to move then the rows top to bottom:

>>> from reversi import BLACK, Board
>>> encode(Board(4), BLACK)
'black ..../.WB./.BW./....'
>>> board, color = decode_plain(encode(Board(4), BLACK))
>>> color, board.legal_moves(color)
(<Color.BLACK: 'black'>, [b1, a2, d3, c4])
"""

from __future__ import annotations

import functools
import types
from typing import Any

from course.grading.compose import runtime
from course.grading.table import Entry
from reversi.board import Board
from reversi.notation import Color

#: The names a player's notebook may use in the tournament, and the methods its boards have.
PLAYER = Entry(
    "tournament_player",
    asked=(),
    questions=(),
    names=("BLACK", "WHITE", "Board", "PASS", "Square", "DIRECTIONS", "weights", "evaluate"),
    lends=("legal_moves", "flips", "is_legal", "count", "copy", "play"),
)



@functools.cache
def runtime_text() -> str:
    """The source of the player runtime (what ``import allowed`` gives in the sandbox)."""
    return runtime(PLAYER)["allowed.py"]


@functools.cache
def plain() -> types.ModuleType:
    """The player runtime as a module of this process (for practice games in a notebook)."""
    module = types.ModuleType("course.contest.plain_runtime", "The plain board of a player.")
    exec(compile(runtime_text(), "<player runtime>", "exec"), module.__dict__)
    return module


def encode(board: Board, color: Color) -> str:
    """One line for the position: ``'black'`` or ``'white'``, a space, the rows joined by ``/``."""
    letters = {None: ".", Color.BLACK: "B", Color.WHITE: "W"}
    rows = [
        "".join(letters[board[row, col]] for col in range(board.size)) for row in range(board.size)
    ]
    return f"{color.value} {'/'.join(rows)}"


def decode_plain(line: str) -> tuple[Any, Any]:
    """The plain board and colour of an :func:`encode` line (as the sandboxed runner reads it)."""
    side, rows = line.split(" ", 1)
    grid = rows.split("/")
    module = plain()
    board = module.make_board(len(grid), grid, module.LENT, True)
    return board, module.COLORS[side]
