"""Who sits at each colour of a notebook board: making players from kinds and names.

This module owns the naming rules of a board's two seats (people default to their
colour's name; two computer players of the same kind get the colour added; two
seats may not share a name, so the scores can tell them apart).  It builds players
through :func:`reversi.players.make_player` and never touches a game or a widget.

>>> seat_player(BLACK, "human", None, other_name=None).name
'Black'
>>> seat_player(WHITE, "greedy", None, other_name="Greedy").name
'Greedy White'
"""

from __future__ import annotations

from reversi.errors import PlayerError
from reversi.notation import BLACK, WHITE, Color
from reversi.players import PLAYER_KINDS, Player, make_player, validate_name

__all__ = ["BLACK", "WHITE", "check_names_differ", "seat_player"]


def seat_player(
    color: Color, who: str | Player, name: str | None, other_name: str | None
) -> Player:
    """The player for ``color``: ``who`` itself if it is a Player, else a new one of that kind.

    ``other_name`` is the name at the other seat (``None`` while it is empty).  A bad
    kind or name raises :class:`~reversi.errors.PlayerError` naming it.
    """
    if isinstance(who, Player):
        return who
    if name is not None:
        name = validate_name(name)
    cls = PLAYER_KINDS.get(who) if isinstance(who, str) else None
    if name is None and cls is not None:
        if cls.is_human:
            name = str(color)  # people default to their colour, so the scores tell them apart
        elif cls.label == other_name:
            name = f"{cls.label} {color}"
    return make_player(who, name=name)


def check_names_differ(first: str, second: str) -> None:
    """Refuse two seats with the same name: the scores would merge them."""
    if first == second:
        raise PlayerError(
            f"both players are called {first!r}: give them different names "
            "so the scores can tell them apart"
        )
