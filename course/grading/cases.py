"""Positions the checks test students' functions on: the ZX-81 article's Figure 2 and
positions from seeded random games.

Figure 2 of the article is not reproduced square by square; :data:`FIGURE_2` is a position
built to agree with everything the article says about it, with Black to move:

* valid: d1 takes d2; g2 takes d5, e4, f3 and g3; h3 takes f3 and g3; e7 takes e4, e5, e6;
* invalid: e8 (e7 is empty), f7 (no disc on c4 closes the diagonal), b5 (f5 is empty).

>>> [str(sq) for sq in FIGURE_2.flips("g2", BLACK)]
['f3', 'g3', 'e4', 'd5']
>>> [str(sq) for sq in FIGURE_2_MOVES]
['d1', 'g2', 'h3', 'e7', 'e8', 'f7', 'b5']
"""

from __future__ import annotations

import contextlib
import contextvars
import random
from collections.abc import Callable, Iterator

from reversi import BLACK, PASS, WHITE, Board, Color, Square
from reversi.errors import ArgumentError, shown

__all__ = [
    "FIGURE_2",
    "FIGURE_2_MOVES",
    "STAR",
    "EDGES",
    "grade_time",
    "teacher_seed",
    "seeded",
    "a_game",
    "random_game",
    "symmetries",
    "sample_positions",
    "first_pass",
    "pass_positions",
    "early_ends",
    "flip_positions",
    "blocked_position",
    "full_draw",
    "names",
    "color_name",
]

#: Seeds are whole numbers of at most this many bits (a seed is a recipe's name, not data).
_SEED_BITS = 128
#: The most random games :func:`sample_positions` plays at once.
_MAX_GAMES = 10_000


def _whole(value: object, name: str, low: int, high: int) -> int:
    """``value`` checked: a whole number (not True or False) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise ArgumentError(f"{name} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def _seed(value: object, name: str = "seed") -> int:
    """``value`` checked as a seed: a whole number of at most 128 bits."""
    if type(value) is not int or value.bit_length() > _SEED_BITS:
        raise ArgumentError(f"{name} must be a whole number (of at most {_SEED_BITS} bits), "
                            f"not {shown(value)}")  # fmt: skip
    return value


def _board_size(value: object) -> int:
    """``value`` checked as a board size: even, from 4 to 16."""
    if type(value) is not int or value not in range(4, 17, 2):
        raise ArgumentError(f"size must be an even whole number from 4 to 16, not {shown(value)}")
    return value


def _color(value: object, name: str = "color") -> Color:
    if value is not BLACK and value is not WHITE:
        raise ArgumentError(f"{name} must be BLACK or WHITE, not {shown(value)}")
    return value

FIGURE_2 = Board.from_text(
    """
      a b c d e f g h
    1 . . . . . . . .
    2 . . . W . . . .
    3 . . . B B W W .
    4 . . . . W . B .
    5 . . W W W . . .
    6 . . B . W . . .
    7 . . . . . . . .
    8 . . . . . . . .
    """
)

#: The article's moves, the valid ones first, in the order it lists them.
FIGURE_2_MOVES = tuple(FIGURE_2.square(name) for name in ("d1", "g2", "h3", "e7", "e8", "f7", "b5"))


#: Black on e5 captures in all eight directions.
STAR = Board.from_text(
    """
    . . . . . . . .
    . B . . B . . B
    . . W . W . W .
    . . . W W W . .
    . B W W . W W B
    . . . W W W . .
    . . W . W . W .
    . B . . B . . B
    """
)

#: Lines of discs along the four edges, some closed by a Black disc and some not.
EDGES = Board.from_text(
    """
    . W W W B . . .
    W . . . . . . .
    W . . . . . . .
    B . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . W W W W W W W
    """
)


#: The teacher's seed while the grader builds its grade-time cases (None in a notebook).
_TEACHER_SEED: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "teacher_seed", default=None
)


def grade_time(seed: int) -> contextlib.AbstractContextManager[None]:
    """Within this block every seeded case is drawn again from the teacher's ``seed``.

    The notebooks show their cases (the same every time); the grader builds each check a
    second time in this block, so the same recipes give positions no student has seen.
    """
    return _grade_time(_seed(seed))


@contextlib.contextmanager
def _grade_time(seed: int) -> Iterator[None]:
    token = _TEACHER_SEED.set(seed)
    try:
        yield
    finally:
        _TEACHER_SEED.reset(token)


def teacher_seed() -> int | None:
    """The teacher's seed inside :func:`grade_time`, else None."""
    return _TEACHER_SEED.get()


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` in a notebook; a generator mixed with the teacher's seed at grade time.

    >>> seeded(3).random() == random.Random(3).random()
    True
    >>> with grade_time(99):
    ...     seeded(3).random() == random.Random(3).random()
    False
    """
    return _seeded(_seed(seed))


def _seeded(seed: int) -> random.Random:
    teacher = _TEACHER_SEED.get()
    return random.Random(seed if teacher is None else f"{teacher}:{seed}")


def a_game(size: int) -> str:
    """``'an 8x8 game'``: a board size in words a student reads, with the right article.

    >>> [a_game(size) for size in (6, 8, 10, 11, 18, 80)]
    ['a 6x6 game', 'an 8x8 game', 'a 10x10 game', 'an 11x11 game', 'an 18x18 game', 'an 80x80 game']
    """
    _whole(size, "size", 1, 999)
    spoken = str(size)  # "eight...", "eleven", "eighteen" start with a vowel sound
    article = "an" if spoken.startswith("8") or spoken in ("11", "18") else "a"
    return f"{article} {size}x{size} game"


def random_game(seed: int, size: int = 8, stop: int | None = None) -> Iterator[tuple[Board, Color]]:
    """The positions of a game of random legal moves, each with the side to move.

    The game is played with ``seeded(seed)``, so the same seed gives the same positions
    (and other positions at grade time).  A side without a move passes; the last position
    is the finished game (or the position after ``stop`` moves, a pass counting as one).
    """
    _seed(seed)
    _board_size(size)
    if stop is not None:
        _whole(stop, "stop", 0, 10**9)
    return _random_game(seed, size, stop)


def _random_game(seed: int, size: int, stop: int | None) -> Iterator[tuple[Board, Color]]:
    rng = _seeded(seed)
    board, color, plies = Board(size), BLACK, 0
    while not board.is_finished() and (stop is None or plies < stop):
        yield board.copy(), color
        moves = board.legal_moves(color)
        if moves:
            board.play(rng.choice(moves), color)
        color, plies = color.opponent, plies + 1
    yield board.copy(), color


_ATTEMPTS = 500


def symmetries(board: Board) -> list[tuple[str, Board, Callable[[Square], Square]]]:
    """The board turned and mirrored (the seven other symmetries of a square), each with
    the function that carries a square of ``board`` to its place on the new board.

    >>> [label for label, _, _ in symmetries(Board())][:2]
    ['turned a quarter', 'turned half']
    """
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a Board, not {shown(board)}")
    n = board.size - 1
    maps: list[tuple[str, Callable[[int, int], tuple[int, int]]]] = [
        ("turned a quarter", lambda r, c: (c, n - r)),
        ("turned half", lambda r, c: (n - r, n - c)),
        ("turned three quarters", lambda r, c: (n - c, r)),
        ("mirrored left to right", lambda r, c: (r, n - c)),
        ("mirrored top to bottom", lambda r, c: (n - r, c)),
        ("mirrored on a diagonal", lambda r, c: (c, r)),
        ("mirrored on the other diagonal", lambda r, c: (n - c, n - r)),
    ]
    found: list[tuple[str, Board, Callable[[Square], Square]]] = []
    for label, move in maps:
        turned = Board.empty(board.size)
        for sq in board.squares():
            turned[move(*sq)] = board[sq]
        found.append((label, turned, _carried(move)))
    return found


def _carried(move: Callable[[int, int], tuple[int, int]]) -> Callable[[Square], Square]:
    def where(sq: Square) -> Square:
        return Square(*move(*sq))

    return where


def sample_positions(seeds: range, every: int = 1, size: int = 8) -> list[tuple[Board, Color]]:
    """Every ``every``-th position of the random games of ``seeds``, in a fixed order."""
    if not isinstance(seeds, range) or not 0 <= (seeds.stop - seeds.start) // seeds.step <= _MAX_GAMES:
        raise ArgumentError(f"seeds must be a range of at most {_MAX_GAMES} seeds, "
                            f"not {shown(seeds)}")  # fmt: skip
    for seed in (seeds[0], seeds[-1]) if seeds else ():
        _seed(seed, "each seed")
    _whole(every, "every", 1, 10**6)
    _board_size(size)
    found = []
    for seed in seeds:
        found.extend(list(_random_game(seed, size, None))[::every])
    return found


def first_pass(seed: int, size: int, color: Color) -> tuple[Board, Color]:
    """The first position of a random game where ``color``, to move, must pass.

    If the game of ``seed`` has none (it happens at grade time), later games are tried.
    """
    _seed(seed)
    _board_size(size)
    _color(color)
    for attempt in range(_ATTEMPTS):
        for board, to_move in _random_game(seed + 1000 * attempt, size, None):
            if (
                to_move is color
                and not board.has_legal_move(color)
                and board.has_legal_move(color.opponent)
            ):
                return board, color
    raise ArgumentError(f"{color} never passes in the random {size}x{size} game of seed {seed}")


def pass_positions() -> list[tuple[str, Board, Color]]:
    """Positions where the side to move has no legal move but the opponent has one.

    >>> [(board.size, str(color), board.legal_moves(color)) for _, board, color in pass_positions()][:2]
    [(6, 'White', []), (6, 'Black', [])]
    """
    return [
        (f"{color} must pass in {a_game(size)} (seed {seed})", *first_pass(seed, size, color))
        for size, seed, color in (
            (6, 6, WHITE),
            (6, 33, BLACK),
            (6, 32, WHITE),
            (8, 134, BLACK),
            (8, 140, WHITE),
        )
    ]


def early_ends() -> list[tuple[str, Board]]:
    """Finished random games with empty squares left (neither side could move)."""
    return [
        (f"{a_game(size)} over with empty squares (seed {seed})", _early_end(seed, size))
        for size, seed in ((6, 104), (6, 189), (8, 116))
    ]


def _early_end(seed: int, size: int) -> Board:
    """The end of the first random game from ``seed`` on that leaves empty squares."""
    for attempt in range(_ATTEMPTS):
        board = list(_random_game(seed + 1000 * attempt, size, None))[-1][0]
        if board.count(None):
            return board
    raise ValueError(f"no random {size}x{size} game from seed {seed} ends early")


def flip_positions() -> list[tuple[str, Board, Color]]:
    """Two positions made for testing captures, then every 6th position of four random games."""
    found = [("all eight directions", STAR, BLACK), ("lines along the edges", EDGES, BLACK)]
    for number, (board, color) in enumerate(sample_positions(range(4), every=6)):
        found.append((f"position {number + 1} (random games)", board, color))
    return found


def blocked_position() -> Board:
    """A game over with empty squares left: neither side can move (a wipe-out of White).

    >>> board = blocked_position()
    >>> board.is_finished(), board.count(None) > 0
    (True, True)
    """
    return Board.from_text(
        """
        . . . . . .
        . . . . . .
        . . B B . .
        . . B B . .
        . . . . . .
        . . . . . .
        """
    )


def full_draw() -> Board:
    """A full 4x4 board with 8 discs each: the game is over and drawn."""
    return Board.from_text(
        """
        B B W W
        B B W W
        B B W W
        B B W W
        """
    )


def names(squares: list[Square]) -> str:
    """Squares as text, ``'d5 e4 f3 g3'`` (``'none'`` for no square); PASS as ``'PASS'``."""
    if squares is PASS:
        return "PASS"
    if isinstance(squares, (str, bytes)) or not isinstance(squares, (list, tuple, set, frozenset)):
        raise ArgumentError(f"squares must be a list of squares, not {shown(squares)}")
    return " ".join(str(sq) for sq in squares) or "none"


def color_name(value: object) -> str:
    """``'BLACK'``, ``'WHITE'`` or ``'None'``, as a student writes them in code."""
    if value is None:
        return "None"
    return "BLACK" if value is BLACK else "WHITE" if value is WHITE else repr(value)
