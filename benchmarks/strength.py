"""How strong are the computer players?  Short matches, printed as a table.

    python benchmarks/strength.py [--games 20] [--depth 4]

Greedy and alpha-beta are deterministic, so two games (one per colour) would be
all there is to see.  Each game therefore starts from its own opening: a few
random moves from ``RandomPlayer(seed=game number)``, then the players take
over.  The searching player has Black in even games and White in odd ones.
"""

from __future__ import annotations

import argparse
import time

from reversi.board import Board
from reversi.notation import BLACK, PASS, WHITE, Color, Move
from reversi.players import (
    AlphaBetaPlayer,
    GreedyPlayer,
    MinimaxPlayer,
    Player,
    PositionalPlayer,
    RandomPlayer,
)


def opening(seed: int, plies: int) -> tuple[Board, Color]:
    """The board after ``plies`` random moves, and the colour to move next."""
    board, color, chooser = Board(), BLACK, RandomPlayer(seed=seed)
    for _ in range(plies):
        move = chooser.choose_move(board.copy(), color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return board, color


def play(players: dict[Color, Player], board: Board, color: Color) -> Board:
    """Play the game out; each player gets a copy of the board, as the Game gives it."""
    while not board.is_finished():
        move = players[color].choose_move(board.copy(), color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return board


class Timed(Player):
    """A player that times another player's moves."""

    kind = "timed"

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.name)
        self.inner, self.times = inner, []

    def choose_move(self, board: Board, color: Color) -> Move:
        start = time.perf_counter()
        move = self.inner.choose_move(board, color)
        self.times.append(time.perf_counter() - start)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--opening-plies", type=int, default=4)
    args = parser.parse_args()
    heroes = [
        (f"AlphaBeta(depth={args.depth})", lambda: AlphaBetaPlayer(depth=args.depth)),
        ("AlphaBeta(depth=3)", lambda: AlphaBetaPlayer(depth=3)),
        ("Minimax(depth=2)", lambda: MinimaxPlayer(depth=2)),
    ]
    rivals = [
        ("Randomizer", lambda number: RandomPlayer(seed=1000 + number)),
        ("Greedy", lambda number: GreedyPlayer()),
        ("Positional", lambda number: PositionalPlayer()),
    ]
    print(f"{args.games} games per pairing, {args.opening_plies} random opening moves each")
    print(f"{'player':<22}{'rival':<12}{'won':>5}{'drawn':>7}{'lost':>6}"
          f"{'margin':>8}{'mean s':>9}{'max s':>8}")
    for hero_label, make_hero in heroes:
        for rival_label, make_rival in rivals:
            hero = Timed(make_hero())
            results, margins = [0, 0, 0], 0
            for number in range(args.games):
                hero_color = BLACK if number % 2 == 0 else WHITE
                board, color = opening(number, args.opening_plies)
                players = {hero_color: hero, hero_color.opponent: make_rival(number)}
                board = play(players, board, color)
                margin = board.count(hero_color) - board.count(hero_color.opponent)
                results[0 if margin > 0 else 1 if margin == 0 else 2] += 1
                margins += margin
            mean, slowest = sum(hero.times) / len(hero.times), max(hero.times)
            print(f"{hero_label:<22}{rival_label:<12}{results[0]:>5}{results[1]:>7}"
                  f"{results[2]:>6}{margins / args.games:>+8.1f}{mean:>9.4f}{slowest:>8.4f}")


if __name__ == "__main__":
    main()
