"""The board that joins a room: the same canvas as ``play()``, with the room's chat, seats and clocks.

``join(url, room=..., name=...)`` returns a :class:`RoomBoard`.  It draws with
:class:`course.board.view.BoardCanvas` and the panels' HTML helpers, and holds a
:class:`~course.classroom.client.RoomClient` whose receiving task runs on the
kernel's asyncio loop: the board follows the room while no cell runs.  Widgets
are updated on that loop only (ipykernel does not reliably send updates made
from other threads).

The board only asks; the server decides.  A click becomes a ``move`` request, the
buttons ``undo`` and ``resign``, the confirm box (shown only when the server
asks *this* player) an ``answer``.  An observer's board takes no clicks and
shows no player buttons.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import sys
from typing import Annotated, Any

import ipywidgets as w

from course.board.messages import Tone
from course.board.panels import log_html, pawns_html, status_html
from course.board.view import BoardCanvas
from course.classroom.client import (
    RoomClient,
    hub_headers,
    hub_room,
    hub_server,
    session_headers,
    sign_in,
)
from course.classroom.protocol import ClassroomError, player_name, room_name
from reversi.board import Board
from reversi.notation import Color, Square
from reversi.surface import Between, student

#: How often the clocks are redrawn, in seconds.
CLOCK_REFRESH = 0.5
PLAYER_ROLES = ("black", "white")


#: A board's width in pixels.
Pixels = Annotated[int, Between(1, 10_000)]


@student
class RoomBoard(w.VBox):  # type: ignore[misc]
    """A board joined to a room of the class server (see :func:`join`)."""

    def __init__(self, client: RoomClient, pixels: Pixels = 400) -> None:
        self.client = client
        self.board = BoardCanvas(8, pixels)
        self.title = _html("reversi-room-title")
        self.clocks = _html("reversi-clocks")
        self.seats = _html("reversi-seats")
        self.pawns_panel = _html("reversi-pawns")
        self.log_panel = _html("reversi-log")
        self.chat_panel = _html("reversi-chat")
        self.status = _html("reversi-status")
        self.chat_input = w.Text(placeholder="Say something to the room", continuous_update=False,
                                 layout=w.Layout(width="220px"))  # fmt: skip
        self.chat_input.add_class("reversi-chat-input")
        # Enter (or leaving the box) commits the value: that sends the line.
        self.chat_input.observe(lambda _change: self._guarded(self._send_chat), "value")
        send = w.Button(description="Send", layout=w.Layout(width="auto"))
        send.add_class("reversi-chat-send")
        send.on_click(lambda _b: self._guarded(self._send_chat))
        self.buttons = {
            "undo": _button("Undo", "reversi-undo", lambda: self._ask("undo")),
            "cancel": _button("Withdraw undo", "reversi-cancel", lambda: self._ask("cancel")),
            "resign": _button("Resign", "reversi-resign", lambda: self._ask("resign")),
            "rematch": _button("Rematch", "reversi-rematch", lambda: self._ask("rematch")),
        }
        self.player_box = w.HBox(list(self.buttons.values()))
        self.question = w.HTML()
        self.question.add_class("reversi-question")
        accept = _button("Accept", "reversi-accept", lambda: self._ask("answer", accept=True))
        decline = _button("Decline", "reversi-decline", lambda: self._ask("answer", accept=False))
        accept.button_style, decline.button_style = "success", "warning"
        self.question_box = w.HBox([self.question, accept, decline])
        self.question_box.add_class("reversi-undo-answer")
        self.question_box.layout.display = "none"
        self.player_box.layout.display = "none"
        side = w.VBox([
            _titled("Seats", self.seats), _titled("Discs", self.pawns_panel),
            _titled("Chat", w.VBox([self.chat_panel, w.HBox([self.chat_input, send])]), "300px"),
        ])  # fmt: skip
        super().__init__([
            w.HBox([self.title, self.clocks]),
            w.HBox([self.board.canvas, side]),
            self.status, self.player_box, self.question_box,
            _titled("Game log", self.log_panel, "400px"),
        ])  # fmt: skip
        self.add_class("reversi-game")
        self.add_class("reversi-room")
        self.add_class("kit-own-presses")  # a press leaves the cell as it was: course.site.canvas_events
        self.board.canvas.on_mouse_down(lambda x, y: self._guarded(self._on_click, x, y))
        self.board.canvas.on_client_ready(lambda: self._guarded(self._draw))
        client.listeners.append(lambda message: self._guarded(self._on_message, message))
        self._plies = -1
        self._clock_task: asyncio.Task[None] | None = None
        self.start_task: asyncio.Task[None] | None = None
        self.status.value = status_html(f"Joining room {client.room!r} at {client.url}...")
        self._draw()

    @property
    def token(self) -> str | None:
        """This player's seat token: ``join(..., token=board.token)`` comes back to the seat."""
        return self.client.token

    async def start(self) -> None:
        """Connect and keep following the room (run as a task on the kernel's loop)."""
        try:
            await self.client.connect()
        except ClassroomError as refused:
            self.status.value = status_html(str(refused), Tone.REFUSAL)
            return
        self._clock_task = asyncio.get_running_loop().create_task(self._run_clocks())

    def close(self) -> None:
        """Leave the room and close the widgets."""
        # ``Widget.__del__`` calls this on a board whose __init__ refused its client too.
        clock_task = getattr(self, "_clock_task", None)
        if clock_task is not None:
            clock_task.cancel()
        client = getattr(self, "client", None)
        if client is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(client.close())
        super().close()

    # -- from the room ----------------------------------------------------------------

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            self._show_state(message)
        elif kind in ("chat", "history", "unsaid"):
            self._show_chat()
        elif kind == "question":
            self.question.value = f"<b>{html.escape(message['text'])}</b>"
            self.question_box.layout.display = SHOWN
        elif kind == "error":
            self.status.value = status_html(message["message"], Tone.REFUSAL)
        elif kind == "welcome":
            role = message["role"]
            self.player_box.layout.display = SHOWN if role in PLAYER_ROLES else "none"
            what = f"you play {role.capitalize()}" if role in PLAYER_ROLES else f"you are an {role}"
            self.title.value = f"<b>Room {html.escape(self.client.room)}</b>: {html.escape(self.client.name)}, {what}"
        elif kind == "reconnecting":
            self.status.value = status_html(
                f"Connection lost: coming back to your seat (the room keeps it {message['seconds']:g} s)...",
                Tone.REFUSAL,
            )
        elif kind in ("closed", "disconnected"):
            self.status.value = status_html(f"Disconnected: {message['reason']}", Tone.ERROR)

    def _show_state(self, state: dict[str, Any]) -> None:
        game = state["game"]
        self.seats.value = _seats_html(state)
        if game is None:
            self.status.value = status_html("Waiting for a second player to sit down.")
            self._draw()
            return
        board = Board.from_text("\n".join(game["rows"]))
        hints = [board.square(s) for s in game["legal"]] if self._my_turn(game) else []
        last = game["last"]
        last_square = board.square(last["square"]) if last else None
        if last and game["plies"] == self._plies + 1:
            self.board.animate(board, Color(last["color"]), board.square(last["square"]),
                               [board.square(s) for s in last["flipped"]], hints, last_square)  # fmt: skip
        else:
            self.board.draw(board, hints, last_square)
        self._plies = game["plies"]
        self.pawns_panel.value = pawns_html(board.counts())
        self.log_panel.value = log_html(game["log"])
        if self.client.question is None:
            self.question_box.layout.display = "none"
        mine = state["seats"].get(self.client.role or "", {})
        self.buttons["undo"].disabled = not mine.get("can_undo", False)
        self.buttons["cancel"].disabled = game["undo_pending"] != self.client.role
        self.buttons["resign"].disabled = bool(game["outcome"])
        self.buttons["rematch"].disabled = not game["outcome"]
        self.status.value = status_html(_turn_text(state, self.client.role))
        self._show_clocks()

    def _show_chat(self) -> None:
        lines = log_html(self.client.chat_texts()[-60:])  # long lines wrap, never clipped
        self.chat_panel.value = f'<div style="overflow-wrap:anywhere;white-space:pre-wrap">{lines}</div>'

    def _show_clocks(self) -> None:
        state = self.client.state
        game = state and state["game"]
        if not state or not game or state["move_time"] is None:
            self.clocks.value = ""
            return
        left = self.client.time_left()
        parts = []
        for color in PLAYER_ROLES:
            seat = state["seats"].get(color, {"name": "?"})
            seconds = left if game["turn"] == color and left is not None else state["move_time"]
            mark = " &#9203;" if game["turn"] == color and not game["outcome"] else ""
            parts.append(f"{color.capitalize()} ({html.escape(seat['name'])}): {seconds:.0f} s{mark}")
        self.clocks.value = " &nbsp; ".join(parts)

    async def _run_clocks(self) -> None:
        while True:
            await asyncio.sleep(CLOCK_REFRESH)
            self._guarded(self._show_clocks)

    # -- from the person at this board ---------------------------------------------------

    def _on_click(self, x: float, y: float) -> None:
        if self.client.role not in PLAYER_ROLES:
            self.status.value = status_html("Observers watch: the board takes no clicks.")
            return
        square = self.board.geometry.square_at(x, y)
        if square is None:
            self.status.value = status_html("Click on a square of the board.")
            return
        self._ask("move", square=Square(square.row, square.col).name)

    def _ask(self, kind: str, **fields: Any) -> None:
        if kind == "answer":
            self.question_box.layout.display = "none"
        asyncio.get_running_loop().create_task(self._send_request(kind, fields))

    async def _send_request(self, kind: str, fields: dict[str, Any]) -> None:
        try:
            await self.client.send(kind, **fields)
        except Exception as failed:  # a closed connection: say it on the board
            self.status.value = status_html(f"Could not send {kind!r}: {failed}", Tone.ERROR)

    def _send_chat(self) -> None:
        text = self.chat_input.value.strip()
        if text:
            self.chat_input.value = ""
            self._ask("chat", text=text)

    def _draw(self) -> None:
        state = self.client.state
        game = state and state["game"]
        board = Board.from_text("\n".join(game["rows"])) if game else Board()
        self.board.draw(board)
        if game:
            self._show_state(state)  # type: ignore[arg-type]

    def _my_turn(self, game: dict[str, Any]) -> bool:
        return self.client.role == game["turn"] and not game["outcome"] and not game["undo_pending"]

    def _guarded(self, function: Any, *args: Any) -> None:
        try:
            function(*args)
        except Exception as failed:  # never raise into ipywidgets or the receiving task
            with contextlib.suppress(Exception):
                self.status.value = status_html(f"Error: {type(failed).__name__}: {failed}", Tone.ERROR)


#: The CSS display of a shown box: "" rather than None, which the browser kernel's bridge
#: (Pyodide) turns into ``undefined`` and drops, so the box would stay hidden.
SHOWN = ""


@student
def join(
    url: str | None = None,
    room: str = "",
    name: str = "",
    *,
    token: str | None = None,
    watch: bool = False,
    key: str | None = None,
    pixels: Pixels = 400,
    code: str | None = None,
) -> RoomBoard:
    """Join ``room`` of the class server at ``url`` under ``name``; returns the board to show.

    The first two people to sit down play (Black moves first); everyone else
    watches, as does anyone joining with ``watch=True``.  ``token`` brings a player
    back to their seat after the kernel restarted (``board.token`` shows it);
    ``key`` is the teacher key.  Needs a running asyncio loop, as in a notebook.
    In the browser classroom (JupyterLite), leave ``url`` out: the board joins the
    server that served the page, under the signed-in student's name (``name`` is then
    needed only in a class without sign-in codes).  From JupyterLab on a laptop, give
    the class's address and, in a class with a roster, the ``code`` on your card.
    """
    headers = None
    if not url and hub_server():
        url, headers = hub_room(), hub_headers()
    elif not url:
        url = _page_server()
        if name and key is None:
            from course.classroom.browser_socket import take_name

            take_name(name)
    elif not name and not code:
        raise ClassroomError('give your name: join("ws://HOST:PORT", room=..., name="Ada")')
    elif key is None and headers is None:
        headers = session_headers(sign_in(url, name, code))
    # Signed in, the server gives the seat's name: "player" is never shown.
    client = RoomClient(url, room_name(room), player_name(name or "player"), token=token, watch=watch,
                        key=key, headers=headers)  # fmt: skip
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise ClassroomError("join() needs a running asyncio loop, as in a Jupyter notebook") from None
    board = RoomBoard(client, pixels)
    board.start_task = loop.create_task(board.start())
    return board


def _page_server() -> str:
    if sys.platform != "emscripten":
        raise ClassroomError('give the class server\'s address: join("ws://HOST:PORT", room=..., name=...)')
    from course.classroom.browser_socket import page_server

    return page_server()


def _turn_text(state: dict[str, Any], role: str | None) -> str:
    game = state["game"]
    seats = state["seats"]
    if game["outcome"]:
        return f"Game over: {game['outcome']}"
    asking = game["undo_pending"]
    if asking:  # a line for each page: the asker waits, the asked player answers, observers watch
        asker = seats[asking]["name"]
        asked = seats.get("white" if asking == "black" else "black", {}).get("name", "the opponent")
        if role == asking:
            return f"You asked to undo; waiting for {asked}'s answer."
        if role in PLAYER_ROLES:
            return f"{asker} asks to take back their last move: answer below."
        return f"{asker} asked to undo; waiting for {asked}'s answer."
    turn = game["turn"]
    who = seats.get(turn, {}).get("name", "?")
    return "Your move." if role == turn else f"{who} ({turn.capitalize()}) to move."


def _seats_html(state: dict[str, Any]) -> str:
    rows = []
    for color in PLAYER_ROLES:
        seat = state["seats"].get(color)
        if seat is None:
            rows.append((color.capitalize(), "free"))
        else:
            away = "" if seat["present"] else " (away)"
            rows.append((color.capitalize(), f"{seat['name']}{away}, undo {seat['undos_left']}"))
    rows.append(("Watching", ", ".join(state["watching"]) or "nobody"))
    return "\n".join(
        f'<div class="reversi-row"><b>{html.escape(label)}</b>: {html.escape(value)}</div>' for label, value in rows
    )


def _html(css_class: str) -> w.HTML:
    widget = w.HTML()
    widget.add_class(css_class)
    return widget


def _button(label: str, css_class: str, action: Any) -> w.Button:
    button = w.Button(description=label, layout=w.Layout(width="auto"))
    button.add_class(css_class)
    button.on_click(lambda _b: action())
    return button


def _titled(title: str, body: w.Widget, width: str = "180px") -> w.VBox:
    return w.VBox([w.HTML(f"<b>{title}</b>"), body], layout=w.Layout(width=width, margin="0 0 8px 12px"))
