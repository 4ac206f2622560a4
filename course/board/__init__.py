"""The Reversi board widget: a clickable ipycanvas board with its ipywidgets panels.

The layers point one way: :mod:`.settings`, :mod:`.events`, :mod:`.messages` and
:mod:`.seats` know no other board module; :mod:`.state` builds on them,
:mod:`.computer` (with :mod:`.background`, which knows only its ``Host``
interface) on the state, and :mod:`.controller` on the computer side.  None of
those imports a widget.  :mod:`.panels` and :mod:`.view` draw; :mod:`.widget`
puts everything together with :mod:`.settings_panel` and :mod:`.sound`
(``play()``).
"""
