"""The Reversi board widget: a clickable ipycanvas board with its ipywidgets panels.

:mod:`.controller` holds the game between two players without any widget; :mod:`.view`
draws a board on a canvas; :mod:`.widget` puts them together with the panels and the
settings (``play()``).  The widget modules import ipywidgets and ipycanvas; nothing
below ``course.board`` does.
"""
