"""The rules read as plainly as possible: a list of lists and a walk in eight directions.

This is the yardstick for ``perft.py``: it shares no code with the ``reversi``
package, so when both count the same move trees the rules agree, and the timing
shows what the bit masks of :mod:`reversi.bitboard` buy.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = ".", "B", "W"
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start(size: int = 8) -> list[list[str]]:
    """The starting grid: White on the top-left/bottom-right centre squares, Black on the others."""
    grid = [[EMPTY] * size for _ in range(size)]
    half = size // 2
    grid[half - 1][half - 1] = grid[half][half] = WHITE
    grid[half - 1][half] = grid[half][half - 1] = BLACK
    return grid


def other(color: str) -> str:
    return WHITE if color == BLACK else BLACK


def captured(grid: list[list[str]], row: int, col: int, color: str) -> list[tuple[int, int]]:
    """The opponent discs that a ``color`` disc on the empty square ``(row, col)`` would turn."""
    size = len(grid)
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and grid[r][c] == other(color):
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and grid[r][c] == color:
            turned.extend(line)
    return turned


def legal_moves(grid: list[list[str]], color: str) -> list[tuple[int, int]]:
    size = len(grid)
    return [
        (row, col)
        for row in range(size)
        for col in range(size)
        if grid[row][col] == EMPTY and captured(grid, row, col, color)
    ]


def play(grid: list[list[str]], row: int, col: int, color: str) -> list[list[str]]:
    """A new grid with the move made."""
    new = [line[:] for line in grid]
    new[row][col] = color
    for r, c in captured(grid, row, col, color):
        new[r][c] = color
    return new


def perft(grid: list[list[str]], color: str, depth: int) -> int:
    """Move sequences of length ``depth``; a forced pass is a move, a finished game one leaf."""
    if depth == 0:
        return 1
    moves = legal_moves(grid, color)
    if not moves:
        if not legal_moves(grid, other(color)):
            return 1
        return perft(grid, other(color), depth - 1)
    return sum(perft(play(grid, row, col, color), other(color), depth - 1) for row, col in moves)
