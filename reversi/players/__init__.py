"""The players: people at the keyboard and computer players of growing strength.

The modules form a chain, each using only the ones before it::

    base -> human, computer, searching -> levels -> registry

``searching`` wraps :mod:`reversi.search`, which knows nothing about players.
"""

from reversi.players.base import MAX_NAME_LENGTH, Player, validate_name
from reversi.players.computer import GreedyPlayer, PositionalPlayer, RandomPlayer
from reversi.players.human import HumanPlayer
from reversi.players.levels import LEVELS, Beginner, Easy, Expert, Hard, Medium
from reversi.players.registry import DEFAULT_COMPUTER, PLAYER_KINDS, make_player
from reversi.players.searching import AlphaBetaPlayer, MinimaxPlayer, StrongPlayer

__all__ = [
    "DEFAULT_COMPUTER",
    "LEVELS",
    "MAX_NAME_LENGTH",
    "PLAYER_KINDS",
    "AlphaBetaPlayer",
    "Beginner",
    "Easy",
    "Expert",
    "GreedyPlayer",
    "Hard",
    "HumanPlayer",
    "Medium",
    "MinimaxPlayer",
    "Player",
    "PositionalPlayer",
    "RandomPlayer",
    "StrongPlayer",
    "make_player",
    "validate_name",
]
