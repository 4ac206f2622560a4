"""How the board's widgets are laid out: rows that wrap, titled panels, and the models they share.

:mod:`.widget` puts the board together from these.  A board's plain texts and buttons share one
layout model and one style model each (:class:`Plain`), so a board is 72 widgets, not 108.
"""

from __future__ import annotations

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle  # not exported by ipywidgets itself


class Plain:
    """The layout and styles a board's plain texts and buttons share: one model each.

    ipywidgets gives every widget a layout model and a style model of its own, each a message
    to the page and a model there: a board made 108 widgets, 41 of them layouts and 25 styles,
    most never changed.  Only widgets that never change their layout or style share these (a
    widget shown or hidden by its ``layout.display`` keeps its own).
    """

    def __init__(self) -> None:
        self.layout = w.Layout()
        self.html_style = HTMLStyle()
        self.button_style = w.ButtonStyle()

    def html(self, value: str = "") -> w.HTML:
        """An HTML text with the shared layout and style."""
        return w.HTML(value, layout=self.layout, style=self.html_style)


def titled(plain: Plain, title: str, body: w.Widget, width: str = "150px") -> w.VBox:
    """A panel: its title (a plain text) over its body, never wider than the window."""
    layout = w.Layout(width=width, max_width="100%", margin="0 12px 8px 0")
    return w.VBox([plain.html(f"<b>{title}</b>"), body], layout=layout)


def wrapping(**more: str) -> w.Layout:
    """A row that wraps its items onto the next line when the window is too narrow."""
    return w.Layout(display="flex", flex_flow="row wrap", align_items="flex-start",
                    align_content="flex-start", max_width="100%", **more)  # fmt: skip
