"""One room of the class server: every rule, one handler per message kind.

A :class:`Room` is *sans-I/O*: it takes a message checked by
:func:`course.classroom.protocol.parse`, the connection it came from and the time,
and returns the messages to send and to whom.  It never reads a clock or touches a
socket, so each rule is a plain unit test; :mod:`course.classroom.server` is the
thin asyncio shell around it.

The rules of the game are not repeated here: every move, lost turn, undo and
resignation goes through :class:`reversi.Game`, which refuses what is illegal.
The room adds what only a room knows: who sits where, who may send what (the
:data:`~course.classroom.protocol.MESSAGES` table), who hears what (the undo question
goes to the opponent alone, observers' chat stays among observers while a game runs),
the seat held for an absent player, and the alert line in the chat for every event.

Every message kind a member may send is declared in
:data:`~course.classroom.protocol.MESSAGES` (fields, senders); its handler here is
registered with :func:`handles`: a new kind is a row of that table and a handler here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from course.classroom.people import PLAYERS, ConnId, Member, Outgoing, Seat, not_allowed, token_hash
from course.classroom.protocol import MESSAGES, RuleError, error
from course.classroom.state import RoomState
from reversi.errors import ReversiError
from reversi.notation import BLACK, WHITE, Color

Handler = Callable[["Room", ConnId, Member, dict[str, Any]], list[Outgoing]]
#: The handler of each client message kind of :data:`~course.classroom.protocol.MESSAGES` but hello.
HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the decorated method as the handler of message ``kind`` (declared in MESSAGES)."""

    def register(method: Handler) -> Handler:
        HANDLERS[kind] = method
        return method

    return register


#: What the room calls the teacher's overview page when it acts (it is no connection of the room).
OVERVIEW = "teacher overview"


class Room(RoomState):
    """A room named ``name``: call :meth:`join`, :meth:`handle`, :meth:`leave` and :meth:`tick`."""

    # -- people coming and going --------------------------------------------------------

    def join(
        self, conn: ConnId, hello: dict[str, Any], now: float, teacher: bool = False, signed_in: bool = False
    ) -> list[Outgoing]:
        """Someone says hello: back to their seat (with its token), a free seat, or the audience.

        ``signed_in``: the server decided the name (a signed-in student), so a seat's token
        brings back only the student who sat there, never a holder of a copied token.
        """
        self.now = now
        if self.closed:
            return [((conn,), error(f"room {self.name!r} was closed by the teacher", "hello"))]
        name, token = hello["name"], hello.get("token")
        earlier = list(self.chat)  # the history; what this join causes arrives live
        out: list[Outgoing] = []
        seat = self._seat_for_token(token) if token else None
        if signed_in and seat is not None and seat.name != name:
            seat = None
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
            self.members[conn] = Member(seat.name, seat.color.value)
            if back:
                out += self.alert(f"{seat.name} is back")
        elif not teacher and not hello.get("watch") and self._free_color() is not None:
            color = self._free_color()
            assert color is not None
            new_token = secrets.token_urlsafe(16)
            seat = Seat(color, name, token_hash(new_token), conn)
            self.seats[color] = seat
            self.members[conn] = Member(name, color.value)
            out += self.alert(f"{name} sits down to play {color}")
            if len(self.seats) == 2 and not self.running:
                out += self.start_game()
        else:
            self.members[conn] = Member(name, "teacher" if teacher else "observer")
        member = self.members[conn]
        self.dirty = True
        welcome = {"type": "welcome", "room": self.name, "name": member.name, "role": member.role,
                   "token": new_token}  # fmt: skip
        history = {
            "type": "history",
            "lines": [line for line in earlier if self.may_read(member, line)],
        }
        out = [((conn,), welcome), ((conn,), history), *out, (self.everyone(), self.state())]
        game = self.game
        if game and game.pending_undo and member.role == game.pending_undo.opponent.value:
            out.append(((conn,), self.question()))
        self.note_idle()
        return out

    def leave(self, conn: ConnId, now: float) -> list[Outgoing]:
        """A connection closed: a player's seat is held for the grace time, an observer just goes."""
        self.now = now
        member = self.members.pop(conn, None)
        if member is None:
            return []
        out: list[Outgoing] = []
        if member.role in PLAYERS:
            seat = self.seats[Color(member.role)]
            if seat.conn == conn:
                seat.conn, seat.away_since = None, now
                out += self.alert(
                    f"{seat.name} lost the connection; the seat is held for {self.settings.grace:g} s"
                )
        self.dirty = True
        self.note_idle()
        return [*out, (self.everyone(), self.state())]

    # -- messages ------------------------------------------------------------------------

    def handle(self, conn: ConnId, message: dict[str, Any], now: float) -> list[Outgoing]:
        """A checked message from a member: refused with an error to them alone, or carried out."""
        self.now = now
        member = self.members.get(conn)
        kind = message["type"]
        if member is None:
            return [((conn,), error("say hello first: join a room with a name", kind))]
        if member.role not in MESSAGES[kind].senders:
            return [((conn,), error(not_allowed(member.role, kind), kind))]
        out = self.run_clock()
        try:
            out += HANDLERS[kind](self, conn, member, message)
        except (RuleError, ReversiError) as refused:
            return [*out, ((conn,), error(str(refused), kind))]
        return out

    def moderate(self, message: dict[str, Any], now: float) -> list[Outgoing]:
        """A teacher's message from the overview page (checked by :func:`~course.classroom.overview.action`).

        Raises :class:`RuleError` (or another kit error) with the reason when refused.
        """
        before = self.now
        self.now = now
        out = self.run_clock()
        try:
            return out + HANDLERS[message["type"]](
                self, OVERVIEW, Member("teacher", "teacher"), message
            )
        except ReversiError:
            if not out:  # nothing happened on the clock: the refusal leaves the room as it was
                self.now = before
            raise

    def tick(self, now: float) -> list[Outgoing]:
        """Time passes: lost turns on the clock, lapsed undo questions, absent players past their grace."""
        self.now = now
        if self.closed:
            return []
        out = self.run_clock() + self.lapse_question()
        expired = [s for s in self.seats.values()
                   if s.away_since is not None and now - s.away_since >= self.settings.grace]  # fmt: skip
        if expired and self.running and all(s.conn is None for s in self.seats.values()):
            names = " and ".join(s.name for s in self.seats.values())
            out += self.alert(f"Neither player came back ({names}): the game is abandoned")
            return out + self.stop("abandoned")
        for seat in expired:
            if self.running:
                out += self.alert(
                    f"{seat.name} did not come back within {self.settings.grace:g} s and resigns"
                )
                self.resign(seat.color)
                out += self.after_change()
            else:
                del self.seats[seat.color]
                self.dirty = True
                out += self.alert(f"{seat.name} did not come back; the {seat.color} seat is free")
                out.append((self.everyone(), self.state()))
        self.note_idle()
        return out

    # -- each message kind: its handler ---------------------------------------------------

    @handles("move")
    def _on_move(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self.game_running()
        color = Color(member.role)
        if game.turn is not color:
            raise RuleError(f"it is {game.turn}'s turn, not yours ({color})")
        game.play(message["square"])
        return self.after_change()

    @handles("undo")
    def _on_undo(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self.game_running()
        color = Color(member.role)
        game.request_undo(color)
        self.asked = (self.now, game.elapsed())
        out = self.alert(
            f"{member.name} ({color}) asks to take back their last move; "
            f"{self.seats[color.opponent].name} decides"
        )
        opponent = self.seats[color.opponent].conn
        if opponent is not None:
            out.append(((opponent,), self.question()))
        return out + self.after_change()

    @handles("answer")
    def _on_answer(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self.game_running()
        color = Color(member.role)
        if game.pending_undo is not color.opponent:
            raise RuleError("there is no undo question for you to answer")
        self.end_question(message["accept"])
        asker = self.seats[color.opponent].name
        verdict = "accepts" if message["accept"] else "declines"
        out = self.alert(f"{member.name} {verdict} {asker}'s undo request")
        return out + self.after_change()

    @handles("cancel")
    def _on_cancel(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        game = self.game_running()
        if game.pending_undo is not Color(member.role):
            raise RuleError("you have no undo question waiting to withdraw")
        self.end_question(False)
        out = self.alert(f"{member.name} withdraws the undo question")
        return out + self.after_change()

    @handles("resign")
    def _on_resign(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        self.game_running()
        out = self.alert(f"{member.name} ({Color(member.role)}) resigns")
        self.resign(Color(member.role))
        return out + self.after_change()

    @handles("rematch")
    def _on_rematch(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        if self.running or self.game is None:
            raise RuleError("a rematch can be asked for only after a game has ended")
        if len(self.seats) < 2:
            raise RuleError("a rematch needs both players seated")
        self.rematch_asked.add(Color(member.role))
        out = self.alert(f"{member.name} asks for a rematch")
        if len(self.rematch_asked) == 2:
            black, white = self.seats[BLACK], self.seats[WHITE]
            black.color, white.color = WHITE, BLACK  # colours change for the new game
            self.seats = {BLACK: white, WHITE: black}
            for seat in self.seats.values():
                if seat.conn is not None:
                    self.members[seat.conn].role = seat.color.value
                    out.append(((seat.conn,), {"type": "welcome", "room": self.name, "name": seat.name,
                                               "role": seat.color.value, "token": None}))  # fmt: skip
            out += self.start_game()
        out.append((self.everyone(), self.state()))
        return out

    @handles("chat")
    def _on_chat(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        if member.name.casefold() in self.muted and member.role != "teacher":
            raise RuleError("the teacher has muted you in this room: you can still play and read")
        audience = "observers" if member.role == "observer" and self.running else "all"
        sender = f"Teacher {member.name}" if member.role == "teacher" else member.name
        line = {"type": "chat", "from": sender, "text": message["text"], "alert": False,
                "audience": audience}  # fmt: skip
        return self.say(line)

    @handles("close")
    def _on_close(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        out = self.alert("The teacher closed this room")
        if self.running:
            out += self.stop("aborted")
        self.closed = True
        self.dirty = True
        return [
            *out,
            (self.everyone(), {"type": "closed", "reason": "the teacher closed the room"}),
        ]

    @handles("end")
    def _on_end(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        if not self.running:
            raise RuleError("no game is running in this room")
        return self.alert("The teacher ended the game: abandoned, no winner") + self.stop(
            "abandoned"
        )

    @handles("mute")
    def _on_mute(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        name = self._someone(message["name"])
        self.muted.add(name.casefold())
        self.dirty = True
        return self.alert(f"The teacher muted {name}") + [(self.everyone(), self.state())]

    @handles("unmute")
    def _on_unmute(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        folded = message["name"].casefold()
        if folded not in self.muted:
            raise RuleError(f"nobody called {message['name']!r} is muted in this room")
        self.muted.discard(folded)
        self.dirty = True
        return self.alert(f"{message['name']} may chat again") + [(self.everyone(), self.state())]

    @handles("unsay")
    def _on_unsay(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        line = next((x for x in self.chat if x.get("id") == message["line"]), None)
        if line is None:
            raise RuleError(f"there is no chat line number {message['line']} in this room")
        self.chat.remove(line)
        self.records.append(("unsay", {"line": line["id"]}))
        return [(self.everyone(), {"type": "unsaid", "line": line["id"]})]

    @handles("kick")
    def _on_kick(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        folded = message["name"].casefold()
        target = next((c for c, m in self.members.items()
                       if m.name.casefold() == folded and m.role != "teacher"), None)  # fmt: skip
        if target is None:
            raise RuleError(f"nobody called {message['name']!r} is connected to this room")
        name = self.members[target].name
        out: list[Outgoing] = [
            ((target,), {"type": "closed", "reason": "the teacher disconnected you"})
        ]
        out += self.alert(f"The teacher disconnected {name}")
        return out + self.leave(target, self.now)

    @handles("export")
    def _on_export(self, conn: ConnId, member: Member, message: dict[str, Any]) -> list[Outgoing]:
        return [((conn,), {"type": "export", "room": self.name, "games": list(self.finished)})]

    # -- inside -----------------------------------------------------------------------------

    def _someone(self, name: str) -> str:
        folded = name.casefold()
        names = [m.name for m in self.members.values()] + [s.name for s in self.seats.values()]
        found = next((n for n in names if n.casefold() == folded), None)
        if found is None:
            raise RuleError(f"nobody called {name!r} is in this room")
        return found

    def _free_color(self) -> Color | None:
        if self.running:
            return None
        return next((c for c in (BLACK, WHITE) if c not in self.seats), None)

    def _seat_for_token(self, token: str) -> Seat | None:
        digest = token_hash(token)
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
