"""One palette and one set of marker shapes for every board picture in the kit.

The static SVG pictures (lessons, worksheets, feedback pages, tournament pages) and the
clickable board draw with these colours, so a lesson that says "the white frame" is right
wherever the board is shown.  A marker differs from the others by its *shape* as well as its
colour, so nobody needs to tell colours apart:

* a **legal move** is a small dot (yellow with a dark rim; a hollow ring on paper),
* the **last move** is a square frame round the cell (white; black on paper),
* a **highlighted** square (the discs a move flips, say) is filled from edge to edge
  (yellow; grey on paper),
* the keyboard cursor of the clickable board is a double frame.

``SCREEN`` is for screens: the green board players know.  ``PRINT`` is for paper: light
squares and dark outlines, so pencil marks show and a page takes little toner.  Every pair in
:data:`MUST_DIFFER` keeps a contrast of at least 3:1 (the WCAG guideline for graphics) for
normal vision and under a simulation of protanopia, deuteranopia and tritanopia
(``tests/course/pictures/test_palette.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

SCREEN: Mapping[str, str] = MappingProxyType(
    {
        "frame": "#0f3d22",  # the margin with the coordinates
        "board": "#2e8b57",  # the squares
        "grid": "#0b3d1f",
        "coord": "#f0f0f0",
        "black": "#141414",
        "white": "#f4f4f4",
        "rim": "#6e6e6e",  # round a white disc, so it shows on a highlighted square too
        "hint": "#fff07a",  # a legal move's dot ...
        "hint-rim": "#141414",  # ... and its rim
        "last-move": "#ffffff",  # the frame round the last move
        "highlight": "#fff07a",  # a highlighted square, filled edge to edge
        "cursor": "#141414",  # the keyboard cursor's outer frame ...
        "cursor-inner": "#fff07a",  # ... and its inner frame
        "line-ring": "#fff07a",  # round the numbered tiles of an expected line
    }
)

PRINT: Mapping[str, str] = MappingProxyType(
    {
        "frame": "#ffffff",
        "board": "#ffffff",
        "grid": "#333333",
        "coord": "#141414",
        "black": "#141414",
        "white": "#ffffff",
        "rim": "#141414",
        "hint": "#ffffff",  # on paper a legal move is a hollow ring
        "hint-rim": "#141414",
        "last-move": "#141414",
        "highlight": "#8c8c8c",
        "cursor": "#141414",
        "cursor-inner": "#ffffff",
        "line-ring": "#8c8c8c",
    }
)

THEMES: Mapping[str, Mapping[str, str]] = MappingProxyType({"screen": SCREEN, "print": PRINT})

#: What a person must see against what: each mark (its colours: a fill, and a rim where it has
#: one) against the ground it is drawn on.  One of a mark's colours keeps the contrast: a white
#: disc stands out on the green board by its fill and on paper by its rim.
MUST_DIFFER: tuple[tuple[tuple[str, ...], str], ...] = (
    (("black",), "board"),
    (("white", "rim"), "board"),
    (("black",), "white"),
    (("black",), "highlight"),
    (("white", "rim"), "highlight"),
    (("hint", "hint-rim"), "board"),
    (("last-move",), "board"),
    (("highlight",), "board"),
    (("cursor", "cursor-inner"), "board"),
    (("line-ring",), "board"),
    (("coord",), "frame"),
)
