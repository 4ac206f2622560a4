"""The cursor-map game as a front end drives it, with no widgets: keys, clicks and buttons
in, texts to show out.

The controller turns what a player does into calls on :class:`~reversi.cursormap.CursorGame`
and keeps the words a view shows (whose turn, where the cursor is, what just happened).
A refused action (a key after the game ended, a map file with a mistake) becomes a
message and leaves the game as it was.  Views call :meth:`on_change` to hear of changes.
Every text is in the reader's language (:mod:`course.i18n`), a player named by
:meth:`~reversi.cursormap.Owner.said`; a text is put into words when it is made.

>>> controller = CursorMapController("01_first_steps", seed=2024)
>>> controller.position_text
'Cursor XOR at (1, 2)'
>>> controller.key("ArrowRight"), controller.position_text
(True, 'Cursor XOR at (1, 3)')
>>> controller.key("Enter"), controller.turn_text
(True, 'Turn 2: player two (red) to play')
"""

from __future__ import annotations

from collections.abc import Callable

from course.cursormap.svg import point_at
from course.i18n import N_, _, ngettext
from reversi.cursormap import (
    PLAYERS,
    CursorGame,
    CursorMap,
    CursorMapError,
    Direction,
    MapFileError,
    Owner,
    load_sample,
    parse_map,
    sample_maps,
)

KEY_DIRECTIONS = {
    "ArrowUp": Direction.UP,
    "ArrowDown": Direction.DOWN,
    "ArrowLeft": Direction.LEFT,
    "ArrowRight": Direction.RIGHT,
}
APPLY_KEYS = ("Enter",)
DEFAULT_MAP = "01_first_steps"
#: The name of a map that is not a sample, translated where it is shown.
YOUR_MAP = N_("your map")
# Each direction as it ends "Moved {direction}." and "cannot move {direction}.".
_DIRECTION_SAID = {
    # TRANSLATORS: where the cursor goes, as in "Moved up." (French: "vers le haut")
    Direction.UP: N_("up"),
    # TRANSLATORS: where the cursor goes, as in "Moved down." (French: "vers le bas")
    Direction.DOWN: N_("down"),
    # TRANSLATORS: where the cursor goes, as in "Moved left." (French: "vers la gauche")
    Direction.LEFT: N_("left"),
    # TRANSLATORS: where the cursor goes, as in "Moved right." (French: "vers la droite")
    Direction.RIGHT: N_("right"),
}


class CursorMapController:
    """One game of cursor-map at a time on the map ``map_or_name`` (a CursorMap or the
    name of a sample map); ``seed`` and ``max_turns`` are passed to the game."""

    def __init__(
        self,
        map_or_name: CursorMap | str = DEFAULT_MAP,
        *,
        seed: int | None = None,
        max_turns: int | None = None,
    ) -> None:
        if isinstance(map_or_name, CursorMap):
            cursor_map, name = map_or_name, _(YOUR_MAP)
        else:
            cursor_map, name = load_sample(map_or_name), map_or_name.removesuffix(".map")
        self.max_turns = max_turns
        self.map_name = name
        self.game = CursorGame(cursor_map, seed=seed, max_turns=max_turns)
        self.message = _("Map {name}: {player} begins.").format(
            name=name, player=self.game.player.said())  # fmt: skip
        self.error = ""
        self._listeners: list[Callable[[], None]] = []

    # -- listeners ---------------------------------------------------------------------

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change of the game or of the texts."""
        self._listeners.append(callback)

    def _changed(self, message: str, error: str = "") -> None:
        self.message, self.error = message, error
        for callback in self._listeners:
            callback()

    # -- what a player does ------------------------------------------------------------

    def key(self, key: str) -> bool:
        """A key pressed on the board (a DOM ``KeyboardEvent.key``): the arrow keys move
        the cursor, Enter applies it.  Returns False for keys the game does not use."""
        if not isinstance(key, str):
            return False
        if key in KEY_DIRECTIONS:
            self.move(KEY_DIRECTIONS[key])
            return True
        if key in APPLY_KEYS:
            self.apply()
            return True
        return False

    def move(self, direction: Direction | str) -> bool:
        """Step the cursor; True if it moved (at the edge of the map it stays)."""
        if self._refuse_when_over():
            return False
        moved = self.game.move(direction)
        said = _(_DIRECTION_SAID[Direction.parse(direction)])
        if moved:
            self._changed(_("Moved {direction}.").format(direction=said))
        else:
            self._changed(_("The edge of the map: cannot move {direction}.").format(direction=said))
        return moved

    def click_field(self, row: int, col: int) -> bool:
        """Put the cursor's centre on the clicked field; True if it is on the map."""
        if self._refuse_when_over():
            return False
        try:
            self.game.move_to(row, col)
        except CursorMapError as error:
            self._changed(_("Not moved: {error}.").format(error=error))
            return False
        self._changed(_("Cursor placed on ({row}, {col}).").format(row=row, col=col))
        return True

    def apply(self) -> bool:
        """Apply the cursor where it stands; the turn passes (or the game ends)."""
        if self._refuse_when_over():
            return False
        self.game.apply()
        self._changed(self.game.log[-1])
        return True

    def new_game(self, seed: int | None = None) -> None:
        """Start again on the same map (the map the last game began on)."""
        self._start(self.game.start_map, self.map_name, seed)

    def load_sample(self, name: str) -> bool:
        """Start a new game on the sample map ``name``."""
        try:
            cursor_map = load_sample(name)
        except MapFileError as error:
            self._changed(self.message, _("Map not loaded: {error}").format(error=error))
            return False
        self._start(cursor_map, name.removesuffix(".map"))
        return True

    def load_text(self, text: str, source: str | None = None) -> bool:
        """Start a new game on the map written in ``text``, named ``source`` (by default
        "your map", in the reader's language).  A mistake in it is shown with its line and
        column, and the current game goes on unchanged."""
        source = _(YOUR_MAP) if source is None else source
        try:
            cursor_map = parse_map(text, source=source)
        except MapFileError as error:
            pointer = point_at(text, error) if isinstance(text, str) else ""
            details = _("Map not loaded: {error}").format(error=error)
            self._changed(self.message, f"{details}\n{pointer}" if pointer else details)
            return False
        self._start(cursor_map, source)
        return True

    def _start(self, cursor_map: CursorMap, name: str, seed: int | None = None) -> None:
        self.game = CursorGame(cursor_map, seed=seed, max_turns=self.max_turns)
        self.map_name = name
        self._changed(_("New game on map {name}: {player} begins.").format(
            name=name, player=self.game.player.said()))  # fmt: skip

    def _refuse_when_over(self) -> bool:
        if self.game.is_over:
            self._changed(_("The game is over: press New game to play again."))
        return self.game.is_over

    # -- what a view shows -------------------------------------------------------------

    @property
    def samples(self) -> list[str]:
        return sample_maps()

    @property
    def turn_text(self) -> str:
        """Whose turn it is, or how the game ended."""
        if self.game.outcome is not None:
            return str(self.game.outcome)
        return _("Turn {turn}: {player} to play").format(
            turn=self.game.turn, player=self.game.player.said())  # fmt: skip

    @property
    def position_text(self) -> str:
        """The cursor's face (``?`` for a hidden operator) and where its centre stands."""
        row, col = self.game.position
        return _("Cursor {label} at ({row}, {col})").format(
            label=self.game.cursor.label, row=row, col=col)  # fmt: skip

    @property
    def remaining_text(self) -> str:
        """How many fields each player still has to switch on."""
        one, two = (self._remaining_said(player) for player in PLAYERS)
        # TRANSLATORS: the two players' counts side by side
        return _("{one}; {two}").format(one=one, two=two)

    def _remaining_said(self, player: Owner) -> str:
        remaining = self.game.remaining(player)
        # TRANSLATORS: how many of a player's fields are still off (one form in English)
        said = ngettext("{player}: {remaining} of {switchable} still off",
                        "{player}: {remaining} of {switchable} still off", remaining)  # fmt: skip
        switchable = self.game.switchable(player)
        return said.format(player=player.said(), remaining=remaining, switchable=switchable)

    @property
    def log(self) -> list[str]:
        return self.game.log
