"""The Settings part of the board widget: players, rules, display, panels, saving and loading.

This module owns those controls; it changes nothing itself but calls the
controller, which checks every value and words every answer.

Each control calls the controller (``set_player``, ``update_settings``, ``save``,
``load``); :meth:`SettingsPanel.sync` makes the controls show the controller's
state again, for example after a save with other players was loaded.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, Literal

import ipywidgets as w

from course.board.controller import GameController
from course.i18n import N_
from course.i18n import gettext as _
from course.pictures.pawns import SAMPLE_PAWNS
from reversi.notation import BLACK, WHITE, Color
from reversi.outcome import NoMovePolicy
from reversi.players import PLAYER_KINDS

SIZES = list(range(4, 17, 2))
TIME_LIMITS = [(N_("No limit"), None), ("5 s", 5.0), ("10 s", 10.0), ("30 s", 30.0), ("60 s", 60.0)]
#: The players' kinds and the no-move rules as the menus show them (their labels are English).
KIND_WORDS = (N_("Human"), N_("Beginner"), N_("Easy"), N_("Medium"), N_("Hard"), N_("Expert"),
              N_("Randomizer"), N_("Greedy"), N_("Positional"), N_("Minimax"), N_("Alpha-beta"))  # fmt: skip
POLICY_WORDS = (
    N_("Change turn: the player passes and the opponent moves again"),
    N_("Stalemate: the game ends and nobody wins"),
    N_("Opponent wins: the player who could still move wins"),
    N_("More discs wins: the player with more discs wins now"),
)
Panel = Literal["pawns", "scores", "log"]
PANELS: tuple[Panel, ...] = ("pawns", "scores", "log")
#: The box that shows each panel (the "pawns" panel counts discs).
PANEL_TITLES = {"pawns": N_("Show discs"), "scores": N_("Show scores"), "log": N_("Show game log")}
WIDE = {"style": {"description_width": "initial"}}

Guard = Callable[[Callable[..., Any]], Callable[..., Any]]


class SettingsPanel:
    """The collapsed "Settings" accordion, with a tab per group of controls.

    The tabs are made when the accordion is first opened (or :meth:`build` is called): they
    are about half of a board's widgets, and a board that is only played shows sooner
    without them (a lesson's first ``play()`` in the browser classroom, where each widget
    costs the page's kernel and the page).

    ``guard`` wraps every callback (so errors are shown, not lost);
    ``set_pawn_images(black, white)`` and ``show_panel(name, visible)`` belong
    to the board widget.
    """

    def __init__(
        self,
        controller: GameController,
        guard: Guard,
        set_pawn_images: Callable[[str | None, str | None], None],
        show_panel: Callable[[str, bool], None],
        panels: Sequence[Panel] = PANELS,
    ) -> None:
        self.controller = controller
        self.guard = guard
        self.set_pawn_images = set_pawn_images
        self.show_panel = show_panel
        self.panels = panels
        self.player_controls: dict[Color, tuple[w.Dropdown, w.Text]] = {}
        self.setting_controls: dict[str, w.ValueWidget] = {}
        self.save_list: w.Dropdown | None = None
        self._syncing = False
        self.widget = w.Accordion(children=[w.VBox()], titles=(_("Settings"),))
        self.widget.add_class("reversi-settings")
        self.widget.observe(self.guard(lambda _change: self.build()), "selected_index")

    def build(self) -> None:
        """Make the tabs and their controls, once (the accordion's first opening calls it)."""
        if self.save_list is not None:
            return
        sections = {
            _("Players"): self._players(),
            _("Rules"): self._rules(),
            _("Display"): self._display(),
            _("Panels"): self._panels(self.panels, self.show_panel),
            _("Save and load"): self._saves(),
        }
        self.sync()
        self.widget.children = [w.Tab(children=list(sections.values()), titles=tuple(sections))]

    def sync(self) -> None:
        """Make the controls show the controller's players and settings (once they are made)."""
        c = self.controller
        self._syncing = True  # the controls' observers stay quiet meanwhile
        try:
            for color, (kind, _name) in self.player_controls.items():
                if c.players[color].kind in PLAYER_KINDS:
                    kind.value = c.players[color].kind
            for key, widget in self.setting_controls.items():
                value = getattr(c.settings, key)
                if isinstance(widget, w.Dropdown) and value not in [v for _, v in widget.options]:
                    widget.options = [*widget.options, (f"{value:g} s", value)]  # a time limit
                widget.value = value
        finally:
            self._syncing = False

    def refresh_saves(self) -> None:
        """List the saves in the folder again (once the list is made)."""
        if self.save_list is not None:
            self.save_list.options = self.controller.save_names()

    # -- the tabs ----------------------------------------------------------------------------

    def _players(self) -> w.VBox:
        kinds = [(_(cls.label), kind) for kind, cls in PLAYER_KINDS.items()]
        rows = []
        for color in (BLACK, WHITE):
            colour = _("Black") if color is BLACK else _("White")
            kind = w.Dropdown(options=kinds, description=colour, layout=w.Layout(width="230px"))
            name = w.Text(
                placeholder=_("name (optional)"),
                continuous_update=False,
                layout=w.Layout(width="180px"),
            )
            kind.add_class(f"reversi-{color.value}-kind")
            name.add_class(f"reversi-{color.value}-name")
            self.player_controls[color] = (kind, name)
            changed = self.guard(lambda _change, col=color: self._player_changed(col))
            kind.observe(changed, "value")
            name.observe(changed, "value")
            rows.append(w.HBox([kind, name]))
        return w.VBox(rows)

    def _rules(self) -> w.VBox:
        policies = [(_(p.label), p) for p in NoMovePolicy]
        answers = [(_("accepts"), True), (_("declines"), False)]
        limits = [(_(label), seconds) for label, seconds in TIME_LIMITS]
        sizes = [(str(n), n) for n in SIZES]
        wide_menu = w.Layout(width="520px")
        return w.VBox(
            [
                self._setting("no_move_policy", w.Dropdown(options=policies, layout=wide_menu)),
                self._setting("size", w.Dropdown(options=sizes, description=_("Size"))),
                self._setting(
                    "time_per_move",
                    w.Dropdown(options=limits, description=_("Time per move"), **WIDE),
                ),
                self._setting(
                    "computer_waits",
                    w.Checkbox(description=_("Computer waits 2 s before moving"), **WIDE),
                ),
                self._setting(
                    "computer_accepts_undo",
                    w.Dropdown(options=answers, description=_("Computer undo answer"), **WIDE),
                ),
            ]
        )

    def _display(self) -> w.VBox:
        boxes = [
            ("animate", _("Animated discs")),
            ("slow_captures", _("Slow captures (one at a time)")),
            ("show_legal_moves", _("Show legal moves")),
            ("show_last_move", _("Mark the last move")),
            ("sound", _("Sound on each move")),
        ]
        checks = [self._setting(key, w.Checkbox(description=label, **WIDE)) for key, label in boxes]
        return w.VBox([*checks, self._pawn_pictures()])

    def _panels(self, panels: Sequence[Panel], show_panel: Callable[[str, bool], None]) -> w.HBox:
        boxes = []
        for name in PANELS:
            box = w.Checkbox(value=name in panels, description=_(PANEL_TITLES[name]))
            box.observe(self.guard(lambda change, n=name: show_panel(n, change["new"])), "value")
            boxes.append(box)
        return w.HBox(boxes)

    def _pawn_pictures(self) -> w.VBox:
        s = self.controller.settings
        paths = {
            color: w.Text(
                value=path or "",
                placeholder=_("path to a 64x64 PNG"),
                description=_("Black disc picture") if color is BLACK else _("White disc picture"),
            )
            for color, path in ((BLACK, s.black_image), (WHITE, s.white_image))
        }

        def use(*_: Any) -> None:
            self.set_pawn_images(paths[BLACK].value or None, paths[WHITE].value or None)

        def kit(*_: Any) -> None:
            paths[BLACK].value, paths[WHITE].value = map(
                str, (SAMPLE_PAWNS[BLACK], SAMPLE_PAWNS[WHITE])
            )
            use()

        def discs(*_: Any) -> None:
            paths[BLACK].value = paths[WHITE].value = ""
            use()

        buttons = []
        for label, action in (
            (_("Use these pictures"), use),
            (_("The kit's pictures"), kit),
            (_("Plain discs"), discs),
        ):
            button = w.Button(description=label)
            button.on_click(self.guard(action))
            buttons.append(button)
        return w.VBox([paths[BLACK], paths[WHITE], w.HBox(buttons)])

    def _saves(self) -> w.VBox:
        c = self.controller
        self.save_name = w.Text(placeholder=_("save name"))
        save, load, refresh = (w.Button(description=d) for d in (_("Save"), _("Load"), _("Refresh list")))
        self.save_name.add_class("reversi-save-name")
        save.add_class("reversi-save")
        load.add_class("reversi-load")

        save_list = self.save_list = w.Dropdown(options=c.save_names(), description=_("Saves"))

        def do_load(_: Any) -> None:
            if save_list.value is None:
                c.say(_("There are no saves in {folder} yet (or press Refresh list).").format(folder=c.saves.folder))
            else:
                c.load(save_list.value)

        save.on_click(self.guard(lambda _b: c.save(self.save_name.value.strip())))
        load.on_click(self.guard(do_load))
        refresh.on_click(self.guard(lambda _b: self.refresh_saves()))
        folder = w.HTML(html.escape(_("Folder:")) + f" <code>{html.escape(str(c.saves.folder))}</code>")
        return w.VBox([w.HBox([self.save_name, save]), w.HBox([save_list, load, refresh]), folder])

    # -- inside ----------------------------------------------------------------------------

    def _setting(self, key: str, widget: w.ValueWidget) -> w.ValueWidget:
        def changed(change: dict[str, Any]) -> None:
            if not self._syncing:
                self.controller.update_settings(**{key: change["new"]})

        if key == "no_move_policy":
            widget.description = _("No move")
        widget.observe(self.guard(changed), "value")
        widget.add_class(f"reversi-setting-{key.replace('_', '-')}")
        self.setting_controls[key] = widget
        return widget

    def _player_changed(self, color: Color) -> None:
        if self._syncing:
            return
        kind, name = self.player_controls[color]
        self.controller.set_player(color, kind.value, name.value.strip() or None)
