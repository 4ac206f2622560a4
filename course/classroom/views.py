"""What everyone in a room sees: the ``state`` message, built from the room and its game.

One message for all (it holds no token and nothing private), so the server
encodes it once and sends the same text to every connection of the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from course.classroom.people import PLAYERS
from reversi.board import Board
from reversi.errors import ArgumentError, shown
from reversi.notation import BLACK, WHITE, Square

__all__ = [
    "state_message",
    "rows",
    "LOG_LINES",
]

if TYPE_CHECKING:
    from course.classroom.room import Room

#: Lines of the game log sent with each state.
LOG_LINES = 30


def state_message(room: Room) -> dict[str, Any]:
    """The whole room as everyone may see it: seats, watchers, settings and the game."""
    from course.classroom.room import Room  # not at the top: the room imports this module

    if not isinstance(room, Room):
        raise ArgumentError(f"the state message is made from a Room, not {shown(room)}")
    game = room.game
    seats = {
        seat.color.value: {
            "name": seat.name,
            "present": seat.conn is not None,
            "undos_left": game.undos_left(seat.color) if game else 1,
            "can_undo": room.can_undo(seat.color),
            "away_for": None if seat.away_since is None else round(room.now - seat.away_since, 1),
        }
        for seat in room.seats.values()
    }
    watching = sorted(m.name for m in room.members.values() if m.role not in PLAYERS)
    message: dict[str, Any] = {
        "type": "state", "room": room.name, "seats": seats, "watching": watching,
        "move_time": room.settings.move_time, "grace": room.settings.grace,
        "muted": sorted(room.muted), "game": None,
    }  # fmt: skip
    if game is not None:
        last = game.plies[-1] if game.plies else None
        board = game.board
        message["game"] = {
            "number": room.games_played,
            "rows": rows(board),
            "turn": game.turn.value,
            "legal": [s.name for s in game.legal_moves()],
            "plies": len(game.plies),
            "time_left": room.time_left(),
            "undo_pending": game.pending_undo.value if game.pending_undo else None,
            "outcome": str(game.outcome) if game.outcome else None,
            "stopped": room.stopped,
            "winner": game.winner.value if game.winner else None,
            "last": None if last is None or not isinstance(last.move, Square) else {
                "color": last.color.value, "square": last.move.name,
                "flipped": [s.name for s in last.flipped],
            },
            "log": game.log[-LOG_LINES:],
        }  # fmt: skip
    return message


def rows(board: Board) -> list[str]:
    """The board as text rows of ``B``, ``W`` and ``.`` (what ``Board.from_text`` reads back)."""
    if not isinstance(board, Board):
        raise ArgumentError(f"rows are made from a Board, not {shown(board)}")
    cells = [["."] * board.size for _ in range(board.size)]
    for color in (BLACK, WHITE):
        for at in board.discs(color):
            cells[at.row][at.col] = color.letter
    return ["".join(row) for row in cells]
