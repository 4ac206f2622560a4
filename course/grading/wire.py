"""Plain JSON across the trust boundary: case arguments out, students' answers back.

The grader sends each case's arguments to the sandboxed process as JSON
(:func:`dump_argument`), where the student runtime's harness turns them into its own
objects (``course/grading/runtime/harness.py``: a board lending only what the exercise
allows, a ``Square``, a colour, a fresh ``NodeCounter``...) and reads what the student's
function returned back into JSON, looking only at exact built-in types and its own value
types.  Here, every line from the sandbox is read by :func:`parse`, which refuses too
many bytes and too deep nesting before :mod:`json` sees it (no recursion on a depth the
student chose: :func:`course.schema.read_json`), and :func:`load_answer`
rebuilds plain values of the kit's types;
anything malformed becomes an :class:`Opaque`, which no check accepts.

>>> load_answer({"tuple": [{"square": [2, 3]}, "e4", {"color": "black"}, None, 1.5]})
(d3, 'e4', <Color.BLACK: 'black'>, None, 1.5)
>>> load_answer({"object": "Liar"})
Opaque(kind='Liar')
>>> parse(b"[" * 100 + b"]" * 100) is None
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from course import schema
from course.grading.views import BoardView, discs, view_discs
from reversi import BLACK, PASS, WHITE, Board, Color, Square
from reversi.errors import ArgumentError, shown

Json = Any
MAX_ITEMS = 200_000  # a bigger answer is no answer to any exercise
MAX_DEPTH = 12
MAX_TEXT = 100_000
_COLORS = {"black": BLACK, "white": WHITE}
_DISCS = {BLACK: "B", WHITE: "W", None: "."}
_FROM_DISC = {"B": BLACK, "W": WHITE, ".": None}


@dataclass(frozen=True)
class Opaque:
    """An answer that was not plain data (its type's name), or was malformed on the way."""

    kind: str

    def __str__(self) -> str:
        return f"a {self.kind} object (not plain data)"


class Counter:
    """The grader's stand-in for a ``NodeCounter`` after the call: how many visits it saw."""

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes


def _rows(board: Board | BoardView) -> list[str]:
    # a view's own rows, not board[r, c]: a checked read of each square cost 04_flips's
    # grading 20 s of its 22 (6,000 boards)
    grid = view_discs(board) if isinstance(board, BoardView) else discs(board)
    return ["".join(_DISCS[color] for color in row) for row in grid]


def _board(size: Any, rows: Any) -> Board:
    black = white = 0
    for r, row in enumerate(_discs(size, rows)):
        for c, color in enumerate(row):
            if color is BLACK:
                black |= 1 << (r * size + c)
            elif color is WHITE:
                white |= 1 << (r * size + c)
    return Board.from_bits(size, black, white)


def _discs(size: Any, rows: Any) -> list[list[Color | None]]:
    """The discs of a board sent as its size and rows of ``B``, ``W`` and ``.``; ValueError if not one."""
    if type(size) is not int or not 4 <= size <= 16 or size % 2:
        raise ValueError("not a board size")
    if type(rows) is not list or len(rows) != size:
        raise ValueError("not a board")
    if any(type(text) is not str or len(text) != size for text in rows):
        raise ValueError("not a row of a board")
    return [list(_row(text)) for text in rows]


@functools.lru_cache(maxsize=4096)
def _row(text: str) -> tuple[Color | None, ...]:
    """The discs of one row (rows repeat: 04_flips's 11,000 cases send back a few hundred)."""
    if text.strip("BW."):
        raise ValueError("not a row of a board")
    return tuple(_FROM_DISC[letter] for letter in text)


def load_discs(data: Json) -> list[list[Color | None]] | None:
    """The discs of a board the sandbox sent back (row by row), or None if it is not a board."""
    if type(data) is not dict or len(data) != 2 or "board" not in data or "rows" not in data:
        return None
    try:
        return _discs(data["board"], data["rows"])
    except ValueError:
        return None


# -- grader to sandbox: the arguments of a case -----------------------------------------------


def dump_argument(value: Any) -> Json:
    """An argument of a case as JSON (the grader's side; values are the checks' own)."""
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if type(value) is Square:
        return {"square": [value.row, value.col]}
    if type(value) is Color:
        return {"color": value.value}
    if value is PASS:
        return {"pass": 1}
    if type(value) is Board:
        return {"board": value.size, "rows": _rows(value)}
    if type(value) is BoardView:
        return {
            "view": value.size,
            "rows": _rows(value),
            "allow": list(value.allowed),
            "writable": value.writable,
        }
    if type(value) is list:
        return [dump_argument(item) for item in value]
    if type(value) is tuple:
        return {"tuple": [dump_argument(item) for item in value]}
    if type(value).__name__ == "NodeCounter":
        return {"counter": 0}
    raise ArgumentError(
        f"a case argument of type {type(value).__name__} cannot be sent: {shown(value)}"
    )


# -- sandbox to grader: what the student's function gave ---------------------------------------

#: How deep a line from the sandbox may nest (a message, its replies, an answer in them).
MAX_NESTING = MAX_DEPTH + 8


def parse(line: bytes, limit: int = MAX_NESTING, size: int = 16 << 20) -> Any:
    """The JSON value of one line from the sandbox; None if it is too big, too deep or not JSON."""
    try:
        return schema.read_json(line, "a line from the sandbox", schema.Limits(size, limit, size))
    except schema.SchemaError:
        return None


def load_answer(data: Json) -> Any:
    """Plain values from JSON sent by the sandbox; :class:`Opaque` for anything malformed."""
    try:
        return _load(data)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, RecursionError):
        return Opaque("malformed answer")


def _load(data: Json) -> Any:
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [_load(item) for item in data]
    if type(data) is not dict or len(data) not in (1, 2):
        raise ValueError("not an answer")
    if "object" in data:
        return Opaque(str(data["object"])[:80])
    if "float" in data:
        return float(data["float"])
    if "square" in data:
        row, col = data["square"]
        if type(row) is not int or type(col) is not int:
            raise ValueError("not a square")
        return Square(row, col)
    if "color" in data:
        return _COLORS[data["color"]]
    if "pass" in data:
        return PASS
    if "board" in data:
        return _board(data["board"], data["rows"])
    if "counter" in data:
        nodes = data["counter"]
        return Counter(nodes if type(nodes) is int else -1)
    if "tuple" in data:
        return tuple(_load(item) for item in data["tuple"])
    if "set" in data or "frozenset" in data:
        listed = data["set"] if "set" in data else data["frozenset"]
        items = [_load(item) for item in listed]
        return set(items) if "set" in data else frozenset(items)
    if "dict" in data:
        return {_load(key): _load(value) for key, value in data["dict"]}
    raise ValueError("not an answer")
