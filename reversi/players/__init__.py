"""The players: people at the keyboard and computer players of growing strength.

The modules form a chain, each using only the ones before it::

    base -> human, computer, searching -> registry

``searching`` wraps :mod:`reversi.search`, which knows nothing about players.
"""

from reversi.players.base import MAX_NAME_LENGTH, Player, validate_name
from reversi.players.computer import GreedyPlayer, PositionalPlayer, RandomPlayer
from reversi.players.human import HumanPlayer
from reversi.players.registry import PLAYER_KINDS, make_player
from reversi.players.searching import AlphaBetaPlayer, MinimaxPlayer

__all__ = [
    "MAX_NAME_LENGTH",
    "PLAYER_KINDS",
    "AlphaBetaPlayer",
    "GreedyPlayer",
    "HumanPlayer",
    "MinimaxPlayer",
    "Player",
    "PositionalPlayer",
    "RandomPlayer",
    "make_player",
    "validate_name",
]
