"""The records of a game: the actions that change it and their JSON form, and the turns played.

A :class:`~reversi.game.Game` records every change it accepts as one of these:
a move, a pass, a turn lost to the clock, an undo request, the answer to it, or a
resignation.  Replaying the list through the rules rebuilds the game exactly,
which is how saves work.  The JSON form is a small object such as
``{"action": "move", "square": "d3"}``; reading it back checks every part.

>>> MoveAction(square("d3")).to_dict()
{'action': 'move', 'square': 'd3'}
>>> action_from_dict({"action": "resign", "color": "white"})
Resignation(color=<Color.WHITE: 'white'>)
>>> action_from_dict({"action": "move"})
Traceback (most recent call last):
...
reversi.errors.ArgumentError: action {'action': 'move'} is missing its 'square'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from reversi.errors import ArgumentError, NotationError, shown
from reversi.notation import Color, Move, Square, square
from reversi.surface import student


@student
@dataclass(frozen=True)
class MoveAction:
    """The side to move put a disc on ``square``."""

    square: Square


    def to_dict(self) -> dict[str, Any]:
        return {"action": "move", "square": self.square.name}


@dataclass(frozen=True)
class PassAction:
    """The side to move had no legal move and passed."""

    def to_dict(self) -> dict[str, Any]:
        return {"action": "pass"}


@dataclass(frozen=True)
class TimeoutAction:
    """The side to move ran out of time and lost the turn."""

    def to_dict(self) -> dict[str, Any]:
        return {"action": "timeout"}


@student
@dataclass(frozen=True)
class UndoRequest:
    """``color`` asked to take back its last move."""

    color: Color


    def to_dict(self) -> dict[str, Any]:
        return {"action": "undo-request", "color": self.color.value}


@student
@dataclass(frozen=True)
class UndoAnswer:
    """The opponent accepted (or declined) the waiting undo request."""

    accept: bool


    def to_dict(self) -> dict[str, Any]:
        return {"action": "undo-answer", "accept": self.accept}


@student
@dataclass(frozen=True)
class Resignation:
    """``color`` gave up."""

    color: Color


    def to_dict(self) -> dict[str, Any]:
        return {"action": "resign", "color": self.color.value}


@student
@dataclass(frozen=True)
class Ply:
    """One turn of the game: who, what (a square or PASS), and which discs flipped.

    ``timeout`` is true when the turn was lost to the clock rather than passed.
    """

    color: Color
    move: Move
    flipped: tuple[Square, ...] = ()
    timeout: bool = False



Action: TypeAlias = MoveAction | PassAction | TimeoutAction | UndoRequest | UndoAnswer | Resignation
ACTION_TYPES = (MoveAction, PassAction, TimeoutAction, UndoRequest, UndoAnswer, Resignation)


def action_from_dict(data: object) -> Action:
    """The action a JSON object describes; :class:`ArgumentError` names a missing or wrong part."""
    if not isinstance(data, dict):
        raise ArgumentError(f"{shown(data)} is not an action: an action is a JSON object")
    kind = data.get("action")
    if kind == "move":
        where = _part(data, "square")
        if not isinstance(where, str):
            raise ArgumentError(f"action {shown(data)}: 'square' must be text like 'd3'")
        try:
            return MoveAction(square(where))
        except NotationError as error:
            raise ArgumentError(f"action {shown(data)}: {error}") from None
    if kind == "pass":
        return PassAction()
    if kind == "timeout":
        return TimeoutAction()
    if kind == "undo-request":
        return UndoRequest(_color(data))
    if kind == "undo-answer":
        accept = _part(data, "accept")
        if not isinstance(accept, bool):
            raise ArgumentError(f"action {shown(data)}: 'accept' must be true or false")
        return UndoAnswer(accept)
    if kind == "resign":
        return Resignation(_color(data))
    known = "move, pass, timeout, undo-request, undo-answer, resign"
    raise ArgumentError(f"unknown action {shown(kind)} (the actions are {known})")


def _part(data: dict[Any, Any], key: str) -> object:
    if key not in data:
        raise ArgumentError(f"action {shown(data)} is missing its {shown(key)}")
    return data[key]


def _color(data: dict[Any, Any]) -> Color:
    value = _part(data, "color")
    for color in Color:
        if value == color.value:
            return color
    raise ArgumentError(f"action {shown(data)}: 'color' must be 'black' or 'white'")
