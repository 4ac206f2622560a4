"""The state of one room of the class server and the steps every rule is made of.

:class:`RoomState` holds the seats, the members, the game, the chat and the records
storage has yet to keep; its methods are the steps the rules share (start a game,
run the clock, announce, stop, ask and end the undo question).  The rules themselves,
one handler per message kind, are :class:`course.classroom.room.Room`.  Nothing here
reads a clock or touches a socket: time comes in as ``now``.

The move clock keeps running while a player is away.  Pausing it would let a
player stop their clock by pulling the cable; the grace time already bounds the
absence, and a lost turn is the gentlest penalty the rules have.
"""

from __future__ import annotations

import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from course.classroom.people import PLAYERS, ConnId, Member, Outgoing, RoomSettings, Seat
from course.classroom.protocol import RuleError
from reversi.board import Board
from reversi.game import Game
from reversi.notation import BLACK, WHITE, Color, Square
from reversi.players import HumanPlayer
from reversi.saves import game_to_dict

#: Chat lines a room remembers (and sends to whoever joins).
CHAT_HISTORY = 200
#: Lines of the game log sent with each state.
LOG_LINES = 30


def new_id() -> str:
    """A fresh identifier for a room or a game (never reused, whatever the names)."""
    return secrets.token_hex(8)


@dataclass
class RoomState:
    """A room named ``name``: its people, its game, its chat, and what is left to store."""

    name: str
    settings: RoomSettings = field(default_factory=RoomSettings)
    now: float = 0.0
    seats: dict[Color, Seat] = field(default_factory=dict, init=False)
    members: dict[ConnId, Member] = field(default_factory=dict, init=False)
    game: Game | None = field(default=None, init=False)
    games_played: int = 0
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY), init=False)
    finished: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    #: This room's identity (a closed room's name may be reused by a new room).
    room_id: str = field(default_factory=new_id)
    #: The current game's identity (``None`` before the first game).
    game_id: str | None = None
    #: Why the current game stopped outside the rules: "abandoned" or "aborted" (or None).
    stopped: str | None = None
    #: Names (case-folded) the teacher muted.
    muted: set[str] = field(default_factory=set)
    #: The number the next chat line gets.
    next_line: int = 1
    #: Since when nobody is in the room and no game runs (None while someone is or a game runs).
    idle_since: float | None = field(default=None, init=False)
    #: Seconds an undo question waits before it lapses.
    undo_wait: float = field(default=30.0, init=False)
    #: When the pending undo question was asked, and how long the asked player had thought by then.
    asked: tuple[float, float] | None = field(default=None, init=False)
    #: What happened since the server last stored the room: ("chat", line), ("action",
    #: {"game": n, "action": ...}) for each step of a game, ("finished", save).
    records: list[tuple[str, dict[str, Any]]] = field(default_factory=list, init=False)
    #: Whether the seats or the game itself changed (the snapshot must be stored again).
    dirty: bool = field(default=False, init=False)
    #: How many of the game's actions are stored already.
    stored_actions: int = field(default=0, init=False)
    #: Who asked for a rematch since the game ended.
    rematch_asked: set[Color] = field(default_factory=set, init=False)
    #: Whether the end of the game was announced.
    announced: bool = field(default=False, init=False)

    def state(self) -> dict[str, Any]:
        """The ``state`` message: the whole room as everyone may see it (seats, watchers, settings, game).

        One message for all (it holds no token and nothing private), so the server
        encodes it once and sends the same text to every connection of the self.
        """
        game = self.game
        seats = {
            seat.color.value: {
                "name": seat.name,
                "present": seat.conn is not None,
                "undos_left": game.undos_left(seat.color) if game else 1,
                "can_undo": self.can_undo(seat.color),
                "away_for": None if seat.away_since is None else round(self.now - seat.away_since, 1),
            }
            for seat in self.seats.values()
        }
        watching = sorted(m.name for m in self.members.values() if m.role not in PLAYERS)
        message: dict[str, Any] = {
            "type": "state", "room": self.name, "seats": seats, "watching": watching,
            "move_time": self.settings.move_time, "grace": self.settings.grace,
            "muted": sorted(self.muted), "game": None,
        }  # fmt: skip
        if game is not None:
            last = game.plies[-1] if game.plies else None
            board = game.board
            message["game"] = {
                "number": self.games_played,
                "rows": rows(board),
                "turn": game.turn.value,
                "legal": [s.name for s in game.legal_moves()],
                "plies": len(game.plies),
                "time_left": self.time_left(),
                "undo_pending": game.pending_undo.value if game.pending_undo else None,
                "outcome": str(game.outcome) if game.outcome else None,
                "stopped": self.stopped,
                "winner": game.winner.value if game.winner else None,
                "last": None if last is None or not isinstance(last.move, Square) else {
                    "color": last.color.value, "square": last.move.name,
                    "flipped": [s.name for s in last.flipped],
                },
                "log": game.log[-LOG_LINES:],
            }  # fmt: skip
        return message

    @property
    def running(self) -> bool:
        """Whether a game is being played (both seats taken, not over)."""
        return self.game is not None and not self.game.is_over and self.stopped is None

    def time_left(self) -> float | None:
        """Seconds the side to move has left; frozen while an undo question waits (it costs no one)."""
        game = self.game
        if game is None or not self.running or game.time_per_move is None:
            return None
        if self.asked is not None:
            return max(0.0, game.time_per_move - self.asked[1])
        return game.time_left()

    def can_undo(self, color: Color) -> bool:
        """Whether ``color`` may ask for an undo now (a move to take back, an undo left, no question open)."""
        game = self.game
        if game is None or not self.running or game.pending_undo is not None:
            return False
        return game.history.last_move_index(color) is not None and game.undos_left(color) != 0

    def role_of(self, conn: ConnId) -> str | None:
        """The role of connection ``conn`` in this room ("black", "white", "observer", "teacher"), or None."""
        member = self.members.get(conn)
        return member.role if member else None

    def note_idle(self) -> None:
        """Mark since when the room is empty with no game running (the server forgets it later)."""
        if self.members or self.running:
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = self.now

    def snapshot(self) -> dict[str, Any]:
        """What the database keeps to resume this room after a restart (tokens only as hashes)."""
        return {
            "name": self.name,
            "settings": {"move_time": self.settings.move_time, "grace": self.settings.grace,
                         "size": self.settings.size, "timeouts_to_end": self.settings.timeouts_to_end},
            "seats": {s.color.value: {"name": s.name, "token_hash": s.token_hash} for s in self.seats.values()},
            "game": game_to_dict(self.game) if self.game is not None else None,
            "games_played": self.games_played,
            "closed": self.closed,
            "room_id": self.room_id,
            "game_id": self.game_id,
            "stopped": self.stopped,
            "muted": sorted(self.muted),
            "next_line": self.next_line,
        }  # fmt: skip

    def clock(self) -> float:
        return self.now

    def start_game(self) -> list[Outgoing]:
        black, white = self.seats[BLACK], self.seats[WHITE]
        self.game = Game(
            HumanPlayer(black.name), HumanPlayer(white.name), size=self.settings.size,
            time_per_move=self.settings.move_time, undo_limit=1, clock=self.clock,
        )  # fmt: skip
        self.game.timeouts_to_end = self.settings.timeouts_to_end
        self.games_played += 1
        self.game_id = new_id()
        self.stopped = None
        self.asked = None
        self.announced = False
        self.stored_actions = 0
        self.rematch_asked.clear()
        self.dirty = True
        return self.alert(
            f"Game {self.games_played} starts: {black.name} (Black) against {white.name} (White)"
        )

    def game_running(self) -> Game:
        if self.game is None:
            raise RuleError("the game has not started: it needs two players")
        if self.game.is_over:
            raise RuleError(f"the game is over ({self.game.outcome})")
        if self.stopped is not None:
            raise RuleError(f"the game was stopped ({self.stopped})")
        return self.game

    def resign(self, color: Color) -> None:
        game = self.game_running()
        if game.pending_undo is not None:
            self.end_question(False)  # a waiting undo question cannot outlive the game
        game.resign(color)

    def run_clock(self) -> list[Outgoing]:
        game = self.game
        if game is None or not self.running or game.time_per_move is None:
            return []
        plies = len(game.plies)
        if not game.check_time():
            return []
        out: list[Outgoing] = []
        for ply in game.plies[plies:]:
            if ply.timeout:
                out += self.alert(
                    f"{self.seats[ply.color].name} ({ply.color}) ran out of time "
                    f"({game.time_per_move:g} s): the turn passes to {ply.color.opponent}"
                )
        return out + self.after_change()

    def after_change(self) -> list[Outgoing]:
        """A move, lost turn, undo or resignation happened: pass if forced, announce the end, tell all."""
        game = self.game
        assert game is not None
        out: list[Outgoing] = []
        while game.must_pass and game.pending_undo is None:
            out += self.alert(
                f"{self.seats[game.turn].name} ({game.turn}) has no legal move and passes"
            )
            game.pass_turn()
        if self._newly_over():
            out += self.alert(f"Game over: {game.outcome}")
            save = game_to_dict(game)
            self.finished.append(save)
            self.records.append(("finished", {"game": self.game_id, "save": save}))
        for action in game.actions[self.stored_actions :]:  # a game's actions only grow
            self.records.append(("action", {"game": self.game_id, "action": action.to_dict()}))
        self.stored_actions = len(game.actions)
        return [*out, (self.everyone(), self.state())]

    def _newly_over(self) -> bool:
        game = self.game
        assert game is not None
        if not game.is_over or self.announced:
            return False
        self.announced = True
        return True

    def question(self) -> dict[str, Any]:
        game = self.game
        assert game is not None and game.pending_undo is not None
        asker = self.seats[game.pending_undo]
        return {"type": "question", "about": "undo", "from": asker.name,
                "text": f"{asker.name} asks to take back their last move. Do you agree?"}  # fmt: skip

    def alert(self, text: str) -> list[Outgoing]:
        return self.say(
            {"type": "chat", "from": "room", "text": text, "alert": True, "audience": "all"}
        )

    def say(self, line: dict[str, Any]) -> list[Outgoing]:
        line = {
            "type": "chat",
            "id": self.next_line,
            **{k: v for k, v in line.items() if k != "type"},
        }
        self.next_line += 1
        self.dirty = True
        self.chat.append(line)
        self.records.append(("chat", line))
        to = tuple(c for c, m in self.members.items() if self.may_read(m, line))
        return [(to, line)]

    @staticmethod
    def may_read(member: Member, line: dict[str, Any]) -> bool:
        return line["audience"] == "all" or member.role not in PLAYERS

    def everyone(self) -> tuple[ConnId, ...]:
        return tuple(self.members)

    def end_question(self, accept: bool) -> None:
        """Answer the waiting question; the asked player's clock resumes where it stood when asked."""
        game = self.game
        assert game is not None
        thought = self.asked[1] if self.asked else 0.0
        self.asked = None
        game.answer_undo(accept)
        if not accept:
            game.move_clock.start(elapsed=thought)  # the wait is charged to no one

    def lapse_question(self) -> list[Outgoing]:
        game = self.game
        if game is None or game.pending_undo is None or self.asked is None:
            return []
        if self.now - self.asked[0] < self.undo_wait:
            return []
        asker = self.seats[game.pending_undo].name
        self.end_question(False)
        out = self.alert(
            f"Nobody answered {asker}'s undo question within {self.undo_wait:g} s: it lapsed"
        )
        return out + self.after_change()

    def stop(self, why: str) -> list[Outgoing]:
        """Stop the running game outside the rules ("abandoned" or "aborted"): stored, never as finished."""
        game = self.game
        assert game is not None
        if game.pending_undo is not None:
            self.end_question(False)
        self.stopped = why
        self.records.append(
            ("stopped", {"game": self.game_id, "save": game_to_dict(game), "status": why})
        )
        self.dirty = True
        return [(self.everyone(), self.state())]


def rows(board: Board) -> list[str]:
    """The board as text rows of ``B``, ``W`` and ``.`` (what ``Board.from_text`` reads back)."""
    cells = [["."] * board.size for _ in range(board.size)]
    for color in (BLACK, WHITE):
        for at in board.discs(color):
            cells[at.row][at.col] = color.letter
    return ["".join(row) for row in cells]
