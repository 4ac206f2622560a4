"""The classroom layer: boards to play in a notebook, pictures of boards, and the exercises.

This module owns the package's front door: the short names a lesson imports
(``from course import play, show``) and :func:`register_formatters`.  Importing it
does no work: every name is loaded from its module when first used, and nothing is
drawn or computed.  In a notebook (an IPython kernel already running), importing
``course`` also tells IPython, by class name only, to show every
:class:`reversi.Board` and :class:`reversi.game.Game` as an SVG picture; the
picture module itself loads when the first board is shown.  Call
:func:`register_formatters` to do that in a shell started after the import.

``join(url, room=..., name=...)`` joins a room of the class server
(see :mod:`course.classroom`); ``hand_in(name)`` hands in an exercise notebook from the
browser classroom (see :mod:`course.site`).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from course.board.controller import GameController
    from course.board.settings import Settings
    from course.board.widget import GameWidget, play, present
    from course.classroom.board import RoomBoard, join
    from course.pictures.svg import board_svg, game_svg, show
    from course.site.handin_client import hand_in

__all__ = [
    "GameController",
    "GameWidget",
    "ReversiBoard",
    "Settings",
    "board_svg",
    "game_svg",
    "hand_in",
    "play",
    "present",
    "RoomBoard",
    "join",
    "register_formatters",
    "show",
]

_LAZY = {
    "play": ("course.board.widget", "play"),
    "present": ("course.board.widget", "present"),
    "GameWidget": ("course.board.widget", "GameWidget"),
    "ReversiBoard": ("course.board.widget", "GameWidget"),
    "GameController": ("course.board.controller", "GameController"),
    "Settings": ("course.board.settings", "Settings"),
    "board_svg": ("course.pictures.svg", "board_svg"),
    "game_svg": ("course.pictures.svg", "game_svg"),
    "show": ("course.pictures.svg", "show"),
    "join": ("course.classroom.board", "join"),
    "RoomBoard": ("course.classroom.board", "RoomBoard"),
    "hand_in": ("course.site.handin_client", "hand_in"),
}

#: The classes shown as pictures, by module and class name, and the function drawing each.
PICTURED = (("reversi.board", "Board", "board_svg"), ("reversi.game", "Game", "game_svg"))


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'course' has no attribute {name!r}")


def register_formatters(shell: Any = None) -> bool:
    """Make boards and games show themselves as SVG pictures in IPython; returns whether it could.

    ``shell`` defaults to the running IPython shell; outside IPython (a script, a
    test run) there is nothing to register.  The classes are named, not imported,
    so this is cheap and loads nothing.
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    try:
        formatter = shell.display_formatter.formatters["image/svg+xml"]
    except (AttributeError, KeyError, TypeError):
        from reversi.errors import ArgumentError, shown

        raise ArgumentError(f"{shown(shell)} is not an IPython shell with an SVG display") from None
    for module, class_name, drawer in PICTURED:
        formatter.for_type_by_name(module, class_name, _drawing(drawer))
    return True


def _drawing(drawer: str) -> Any:
    def draw(thing: Any) -> str:
        svg = importlib.import_module("course.pictures.svg")
        return str(getattr(svg, drawer)(thing))

    return draw


if "IPython" in sys.modules:  # a kernel or an IPython shell: only then is there anyone to tell
    register_formatters()
