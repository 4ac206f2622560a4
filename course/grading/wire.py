"""Plain JSON across the trust boundary: case arguments out, students' answers back.

The grader sends each case's arguments to the sandboxed process as JSON, where
:func:`load_argument` turns them into the objects an exercise hands to students (a
:class:`~course.grading.views.BoardView`, a ``Square``, a colour, a fresh
``NodeCounter``...).  What a student's function returns is read there by
:func:`dump_answer`, which looks only at exact built-in types and the kit's value types
(a subclass or any other object becomes ``{"object": "its type"}``, so nothing the
student wrote runs while it is read).  Back in the grader, :func:`load_answer` rebuilds
plain values; anything malformed becomes an :class:`Opaque`, which no check accepts.

>>> dump_answer([(2, 3), "e4", BLACK, None, 1.5])
[{'tuple': [2, 3]}, 'e4', {'color': 'black'}, None, 1.5]
>>> load_answer(dump_answer({"width": 5, "one": "b"}))
{'width': 5, 'one': 'b'}
>>> load_answer({"object": "Liar"})
Opaque(kind='Liar')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from course.grading.views import BoardView, discs
from reversi import BLACK, PASS, WHITE, Board, Color, Square

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
    if type(board) is Board:
        return ["".join(_DISCS[color] for color in row) for row in discs(board)]
    return ["".join(_DISCS[board[r, c]] for c in range(board.size)) for r in range(board.size)]


def _board(size: Any, rows: Any) -> Board:
    if type(size) is not int or not 4 <= size <= 16 or size % 2:
        raise ValueError("not a board size")
    if type(rows) is not list or len(rows) != size:
        raise ValueError("not a board")
    black = white = 0
    for r, text in enumerate(rows):
        if type(text) is not str or len(text) != size or set(text) - set(_FROM_DISC):
            raise ValueError("not a row of a board")
        for c, letter in enumerate(text):
            if letter == "B":
                black |= 1 << (r * size + c)
            elif letter == "W":
                white |= 1 << (r * size + c)
    return Board.from_bits(size, black, white)


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
    raise TypeError(f"a case argument of type {type(value).__name__} cannot be sent")


def load_argument(data: Json, counter: type) -> Any:
    """An argument as the student's function receives it (the sandbox's side)."""
    if isinstance(data, list):
        return [load_argument(item, counter) for item in data]
    if not isinstance(data, dict):
        return data
    if "float" in data:
        return float(data["float"])
    if "square" in data:
        return Square(*data["square"])
    if "color" in data:
        return _COLORS[data["color"]]
    if "pass" in data:
        return PASS
    if "board" in data:
        return _board(data["board"], data["rows"])
    if "view" in data:
        board = _board(data["view"], data["rows"])
        return BoardView(board, data["allow"], bool(data["writable"]))
    if "tuple" in data:
        return tuple(load_argument(item, counter) for item in data["tuple"])
    if "counter" in data:
        return counter()
    raise ValueError(f"unknown argument {data!r}")


# -- sandbox to grader: what the student's function gave ---------------------------------------


class _TooBig(Exception):
    pass


def dump_answer(value: Any) -> Json:
    """A returned value as JSON, reading only exact built-in types and the kit's value types.

    No method of the student's objects is called (``type(value) is int``, never
    ``isinstance``), so an answer cannot run code while it is read.
    """
    budget = [MAX_ITEMS]
    try:
        return _dump(value, MAX_DEPTH, budget)
    except _TooBig:
        return {"object": "answer too big"}


def _dump(value: Any, depth: int, budget: list[int]) -> Json:
    budget[0] -= 1
    if budget[0] < 0 or depth < 0:
        raise _TooBig
    kind = type(value)
    if value is None or kind is bool or kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": float.__repr__(value)}
    if kind is str:
        if len(value) > MAX_TEXT:
            raise _TooBig
        return value
    if kind is Square:
        row, col = tuple.__getitem__(value, 0), tuple.__getitem__(value, 1)
        if type(row) is int and type(col) is int:
            return {"square": [row, col]}
        return {"object": "Square of non-numbers"}
    if value is BLACK or value is WHITE:
        return {"color": value.value}
    if value is PASS:
        return {"pass": 1}
    if kind is Board or kind is BoardView:
        return {"board": value.size, "rows": _rows(value)}
    if kind is list or kind is tuple or kind is set or kind is frozenset:
        items = [_dump(item, depth - 1, budget) for item in kind.__iter__(value)]
        return items if kind is list else {kind.__name__: items}
    if kind is dict:
        pairs = dict.items(value)
        return {
            "dict": [[_dump(k, depth - 1, budget), _dump(v, depth - 1, budget)] for k, v in pairs]
        }
    return {"object": kind.__name__ if type(kind.__name__) is str else "unknown"}


def dump_after(value: Any) -> Json:
    """An argument after the call, as far as a check looks at it (a board, a counter)."""
    kind = type(value)
    if kind is Board or kind is BoardView:
        try:
            return {"board": value.size, "rows": _rows(value)}
        except Exception:
            return {"object": "broken board"}
    if kind.__name__ == "NodeCounter":
        try:
            nodes = object.__getattribute__(value, "nodes")
        except AttributeError:
            nodes = None
        return {"counter": nodes if type(nodes) is int else -1}
    return None


def load_answer(data: Json) -> Any:
    """Plain values from JSON sent by the sandbox; :class:`Opaque` for anything malformed."""
    try:
        return _load(data)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError):
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
