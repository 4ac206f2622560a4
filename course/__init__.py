"""The classroom layer: boards to play in a notebook, pictures of boards, and the exercises.

In a notebook cell, ``from course import play`` then ``play()`` shows a board you
can click (see :mod:`course.board.widget`); ``join(url, room=..., name=...)`` joins
a room of the class server (see :mod:`course.classroom`).  Importing ``course`` also makes every
:class:`reversi.Board` and :class:`reversi.game.Game` show itself as a picture in
a notebook (see :mod:`course.pictures.svg`).  The widget modules are imported only when
first used, so ``import course`` stays light for scripts that only check exercises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from course.pictures.svg import board_svg, game_svg, show
from reversi.board import Board
from reversi.game import Game

if TYPE_CHECKING:
    from course.board.controller import GameController
    from course.board.settings import Settings
    from course.board.widget import GameWidget, play
    from course.classroom.board import RoomBoard, join

__all__ = [
    "GameController",
    "GameWidget",
    "ReversiBoard",
    "Settings",
    "board_svg",
    "game_svg",
    "play",
    "RoomBoard",
    "join",
    "register_formatters",
    "show",
]

_LAZY = {
    "play": ("course.board.widget", "play"),
    "GameWidget": ("course.board.widget", "GameWidget"),
    "ReversiBoard": ("course.board.widget", "GameWidget"),
    "GameController": ("course.board.controller", "GameController"),
    "Settings": ("course.board.settings", "Settings"),
    "join": ("course.classroom.board", "join"),
    "RoomBoard": ("course.classroom.board", "RoomBoard"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'course' has no attribute {name!r}")


def register_formatters(shell: Any = None) -> bool:
    """Make boards and games show themselves as SVG pictures in IPython; returns whether it could.

    Outside IPython (a script, a test run) there is nothing to register.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    svg = shell.display_formatter.formatters["image/svg+xml"]
    svg.for_type(Board, lambda board: board_svg(board))
    svg.for_type(Game, lambda game: game_svg(game))
    return True


register_formatters()
