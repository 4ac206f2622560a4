"""How strong are the levels?  Matches from fixed paired openings, printed as a table.

    python benchmarks/strength.py                       # every pairing, 10 openings
    python benchmarks/strength.py --openings 20 --pairs hard:alphabeta4 expert:hard
    python benchmarks/strength.py --cpu-clock           # on a machine shared with others
    python benchmarks/strength.py --time-check 20       # only: the levels' moves on the wall clock

Each opening is a position after a few random moves (``RandomPlayer(seed=n)``),
played twice with the colours swapped, so neither side gains from a lucky
opening or from moving first.  A win counts 1, a draw 1/2.  The table shows the
first player's score against the second with its 95% interval (Wilson's, see
:func:`wilson`: the range of true scores the games leave plausible; a level
beats another *clearly* when the whole interval lies above 50%), the mean disc
margin, and for each side
the mean and longest seconds per move (measured by the real clock: a level's
time limit must not be passed by more than 10%).

``alphabeta4`` is ``AlphaBetaPlayer(depth=4)``, the computer opponent the board
offered before the levels existed.  ``strong3`` and ``plain3`` search exactly 3
plies deep with the same search and no exact end, ``strong3`` with the strong
evaluation and ``plain3`` with the lessons' (square weights and mobility):
``strong3:plain3`` compares the evaluations alone.

With ``--cpu-clock`` the time-limited levels and the timings use the CPU time of
the thinking thread instead of the wall clock, so that a busy machine (other
programs taking the processor) does not rob the levels of their thinking time.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

from reversi.board import Board
from reversi.engine import Score, think
from reversi.evaluation import score, strong_score
from reversi.notation import BLACK, PASS, WHITE, Color, Move, Square
from reversi.players import AlphaBetaPlayer, Player, StrongPlayer, make_player

#: The clock of the levels and of the timings (``--cpu-clock`` sets it to the thread's CPU time).
CLOCK: list[Callable[[], float]] = [time.perf_counter]

class FixedDepth(Player):
    """The engine's search 3 plies deep with a given evaluation (to compare evaluations)."""

    kind = "fixed-depth"

    def __init__(self, evaluation: Score) -> None:
        super().__init__(evaluation.__name__)
        self.evaluation = evaluation

    def choose_move(self, board: Board, color: Color) -> Move:
        return think(board, color, max_depth=3, solve_empties=0, score=self.evaluation).move


ENTRANTS: dict[str, Callable[[int], Player]] = {
    "beginner": lambda seed: make_player("beginner", seed=seed),
    "easy": lambda seed: make_player("easy"),
    "medium": lambda seed: make_player("medium"),
    "hard": lambda seed: make_player("hard", clock=CLOCK[0]),
    "expert": lambda seed: make_player("expert", clock=CLOCK[0]),
    "alphabeta4": lambda seed: AlphaBetaPlayer(depth=4),
    "strong3": lambda seed: FixedDepth(strong_score),
    "plain3": lambda seed: FixedDepth(score),
}

PAIRS = ["easy:beginner", "medium:easy", "hard:medium", "hard:alphabeta4", "expert:hard"]


def wilson(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a score of ``points`` out of ``games`` (draws count 1/2).

    Unlike "score plus or minus two standard errors" it stays inside 0..1 and
    is honest for a score near 0% or 100% with few games.

    >>> low, high = wilson(14, 20)  # 70% from 20 games: not clearly above 50%
    >>> round(low, 3), round(high, 3)
    (0.481, 0.855)
    """
    share = points / games
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def opening(seed: int, plies: int) -> tuple[Board, Color]:
    """The board after ``plies`` random moves, and the colour to move next."""
    board, color, chooser = Board(), BLACK, make_player("random", seed=seed)
    for _ in range(plies):
        move = chooser.choose_move(board.copy(), color)
        if isinstance(move, Square):
            board.play(move, color)
        color = color.opponent
    return board, color


class Timed(Player):
    """A player that times another player's moves (only the moves with a choice to make)."""

    kind = "timed"

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner = inner
        self.times: list[float] = []

    def choose_move(self, board: Board, color: Color) -> Move:
        clock = CLOCK[0]
        start = clock()
        move = self.inner.choose_move(board, color)
        if move is not PASS:
            self.times.append(clock() - start)
        return move


def play(players: dict[Color, Player], board: Board, color: Color) -> Board:
    """Play the game out; each player gets a copy of the board, as the Game gives it."""
    while not board.is_finished():
        move = players[color].choose_move(board.copy(), color)
        if isinstance(move, Square):
            board.play(move, color)
        color = color.opponent
    return board


def match(
    first: str, second: str, openings: range, plies: int, verbose: bool = False
) -> None:
    """Play ``openings`` paired games between two entrants and print one row of the table."""
    hero, rival = Timed(ENTRANTS[first](1)), Timed(ENTRANTS[second](2))
    points, margin, games = 0.0, 0, 0
    for number in openings:
        for hero_color in (BLACK, WHITE):
            board, color = opening(number, plies)
            board = play({hero_color: hero, hero_color.opponent: rival}, board, color)
            diff = board.count(hero_color) - board.count(hero_color.opponent)
            points += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            margin += diff
            games += 1
            if verbose:
                print(f"  game {games}: opening {number}, {first} has {hero_color}: {diff:+d}",
                      flush=True)
    low, high = wilson(points, games)
    print(f"{first:<11}{second:<11}{games:>6}{points:>7.1f}{100 * points / games:>7.0f}%"
          f"{100 * low:>6.0f}-{100 * high:.0f}%{margin / games:>+8.1f}{_times(hero)}{_times(rival)}",
          flush=True)


def _times(timed: Timed) -> str:
    times = timed.times or [0.0]
    shown = f"{sum(times) / len(times):>10.3f}{max(times):>7.3f}"
    inner = timed.inner
    if isinstance(inner, StrongPlayer):
        shown += f"{100 * (max(times) / inner.time_limit - 1):>+7.1f}%"
    else:
        shown += f"{'':>8}"
    return shown


def time_check(positions: int) -> None:
    """Time hard and expert moves on the wall clock from positions of fixed games; print overruns."""
    print(f"wall-clock seconds per move from {positions} positions (8 to 46 moves into a game)")
    print(f"{'level':<8}{'limit':>6}{'mean':>8}{'longest':>9}{'over':>8}{'depth':>7}")
    for kind in ("hard", "expert"):
        player = make_player(kind)
        assert isinstance(player, StrongPlayer)
        times, depths = [], []
        for number in range(positions):
            board, color = opening(number, 8 + number * 38 // max(1, positions - 1))
            if board.is_finished() or not board.legal_moves(color):
                continue
            start = time.perf_counter()
            player.choose_move(board, color)
            times.append(time.perf_counter() - start)
            depths.append(player.last_thought.depth if player.last_thought else 0)
        over = 100 * (max(times) / player.time_limit - 1)
        print(f"{kind:<8}{player.time_limit:>6.1f}{sum(times) / len(times):>8.3f}"
              f"{max(times):>9.3f}{over:>+7.1f}%{sum(depths) / len(depths):>7.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=10, help="openings, each played twice")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--first-opening", type=int, default=0, help="number of the first one")
    parser.add_argument("--pairs", nargs="+", default=PAIRS, help="first:second entrant names")
    parser.add_argument("--cpu-clock", action="store_true", help="time by CPU, not the wall")
    parser.add_argument("--verbose", action="store_true", help="a line after every game")
    parser.add_argument("--time-check", type=int, default=0, metavar="N",
                        help="only time the levels' moves from N positions on the wall clock")
    args = parser.parse_args()
    if args.time_check:
        time_check(args.time_check)
        return
    if args.cpu_clock:
        CLOCK[0] = time.thread_time
    clock = "CPU seconds of the thinking thread" if args.cpu_clock else "wall-clock seconds"
    print(f"{args.openings} openings of {args.opening_plies} random moves, each played twice;"
          f" times in {clock}")
    print(f"{'first':<11}{'second':<11}{'games':>6}{'points':>7}{'score':>8}{'95% interval':>13}"
          f"{'margin':>8}"
          f"{'1st s/mv':>10}{'max':>7}{'over':>8}{'2nd s/mv':>10}{'max':>7}{'over':>8}")
    for pair in args.pairs:
        first, second = pair.split(":")
        openings = range(args.first_opening, args.first_opening + args.openings)
        match(first, second, openings, args.opening_plies, args.verbose)


if __name__ == "__main__":
    main()
