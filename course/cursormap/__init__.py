"""Cursor-map in the classroom: a board to play, static pictures, and a map previewer.

The game itself lives in :mod:`reversi.cursormap`; this package only shows it.  Its
modules form a chain, each using only the ones before it::

    scene -> svg -> controller -> view

* :mod:`.scene`: the picture as a pure list of shapes, and the :class:`Layout` that maps
  fields to pixels and back.
* :mod:`.svg`: :func:`cursormap_svg`, :class:`CursorMapPicture` (``_repr_svg_``),
  :func:`preview_map` and :func:`point_at` for map-file errors.
* :mod:`.controller`: :class:`CursorMapController`, keys, clicks and buttons without widgets.
* :mod:`.view`: :class:`CursorMapWidget` and :func:`play_cursormap` (ipywidgets, ipycanvas),
  imported only when first used so that pictures need no widget library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from course.cursormap.controller import CursorMapController
from course.cursormap.scene import Layout
from course.cursormap.svg import (
    CursorMapPicture,
    MapErrorReport,
    cursormap_svg,
    point_at,
    preview_map,
)

if TYPE_CHECKING:
    from course.cursormap.view import CursorMapWidget, play_cursormap

__all__ = [
    "CursorMapController",
    "CursorMapPicture",
    "CursorMapWidget",
    "Layout",
    "MapErrorReport",
    "cursormap_svg",
    "play",
    "play_cursormap",
    "point_at",
    "preview_map",
]


def __getattr__(name: str) -> Any:
    if name in ("play", "play_cursormap", "CursorMapWidget"):
        from course.cursormap import view

        return view.play_cursormap if name == "play" else getattr(view, name)
    raise AttributeError(f"module 'course.cursormap' has no attribute {name!r}")
