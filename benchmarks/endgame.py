"""How fast is the exact endgame solver?  Positions with 14 empties, then the FFO tests #40-#44.

    python benchmarks/endgame.py                 # the 14-empty positions and FFO #40
    python benchmarks/endgame.py --ffo 40 41 42  # pick FFO positions (each takes minutes)
    python benchmarks/endgame.py --ffo none --fourteen 10

The 14-empty positions come from fixed games: two positional players, each
move chosen at random among the legal moves with probability 1/4 (a seeded
generator), until 14 squares are empty.  For each position the script prints
the exact disc difference, the seconds (wall clock, and CPU time of this
process, which a machine shared with other programs does not inflate), the
positions searched and positions per CPU second.  The FFO positions (``benchmarks/data/ffo40-44.txt``, or ``--data``) come
with their exact scores; the script checks the solver's value against them.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from reversi.board import Board
from reversi.endgame import solve
from reversi.notation import BLACK, PASS, WHITE, Color
from reversi.players import PositionalPlayer

#: The FFO positions #40-#44 with their exact scores, kept in the repository (see data/README.md).
DATA = Path(__file__).resolve().parent / "data" / "ffo40-44.txt"


def find_data() -> Path:
    """The FFO positions file that comes with the benchmarks (``benchmarks/data/ffo40-44.txt``)."""
    return DATA


def read_ffo(path: Path) -> dict[str, tuple[Board, Color, int, str]]:
    """The FFO positions by number: board, side to move, exact score for that side, best moves."""
    positions = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, squares, side, score, best = line.split(";")
        black = sum(1 << i for i, char in enumerate(squares) if char == "X")
        white = sum(1 << i for i, char in enumerate(squares) if char == "O")
        color = BLACK if side == "X" else WHITE
        positions[number] = (Board.from_bits(8, black, white), color, int(score), best)
    return positions


def fourteen_empties(seed: int) -> tuple[Board, Color]:
    """A position with 14 empty squares from a fixed, slightly random game."""
    board, color = Board(), BLACK
    chooser, rng = PositionalPlayer(), random.Random(seed)
    while board.count(None) > 14:
        moves = board.legal_moves(color)
        if moves:
            move = rng.choice(moves) if rng.random() < 0.25 else chooser.choose_move(board, color)
            board.play(move, color)  # type: ignore[arg-type]  # a legal move, never PASS
        elif not board.legal_moves(color.opponent):
            return fourteen_empties(seed + 1000)  # the game ended early: take another
        color = color.opponent
    return board, color


def report(label: str, board: Board, color: Color, expected: int | None = None) -> float:
    """Solve one position, print a line of figures and return the seconds it took."""
    start, cpu_start = time.perf_counter(), time.process_time()
    solution = solve(board, color)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    verdict = ""
    if expected is not None:
        verdict = "correct" if solution.value == expected else f"WRONG (expected {expected:+d})"
    move = "pass" if solution.move is PASS else str(solution.move)
    print(f"{label:<10}{board.count(None):>8}{solution.value:>+7d}{move:>6}{seconds:>9.2f}"
          f"{cpu:>9.2f}{solution.nodes:>12,}{solution.nodes / cpu:>11,.0f}  {verdict}", flush=True)
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fourteen", type=int, default=5, help="how many 14-empty positions")
    parser.add_argument("--ffo", nargs="+", default=["40"], help="FFO numbers, or 'none'")
    parser.add_argument("--data", type=Path, default=find_data())
    args = parser.parse_args()
    print(f"{'position':<10}{'empties':>8}{'value':>7}{'move':>6}{'wall s':>9}{'CPU s':>9}"
          f"{'nodes':>12}{'nodes/CPU s':>12}")
    times = [report(f"game {seed}", *fourteen_empties(seed)) for seed in range(args.fourteen)]
    if times:
        ordered = sorted(times)
        print(f"14 empties, CPU seconds: median {ordered[len(times) // 2]:.2f}, "
              f"mean {sum(times) / len(times):.2f}, slowest {max(times):.2f}")
    if args.ffo != ["none"]:
        positions = read_ffo(args.data)
        for number in args.ffo:
            board, color, score, best = positions[number]
            report(f"FFO #{number}", board, color, score)
            print(f"{'':<10}best move(s) known: {best}")


if __name__ == "__main__":
    main()
