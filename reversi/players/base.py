"""What every player is: a name, a kind, and a way to choose a move.

The :class:`~reversi.game.Game` asks ``player.choose_move(board, color)`` with a
*copy* of its board, so a player may try moves on the board it is given without
disturbing the game.  Computer players pass only when they have no legal move.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

from reversi.board import Board
from reversi.errors import PlayerError, shown
from reversi.i18n import _
from reversi.notation import Color, Move

#: The longest name a player may have: room for it on a screen and on a notebook board.
MAX_NAME_LENGTH = 20


def validate_name(name: object) -> str:
    """A player's name with outer spaces removed, or :class:`PlayerError` saying why it is refused.

    The name must be text, not blank, at most :data:`MAX_NAME_LENGTH` characters
    and free of control characters such as newlines.

    >>> validate_name("  Ann ")
    'Ann'
    >>> validate_name("Ann\\nBob")
    Traceback (most recent call last):
    ...
    reversi.errors.PlayerError: player name 'Ann\\nBob' contains the control character '\\n'
    """
    if not isinstance(name, str):
        raise PlayerError(_("player name {name} is not text").format(name=shown(name)))
    stripped = name.strip()
    if not stripped:
        raise PlayerError(_("player name {name} is blank: a player needs a name").format(name=shown(name)))
    if len(stripped) > MAX_NAME_LENGTH:
        raise PlayerError(
            _("player name {name} is too long: it has {count} characters, at most {high} are allowed").format(
                name=shown(stripped), count=len(stripped), high=MAX_NAME_LENGTH)
        )
    for char in stripped:
        if not char.isprintable():
            raise PlayerError(_("player name {name} contains the control character {char}").format(
                name=shown(name), char=shown(char)))
    return stripped


class Player(abc.ABC):
    """A player of either colour; subclasses say how a move is chosen.

    ``kind`` is the player's key in :data:`~reversi.players.PLAYER_KINDS` and
    ``label`` its name for people, which is also the default name.
    """

    kind: ClassVar[str]
    label: ClassVar[str] = "Player"
    is_human: ClassVar[bool] = False

    def __init__(self, name: str | None = None) -> None:
        self.name = validate_name(self.label if name is None else name)

    @abc.abstractmethod
    def choose_move(self, board: Board, color: Color) -> Move:
        """The move ``color`` makes on ``board``: a legal square, or ``PASS`` if there is none."""

    def options(self) -> dict[str, Any]:
        """The constructor settings other than the name, as JSON-able values (for saves)."""
        return {}

    def get_state(self) -> object | None:
        """The player's inner state as JSON-able data (``None`` if it has none), for saves."""
        return None

    def set_state(self, state: object | None) -> None:
        """Restore what :meth:`get_state` returned; :class:`PlayerError` if it is not valid."""
        if state is not None:
            raise PlayerError(
                _("a {label} player keeps no state, but was given {state}").format(
                    label=self.label, state=shown(state))
            )

    def __repr__(self) -> str:
        settings = "".join(f", {key}={shown(value)}" for key, value in self.options().items())
        return f"{type(self).__name__}(name={shown(self.name)}{settings})"
