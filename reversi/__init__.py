"""Reversi (Othello) as a small, readable Python package.

The modules form one chain, each using only the ones before it::

    errors -> callables, files, arguments -> notation -> bitboard -> board -> outcome, evaluation -> search
           -> players -> clock, actions -> history -> game -> scores, saves -> terminal

``reversi`` imports nothing from Jupyter, widget or plotting libraries: it runs in
a terminal, a test or a server.  The classroom layer lives in the ``course`` package.
"""

from reversi.actions import Ply
from reversi.board import Board, PawnCounts
from reversi.errors import (
    ArgumentError,
    BoardSizeError,
    GameOverError,
    IllegalMoveError,
    InputEnded,
    NotationError,
    PlayerError,
    ReversiError,
    SaveFileError,
    TimeExpiredError,
    UndoError,
)
from reversi.evaluation import evaluate, weights
from reversi.game import Game
from reversi.notation import BLACK, PASS, WHITE, Color, Pass, Square, parse_move, square
from reversi.outcome import EndReason, NoMovePolicy, Outcome
from reversi.players import (
    MAX_NAME_LENGTH,
    PLAYER_KINDS,
    AlphaBetaPlayer,
    GreedyPlayer,
    HumanPlayer,
    MinimaxPlayer,
    Player,
    PositionalPlayer,
    RandomPlayer,
    make_player,
    validate_name,
)
from reversi.saves import SaveFolder, load_game, save_game
from reversi.scores import Scoreboard, Seat
from reversi.search import SearchResult, alphabeta, minimax

__all__ = [
    "MAX_NAME_LENGTH",
    "PLAYER_KINDS",
    "AlphaBetaPlayer",
    "EndReason",
    "Game",
    "GreedyPlayer",
    "HumanPlayer",
    "MinimaxPlayer",
    "NoMovePolicy",
    "Outcome",
    "Player",
    "Ply",
    "PositionalPlayer",
    "RandomPlayer",
    "SaveFolder",
    "Scoreboard",
    "Seat",
    "SearchResult",
    "alphabeta",
    "evaluate",
    "load_game",
    "make_player",
    "minimax",
    "save_game",
    "validate_name",
    "weights",
    "BLACK",
    "PASS",
    "WHITE",
    "Board",
    "ArgumentError",
    "BoardSizeError",
    "Color",
    "GameOverError",
    "IllegalMoveError",
    "InputEnded",
    "NotationError",
    "PawnCounts",
    "Pass",
    "PlayerError",
    "ReversiError",
    "SaveFileError",
    "Square",
    "TimeExpiredError",
    "UndoError",
    "parse_move",
    "square",
]
