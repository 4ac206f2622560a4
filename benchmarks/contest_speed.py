"""How long the class tournament takes: sandboxed students' players against a level.

Plays ``--games`` games of a greedy student player (run in the grading sandbox, a fresh
process per game) against the easy level on an 8x8 board, and the same number between
two levels in this process, and prints the time per game of each and the difference:
what running a student's code in the sandbox costs a game.

    python benchmarks/contest_speed.py [--games 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

from course.arguments import whole
from course.contest.referee import LevelSeat, referee
from course.contest.sandboxed import SandboxSeat
from course.grading.sandbox import Sandbox
from course.tournament import entrant, random_openings

GREEDY = """
def choose(board, color):
    moves = board.legal_moves(color)
    return max(moves, key=lambda move: len(board.flips(move, color)))
"""


def timed(play, games: int) -> list[float]:
    times = []
    for number in range(games):
        started = time.perf_counter()
        play(number)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1, 1000), default=10)
    games = parser.parse_args().games
    openings = random_openings(games, 4, 8, seed=0)
    sandbox = Sandbox()

    def student(number: int) -> None:
        seat = SandboxSeat("student", (GREEDY,), sandbox, move_time=5.0, total_time=120.0)
        game = referee(seat, LevelSeat("Easy", entrant("easy")(number)), openings[number])
        assert game.forfeit is None, game.describe()

    def levels(number: int) -> None:
        black = LevelSeat("Greedy", entrant("easy")(number))
        referee(black, LevelSeat("Easy", entrant("easy")(number)), openings[number])

    sandboxed, direct = timed(student, games), timed(levels, games)
    for label, times in (("student (sandbox) v easy", sandboxed), ("easy v easy", direct)):
        print(f"{label:>26}: median {statistics.median(times) * 1000:.0f} ms a game, "
              f"max {max(times) * 1000:.0f} ms ({games} games)")  # fmt: skip
    extra = statistics.median(sandboxed) - statistics.median(direct)
    print(f"{'the sandbox costs':>26}: {extra * 1000:.0f} ms a game (median)")


if __name__ == "__main__":
    main()
