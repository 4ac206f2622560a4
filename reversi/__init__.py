"""Reversi (Othello) as a small, readable Python package.

The modules form one chain, each using only the ones before it::

    errors -> notation -> bitboard -> board -> players -> search -> game -> saves -> terminal

``reversi`` imports nothing from Jupyter, widget or plotting libraries: it runs in
a terminal, a test or a server.  The classroom layer lives in the ``course`` package.
"""

from reversi.board import Board, PawnCounts
from reversi.errors import (
    BoardSizeError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    PlayerError,
    ReversiError,
    SaveFileError,
    TimeExpiredError,
    UndoError,
)
from reversi.notation import BLACK, PASS, WHITE, Color, Pass, Square, parse_move, square

__all__ = [
    "BLACK",
    "PASS",
    "WHITE",
    "Board",
    "BoardSizeError",
    "Color",
    "GameOverError",
    "IllegalMoveError",
    "NotationError",
    "PawnCounts",
    "Pass",
    "PlayerError",
    "ReversiError",
    "SaveFileError",
    "Square",
    "TimeExpiredError",
    "UndoError",
    "parse_move",
    "square",
]
