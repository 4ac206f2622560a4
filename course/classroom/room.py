"""One room of the class server: two seats, the observers, the game, the chat, and every rule.

A :class:`Room` is *sans-I/O*: it takes a checked message (see
:mod:`course.classroom.protocol`), the connection it came from and the time, and
returns the messages to send and to whom.  It never reads a clock or touches a
socket, so each rule is a plain unit test; :mod:`course.classroom.server` is the
thin asyncio shell around it.

The rules of the game are not repeated here: every move, lost turn, undo and
resignation goes through :class:`reversi.Game`, which refuses what is illegal.
The room adds what only a room knows: who sits where, who may send what (the
:data:`~course.classroom.protocol.MESSAGES` table), who hears what (the undo question goes to the opponent
alone, observers' chat stays among observers while a game runs), the seat held
for an absent player, and the alert line in the chat for every event.

Every message kind a member may send is declared in
:data:`~course.classroom.protocol.MESSAGES` (fields, senders); its handler here is
registered with ``_handles``.  A room and each of its games carry an id of their
own, so storage never mixes two games that share a room name or a number.

The move clock keeps running while a player is away.  Pausing it would let a
player stop their clock by pulling the cable; the grace time already bounds the
absence, and a lost turn is the gentlest penalty the rules have.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from course.classroom.people import (
    PLAYERS,
    ConnId,
    Outgoing,
    RoomSettings,
    _check_conn,
    _check_now,
    _Member,
    _not_allowed,
    _Seat,
    _token_hash,
)
from course.classroom.protocol import (
    MESSAGES,
    TEACHER,
    MessageError,
    RuleError,
    _checked_message,
    error,
    room_name,
)
from course.classroom.views import state_message
from reversi.errors import ArgumentError, ReversiError, shown
from reversi.game import Game
from reversi.notation import BLACK, WHITE, Color, check_color
from reversi.players import HumanPlayer
from reversi.saves import game_from_dict, game_to_dict

__all__ = [
    "Room",
    "RoomSettings",
    "new_id",
    "CHAT_HISTORY",
]

#: Chat lines a room remembers (and sends to whoever joins).
CHAT_HISTORY = 200

Handler = Callable[["Room", ConnId, _Member, dict[str, Any]], list[Outgoing]]
#: The handler of each client message kind of :data:`~course.classroom.protocol.MESSAGES` but hello.
HANDLERS: dict[str, Handler] = {}


def _handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the decorated method as the handler of message ``kind`` (declared in MESSAGES)."""
    if kind not in MESSAGES or kind == "hello":
        raise KeyError(f"{kind!r} is not a room message of the protocol's table")

    def register(method: Handler) -> Handler:
        HANDLERS[kind] = method
        return method

    return register


#: What the room calls the teacher's overview page when it acts (it is no connection of the room).
OVERVIEW = "teacher overview"


def new_id() -> str:
    """A fresh identifier for a room or a game (never reused, whatever the names)."""
    return secrets.token_hex(8)


@dataclass
class Room:
    """A room named ``name``: call :meth:`join`, :meth:`handle`, :meth:`leave` and :meth:`tick`."""

    name: str
    settings: RoomSettings = field(default_factory=RoomSettings)
    now: float = 0.0
    seats: dict[Color, _Seat] = field(default_factory=dict, init=False)
    members: dict[ConnId, _Member] = field(default_factory=dict, init=False)
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
    _asked: tuple[float, float] | None = field(default=None, init=False)
    #: What happened since the server last stored the room: ("chat", line), ("action",
    #: {"game": n, "action": ...}) for each step of a game, ("finished", save).
    records: list[tuple[str, dict[str, Any]]] = field(default_factory=list, init=False)
    #: Whether the seats or the game itself changed (the snapshot must be stored again).
    dirty: bool = field(default=False, init=False)
    _stored_actions: int = field(default=0, init=False)
    _rematch: set[Color] = field(default_factory=set, init=False)
    _announced: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        room_name(self.name)
        if not isinstance(self.settings, RoomSettings):
            raise ArgumentError(f"a room's settings must be RoomSettings, not {shown(self.settings)}")
        _check_now(self.now)
        if not isinstance(self.games_played, int) or isinstance(self.games_played, bool) or self.games_played < 0:
            raise ArgumentError(f"games_played must be a whole number >= 0, not {shown(self.games_played)}")
        if not isinstance(self.finished, list) or not all(isinstance(save, dict) for save in self.finished):
            raise ArgumentError(f"finished must be a list of saved games (dicts), not {shown(self.finished)}")
        if not isinstance(self.closed, bool):
            raise ArgumentError(f"closed must be True or False, not {shown(self.closed)}")
        if not isinstance(self.room_id, str) or not self.room_id:
            raise ArgumentError(f"room_id must be a non-empty string, not {shown(self.room_id)}")
        if self.game_id is not None and (not isinstance(self.game_id, str) or not self.game_id):
            raise ArgumentError(f"game_id must be a non-empty string or None, not {shown(self.game_id)}")
        if self.stopped not in (None, "abandoned", "aborted"):
            raise ArgumentError(f"stopped must be None, 'abandoned' or 'aborted', not {shown(self.stopped)}")
        if not isinstance(self.muted, set) or not all(isinstance(name, str) for name in self.muted):
            raise ArgumentError(f"muted must be a set of names (strings), not {shown(self.muted)}")
        if not isinstance(self.next_line, int) or isinstance(self.next_line, bool) or not 1 <= self.next_line <= 2**53:
            raise ArgumentError(f"next_line must be a whole number from 1 to 2**53, not {shown(self.next_line)}")

    # -- reading ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a game is being played (both seats taken, not over)."""
        return self.game is not None and not self.game.is_over and self.stopped is None

    def time_left(self) -> float | None:
        """Seconds the side to move has left; frozen while an undo question waits (it costs no one)."""
        game = self.game
        if game is None or not self.running or game.time_per_move is None:
            return None
        if self._asked is not None:
            return max(0.0, game.time_per_move - self._asked[1])
        return game.time_left()

    def can_undo(self, color: Color) -> bool:
        """Whether ``color`` may ask for an undo now (a move to take back, an undo left, no question open)."""
        check_color(color)
        game = self.game
        if game is None or not self.running or game.pending_undo is not None:
            return False
        return game.history.last_move_index(color) is not None and game.undos_left(color) != 0

    def role_of(self, conn: ConnId) -> str | None:
        """The role of connection ``conn`` in this room ("black", "white", "observer", "teacher"), or None."""
        _check_conn(conn)
        member = self.members.get(conn)
        return member.role if member else None

    def state(self) -> dict[str, Any]:
        """The whole room as everyone may see it (no tokens): see :func:`~course.classroom.views.state_message`."""
        return state_message(self)

    # -- people coming and going --------------------------------------------------------

    def join(
        self, conn: ConnId, hello: dict[str, Any], now: float, teacher: bool = False
    ) -> list[Outgoing]:
        """Someone says hello: back to their seat (with its token), a free seat, or the audience."""
        _check_conn(conn)
        hello = _checked_message(hello, "hello")
        if hello["type"] != "hello":
            raise MessageError(f"a room is joined with a 'hello' message, not {hello['type']!r}")
        self._check_moment(now)
        if not isinstance(teacher, bool):
            raise ArgumentError(f"teacher must be True or False, not {shown(teacher)}")
        self.now = now
        if self.closed:
            return [((conn,), error(f"room {self.name!r} was closed by the teacher", "hello"))]
        name, token = hello["name"], hello.get("token")
        earlier = list(self.chat)  # the history; what this join causes arrives live
        out: list[Outgoing] = []
        seat = self._seat_for_token(token) if token else None
        if token and seat is None:
            return [
                ((conn,), error(f"that token does not hold a seat in room {self.name!r}", "hello"))
            ]
        if seat is None:
            problem = self._name_problem(name)
            if problem:
                return [((conn,), error(problem, "hello"))]
        new_token = None
        if seat is not None:
            if seat.conn is not None and seat.conn in self.members:
                old = seat.conn
                del self.members[old]
                out.append(
                    ((old,), {"type": "closed", "reason": "you joined this seat from another page"})
                )
            back = seat.away_since is not None
            seat.conn, seat.away_since = conn, None
            self.members[conn] = _Member(seat.name, seat.color.value)
            if back:
                out += self._alert(f"{seat.name} is back")
        elif not teacher and not hello.get("watch") and self._free_color() is not None:
            color = self._free_color()
            assert color is not None
            new_token = secrets.token_urlsafe(16)
            seat = _Seat(color, name, _token_hash(new_token), conn)
            self.seats[color] = seat
            self.members[conn] = _Member(name, color.value)
            out += self._alert(f"{name} sits down to play {color}")
            if len(self.seats) == 2 and not self.running:
                out += self._start_game()
        else:
            self.members[conn] = _Member(name, "teacher" if teacher else "observer")
        member = self.members[conn]
        self.dirty = True
        welcome = {"type": "welcome", "room": self.name, "name": member.name, "role": member.role,
                   "token": new_token}  # fmt: skip
        history = {
            "type": "history",
            "lines": [line for line in earlier if self._may_read(member, line)],
        }
        out = [((conn,), welcome), ((conn,), history), *out, (self._everyone(), self.state())]
        game = self.game
        if game and game.pending_undo and member.role == game.pending_undo.opponent.value:
            out.append(((conn,), self._question()))
        self.note_idle()
        return out

    def leave(self, conn: ConnId, now: float) -> list[Outgoing]:
        """A connection closed: a player's seat is held for the grace time, an observer just goes."""
        _check_conn(conn)
        self._check_moment(now)
        self.now = now
        member = self.members.pop(conn, None)
        if member is None:
            return []
        out: list[Outgoing] = []
        if member.role in PLAYERS:
            seat = self.seats[Color(member.role)]
            if seat.conn == conn:
                seat.conn, seat.away_since = None, now
                out += self._alert(
                    f"{seat.name} lost the connection; the seat is held for {self.settings.grace:g} s"
                )
        self.dirty = True
        self.note_idle()
        return [*out, (self._everyone(), self.state())]

    # -- messages ------------------------------------------------------------------------

    def handle(self, conn: ConnId, message: dict[str, Any], now: float) -> list[Outgoing]:
        """A checked message from a member: refused with an error to them alone, or carried out."""
        _check_conn(conn)
        message = _checked_message(message)
        self._check_moment(now)
        self.now = now
        member = self.members.get(conn)
        kind = message["type"]
        if member is None:
            return [((conn,), error("say hello first: join a room with a name", kind))]
        if member.role not in MESSAGES[kind].senders:
            return [((conn,), error(_not_allowed(member.role, kind), kind))]
        out = self._run_clock()
        try:
            out += HANDLERS[kind](self, conn, member, message)
        except (RuleError, ReversiError) as refused:
            return [*out, ((conn,), error(str(refused), kind))]
        return out

    def moderate(self, message: dict[str, Any], now: float) -> list[Outgoing]:
        """A teacher's checked message from the overview page (not a member of the room).

        Raises :class:`RuleError` (or another kit error) with the reason when refused.
        """
        message = _checked_message(message)
        if MESSAGES[message["type"]].senders != TEACHER:
            raise MessageError(f"the overview sends the teacher's actions, not {message['type']!r}")
        self._check_moment(now)
        before = self.now
        self.now = now
        out = self._run_clock()
        try:
            return out + HANDLERS[message["type"]](
                self, OVERVIEW, _Member("teacher", "teacher"), message
            )
        except ReversiError:
            if not out:  # nothing happened on the clock: the refusal leaves the room as it was
                self.now = before
            raise

    def tick(self, now: float) -> list[Outgoing]:
        """Time passes: lost turns on the clock, lapsed undo questions, absent players past their grace."""
        self._check_moment(now)
        self.now = now
        if self.closed:
            return []
        out = self._run_clock() + self._lapse_question()
        expired = [s for s in self.seats.values()
                   if s.away_since is not None and now - s.away_since >= self.settings.grace]  # fmt: skip
        if expired and self.running and all(s.conn is None for s in self.seats.values()):
            names = " and ".join(s.name for s in self.seats.values())
            out += self._alert(f"Neither player came back ({names}): the game is abandoned")
            return out + self._stop("abandoned")
        for seat in expired:
            if self.running:
                out += self._alert(
                    f"{seat.name} did not come back within {self.settings.grace:g} s and resigns"
                )
                self._resign(seat.color)
                out += self._after_change()
            else:
                del self.seats[seat.color]
                self.dirty = True
                out += self._alert(f"{seat.name} did not come back; the {seat.color} seat is free")
                out.append((self._everyone(), self.state()))
        self.note_idle()
        return out

    def note_idle(self) -> None:
        """Mark since when the room is empty with no game running (the server forgets it later)."""
        if self.members or self.running:
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = self.now

    # -- each message type -------------------------------------------------------------

    @_handles("move")
    def _on_move(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self._game_running()
        color = Color(member.role)
        if game.turn is not color:
            raise RuleError(f"it is {game.turn}'s turn, not yours ({color})")
        game.play(message["square"])
        return self._after_change()

    @_handles("undo")
    def _on_undo(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self._game_running()
        color = Color(member.role)
        game.request_undo(color)
        self._asked = (self.now, game.elapsed())
        out = self._alert(
            f"{member.name} ({color}) asks to take back their last move; "
            f"{self.seats[color.opponent].name} decides"
        )
        opponent = self.seats[color.opponent].conn
        if opponent is not None:
            out.append(((opponent,), self._question()))
        return out + self._after_change()

    @_handles("answer")
    def _on_answer(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self._game_running()
        color = Color(member.role)
        if game.pending_undo is not color.opponent:
            raise RuleError("there is no undo question for you to answer")
        self._end_question(message["accept"])
        asker = self.seats[color.opponent].name
        verdict = "accepts" if message["accept"] else "declines"
        out = self._alert(f"{member.name} {verdict} {asker}'s undo request")
        return out + self._after_change()

    @_handles("cancel")
    def _on_cancel(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self._game_running()
        if game.pending_undo is not Color(member.role):
            raise RuleError("you have no undo question waiting to withdraw")
        self._end_question(False)
        out = self._alert(f"{member.name} withdraws the undo question")
        return out + self._after_change()

    def _end_question(self, accept: bool) -> None:
        """Answer the waiting question; the asked player's clock resumes where it stood when asked."""
        game = self.game
        assert game is not None
        thought = self._asked[1] if self._asked else 0.0
        self._asked = None
        game.answer_undo(accept)
        if not accept:
            game.move_clock.start(elapsed=thought)  # the wait is charged to no one

    def _lapse_question(self) -> list[Outgoing]:
        game = self.game
        if game is None or game.pending_undo is None or self._asked is None:
            return []
        if self.now - self._asked[0] < self.undo_wait:
            return []
        asker = self.seats[game.pending_undo].name
        self._end_question(False)
        out = self._alert(
            f"Nobody answered {asker}'s undo question within {self.undo_wait:g} s: it lapsed"
        )
        return out + self._after_change()

    @_handles("resign")
    def _on_resign(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        self._game_running()
        out = self._alert(f"{member.name} ({Color(member.role)}) resigns")
        self._resign(Color(member.role))
        return out + self._after_change()

    @_handles("rematch")
    def _on_rematch(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        if self.running or self.game is None:
            raise RuleError("a rematch can be asked for only after a game has ended")
        if len(self.seats) < 2:
            raise RuleError("a rematch needs both players seated")
        self._rematch.add(Color(member.role))
        out = self._alert(f"{member.name} asks for a rematch")
        if len(self._rematch) == 2:
            black, white = self.seats[BLACK], self.seats[WHITE]
            black.color, white.color = WHITE, BLACK  # colours change for the new game
            self.seats = {BLACK: white, WHITE: black}
            for seat in self.seats.values():
                if seat.conn is not None:
                    self.members[seat.conn].role = seat.color.value
                    out.append(((seat.conn,), {"type": "welcome", "room": self.name, "name": seat.name,
                                               "role": seat.color.value, "token": None}))  # fmt: skip
            out += self._start_game()
        out.append((self._everyone(), self.state()))
        return out

    @_handles("chat")
    def _on_chat(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        if member.name.casefold() in self.muted and member.role != "teacher":
            raise RuleError("the teacher has muted you in this room: you can still play and read")
        audience = "observers" if member.role == "observer" and self.running else "all"
        sender = f"Teacher {member.name}" if member.role == "teacher" else member.name
        line = {"type": "chat", "from": sender, "text": message["text"], "alert": False,
                "audience": audience}  # fmt: skip
        return self._say(line)

    @_handles("close")
    def _on_close(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        out = self._alert("The teacher closed this room")
        if self.running:
            out += self._stop("aborted")
        self.closed = True
        self.dirty = True
        return [
            *out,
            (self._everyone(), {"type": "closed", "reason": "the teacher closed the room"}),
        ]

    @_handles("end")
    def _on_end(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        if not self.running:
            raise RuleError("no game is running in this room")
        return self._alert("The teacher ended the game: abandoned, no winner") + self._stop(
            "abandoned"
        )

    @_handles("mute")
    def _on_mute(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        name = self._someone(message["name"])
        self.muted.add(name.casefold())
        self.dirty = True
        return self._alert(f"The teacher muted {name}") + [(self._everyone(), self.state())]

    @_handles("unmute")
    def _on_unmute(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        folded = message["name"].casefold()
        if folded not in self.muted:
            raise RuleError(f"nobody called {message['name']!r} is muted in this room")
        self.muted.discard(folded)
        self.dirty = True
        return self._alert(f"{message['name']} may chat again") + [(self._everyone(), self.state())]

    @_handles("unsay")
    def _on_unsay(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        line = next((x for x in self.chat if x.get("id") == message["line"]), None)
        if line is None:
            raise RuleError(f"there is no chat line number {message['line']} in this room")
        self.chat.remove(line)
        self.records.append(("unsay", {"line": line["id"]}))
        return [(self._everyone(), {"type": "unsaid", "line": line["id"]})]

    @_handles("kick")
    def _on_kick(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        folded = message["name"].casefold()
        target = next((c for c, m in self.members.items()
                       if m.name.casefold() == folded and m.role != "teacher"), None)  # fmt: skip
        if target is None:
            raise RuleError(f"nobody called {message['name']!r} is connected to this room")
        name = self.members[target].name
        out: list[Outgoing] = [
            ((target,), {"type": "closed", "reason": "the teacher disconnected you"})
        ]
        out += self._alert(f"The teacher disconnected {name}")
        return out + self.leave(target, self.now)

    def _someone(self, name: str) -> str:
        folded = name.casefold()
        names = [m.name for m in self.members.values()] + [s.name for s in self.seats.values()]
        found = next((n for n in names if n.casefold() == folded), None)
        if found is None:
            raise RuleError(f"nobody called {name!r} is in this room")
        return found

    def _stop(self, why: str) -> list[Outgoing]:
        """Stop the running game outside the rules ("abandoned" or "aborted"): stored, never as finished."""
        game = self.game
        assert game is not None
        if game.pending_undo is not None:
            self._end_question(False)
        self.stopped = why
        self.records.append(
            ("stopped", {"game": self.game_id, "save": game_to_dict(game), "status": why})
        )
        self.dirty = True
        return [(self._everyone(), self.state())]

    @_handles("export")
    def _on_export(self, conn: ConnId, member: _Member, message: dict[str, Any]) -> list[Outgoing]:
        return [((conn,), {"type": "export", "room": self.name, "games": list(self.finished)})]

    # -- storing and resuming ---------------------------------------------------------

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

    @classmethod
    def restore(
        cls,
        snapshot: dict[str, Any],
        chat: list[dict[str, Any]],
        finished: list[dict[str, Any]],
        now: float,
        settings: RoomSettings | None = None,
        actions: list[dict[str, Any]] | None = None,
    ) -> Room:
        """Rebuild a stored room: the game is replayed through the rules, the players are away.

        ``actions`` are the current game's actions as stored one by one (the snapshot's
        copy may be older).  Each seated player gets a fresh grace time from ``now`` to
        come back with their token, and the turn's clock starts again: the time the
        server was down is nobody's fault.
        """
        if not isinstance(snapshot, dict):
            raise ArgumentError(f"a room's snapshot must be a dict (from Room.snapshot()), not {shown(snapshot)}")
        for name, value in (("chat", chat), ("finished", finished), ("actions", actions)):
            if (value is not None or name != "actions") and not (
                isinstance(value, list) and all(isinstance(item, dict) for item in value)
            ):
                raise ArgumentError(f"{name} must be a list of dicts, not {shown(value)}")
        _check_now(now)
        if settings is not None and not isinstance(settings, RoomSettings):
            raise ArgumentError(f"settings must be RoomSettings or None, not {shown(settings)}")
        try:
            return cls._restored(snapshot, chat, finished, now, settings, actions)
        except ReversiError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as broken:
            raise RuleError(
                f"cannot restore room {shown(snapshot.get('name'))}: its record is damaged "
                f"({type(broken).__name__}: {shown(str(broken))})"
            ) from None

    @classmethod
    def _restored(
        cls,
        snapshot: dict[str, Any],
        chat: list[dict[str, Any]],
        finished: list[dict[str, Any]],
        now: float,
        settings: RoomSettings | None,
        actions: list[dict[str, Any]] | None,
    ) -> Room:
        saved = snapshot["settings"]
        settings = settings or RoomSettings(saved["move_time"], saved["grace"], saved["size"],
                                            saved.get("timeouts_to_end"))  # fmt: skip
        room = cls(snapshot["name"], settings, now=now, games_played=snapshot["games_played"],
                   closed=snapshot["closed"], finished=list(finished), room_id=snapshot["room_id"],
                   game_id=snapshot["game_id"], stopped=snapshot["stopped"],
                   muted=set(snapshot["muted"]), next_line=snapshot["next_line"])  # fmt: skip
        room.chat.extend(chat)
        room.next_line = max([room.next_line, *(line.get("id", 0) + 1 for line in chat)])
        for color_name, seat in snapshot["seats"].items():
            color = Color(color_name)
            room.seats[color] = _Seat(color, seat["name"], seat["token_hash"], None, now)
        if snapshot["game"] is not None:
            saved_game = dict(snapshot["game"], elapsed=0.0)
            if actions is not None:
                saved_game.update(actions=actions, board=None)
            room.game = room._replay(saved_game)
            room._stored_actions = len(room.game.actions)
            room._announced = room.game.is_over
        return room

    # -- inside -----------------------------------------------------------------------------

    def _check_moment(self, now: object) -> None:
        """Refuse a time that is no clock reading, or one before the last while a game's clock runs."""
        _check_now(now)
        if self.game is not None and now < self.now:  # type: ignore[operator]
            raise ArgumentError(
                f"now ({shown(now)}) is earlier than the room's last time ({self.now!r}): "
                "the server's clock must not go backwards while a game is played"
            )

    def _clock(self) -> float:
        return self.now

    def _replay(self, saved: dict[str, Any]) -> Game:
        """The stored game, replayed action by action under this room's time-out rule."""
        source = f"room {self.name!r}"
        game = game_from_dict(dict(saved, actions=[], board=None), clock=self._clock, source=source)
        game.timeouts_to_end = self.settings.timeouts_to_end
        for number, action in enumerate(saved["actions"], start=1):
            try:
                game.apply(action)
            except (ReversiError, ValueError, TypeError, KeyError) as failed:
                raise RuleError(
                    f"cannot replay {source}: action {number} ({action!r:.60}): {failed}"
                ) from None
        if saved.get("board") is not None and str(game.board) != saved["board"]:
            raise RuleError(
                f"cannot replay {source}: the replayed board differs from the stored one"
            )
        return game

    def _start_game(self) -> list[Outgoing]:
        black, white = self.seats[BLACK], self.seats[WHITE]
        self.game = Game(
            HumanPlayer(black.name), HumanPlayer(white.name), size=self.settings.size,
            time_per_move=self.settings.move_time, undo_limit=1, clock=self._clock,
        )  # fmt: skip
        self.game.timeouts_to_end = self.settings.timeouts_to_end
        self.games_played += 1
        self.game_id = new_id()
        self.stopped = None
        self._asked = None
        self._announced = False
        self._stored_actions = 0
        self._rematch.clear()
        self.dirty = True
        return self._alert(
            f"Game {self.games_played} starts: {black.name} (Black) against {white.name} (White)"
        )

    def _game_running(self) -> Game:
        if self.game is None:
            raise RuleError("the game has not started: it needs two players")
        if self.game.is_over:
            raise RuleError(f"the game is over ({self.game.outcome})")
        if self.stopped is not None:
            raise RuleError(f"the game was stopped ({self.stopped})")
        return self.game

    def _resign(self, color: Color) -> None:
        game = self._game_running()
        if game.pending_undo is not None:
            self._end_question(False)  # a waiting undo question cannot outlive the game
        game.resign(color)

    def _run_clock(self) -> list[Outgoing]:
        game = self.game
        if game is None or not self.running or game.time_per_move is None:
            return []
        plies = len(game.plies)
        if not game.check_time():
            return []
        out: list[Outgoing] = []
        for ply in game.plies[plies:]:
            if ply.timeout:
                out += self._alert(
                    f"{self.seats[ply.color].name} ({ply.color}) ran out of time "
                    f"({game.time_per_move:g} s): the turn passes to {ply.color.opponent}"
                )
        return out + self._after_change()

    def _after_change(self) -> list[Outgoing]:
        """A move, lost turn, undo or resignation happened: pass if forced, announce the end, tell all."""
        game = self.game
        assert game is not None
        out: list[Outgoing] = []
        while game.must_pass and game.pending_undo is None:
            out += self._alert(
                f"{self.seats[game.turn].name} ({game.turn}) has no legal move and passes"
            )
            game.pass_turn()
        if self._newly_over():
            out += self._alert(f"Game over: {game.outcome}")
            save = game_to_dict(game)
            self.finished.append(save)
            self.records.append(("finished", {"game": self.game_id, "save": save}))
        for action in game.actions[self._stored_actions :]:  # a game's actions only grow
            self.records.append(("action", {"game": self.game_id, "action": action.to_dict()}))
        self._stored_actions = len(game.actions)
        return [*out, (self._everyone(), self.state())]

    def _newly_over(self) -> bool:
        game = self.game
        assert game is not None
        if not game.is_over or self._announced:
            return False
        self._announced = True
        return True

    def _question(self) -> dict[str, Any]:
        game = self.game
        assert game is not None and game.pending_undo is not None
        asker = self.seats[game.pending_undo]
        return {"type": "question", "about": "undo", "from": asker.name,
                "text": f"{asker.name} asks to take back their last move. Do you agree?"}  # fmt: skip

    def _alert(self, text: str) -> list[Outgoing]:
        return self._say(
            {"type": "chat", "from": "room", "text": text, "alert": True, "audience": "all"}
        )

    def _say(self, line: dict[str, Any]) -> list[Outgoing]:
        line = {
            "type": "chat",
            "id": self.next_line,
            **{k: v for k, v in line.items() if k != "type"},
        }
        self.next_line += 1
        self.dirty = True
        self.chat.append(line)
        self.records.append(("chat", line))
        to = tuple(c for c, m in self.members.items() if self._may_read(m, line))
        return [(to, line)]

    @staticmethod
    def _may_read(member: _Member, line: dict[str, Any]) -> bool:
        return line["audience"] == "all" or member.role not in PLAYERS

    def _everyone(self) -> tuple[ConnId, ...]:
        return tuple(self.members)

    def _free_color(self) -> Color | None:
        if self.running:
            return None
        return next((c for c in (BLACK, WHITE) if c not in self.seats), None)

    def _seat_for_token(self, token: str) -> _Seat | None:
        digest = _token_hash(token)
        found = None
        for seat in self.seats.values():
            if secrets.compare_digest(seat.token_hash, digest):
                found = seat
        return found

    def _name_problem(self, name: str) -> str | None:
        folded = name.casefold()
        for seat in self.seats.values():
            if seat.name.casefold() == folded:
                return (
                    f"the name {name!r} belongs to the {seat.color} seat in room {self.name!r}; "
                    "only its owner can come back to it (with the seat's token)"
                )
        if any(m.name.casefold() == folded for m in self.members.values()):
            return f"someone called {name!r} is already in room {self.name!r}: choose another name"
        return None
