"""What the student surface costs: perft through the readable rules, and one checked call.

    python benchmarks/surface.py [--depth 5] [--repeat 5]

``reversi.rules`` is put on the surface by ``student_module``: a call from outside (as a lesson
makes it) is checked once, and the rules' calls to each other read the module's own plain
functions. The old ``@checked`` on each function made this perft 1.8x slower than plain.

Then the cost of one call of a decorated method: from a student's module (every argument
checked), from a module of the kit (a frame lookup, then the plain call), and the plain
function itself.
"""

from __future__ import annotations

import argparse
import inspect
import time
import timeit

from reversi import BLACK, Board, rules
from reversi.board import Board as PlainBoard


def best_of(repeat: int, run: object) -> float:
    """The shortest of ``repeat`` timings of ``run()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def perft_figures(depth: int, repeat: int) -> None:
    plain_perft = vars(rules)["perft"]  # the module's own function, as the rules call it
    checked = best_of(repeat, lambda: rules.perft(rules.start(), BLACK, depth))
    plain = best_of(repeat, lambda: plain_perft(rules.start(), BLACK, depth))
    print(f"perft({depth}) through the readable rules, {rules.perft(rules.start(), BLACK, depth):,} sequences")
    print(f"  called as a student calls it (checked once)  {checked * 1000:8.1f} ms")
    print(f"  the plain function, no surface at all        {plain * 1000:8.1f} ms")
    print(f"  ratio                                        {checked / plain:8.2f}x  (old @checked: 1.8x)")


def call_figures(number: int) -> None:
    board = Board()
    plain_legal = inspect.unwrap(PlainBoard.legal_moves)
    inside: dict[str, object] = {"__name__": "reversi.benchmark", "board": board, "BLACK": BLACK}
    outside: dict[str, object] = {"__name__": "__main__", "board": board, "BLACK": BLACK}
    rows = [
        ("from a student's module (checked)", timeit.timeit("board.legal_moves(BLACK)", globals=outside, number=number)),
        ("from a module of the kit (trusted)", timeit.timeit("board.legal_moves(BLACK)", globals=inside, number=number)),
        ("the plain method", timeit.timeit(lambda: plain_legal(board, BLACK), number=number)),
    ]
    print(f"Board.legal_moves(BLACK), {number:,} calls")
    for label, seconds in rows:
        print(f"  {label:43} {seconds / number * 1e6:8.2f} us a call")
    checked_play = timeit.timeit("board.copy().play('d3', BLACK)", globals=outside, number=number)
    plain_play = timeit.timeit(
        lambda: inspect.unwrap(PlainBoard.play)(board.copy(), "d3", BLACK), number=number
    )
    print(f"Board.play('d3', BLACK) on a copy, {number:,} calls")
    print(f"  {'from a student (checked)':43} {checked_play / number * 1e6:8.2f} us a call")
    print(f"  {'the plain method':43} {plain_play / number * 1e6:8.2f} us a call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5, choices=range(1, 7))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    perft_figures(args.depth, args.repeat)
    call_figures(args.calls)


if __name__ == "__main__":
    main()
