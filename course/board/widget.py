"""The playable board: the canvas, the buttons, the settings and the panels around a controller.

This module owns how the board's widgets are put together and laid out, and the translation between
them and the controller; it may not decide a rule or word a status message (the controller and
:mod:`.messages` do).  ``play()`` in a notebook cell returns a :class:`GameWidget`, which displays
itself.  A click is turned into a :class:`~reversi.notation.Square` here, once, and becomes
``controller.click(square)``; a button press becomes a controller call, and each controller event a
redraw.  Keys and typed moves play too (:mod:`.keys`); a live region reads the last move and the
counts to a screen reader; the display carries an SVG of the position beside the widget (a stored
notebook shows its board before anything runs); ``present()`` is the projector's view.  The board
and panels reflow: side by side when there is room, the panels below when not, the canvas scaled
down (never cut).  Every callback is guarded: an exception shows in the status line, never lost in
the console.  What a notebook calls here is checked from its annotations
(:func:`reversi.surface.student`).
"""

from __future__ import annotations

import contextlib
import functools
import html
import os
import traceback
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import ipywidgets as w

from course.board import messages as say
from course.board.controller import GameController
from course.board.events import Event, EventKind, MoveEvent
from course.board.keys import KeyboardPlay
from course.board.layout import Plain, titled, wrapping
from course.board.messages import Tone
from course.board.panels import (
    STYLE,
    display,
    error_html,
    live_html,
    log_html,
    pawns_html,
    scores_html,
    status_html,
)
from course.board.settings import Settings
from course.board.settings_panel import PANELS, Panel, SettingsPanel
from course.board.sound import SoundPlayer
from course.board.thinking import ThinkingPanel
from course.board.view import BoardCanvas
from course.i18n import gettext as _
from course.pictures.pawns import load_pawn_image
from course.pictures.svg import board_svg
from reversi.notation import BLACK, WHITE, Move, Square
from reversi.players import Player
from reversi.surface import student
from reversi.typecheck import Between

F = TypeVar("F", bound=Callable[..., Any])


#: How wide a board may be asked to be, and which panels it shows beside the board.
Pixels = Annotated[int, Between(120, 4000)]
Panels = Sequence[Panel]

#: The presenter view: the board up to the screen's height, for a projector.
PRESENTER_PIXELS = 880
PRESENTER_WIDTH = "min(100%, calc(100vh - 150px))"


@student
class GameWidget(w.VBox):  # type: ignore[misc]  # ipywidgets has no types
    """A Reversi board to play in a notebook cell; ``controller`` holds the game."""

    def __init__(
        self,
        controller: GameController,
        pixels: Pixels = 400,
        panels: Panels = PANELS,
        presenter: bool = False,
    ):
        self.controller = controller
        settings = controller.settings
        self.presenter = presenter
        plain = Plain()
        self.board = BoardCanvas(
            controller.game.board.size,
            PRESENTER_PIXELS if presenter else pixels,
            css_width=PRESENTER_WIDTH if presenter else None,
        )
        self.css = plain.html(STYLE)
        self.live = plain.html().add_class("reversi-live")
        self.keyboard = KeyboardPlay(controller, self.board, self.redraw)
        self.keyboard.box.observe(self._guard(self.keyboard.typed), "value")
        self.sound = SoundPlayer(settings.sound)
        self.turn, self.clock, self.status, self.errors = (
            plain.html().add_class(f"reversi-{name}") for name in ("turn", "clock", "status", "error")
        )
        self.pawns_panel, self.scores_panel, self.log_panel = (
            plain.html().add_class(f"reversi-{p}") for p in PANELS
        )
        self.panel_boxes = {
            "pawns": titled(plain, _("Discs"), self.pawns_panel),
            "scores": titled(plain, _("Scores"), self.scores_panel),
            "log": titled(plain, _("Game log"), self.log_panel, width="240px"),
        }
        panels_box = w.Box(list(self.panel_boxes.values()), layout=wrapping(flex="1 1 170px"))
        panels_box.add_class("reversi-panels")
        self.buttons = self._make_buttons(plain)
        self.keyboard.next_control = self.buttons["new"]  # Tab on the board goes on to it
        self.undo_box = self._make_undo_box(plain)
        self.settings_panel = SettingsPanel(
            controller, self._guard, self.set_pawn_images, self._show_panel, panels
        )
        self.thinking_panel = ThinkingPanel(controller, self.draw_line)
        super().__init__(
            [
                w.Box([self.turn, self.clock], layout=wrapping(grid_gap="4px 16px")),
                w.Box([self.board.canvas, panels_box], layout=wrapping(grid_gap="8px 12px")),
                self.status,
                self.live,
                w.Box(list(self.buttons.values()), layout=wrapping()),
                self.keyboard.box,
                self.undo_box,
                self.settings_panel.widget,
                self.thinking_panel.widget,
                self.errors,
                self.sound.widget,
                self.css,
            ]
        )
        self.layout.max_width = "100%"
        self.add_class("reversi-game")
        self.add_class("kit-own-presses")  # a press leaves the cell as it was: course.site.canvas_events
        if presenter:
            self.add_class("reversi-present")
        for name, box in self.panel_boxes.items():
            box.layout.display = display(name in panels)
        self.board.canvas.on_mouse_down(self._guard(self._on_mouse_down))
        self.board.canvas.on_touch_start(self._guard(self._on_touch_start))
        self.board.canvas.on_client_ready(self._guard(self._on_client_ready))
        self.board.canvas.on_key_down(self._guard(self.keyboard.key_down))
        controller.listen(self._guard(self._on_event))
        self.set_pawn_images(settings.black_image, settings.white_image)  # and draws the board

    # -- public --------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the whole board and refresh every text from the controller."""
        game = self.controller.game
        self.board.resize(game.board.size)
        self.board.draw(game.board, *self._markers())
        self.refresh()

    def draw_line(self, line: Sequence[Move]) -> None:
        """Redraw the board with ``line`` (the move to play first) numbered on it, in one batch."""
        game = self.controller.game
        self.board.draw(game.board, *self._markers(), line=line, first=game.turn)

    def refresh(self) -> None:
        """Refresh the texts, panels and buttons (not the canvas)."""
        c = self.controller
        game = c.game
        self.turn.value = f"<b>{html.escape(c.turn_text())}</b>"
        self.clock.value = html.escape(c.countdown_text())
        self.status.value = status_html(c.message, c.tone)
        self.pawns_panel.value = pawns_html(game.counts())
        self.scores_panel.value = scores_html(c.scoreboard)
        self.log_panel.value = log_html(game.log)
        self.live.value = live_html(say.spoken_position(game))
        b = self.buttons
        b["pass"].disabled = not c.can_pass
        b["undo"].disabled = not c.can_undo
        b["resign"].disabled = game.is_over
        computers = [color for color in (BLACK, WHITE) if c.is_computer(color)]
        b["stop"].disabled = not computers or game.is_over
        b["stop"].description = _("Continue") if (c.stopped or c.failed) else _("Stop")
        answerer = c.undo_answerer
        self.undo_box.layout.display = display(answerer is not None)
        if answerer is not None:
            self.undo_question.value = html.escape(say.undo_question(game, answerer))

    def set_pawn_images(
        self, black: str | os.PathLike[str] | None, white: str | os.PathLike[str] | None
    ) -> None:
        """Draw the pawns with these 64x64 PNGs (``None``: solid discs); bad files fall back."""
        notes, used = [], []
        for color, path in ((BLACK, black), (WHITE, white)):
            image, note = load_pawn_image(path)
            self.board.images[color] = image
            used.append(os.fspath(path) if image is not None and path is not None else None)
            if note:
                notes.append(note)
        settings = self.controller.settings
        settings.black_image, settings.white_image = used  # a picture that failed is not kept
        if notes:
            self.controller.message = " ".join(notes)
        self.redraw()

    def show_error(self, error: BaseException) -> None:
        """Show an error raised in a callback: a line in the status, the traceback folded below."""
        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        self.status.value = status_html(say.error(error), Tone.ERROR)
        self.errors.value = error_html(details)

    def close(self) -> None:
        """Stop the game's background tasks and close the widgets."""
        controller = getattr(self, "controller", None)  # None: refused before it was set
        if controller is not None:
            controller.close()
        super().close()

    def _show_panel(self, name: str, visible: bool) -> None:
        self.panel_boxes[name].layout.display = display(visible)

    # -- events from the browser and the controller ----------------------------------------

    def _guard(self, function: F) -> F:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return function(*args, **kwargs)
            except Exception as error:
                with contextlib.suppress(Exception):  # never raise into ipywidgets
                    self.show_error(error)
                return None

        return guarded  # type: ignore[return-value]

    def _on_client_ready(self) -> None:
        self.redraw()  # a new or reloaded page starts with a blank canvas
        self.controller.start()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, and beside it an SVG of the position for pages that cannot run it."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            game = self.controller.game
            hints, last = self._markers()
            bundle["image/svg+xml"] = board_svg(game.board, markers=hints, last_move=last)
        return bundle

    def _on_mouse_down(self, x: float, y: float) -> None:
        square = self.board.geometry.square_at(x, y)  # the one place a click becomes a Square
        if square is None:
            self.status.value = status_html(say.click_a_square(), Tone.REFUSAL)
            return
        self.controller.click(square)

    def _on_touch_start(self, touches: list[tuple[float, float]]) -> None:
        """One finger on the board is a click (the browser makes no mouse press of a touch here)."""
        if len(touches) == 1:
            self._on_mouse_down(*touches[0])

    def _on_event(self, event: Event) -> float | None:
        c = self.controller
        kind = event.kind
        if kind is EventKind.TICK:
            self.clock.value = html.escape(c.countdown_text())
            return None
        seconds = None
        if isinstance(event, MoveEvent):
            seconds = self._show_move(event)  # the board first: the page draws it first
            self.sound.play()
        elif kind.redraws_board:
            self.board.resize(c.game.board.size)
            self.board.draw(c.game.board, *self._markers())
        if kind is EventKind.ERROR and c.error:
            self.errors.value = error_html(c.error)
        elif kind in (EventKind.NEW_GAME, EventKind.LOADED):
            self.errors.value = ""
        if kind.changes_settings:
            self.settings_panel.sync()
            self.sound.set_enabled(c.settings.sound)
        if kind is EventKind.SAVED:
            self.settings_panel.refresh_saves()
        self.refresh()
        return seconds

    def _show_move(self, event: MoveEvent) -> float | None:
        """Draw a move, as a short film when animations are on; returns its seconds."""
        c = self.controller
        hints, last = self._markers()
        if not c.settings.animate or event.color is None:
            self.board.draw(c.game.board, hints, last)
            return None
        self.board.resize(c.game.board.size)
        return self.board.animate(
            c.game.board,
            event.color,
            event.square,
            event.flipped,
            hints,
            last,
            slow=c.settings.slow_captures,
        )

    def _markers(self) -> tuple[list[Square], Square | None]:
        c = self.controller
        hints = c.hints() if c.settings.show_legal_moves else []
        last = c.last_move() if c.settings.show_last_move else None
        return hints, last

    # -- building the controls ------------------------------------------------------------

    def _make_buttons(self, plain: Plain) -> dict[str, w.Button]:
        c = self.controller
        actions: dict[str, tuple[str, Callable[[], Any], str]] = {
            "new": (_("New game"), lambda: c.new_game(), _("Start again; the scores stay")),
            "undo": (_("Undo"), lambda: c.request_undo(),
                     _("Ask your opponent to take back your last move")),  # fmt: skip
            "pass": (_("Pass"), lambda: c.pass_turn(), _("Only when you have no legal move")),
            "resign": (_("Resign"), lambda: c.resign(), _("Give up this game")),
            "stop": (_("Stop"), lambda: self._stop_or_continue(),
                     _("Pause or continue the computer players")),  # fmt: skip
        }
        buttons = {}
        fitted = w.Layout(width="auto")  # one model for the five: no button changes its layout
        for key, (label, action, tip) in actions.items():
            button = w.Button(description=label, tooltip=tip, layout=fitted, style=plain.button_style)
            button.add_class(f"reversi-{key}")
            button.on_click(self._guard(lambda _b, act=action: act()))
            buttons[key] = button
        return buttons

    def _stop_or_continue(self) -> None:
        c = self.controller
        if c.stopped or c.failed:
            c.resume()
        else:
            c.stop()

    def _make_undo_box(self, plain: Plain) -> w.HBox:
        self.undo_question = plain.html()
        accept, decline = (
            w.Button(description=label, button_style=look, layout=plain.layout, style=plain.button_style)
            for label, look in ((_("Accept"), "success"), (_("Decline"), "warning"))
        )
        accept.add_class("reversi-accept")
        decline.add_class("reversi-decline")
        accept.on_click(self._guard(lambda _b: self.controller.answer_undo(True)))
        decline.on_click(self._guard(lambda _b: self.controller.answer_undo(False)))
        layout = w.Layout(flex_flow="row wrap", align_items="center", max_width="100%")
        box = w.HBox([self.undo_question, accept, decline], layout=layout)
        box.add_class("reversi-undo-answer")
        return box


@student
def play(
    black: str | Player = "human",
    white: str | Player = "human",
    *,
    black_name: str | None = None,
    white_name: str | None = None,
    saves_folder: str | os.PathLike[str] = "saves",
    pixels: Pixels = 400,
    panels: Panels = PANELS,
    presenter: bool = False,
    **settings: Any,
) -> GameWidget:
    """A Reversi board to play in this notebook cell.

    ``black`` and ``white`` are player kinds (``"human"``, a level: ``"beginner"``,
    ``"easy"``, ``"medium"``, ``"hard"``, ``"expert"``, or a lesson's player:
    ``"random"``, ``"greedy"``, ``"positional"``, ``"minimax"``, ``"alphabeta"``) or
    Player objects; ``"computer"`` is the easy level.  Other keywords are
    :class:`~course.board.settings.Settings`, for example
    ``size=6``, ``no_move_policy="stalemate"``, ``time_per_move=10``,
    ``computer_waits=True``, ``animate=False``, ``slow_captures=True``,
    ``sound=True``, ``black_image="black.png"``.  Saves go to ``saves_folder``
    (``saves`` next to the notebook).  ``presenter=True`` is the projector view
    (see :func:`present`).
    """
    controller = GameController(
        black, white, black_name=black_name, white_name=white_name,
        settings=Settings(**settings), saves_folder=saves_folder, autostart=False,
    )  # fmt: skip
    return GameWidget(controller, pixels=pixels, panels=panels, presenter=presenter)


@student
def present(
    black: str | Player = "human", white: str | Player = "computer", **options: Any
) -> GameWidget:
    """A board for the front of the room, as tall as the screen, texts of 20 px and more.

    Takes :func:`play`'s arguments; White is the computer unless said otherwise."""
    return play(black, white, presenter=True, **options)
