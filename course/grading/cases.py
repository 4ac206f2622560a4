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
import functools
import random
from collections.abc import Callable, Iterable, Iterator

from course.i18n import N_
from course.i18n import gettext as _
from reversi import BLACK, WHITE, Board, Color, Square
from reversi.notation import Pass

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


@contextlib.contextmanager
def grade_time(seed: int) -> Iterator[None]:
    """Within this block every seeded case is drawn again from the teacher's ``seed``.

    The notebooks show their cases (the same every time); the grader builds each check a
    second time in this block, so the same recipes give positions no student has seen.
    """
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
    teacher = _TEACHER_SEED.get()
    return random.Random(seed if teacher is None else f"{teacher}:{seed}")


def a_game(size: int) -> str:
    """``'an 8x8 game'``: a board size in words a student reads, with the right article.

    >>> [a_game(size) for size in (6, 8, 10, 11, 18, 80)]
    ['a 6x6 game', 'an 8x8 game', 'a 10x10 game', 'an 11x11 game', 'an 18x18 game', 'an 80x80 game']
    """
    spoken = str(size)  # "eight...", "eleven", "eighteen" start with a vowel sound
    if spoken.startswith("8") or spoken in ("11", "18"):
        return _("an {size}x{size} game").format(size=size)
    return _("a {size}x{size} game").format(size=size)


def colour(color: Color) -> str:
    """``Black`` or ``White`` in the reader's language."""
    return _("Black") if color is BLACK else _("White")


def random_game(seed: int, size: int = 8, stop: int | None = None) -> Iterator[tuple[Board, Color]]:
    """The positions of a game of random legal moves, each with the side to move.

    The game is played with ``seeded(seed)``, so the same seed gives the same positions
    (and other positions at grade time).  A side without a move passes; the last position
    is the finished game (or the position after ``stop`` moves, a pass counting as one).
    """
    rng = seeded(seed)
    board, color, plies = Board(size), BLACK, 0
    while not board.is_finished() and (stop is None or plies < stop):
        yield board.copy(), color
        moves = board.legal_moves(color)
        if moves:
            board.play(rng.choice(moves), color)
        color, plies = color.opponent, plies + 1
    yield board.copy(), color


#: Random games :func:`_first_pass` and :func:`_early_end` try before they build their
#: position from a constructed game (below), so that no seed leaves them without a case.
_ATTEMPTS = 4

# Constructed games: moves from the start, Black first and no pass on the way, found once
# among random games and kept (tests/course/grading/test_cases.py replays each one).
# :func:`_built` plays one of them, chosen by the seed, turned by a symmetry chosen by the
# seed, so a constructed case still differs from one teacher's seed to the next.

#: Games that end with empty squares left and discs of both colours on the board.
_EARLY_ENDS: dict[int, tuple[str, ...]] = {
    6: (
        "c2d2e4d5e3b3e2f3b4b1e5b5a6f5a3b6d6f2e1a4c6c5b2c1e6f4a5a2a1f1d1",
        "c2b2a2d2e5b4e4c5a4c1d1e1e2e3f2f4d6f6f5a3e6b3b1b6f1c6f3a1d5a5b5",
        "c2b2b3d2d1b5d5e5a2b4b6a6f5d6e6c6e4b1a1e3c1c5f4f2a5a3f3f6a4e2",
        "e4e3e2c5b5f3b6a6f2c6f4e5b4a5b3e1d6e6d5c2f5a2d2f6a4a3c1d1f1b2b1",
        "d5e5e4e3c2b1f5b4c5c6b5d6b3f4e6a3f3b6c1d1a4f6e2b2d2f2a6a5e1f1a2",
        "d5e3d2c1b3a3d1e1f2c5b5f4b2b1a2d6e4f5a4e5c2c6f3a1b6b4e6a5f6e2",
        "c2d2e4b4e2c5a4a5a6e1b3b2c6f2a3f5b1d5e6a2f3d6e3f4d1e5a1b6f1f6c1",
        "d5c5b4a3b2e5a5c2b1d2e4f3d1a1c6c1d6a4b5e1a2a6e3e2f4b6b3e6f2",
    ),
    8: (
        "f5f4e3f6e6d2e2c5c1f3g4g6c6e7g5h5h6d3d8h4c4b4b5c2b3g3b2a5b6f1h3a6f2c3a4a1g7h8d6g2h1b7a2d7f7b1a8g8f8a3c8c7h2e1d1g1b8e8h7",
        "f5f4d3c4e3e6d6e2g3g6b4c6d2a4f1f6c7g4h6f2h3g7b3h2h1c3f8b8b7b5c2e1c8b6g2b2f3h4a6h7a8h5h8c5a3b1g1c1f7g8d1g5a1e8d8d7e7a2a5",
        "d3e3f3c5c6c3b5g3c4a6a5d6e2d1f5e6b3b6f6g4f7f8a7b2h3e7f4h2a1g2g1a2e8a4g6d2e1b7d7h4h5f2h1h6g5d8h7g8f1a8g7c2b1c1b4c7b8c8a3",
        "e6d6c5f6d3c3f7e3d7b6e2f3g6f1c4g7g8f8g2g3e7h3d2d8f5h8b5h6c2c1e8b1c8b2e1a6g4f4g5h5a2b3h2h1g1h4a5b8c7b7a7b4a4a3f2d1a1a8c6",
        "c4c5d6e3b5b6f4a5e2e7a7b4a6g4g3f2c7c6d7g2a4g5g1d3e6d2f8e8d1b7f3e1h6c2b3a2f7b2h3c8h4g7f5b8d8f6b1h5h1h7g6g8c3h2h8a3c1a8f1",
        "c4e3f5b4e2d6c5e6a3d3c7f6c3f4g3b5c6e1g5g6h7a4a6h5h6b6f7d2e7e8f2f3a5f1g4d7d1b3g2h3h1c1g7c2a2d8c8g1b1h8g8b2b7b8h2f8a7h4",
        "d3c3c4c5b4e3e6b5a5a4e2d2b2c6c7f5d1f7f3f2g8f1a3e7e8f4e1b7g2c8d6b3g5g3a2g6g4f8d7h1f6h5h4h3h6b6h2h7g1d8g7c1c2b1b8h8a8a7a6",
        "c4c5b6d3c2d2e2f4g4d1c6b5a6a7a8f2e6f6e3e7e8d8g6b2g1g5e1h4b1f1g3d6c3a5a2b7c7b3f7g7a4f3g2h5c1h2h8g8h3a1h6a3f8b8f5b4h1d7c8",
    ),
}
#: Games up to a position where the side to move must pass and the other side can move.
_PASSES: dict[tuple[int, Color], tuple[str, ...]] = {
    (6, BLACK): (
        "d5e5f5e3d2c5b4d1c6b3e1b2a2b5a3f6a4d6f3e2f2a6b1b6c1c2e6a5e4f1",
        "c2b4d5e4a5b2d2e6d6c1b1e5b3c6d1a1f4e3e2e1f5f3f2a4a2a3c5a6",
        "d5e3f2e5e2d6e4c5b2a1c6e1e6d2f5f6b4b5b6f4c2c1f3f1a2b3a4d1",
        "c2d2e1b2e4c5a2e3b4a3a5d1e2b3c6c1b1f3f2b5a4a6b6a1f4d6d5e5e6f1",
        "d5c5b3c2b4a4a2e3d6c6f3e4b6a3f4b5d2d1e6e5a6f2a5f5c1b2e2e1f1f6",
        "b3b4a5a4d5a6b5d2b2c2b1d6a3d1e3e4f5c5e6f2f3f4f1a2c1a1c6e1e5e2",
        "d5c5b3c2b5e3d1c1f2a4d2e4e2e6f5f4b1a6a5e1d6e5f3f1b4f6b2b6a3c6",
        "b3b2e4c5d5e5b1a2d6e3b4b6f3a1f4c1b5e6d2c2a3f6f5f2e2c6d1a6a5a4",
    ),
    (6, WHITE): (
        "c2d2e3b4b3b2d5d6a3f2c1a2f4a4b5d1c5a5e6f6e2f3c6e4e1b6e5f5a6",
        "e4e3e2f3d2e1d1c2b1d5e6d6f1b3c5f2a2b4c6b6a6c1e5f4b2a1a5a3b5f6f5",
        "b3d2e2f2d1c2c1b2e3f3b4b5e5d5a3a1c5f6b6a5a6e1d6b1f4f5a4e4c6a2f1",
        "c2b2d5c1a1a3b1e5b3c5b5a2f6f5c6e4e3f3f4a6d2e1d1e2f2",
        "e4e3e2c5b6f3c2b3a4e5f5d1e1d5f4b5a6a5f6f1c6e6d2a2d6b2b1b4a1c1a3",
        "b3b2d5c5b4a3a1c2a2e5b1e3e4c1d2f4d6e1b6b5a6a5f5e2f6f3e6c6a4",
        "c2d2e2b2b4f2f1a4c1",
        "d5e5b3d6f6f5e6c5c6b2e4a3f4e3d2e1d1c1a1f3c2b4b5a4f2b6a6b1f1",
    ),
    (8, BLACK): (
        "f5f4f3d6c7g4e3g5f6g7c5d2f2c4d3e6h4c6f7b8b6e7g6g2h8c2c3b7d7f8e2b2b1f1h2b5d1g3b3h6a7g1h3e1a5b4a4c8h5h1e8a6g8h7d8a1a8c1",
        "d3e3f2c3f5f4b3d6c5b4g5e6b6c2c7c6d1g6d7g4h7b2a5e2a1e8f7d2e7a7c4g7a3g1e1b5b7f8d8c8h5a8f3f6b8h3g3b1g8f1g2h6h4h8h2a6h1c1",
        "d3c5d6e7d7c7f5d2c4g6b5c6f4g3c2a4a5b1d1b4h7e2a3a6a7g5f3f2h5b6f1g2h3h2d8e6b7g4e3a8c3h4c1h6e1f6f8f7g7b8h1e8g8g1a1c8",
        "d3c3b3f4f6e6d6c5b6c4e3e2g4c2b2a3c6e7b4a4f8a6f3a2f7b5a1g8g7b1d1h8b7d7e8e1g5h6g3h5c1a8f1f5h7g6b8g2a5a7d2d8h1c7h3f2h4c8",
        "f5f4g3c6e3f2c3h4e2d3g1f3c4b3b4d6d7b5b7d8g2e1h3g4f1a8e6g6b2c5c7h1h2b6a2a1e8g5c8b8a6a5d2c2c1a3a4a7h6e7f6h5b1f8",
        "f5f6d3f4g6c4f7c5f3g5d6e3b4c6e2g7g3g4g8g2b6h6g1c7d7h1h7c3b2a4b5f1c8h4a3h8h3f2h5f8e8b7d2a1b3a6d1h2e7e6b8a2b1e1",
        "d3e3f5e6f4c4f3g4c5c2c6d6h4c7e7f6b4b5g7h3g6h7a5g3d7c8b7f7c3a4b3a2f2b2h2d2d1d8f8c1e1a8a7b6b1a6g5e8h8a3h6g2f1g8b8h5e2a1",
        "d3c5f6f3f4e3d6g5g2f2h4c7g1c6f5g3d7e1b7h2e6h6b6c4h5e2h7f7g7a6g4b5b3a8f8d8d1c1b8c3d2c2a7c8a5a2f1h3e8g8e7b4a4h1b1h8b2g6",
    ),
    (8, WHITE): (
        "c4c5c6e3f6b6d3c2f2g1e2d2b1c7f1g7b7b8f5b4h1d6c1f4d7b2a6d8e8e7c8f8g3f3g2h3a2b5f7g6c3b3h4e1h8g4d1h5g5h7a4a5e6a7g8a1h6a3h2",
        "f5d6c7d7c3g5f6b7b8d3e7d8f7b3h4e6b2c8e8g7b4g6h5f8g8a3e3e2e1f4g4b5a6g3h2a1c6h7h8f1f3h3a4h1a2a5d1a7g1c1d2h6b1b6f2c4c2g2c5",
        "d3c5e6f3f5e3c6e7c4g5f4c2h6b4d6g4f8h5f2e2g3f1g6c7c3h7d7h2e1d1h4d2g7h3a4g8b2a2b1f6g1f7b3e8c8b8g2a5c1a3h8b5a8a1h1",
        "c4e3f3g3e2e1f2f1f4c6h2b4c5d6e6g4g1h3b6b5c3g2g5d7d2b7a7d3h4c2b3h1b1c1f5a5d1g6b2a3a8a2c8f7h7g7f6d8a4e7h8g8e8h5a1a6f8c7b8",
        "f5f6c4f4g7d3g4d6g5h8c7h4e3e6g3f3g6e7e2b3f7d2h7h2c6g8c2c3h6b8c5c1h3e1f2g1d7e8b6a5d1b5g2h5h1f8a6f1b4a7a2a4d8b2a3c8a8",
        "c4c3e6d6c5b4b3a3d3f7b2d2e7b1a2f5c6b5b6a5g4g5f4g3h6c7g2h2a6g1b8h5e2c8d1c2g6a8a4a7e3f6d8g7h8f8g8f3a1h7h4b7h3f1f2e8d7e1c1",
        "d3e3f3c3c5g3g2g1c2b5e2d2h1b2e6f2b3f7c6b4e7h2a5g4b1f4e1f6g8b6h3a1c7f8a2b7f5a7e8a3d7c1f1g6h5h4g5h6h7c8d8g7a8d6d1a6b8c4a4",
        "e6d6c4d3c5b5b3f4c6d7a6f5f7a5a4f6f3g7c8g4g6f8h5e7c7e8g3h4b7e3d2g2h1e2f1g1h2h6f2a7d8b4b8d1h3g5b6b2a3a2c1b1h7h8c2c3g8a8e1",
    ),
}


def _built(games: tuple[str, ...], size: int, rng: random.Random) -> tuple[Board, Color]:
    """The last position (and the side to move) of one of ``games``, chosen by ``rng`` and
    played turned by one of the symmetries that keep the start as it is (or none)."""
    moves, where = rng.choice(games), rng.choice(_keeping_the_start(size))
    board, color = Board(size), BLACK
    for at in range(0, len(moves), 2):
        board.play(where(board.square(moves[at : at + 2])), color)
        color = color.opponent
    return board, color


@functools.cache
def _keeping_the_start(size: int) -> tuple[Callable[[Square], Square], ...]:
    """The symmetries that leave the start as it is (half a turn, the two diagonal
    mirrors), and no change at all: a game turned by one is a game from the start."""
    start = Board(size)
    keeping = [where for _, turned, where in symmetries(start) if turned == start]
    return (_as_played, *keeping)


def _as_played(sq: Square) -> Square:
    return sq


def symmetries(board: Board) -> list[tuple[str, Board, Callable[[Square], Square]]]:
    """The board turned and mirrored (the seven other symmetries of a square), each with
    the function that carries a square of ``board`` to its place (labels in English: ``_(label)``).

    >>> [label for label, _, _ in symmetries(Board())][:2]
    ['turned a quarter', 'turned half']
    """
    n = board.size - 1
    maps: list[tuple[str, Callable[[int, int], tuple[int, int]]]] = [
        (N_("turned a quarter"), lambda r, c: (c, n - r)),
        (N_("turned half"), lambda r, c: (n - r, n - c)),
        (N_("turned three quarters"), lambda r, c: (n - c, r)),
        (N_("mirrored left to right"), lambda r, c: (r, n - c)),
        (N_("mirrored top to bottom"), lambda r, c: (n - r, c)),
        (N_("mirrored on a diagonal"), lambda r, c: (c, r)),
        (N_("mirrored on the other diagonal"), lambda r, c: (n - c, n - r)),
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
    found = []
    for seed in seeds:
        found.extend(list(random_game(seed, size, None))[::every])
    return found


def _first_pass(seed: int, size: int, color: Color) -> tuple[Board, Color]:
    """The first position of a random game where ``color``, to move, must pass.

    The games of ``seed``, ``seed + 1000``, ... are tried in turn (a notebook's seed has one
    in its own game); when none of the first :data:`_ATTEMPTS` has one (it happens at grade
    time), the position is built from one of the games of :data:`_PASSES` instead.
    """
    for attempt in range(_ATTEMPTS):
        for board, to_move in random_game(seed + 1000 * attempt, size, None):
            if (
                to_move is color
                and not board.has_legal_move(color)
                and board.has_legal_move(color.opponent)
            ):
                return board, color
    return _built(_PASSES[size, color], size, seeded(seed))


def pass_positions() -> list[tuple[str, Board, Color]]:
    """Positions where the side to move has no legal move but the opponent has one.

    >>> [(board.size, str(color), board.legal_moves(color)) for _, board, color in pass_positions()][:2]
    [(6, 'White', []), (6, 'Black', [])]
    """
    label = _("{color} must pass in {game} (seed {seed})")
    return [
        (label.format(color=colour(color), game=a_game(size), seed=seed), *_first_pass(seed, size, color))
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
        (_("{game} over with empty squares (seed {seed})").format(game=a_game(size), seed=seed),
         _early_end(seed, size))
        for size, seed in ((6, 104), (6, 189), (8, 116))
    ]


def _early_end(seed: int, size: int) -> Board:
    """The end of the first random game from ``seed`` that leaves empty squares.

    As in :func:`_first_pass`, at most :data:`_ATTEMPTS` games are tried; then the end
    is built from one of the games of :data:`_EARLY_ENDS`.
    """
    for attempt in range(_ATTEMPTS):
        board = list(random_game(seed + 1000 * attempt, size, None))[-1][0]
        if board.count(None):
            return board
    return _built(_EARLY_ENDS[size], size, seeded(seed))[0]


def flip_positions() -> list[tuple[str, Board, Color]]:
    """Two positions made for testing captures, then every 6th position of four random games."""
    found = [(_("all eight directions"), STAR, BLACK), (_("lines along the edges"), EDGES, BLACK)]
    for number, (board, color) in enumerate(sample_positions(range(4), every=6)):
        found.append((_("position {number} (random games)").format(number=number + 1), board, color))
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


def names(squares: Iterable[Square] | Pass) -> str:
    """Squares as text, ``'d5 e4 f3 g3'`` (``'none'`` for no square); PASS as ``'PASS'``."""
    if isinstance(squares, Pass):
        return "PASS"
    return " ".join(str(sq) for sq in squares) or _("none")


def color_name(value: object) -> str:
    """``'BLACK'``, ``'WHITE'`` or ``'None'``, as a student writes them in code."""
    if value is None:
        return "None"
    return "BLACK" if value is BLACK else "WHITE" if value is WHITE else repr(value)
