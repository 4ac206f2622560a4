"""Playing without a mouse: the keyboard's cursor on the board, and a move typed in a box.

This module owns how keys and typed text become controller calls; it words no
message (a bad square is refused by the controller, with the reason) and draws
nothing itself (the board draws the cursor it holds).  Arrow keys on the focused
board move a cursor, shown as a double frame; Enter or Space plays its square,
Escape hides it; Tab goes on to the next control and Shift+Tab leaves the board
backwards (:func:`pass_focus`: ipycanvas keeps every key, so the board would otherwise
be a keyboard trap).  The box takes a square's name (``d3``) or ``pass``, played
when Enter is pressed, so a student who cannot use a mouse plays every move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from course.board.controller import GameController
from course.board.view import BoardCanvas
from course.i18n import gettext as _
from reversi.notation import Square

#: Arrow keys and how they move the keyboard's cursor (rows, columns).
ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}

#: Keys that play the cursor's square.
PLAY_KEYS = ("Enter", " ", "Spacebar")

#: Longer typed text is cut here: no square's name is longer, so it is refused all the same.
LONGEST_TYPED = 12


def pass_focus(canvas: w.DOMWidget, after: w.DOMWidget, backwards: bool) -> None:
    """Tab pressed on a focused ``canvas``: the focus goes on to ``after``; with Shift the
    canvas lets it go, and the browser's next Shift+Tab starts from the canvas.

    ipycanvas stops the browser's own handling of every key pressed on a canvas, Tab too, so
    without this the keyboard could never leave a board (WCAG 2.1.2, no keyboard trap).
    """
    if backwards:
        canvas.blur()
    else:
        after.focus()


class KeyboardPlay:
    """The keyboard's cursor on ``board`` and the typed-move box (``box``) of one game."""

    def __init__(
        self, controller: GameController, board: BoardCanvas, redraw: Callable[[], None]
    ) -> None:
        self.controller = controller
        self.board = board
        self.redraw = redraw
        self.box = w.Text(
            placeholder="d3",
            description=_("Type a move:"),
            continuous_update=False,
            style={"description_width": "initial"},
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.box.add_class("reversi-typed")
        #: Where Tab on the board sends the focus (the widget makes it its first button).
        self.next_control: w.DOMWidget = self.box

    def key_down(self, key: str, *modifiers: Any) -> None:
        """A key pressed on the focused board (ipycanvas also passes shift, ctrl and meta)."""
        size = self.controller.game.board.size
        cursor = self.board.cursor
        if key == "Tab":
            pass_focus(
                self.board.canvas, self.next_control, backwards=bool(modifiers and modifiers[0])
            )
        elif key in ARROWS:
            if cursor is None:
                cursor = Square((size - 1) // 2, (size - 1) // 2)
            else:
                drow, dcol = ARROWS[key]
                row = min(size - 1, max(0, cursor.row + drow))
                cursor = Square(row, min(size - 1, max(0, cursor.col + dcol)))
            self.board.cursor = cursor
            self.redraw()
        elif key in PLAY_KEYS and cursor is not None:
            self.controller.click(cursor)
        elif key == "Escape" and cursor is not None:
            self.board.cursor = None
            self.redraw()

    def typed(self, change: dict[str, Any]) -> None:
        """The box's text once Enter is pressed: a square's name, or ``pass``.

        ``change`` is what the box's observer hears: a mapping with the ``"new"`` text.
        """
        text = str(change["new"]).strip()
        if not text:
            return
        self.box.value = ""  # empties the box for the next move (and comes back here, empty)
        if text.casefold() == "pass":
            self.controller.pass_turn()
        else:
            self.controller.click(text[:LONGEST_TYPED])
