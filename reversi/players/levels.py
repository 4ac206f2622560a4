"""The five levels of computer opponent, by name: beginner, easy, medium, hard, expert.

Each level is a player kind of its own (``make_player("hard")``, ``--black
expert`` in the terminal, the board's player menu), built on the players
before it in the chain:

=========  ================================================================  ===================
level      what it does                                                      thinks per move
=========  ================================================================  ===================
beginner   plays a random legal move                                         no time at all
easy       takes a corner if it can, else turns the most discs (greedy)      no time at all
medium     plays where its discs stand on the best squares, one move ahead   no time at all
hard       searches deeper and deeper with the strong evaluation;            about 1 second
           perfect play from 12 empty squares, when it fits in the time
expert     the same search with three times the time; from 18 empty          about 3 seconds
           squares it looks for a move proved to win (or draw), and plays
           perfectly from 14 empty squares, when these fit in the time
=========  ================================================================  ===================

``easy`` is :class:`~reversi.players.GreedyPlayer` (kind ``greedy``), the computer
player of the CS106 program exactly: the corner rule belongs to it, and of moves that
turn equally many discs it takes the last in reading order.  (The lesson's "most
flips" player, greedy without the corners, is not a level.)

The thinking times are limits: the search stops as soon as its next look at the
clock would come too late, so it keeps within them even on a busy machine
(``benchmarks/strength.py --time-check`` measures it).  Near the end of a game
the exact solver often finishes sooner.  To go up, beat a level most of the
time, then take the next one; ``easy`` is the one to start with.

>>> from reversi.players import make_player
>>> make_player("hard")
Hard(name='Hard', time_limit=1.0, max_depth=60, solve_empties=12, wld_empties=0)
"""

from __future__ import annotations

import time

from reversi.players.computer import GreedyPlayer, PositionalPlayer, RandomPlayer
from reversi.players.searching import StrongPlayer
from reversi.search import Clock


class Beginner(RandomPlayer):
    """The beginner level: a random legal move (``seed`` makes the games repeatable)."""

    kind = "beginner"
    label = "Beginner"


class Easy(GreedyPlayer):
    """The easy level: the CS106 greedy player, a corner if it can, else the most discs turned."""

    kind = "easy"
    label = "Easy"


class Medium(PositionalPlayer):
    """The medium level: the move that leaves its discs on the best squares, one move ahead."""

    kind = "medium"
    label = "Medium"


class Hard(StrongPlayer):
    """The hard level: the strong search, about 1 second a move, perfect with 12 squares left."""

    kind = "hard"
    label = "Hard"

    def __init__(
        self,
        name: str | None = None,
        *,
        time_limit: float = 1.0,
        max_depth: int = 60,
        solve_empties: int = 12,
        wld_empties: int = 0,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(name, time_limit=time_limit, max_depth=max_depth,
                         solve_empties=solve_empties, wld_empties=wld_empties, clock=clock)


class Expert(StrongPlayer):
    """The expert level: the strong search, about 3 seconds a move, sure of a win from 18 squares
    left when it can prove one, and perfect with 14 squares left."""

    kind = "expert"
    label = "Expert"

    def __init__(
        self,
        name: str | None = None,
        *,
        time_limit: float = 3.0,
        max_depth: int = 60,
        solve_empties: int = 14,
        wld_empties: int = 18,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(name, time_limit=time_limit, max_depth=max_depth,
                         solve_empties=solve_empties, wld_empties=wld_empties, clock=clock)


#: The levels, easiest first.
LEVELS = (Beginner, Easy, Medium, Hard, Expert)
