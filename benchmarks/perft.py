"""Count move trees from the start (perft), time them, and compare with a naive reader of the rules.

    python benchmarks/perft.py [--max-depth 9] [--naive-depth 6]

The counts must match the published figures; the script exits with status 1 if
any does not.  It then compares plain minimax with alpha-beta on a few positions.

The bitboard perft plays every ply but the last, which it counts with one bit
count; the naive reference plays every move, as a beginner's program would.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import TypeVar

import naive_reference as naive

from reversi import bitboard
from reversi.board import Board
from reversi.notation import BLACK, Color
from reversi.search import alphabeta, minimax

T = TypeVar("T")

EXPECTED = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


def timed(function: Callable[..., T], *args: object, repeat: int = 1) -> tuple[T, float]:
    """The function's result and the seconds it took (the best of ``repeat`` runs)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        value = function(*args)
        best = min(best, time.perf_counter() - start)
    return value, best


def perft_table(max_depth: int, naive_depth: int) -> bool:
    """Print the perft table; return whether every count is right."""
    board, geo = Board(), bitboard.geometry(8)
    black, white = board.bits(BLACK), board.bits(BLACK.opponent)
    all_right = True
    print(f"{'depth':>5} {'leaves':>9} {'expected':>9} {'seconds':>9} {'leaves/s':>11}"
          f" {'naive s':>9} {'naive/s':>9} {'speed-up':>9}")
    for depth in range(1, max_depth + 1):
        repeat = 5 if depth <= 5 else 1  # quick runs are timed several times: less noise
        leaves, seconds = timed(bitboard.perft, black, white, depth, geo, repeat=repeat)
        expected = EXPECTED[depth - 1] if depth <= len(EXPECTED) else None
        ok = expected is None or leaves == expected
        line = (f"{depth:>5} {leaves:>9} {expected if expected else '?':>9} {seconds:>9.4f}"
                f" {leaves / seconds:>11,.0f}")
        if depth <= naive_depth:
            naive_leaves, naive_seconds = timed(
                naive.perft, naive.start(8), naive.BLACK, depth, repeat=repeat
            )
            ok = ok and naive_leaves == leaves
            line += (f" {naive_seconds:>9.4f} {naive_leaves / naive_seconds:>9,.0f}"
                     f" {naive_seconds / seconds:>8.0f}x")
        print(line + ("" if ok else "   WRONG"))
        all_right = all_right and ok
    return all_right


def search_positions(count: int, seed: int = 2024) -> list[tuple[str, Board, Color]]:
    """The start, then positions reached after random moves (a fixed seed)."""
    rng = random.Random(seed)
    positions = [("start", Board(), BLACK)]
    for plies in (10, 20, 30, 40)[: count - 1]:
        board, color = Board(), BLACK
        for _ in range(plies):
            moves = board.legal_moves(color)
            if moves:
                board.play(rng.choice(moves), color)
            color = color.opponent
        positions.append((f"after {plies} random moves", board, color))
    return positions


def search_table() -> None:
    print()
    print(f"{'position':<26}{'depth':>5}{'minimax nodes':>15}{'s':>8}"
          f"{'alpha-beta nodes':>18}{'s':>8}{'same move':>11}")
    for label, board, color in search_positions(5):
        for depth in (3, 4):
            full, full_s = timed(minimax, board, color, depth)
            pruned, pruned_s = timed(alphabeta, board, color, depth)
            same = full.move == pruned.move and full.value == pruned.value
            print(f"{label:<26}{depth:>5}{full.nodes:>15,}{full_s:>8.3f}"
                  f"{pruned.nodes:>18,}{pruned_s:>8.3f}{'yes' if same else 'NO':>11}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-depth", type=int, default=9)
    parser.add_argument("--naive-depth", type=int, default=6)
    args = parser.parse_args()
    all_right = perft_table(args.max_depth, args.naive_depth)
    search_table()
    if not all_right:
        print("\nSome perft counts are wrong.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
