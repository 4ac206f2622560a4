"""Who sits at each colour of a notebook board: making players from kinds and names.

This module owns who sits down: people default to their colour's name, computer
players to their kind's label.  Two seats may share a name: the game tells them
apart on screen with the one naming rule of :mod:`reversi.players.naming`
("Greedy (Black)" and "Greedy (White)"), and the scores are kept per seat.  It
builds players through :func:`reversi.players.make_player` (in the browser
classroom with :func:`course.browser.level_options`) and never touches a game or a widget.

>>> from reversi.notation import BLACK, WHITE
>>> seat_player(BLACK, "human", None).name
'Black'
>>> seat_player(WHITE, "greedy", None).name
'Greedy'
"""

from __future__ import annotations

from course.browser import level_options
from reversi.notation import Color
from reversi.players import PLAYER_KINDS, Player, make_player, validate_name


def seat_player(color: Color, who: str | Player, name: str | None) -> Player:
    """The player for ``color``: ``who`` itself if it is a Player, else a new one of that kind.

    A bad kind or name raises :class:`~reversi.errors.PlayerError` naming it.
    """
    if isinstance(who, Player):
        return who
    if name is not None:
        name = validate_name(name)
    cls = PLAYER_KINDS.get(who) if isinstance(who, str) else None
    if name is None and cls is not None and cls.is_human:
        name = str(color)  # people default to their colour: "Black", not "Human"
    return make_player(who, name=name, **level_options(who))

