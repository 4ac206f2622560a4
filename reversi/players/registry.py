"""The one table of player kinds, and :func:`make_player`, which builds a player by kind name.

>>> make_player("alphabeta", depth=3)
AlphaBetaPlayer(name='Alpha-beta', depth=3, time_limit=None)
>>> make_player("greedy", depth=3)
Traceback (most recent call last):
...
reversi.errors.PlayerError: a greedy player has no setting 'depth' (its settings: none)
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from reversi.errors import PlayerError, shown
from reversi.i18n import _
from reversi.players.base import Player
from reversi.players.computer import GreedyPlayer, PositionalPlayer, RandomPlayer
from reversi.players.human import HumanPlayer
from reversi.players.levels import LEVELS
from reversi.players.searching import AlphaBetaPlayer, MinimaxPlayer
from reversi.surface import student

#: Every kind of player by its key: a person, the five levels (see
#: :mod:`reversi.players.levels`), then the players the lessons build, weakest
#: first.  Each class has a ``label`` for people (``PLAYER_KINDS["random"].label
#: == "Randomizer"``).
PLAYER_KINDS: Mapping[str, type[Player]] = MappingProxyType(
    {
        cls.kind: cls
        for cls in (
            HumanPlayer,
            *LEVELS,
            RandomPlayer,
            GreedyPlayer,
            PositionalPlayer,
            MinimaxPlayer,
            AlphaBetaPlayer,
        )
    }
)


#: The level ``"computer"`` stands for: one a beginner can beat with a little care.
DEFAULT_COMPUTER = "easy"


@student
def make_player(kind: str, name: str | None = None, **options: Any) -> Player:
    """A new player of ``kind`` (a key of :data:`PLAYER_KINDS`) with ``name`` and settings.

    ``"computer"`` is the default computer opponent, :data:`DEFAULT_COMPUTER`.
    Unknown kinds, unknown settings and bad values raise :class:`PlayerError`.

    >>> make_player("computer")
    Easy(name='Easy')
    """
    if kind == "computer":
        kind = DEFAULT_COMPUTER
    cls = PLAYER_KINDS.get(kind)
    if cls is None:
        raise PlayerError(_("unknown player kind {kind}: choose one of {kinds}").format(
            kind=shown(kind), kinds=", ".join(PLAYER_KINDS)))
    accepted = [p for p in inspect.signature(cls).parameters if p != "name"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        allowed = ", ".join(accepted) if accepted else _("none")
        names = ", ".join(map(repr, unknown))
        raise PlayerError(_("a {kind} player has no setting {names} (its settings: {allowed})").format(
            kind=kind, names=names, allowed=allowed))
    return cls(name, **options)
