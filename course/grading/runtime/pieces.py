"""The student runtime's pieces: small, plain versions of what an exercise may lend a student.

This file is never imported by the kit.  The grader reads it as text and, for one
exercise, composes the module ``allowed`` from the core pieces (:data:`CORE`) and the
pieces the exercise table offers (:mod:`course.grading.table`), each with every piece it
uses.  That module and :mod:`harness` are all the sandboxed process holds: nothing in it
leads to the kit's implementation, and a piece the exercise asks students to write (the
rules of ``flips`` in exercise 04) is simply not there.

Every piece is a top-level ``def`` or ``class`` (or a constant) here, uses only the
standard library and other pieces, and behaves as the kit's own does on the exercises'
cases (the tests compare them on random positions).
"""

# ruff: noqa: N801

from collections import namedtuple

COLUMNS = "abcdefghijklmnop"

#: The board methods this exercise lends (the composed module sets it).
LENT = ()

#: The eight steps from a square to its neighbours, as (row step, column step).
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Color:
    """The colour of a disc: ``BLACK`` or ``WHITE`` (``color.opponent`` is the other one)."""

    __slots__ = ("value", "name", "letter", "opponent")

    def __init__(self, value, name, letter, opponent=None):
        self.value, self.name, self.letter, self.opponent = value, name, letter, opponent
        if opponent is not None:
            opponent.opponent = self

    def __str__(self):
        return self.value.capitalize()

    def __repr__(self):
        return f"<Color.{self.name}: {self.value!r}>"


BLACK = Color("black", "BLACK", "B")
WHITE = Color("white", "WHITE", "W", BLACK)
COLORS = {"black": BLACK, "white": WHITE}


class Square(namedtuple("Square", "row col")):
    """A square as a 0-based ``(row, col)`` pair that prints as ``d3``."""

    __slots__ = ()

    @property
    def name(self):
        return COLUMNS[self.col] + str(self.row + 1)

    def __str__(self):
        return self.name

    def __repr__(self):
        if 0 <= self.row < 16 and 0 <= self.col < 16:
            return self.name
        return f"Square(row={self.row!r}, col={self.col!r})"


class Pass:
    """The move of a player who has no legal move (there is one: ``PASS``)."""

    def __repr__(self):
        return "PASS"

    def __str__(self):
        return "pass"


PASS = Pass()


def square(where, size):
    """``where`` (``'d3'`` or ``(row, col)``) as a :class:`Square` of a ``size`` board."""
    if isinstance(where, str):
        text = where.strip()
        col = COLUMNS.find(text[:1].lower()) if text[:1].isascii() else -1
        digits = text[1:].strip()
        if col < 0 or not digits.isascii() or not digits.isdigit():
            raise ValueError(f"{where!r} is not a square: write a letter then a number, like 'd3'")
        row = int(digits) - 1
    elif isinstance(where, tuple) and len(where) == 2:
        row, col = where
        if type(row) is not int or type(col) is not int:
            raise ValueError(f"{where!r} is not a square: (row, col) are whole numbers")
    else:
        raise ValueError(f"{where!r} is not a square: write 'd3' or (row, col)")
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"{where!r} is not a square of a {size}x{size} board")
    return Square(row, col)


class Board:
    """A position: read squares (``board[row, col]`` or ``board['d3']``), ``board.size``,
    ``board.squares()``, and the methods this exercise lends."""

    __slots__ = ("_size", "_rows", "_allow", "_writable")
    __hash__ = None

    def __init__(self, size=8):
        if type(size) is not int or size % 2 or not 4 <= size <= 16:
            raise ValueError(f"board size {size!r} is not an even number from 4 to 16")
        half = size // 2
        rows = [[None] * size for _ in range(size)]
        rows[half - 1][half - 1] = rows[half][half] = WHITE
        rows[half][half - 1] = rows[half - 1][half] = BLACK
        _fill(self, size, rows, LENT, True)

    @property
    def size(self):
        return self._size

    def squares(self):
        for row in range(self._size):
            for col in range(self._size):
                yield Square(row, col)

    def __getitem__(self, where):
        row, col = square(where, self._size)
        return self._rows[row][col]

    def __setitem__(self, where, color):
        if not self._writable:
            raise TypeError(
                "this exercise's board is read-only: look at squares, do not change them"
            )
        if color is not None and type(color) is not Color:
            raise TypeError(f"a square holds BLACK, WHITE or None, not {color!r}")
        row, col = square(where, self._size)
        self._rows[row][col] = color

    def __getattr__(self, name):
        allowed = ["read squares (board[row, col])", "board.size", "board.squares()"]
        allowed += [f"board.{lent}" for lent in self._allow]
        listing = ", ".join(allowed[:-1]) + " and " + allowed[-1]
        raise AttributeError(f"this exercise lets you {listing}; board.{name} is not allowed here")

    def __eq__(self, other):
        if type(other) is not Board:
            return NotImplemented
        return self._rows == other._rows

    def __str__(self):
        width = len(str(self._size))
        lines = [" " * width + " " + " ".join(COLUMNS[: self._size])]
        for number, row in enumerate(self._rows, start=1):
            cells = " ".join(color.letter if color else "." for color in row)
            lines.append(f"{number:>{width}} {cells}")
        return "\n".join(lines)

    def __repr__(self):
        black = sum(row.count(BLACK) for row in self._rows)
        white = sum(row.count(WHITE) for row in self._rows)
        return f"<Board {self._size}x{self._size}: {black} black, {white} white>"


def _fill(board, size, rows, allow, writable):
    object.__setattr__(board, "_size", size)
    object.__setattr__(board, "_rows", rows)
    object.__setattr__(board, "_allow", tuple(allow))
    object.__setattr__(board, "_writable", writable)


def make_board(size, rows, allow, writable):
    """A board with these discs (rows of ``'B'``, ``'W'``, ``'.'``), lending ``allow``."""
    board = Board.__new__(Board)
    discs = {"B": BLACK, "W": WHITE, ".": None}
    _fill(board, size, [[discs[letter] for letter in text] for text in rows], allow, writable)
    return board


def lend(name, function):
    """``function`` as the board method ``name``, refused on boards that do not lend it."""

    def method(board, *args):
        if name not in board._allow:
            board.__getattr__(name)
        return function(board, *args)

    method.__name__ = name
    return method


class NodeCounter:
    """Counts the positions a search visits: the search calls :meth:`visit` once for each."""

    def __init__(self):
        self.nodes = 0

    def visit(self):
        self.nodes += 1

    def __repr__(self):
        return f"NodeCounter(nodes={self.nodes})"


class IllegalMoveError(ValueError):
    """A move that breaks the rules."""


class MapFileError(ValueError):
    """Map-file text that cannot be read, with the 1-based ``line`` of the problem."""

    def __init__(self, problem, line=0, column=0, source=None):
        super().__init__(problem)
        self.problem, self.line, self.column, self.source = problem, line, column, source

    def __str__(self):
        where = (
            f"line {self.line}, column {self.column}: "
            if self.column
            else (f"line {self.line}: " if self.line else "")
        )
        return (f"{self.source}: " if self.source else "") + where + self.problem


# -- what a board may lend -----------------------------------------------------------------------


def flips(board, where, color):
    """The discs ``color`` would turn by moving on ``where``, in reading order."""
    row, col = square(where, board._size)
    if type(color) is not Color:
        raise ValueError(f"{color!r} is not BLACK or WHITE")
    rows, size, other = board._rows, board._size, color.opponent
    if rows[row][col] is not None:
        return []
    taken = []
    for dr, dc in DIRECTIONS:
        line, r, c = [], row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and rows[r][c] is other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and rows[r][c] is color:
            taken += line
    return [Square(r, c) for r, c in sorted(taken)]


def is_legal(board, where, color):
    """Whether ``color`` may move on ``where``."""
    return bool(flips(board, where, color))


def legal_moves(board, color):
    """The squares where ``color`` may move, in reading order."""
    rows, size, other = board._rows, board._size, color.opponent
    found = []
    for row in range(size):
        cells = rows[row]
        for col in range(size):
            if cells[col] is None and _captures(rows, size, row, col, color, other):
                found.append(Square(row, col))
    return found


def _captures(rows, size, row, col, color, other):
    """Whether a ``color`` disc on the empty square ``(row, col)`` turns at least one disc
    (:func:`flips` without collecting them: the searches call this most)."""
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if not (0 <= r < size and 0 <= c < size and rows[r][c] is other):
            continue
        r, c = r + dr, c + dc
        while 0 <= r < size and 0 <= c < size:
            disc = rows[r][c]
            if disc is color:
                return True
            if disc is not other:
                break
            r, c = r + dr, c + dc
    return False


def count(board, color):
    """How many discs of ``color`` are on the board (``None`` counts empty squares)."""
    return sum(row.count(color) for row in board._rows)


def play(board, where, color):
    """Put a ``color`` disc on ``where`` and turn what it captures; the turned squares."""
    at = square(where, board._size)
    turned = flips(board, at, color)
    if not turned:
        raise IllegalMoveError(f"{at.name!r} is not a legal move for {color}")
    for row, col in [at, *turned]:
        board._rows[row][col] = color
    return turned


def copy(board):
    """An independent copy that lends what this board lends."""
    twin = Board.__new__(Board)
    _fill(twin, board._size, [row[:] for row in board._rows], board._allow, board._writable)
    return twin


def square_weight(row, col, size):
    """The weight of square ``(row, col)``: corners best, the squares next to them worst."""
    last = size - 1
    edge_row, edge_col = row in (0, last), col in (0, last)
    near_row, near_col = row in (1, last - 1), col in (1, last - 1)
    if edge_row and edge_col:
        return 100
    if near_row and near_col:
        return -50
    if (edge_row and near_col) or (edge_col and near_row):
        return -20
    if edge_row or edge_col:
        return 10
    if near_row or near_col:
        return -5
    return 1


_TABLES = {}


def weights(size):
    """The weight table of a ``size`` x ``size`` board, one tuple per row."""
    if type(size) is not int or size % 2 or not 4 <= size <= 16:
        raise ValueError(f"board size {size!r} is not an even number from 4 to 16")
    if size not in _TABLES:
        _TABLES[size] = tuple(
            tuple(square_weight(row, col, size) for col in range(size)) for row in range(size)
        )
    return _TABLES[size]


def evaluate(board, color):
    """How good ``board`` looks for ``color`` (to move): a finished game's disc margin times
    1,000,000, else the square weights plus 5 per legal move more than the opponent has."""
    mine, theirs = legal_moves(board, color), legal_moves(board, color.opponent)
    own, other = count(board, color), count(board, color.opponent)
    if not mine and not theirs:
        return (own - other) * 1_000_000
    table = weights(board._size)
    score = 0
    for r, row in enumerate(board._rows):
        for c, disc in enumerate(row):
            if disc is color:
                score += table[r][c]
            elif disc is color.opponent:
                score -= table[r][c]
    return score + 5 * (len(mine) - len(theirs))
