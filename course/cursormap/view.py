"""The playable cursor-map board: an ipycanvas with buttons, texts and a map picker around a
:class:`~course.cursormap.controller.CursorMapController`.

The view only translates: a key or a click becomes a controller call, and every change
of the controller repaints the canvas from :func:`~course.cursormap.scene.scene` and
refreshes the texts.  Each callback is guarded, so an exception is shown under the board
instead of vanishing into the browser console.  Nothing is kept at module level: several
boards in one notebook are independent.  Labels, tooltips and messages are in the reader's
language (:mod:`course.i18n`), chosen when the board is made.
"""

from __future__ import annotations

import functools
import html
import math
import traceback
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipycanvas import Canvas, hold_canvas

from course.board.keys import pass_focus
from course.cursormap.controller import DEFAULT_MAP, CursorMapController
from course.cursormap.scene import FONT, Ellipse, Layout, Pixels, Polygon, Rect, Shape, Text, scene
from course.cursormap.svg import cursormap_svg
from course.i18n import N_, _
from reversi.cursormap import CursorMap, sample_text
from reversi.surface import student

BUTTONS = {  # css suffix: (label, tooltip), each translated where the button is made
    "up": ("↑", N_("Move the cursor up (arrow up)")),
    "left": ("←", N_("Move the cursor left (arrow left)")),
    "right": ("→", N_("Move the cursor right (arrow right)")),
    "down": ("↓", N_("Move the cursor down (arrow down)")),
    # TRANSLATORS: the button that applies the cursor (a short word: the button is narrow)
    "apply": (N_("Apply"), N_("Apply the cursor here (Enter)")),
    "new": (N_("New game"), N_("Start again on this map")),
}


def _paint(canvas: Canvas, shapes: list[Shape]) -> None:
    """Draw ``shapes`` on ``canvas`` in one message."""
    with hold_canvas():
        canvas.clear()
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        for shape in shapes:
            if isinstance(shape, Rect):
                if shape.fill:
                    canvas.fill_style = shape.fill
                    canvas.fill_rect(shape.x, shape.y, shape.width, shape.height)
                if shape.stroke:
                    canvas.stroke_style = shape.stroke
                    canvas.line_width = shape.line_width
                    canvas.stroke_rect(shape.x, shape.y, shape.width, shape.height)
            elif isinstance(shape, Text):
                canvas.fill_style = shape.color
                canvas.font = f"{'bold ' if shape.bold else ''}{shape.size:.0f}px {FONT}"
                canvas.fill_text(shape.text, shape.x, shape.y)
            elif isinstance(shape, Ellipse):
                canvas.fill_style = shape.fill
                canvas.begin_path()
                canvas.ellipse(shape.cx, shape.cy, shape.rx, shape.ry, 0, 0, 2 * math.pi)
                canvas.fill()
            elif isinstance(shape, Polygon):
                canvas.fill_style = shape.fill
                canvas.fill_polygon(list(shape.points))


def _html(css_class: str, **layout: str) -> w.HTML:
    widget = w.HTML(layout=w.Layout(**layout))
    widget.add_class(css_class)
    return widget


class CursorMapWidget(w.VBox):  # type: ignore[misc]  # ipywidgets has no types
    """A cursor-map board to play in a notebook cell; ``controller`` holds the game."""

    def __init__(self, controller: CursorMapController, pixels: int = 480) -> None:
        self.controller = controller
        self.pixels = pixels
        self.geometry = Layout.for_map(controller.game.map, pixels)
        self.canvas = Canvas(width=self.geometry.canvas_width, height=self.geometry.canvas_height)
        self.canvas.layout.width = f"{self.geometry.canvas_width}px"
        self.canvas.add_class("cursormap-canvas")
        self.canvas.add_class("kit-presses-only")  # no move messages: course.site.canvas_events
        self.turn = _html("cursormap-turn")
        self.status = _html("cursormap-status")
        self.message = _html("cursormap-message")
        self.remaining = _html("cursormap-remaining")
        self.error = _html("cursormap-error")
        self.log_panel = _html("cursormap-log", max_height="180px", overflow="auto", width="100%")
        self.buttons = self._make_buttons()
        self.picker = self._make_picker()
        controls = w.VBox([
            self.turn, self.status, self.remaining, self.message, self._button_pad(),
            w.HTML(f"<b>{html.escape(_('Game log'))}</b>"), self.log_panel,
        ], layout=w.Layout(width="420px", margin="0 0 0 12px"))  # fmt: skip
        super().__init__([w.HBox([self.canvas, controls]), self.error, self.picker])
        self.add_class("cursormap-game")
        self.add_class("kit-own-presses")  # a press leaves the cell as it was: course.site.canvas_events
        self.canvas.on_client_ready(self._guard(self.redraw))
        self.canvas.on_mouse_down(self._guard(self._on_mouse_down))
        self.canvas.on_touch_start(self._guard(self._on_touch_start))
        self.canvas.on_key_down(self._guard(self._on_key_down))
        controller.on_change(self._guard(self.refresh))
        self.refresh()

    # -- guarded callbacks -------------------------------------------------------------

    def _guard(self, callback: Callable[..., Any]) -> Callable[..., None]:
        """``callback``, but an exception it raises is shown under the board."""

        @functools.wraps(callback)
        def guarded(*args: Any) -> None:
            try:
                callback(*args)
            except Exception as error:  # shown to the user instead of lost in the console
                self.show_error(error, callback.__name__)

        return guarded

    def show_error(self, error: BaseException, where: str) -> None:
        """Show ``error`` (raised in the callback named ``where``) under the board."""
        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        heading, summary = _("Error in {where}:").format(where=where), _("Traceback")
        self.error.value = (
            f"<div style='color:#b00020'><b>{html.escape(heading)}</b> "
            f"{html.escape(type(error).__name__)}: {html.escape(str(error))}</div>"
            f"<details><summary>{html.escape(summary)}</summary>"
            f"<pre>{html.escape(details)}</pre></details>"
        )

    def _on_mouse_down(self, x: float, y: float) -> None:
        field = self.geometry.field_at(x, y)
        if field is not None:
            self.controller.click_field(*field)

    def _on_touch_start(self, touches: list[tuple[float, float]]) -> None:
        """A finger on the map is a press (ipycanvas's touch start keeps the browser from
        making a mouse press of it)."""
        if len(touches) == 1:
            self._on_mouse_down(*touches[0])

    def _on_key_down(self, key: str, shift_key: bool, ctrl_key: bool, meta_key: bool) -> None:
        if key == "Tab":  # ipycanvas keeps Tab too: hand the focus on, so the board is no trap
            pass_focus(self.canvas, self.buttons["up"], backwards=shift_key)
        else:
            self.controller.key(key)

    # -- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        """Paint the whole board (also what a newly connected view gets)."""
        game = self.controller.game
        _paint(self.canvas, scene(game.map, game.cursor, game.position, self.geometry))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, and beside it an SVG of the map for pages that cannot run it."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            game = self.controller.game
            bundle["image/svg+xml"] = cursormap_svg(
                game.map, game.cursor, game.position, self.pixels
            )
        return bundle

    def refresh(self) -> None:
        """Bring the canvas and every text up to date with the controller."""
        c = self.controller
        geometry = Layout.for_map(c.game.map, self.pixels)
        if geometry != self.geometry:  # a map of another size: resize the canvas first
            self.geometry = geometry
            self.canvas.width, self.canvas.height = geometry.canvas_width, geometry.canvas_height
            self.canvas.layout.width = f"{geometry.canvas_width}px"
        self.redraw()
        self.turn.value = f"<b>{html.escape(c.turn_text)}</b>"
        self.status.value = html.escape(c.position_text)
        self.remaining.value = html.escape(c.remaining_text)
        self.message.value = f"<i>{html.escape(c.message)}</i>"
        self.log_panel.value = "".join(
            f"<div style='line-height:1.35;margin-bottom:4px'>{html.escape(line)}</div>"
            for line in c.log
        )
        self.error.value = (
            f"<pre style='color:#b00020'>{html.escape(c.error)}</pre>" if c.error else ""
        )

    # -- controls ----------------------------------------------------------------------

    def _make_buttons(self) -> dict[str, w.Button]:
        c = self.controller
        actions: dict[str, Callable[[], Any]] = {
            "up": lambda: c.move("up"),
            "left": lambda: c.move("left"),
            "right": lambda: c.move("right"),
            "down": lambda: c.move("down"),
            "apply": c.apply,
            "new": c.new_game,
        }
        buttons = {}
        for key, (label, tooltip) in BUTTONS.items():
            wide = key in ("apply", "new")
            button = w.Button(
                description=_(label), tooltip=_(tooltip),
                layout=w.Layout(width="90px" if wide else "40px"),
            )  # fmt: skip
            button.add_class(f"cursormap-{key}")
            action = actions[key]
            button.on_click(self._guard(lambda _button, action=action: action()))
            buttons[key] = button
        return buttons

    def _button_pad(self) -> w.HBox:
        b = self.buttons
        blank = w.Label(layout=w.Layout(width="40px"))
        pad = w.VBox([
            w.HBox([blank, b["up"]]),
            w.HBox([b["left"], b["down"], b["right"]]),
        ])  # fmt: skip
        return w.HBox([pad, w.VBox([b["apply"], b["new"]])])

    def _make_picker(self) -> w.Accordion:
        c = self.controller
        samples = c.samples
        self.sample_picker = w.Dropdown(
            options=samples, value=c.map_name if c.map_name in samples else None,
            description=_("Sample map"), style={"description_width": "initial"},
        )  # fmt: skip
        self.sample_picker.add_class("cursormap-samples")
        text = sample_text(c.map_name) if c.map_name in samples else c.game.map.to_text()
        self.map_text = w.Textarea(value=text, layout=w.Layout(width="600px", height="240px"))
        self.map_text.add_class("cursormap-map-text")
        self.load_button = load = w.Button(
            description=_("Play this map"), tooltip=_("Read the text above and play on it")
        )
        load.add_class("cursormap-load-text")
        self.upload = w.FileUpload(accept=".map,.txt", multiple=False, description=_("Upload map"))
        self.upload.add_class("cursormap-upload")
        self.sample_picker.observe(self._guard(self._on_sample), names="value")
        load.on_click(self._guard(lambda _button: c.load_text(self.map_text.value)))
        self.upload.observe(self._guard(self._on_upload), names="value")
        box = w.VBox([self.sample_picker, self.map_text, w.HBox([load, self.upload])])
        accordion = w.Accordion(children=[box], titles=(_("Choose or write a map"),))
        accordion.selected_index = None
        accordion.add_class("cursormap-picker")
        return accordion

    def _on_sample(self, change: dict[str, Any]) -> None:
        name = change["new"]
        if name and self.controller.load_sample(name):
            self.map_text.value = sample_text(name)

    def _on_upload(self, change: dict[str, Any]) -> None:
        for upload in change["new"]:
            try:
                text = bytes(upload["content"]).decode("utf-8")
            except UnicodeDecodeError:
                self.controller.error = _("{name} is not a text file (UTF-8).").format(
                    name=upload["name"])  # fmt: skip
                self.refresh()
                continue
            self.map_text.value = text
            self.controller.load_text(text, source=upload["name"])


@student
def play_cursormap(
    map_or_name: CursorMap | str = DEFAULT_MAP,
    seed: int | None = None,
    max_turns: int | None = None,
    pixels: Pixels = 480,
) -> CursorMapWidget:
    """A board to play cursor-map on the sample map ``map_or_name`` (or a CursorMap):
    arrow keys and Enter on the board, a click to place the cursor, or the buttons."""
    controller = CursorMapController(map_or_name, seed=seed, max_turns=max_turns)
    return CursorMapWidget(controller, pixels)
