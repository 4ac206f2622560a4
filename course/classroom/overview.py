"""The teacher's overview: every room on one page at ``/teacher``, live, with moderation actions.

The page (plain HTML and a little JavaScript, no framework) asks for the teacher
key, opens the WebSocket ``/teacher/live`` and receives the overview whenever
something changed: per room a small board, both clocks, who is away and for how
long, a pending undo question, the chat's last lines, the people in it; then the
extra sections other parts of the kit add (``build_app(sections=...)``, e.g. the
hand-ins).  Its buttons send ``{"room": NAME, "message": {...}}`` where the message
is one of the teacher's kinds of :data:`~course.classroom.protocol.MESSAGES`
(mute, unmute, unsay, kick, end, close), checked by the same parser as any other.

A section is a function returning ``{"title": str, "columns": [str], "rows": [[str]]}``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from typing import Any

from course.classroom.protocol import (
    JSON_LIMITS,
    MESSAGES,
    TEACHER,
    MessageError,
    checked,
    room_name,
)
from course.classroom.room import Room
from course.i18n import gettext as _
from course.i18n import language
from course.schema import Limits, SchemaError, read_json

#: A section of the overview beside the rooms (hand-ins, ...).
Section = Callable[[], dict[str, Any]]
#: Chat lines of each room shown on the overview.
CHAT_LINES = 30


def overview(rooms: Sequence[Room], sections: Sequence[Section]) -> dict[str, Any]:
    """The whole overview message: every room's summary, then each section's table."""
    tables = []
    for section in sections:
        try:
            tables.append(section())
        except Exception as failed:  # one broken section must not hide the rooms
            tables.append(
                {"title": _("A section failed"), "columns": [_("error")], "rows": [[str(failed)]]}
            )
    return {"type": "overview", "rooms": [summary(room) for room in rooms], "sections": tables}


def summary(room: Room) -> dict[str, Any]:
    """What the teacher sees of one room."""
    state = room.state()
    game = state["game"]
    people = [{"name": m.name, "role": m.role} for m in room.members.values()]
    return {
        "name": room.name,
        "seats": state["seats"],
        "people": people,
        "muted": state["muted"],
        "move_time": state["move_time"],
        "game": None if game is None else {
            "rows": game["rows"], "turn": game["turn"], "time_left": game["time_left"],
            "undo_pending": game["undo_pending"], "outcome": game["outcome"],
            "stopped": game["stopped"], "plies": game["plies"], "number": game["number"],
        },
        "chat": [{"id": line["id"], "from": line["from"], "text": line["text"], "alert": line["alert"]}
                 for line in list(room.chat)[-CHAT_LINES:]],
    }  # fmt: skip


#: An action wraps one message: one level deeper than a message.
ACTION_LIMITS = Limits(bytes=JSON_LIMITS.bytes + 100, depth=JSON_LIMITS.depth + 1, items=JSON_LIMITS.items + 2)


def action(raw: str | bytes) -> tuple[str, dict[str, Any]]:
    """A moderation request from the overview page: the room's name and the checked message."""
    try:
        data = read_json(raw, "the action", ACTION_LIMITS)
    except SchemaError as refused:
        raise MessageError(str(refused)) from None
    if not isinstance(data, dict) or set(data) != {"room", "message"} or not isinstance(data["message"], dict):
        raise MessageError('an action is {"room": NAME, "message": {...}}')
    room = room_name(data["room"])
    try:
        message = checked(data["message"])
    except SchemaError as refused:
        raise MessageError(str(refused)) from None
    if MESSAGES[message["type"]].senders != TEACHER or message["type"] == "export":
        raise MessageError(f"the overview sends the teacher's actions, not {message['type']!r}")
    return room, message


def page() -> str:
    """The overview page in the language of now: its words, and the sentences its script
    writes (``WORDS``, placeholders in braces), all escaped for HTML and JSON."""
    words = {
        "room": _("Room {room}"), "left": _(" ({time} left)"), "away": _(" away {time}"),
        "board": _("board: {black} black, {white} white, {turn} to move"),
        "black": _("black"), "white": _("white"), "stopped": _("stopped: {reason}"),
        "move": _("move {number}"), "game": _("Game {number}: {state}"),
        "undo": _("{color} asked to undo"), "mute": _("Mute"), "unmute": _("Unmute"),
        "muteName": _("Mute {name}"), "unmuteName": _("Unmute {name}"), "kick": _("Kick"),
        "kickName": _("Kick {name}"), "remove": _("Remove"), "removeLine": _("Remove {name}'s line {line}"),
        "chat": _("chat of room {room}"), "end": _("End game"), "endIn": _("End game in room {room}"),
        "close": _("Close room"), "closeName": _("Close room {room}"),
        "live": _("Live: {count} room(s), updated {time}"),
        "gone": _("Disconnected: {reason}"), "away_server": _("the server went away"),
    }  # fmt: skip
    static = {"@@lang@@": language(), "@@title@@": _("Class overview"), "@@key@@": _("Teacher key"),
              "@@open@@": _("Open"), "@@idle@@": _("Not connected.")}  # fmt: skip
    text = PAGE.replace("@@words@@", json.dumps(words).replace("<", "\\u003c"))
    for token, word in static.items():
        text = text.replace(token, html.escape(word))
    return text


PAGE = r"""<!doctype html>
<html lang="@@lang@@"><head><meta charset="utf-8"><title>@@title@@</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em; background: #f6f6f2; }
#rooms { display: flex; flex-wrap: wrap; gap: 12px; }
.room { background: white; border: 1px solid #ccc; border-radius: 6px; padding: 8px; width: 300px; }
.room h2 { font-size: 1.1em; margin: 0 0 4px; }
.board { display: grid; grid-template-columns: repeat(8, 14px); gap: 1px; background: #145a32;
         padding: 2px; width: max-content; margin: 4px 0; }
.cell { width: 14px; height: 14px; background: #1e8449; border-radius: 2px; }
.cell.B::after, .cell.W::after { content: ""; display: block; width: 12px; height: 12px;
         margin: 1px; border-radius: 50%; }
.cell.B::after { background: #111; } .cell.W::after { background: #fafafa; }
.chat { font-size: 0.85em; max-height: 10em; overflow-y: auto; overflow-wrap: anywhere; }
.alert { color: #666; font-style: italic; }
.away { color: #b03a2e; } .undo { color: #7d6608; }
button { font-size: 0.8em; margin: 1px; }
table { border-collapse: collapse; margin-top: 4px; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
#status { color: #595959; }
:focus-visible { outline: 3px solid #1a4d8f; outline-offset: 1px; }
</style></head>
<body>
<main>
<h1>@@title@@</h1>
<form id="login"><label>@@key@@ <input id="key" type="password" autocomplete="off"></label>
<button type="submit">@@open@@</button></form>
<p id="status">@@idle@@</p>
<div id="rooms"></div>
<div id="sections"></div>
</main>
<script>
"use strict";
const WORDS = @@words@@;
const t = (key, values = {}) => String(WORDS[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
let socket = null;
const $ = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") e.onclick = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};
function act(room, message) {
  socket.send(JSON.stringify({room, message}));
}
// Every update redraws the rooms: a control's data-focus names it (Mute and Unmute alike), so
// the one the teacher had focused with Tab gets the focus back instead of losing it to the page.
function button(room, text, label, message, cls) {
  const key = [room, message.type.replace("unmute", "mute"), message.name || message.line || ""].join("/");
  return $("button", {class: cls, "aria-label": label, "data-focus": key, onclick: () => act(room, message)}, text);
}
function discs(rows, c) { return rows.join("").split(c).length - 1; }
function seconds(s) { return s === null || s === undefined ? "" : Math.round(s) + " s"; }
function showRoom(room) {
  const card = $("div", {class: "room", "data-room": room.name});
  card.append($("h2", {}, t("room", {room: room.name})));
  const game = room.game;
  for (const color of ["black", "white"]) {
    const seat = room.seats[color];
    if (!seat) continue;
    const line = $("div", {class: "seat"}, t(color) + ": " + seat.name);
    if (game && game.turn === color && !game.outcome && !game.stopped && room.move_time)
      line.append(t("left", {time: seconds(game.time_left)}));
    if (seat.away_for !== null) line.append($("span", {class: "away"}, t("away", {time: seconds(seat.away_for)})));
    card.append(line);
  }
  if (game) {
    const board = $("div", {class: "board", role: "img", "aria-label":
      t("board", {black: discs(game.rows, "B"), white: discs(game.rows, "W"), turn: t(game.turn)})});
    for (const row of game.rows) for (const c of row) board.append($("div", {class: "cell " + c}));
    card.append(board);
    const end = game.outcome || (game.stopped ? t("stopped", {reason: game.stopped}) : t("move", {number: game.plies + 1}));
    card.append($("div", {class: "result"}, t("game", {number: game.number, state: end})));
    if (game.undo_pending) card.append($("div", {class: "undo"}, t("undo", {color: t(game.undo_pending)})));
  }
  const people = $("div", {class: "people"});
  for (const p of room.people) {
    if (p.role === "teacher") continue;
    const muted = room.muted.includes(p.name.toLowerCase());
    const mute = muted ? "unmute" : "mute";
    people.append($("div", {class: "person", "data-name": p.name}, p.name + " (" + p.role + ") ",
      button(room.name, t(mute), t(mute + "Name", {name: p.name}), {type: mute, name: p.name}, mute),
      button(room.name, t("kick"), t("kickName", {name: p.name}), {type: "kick", name: p.name}, "kick")));
  }
  card.append(people);
  // focusable, so the keyboard scrolls it too
  const chat = $("div", {class: "chat", role: "region", tabindex: "0", "aria-label": t("chat", {room: room.name}),
                         "data-focus": room.name + "/chat"});
  for (const line of room.chat) {
    const row = $("div", {class: line.alert ? "line alert" : "line", "data-line": line.id},
      (line.alert ? "* " : line.from + ": ") + line.text);
    if (!line.alert) row.append(" ", button(room.name, t("remove"), t("removeLine", {name: line.from, line: line.id}),
                                            {type: "unsay", line: line.id}, "unsay"));
    chat.append(row);
  }
  card.append(chat);
  if (game && !game.outcome && !game.stopped)
    card.append(button(room.name, t("end"), t("endIn", {room: room.name}), {type: "end"}, "end"));
  card.append(button(room.name, t("close"), t("closeName", {room: room.name}), {type: "close"}, "close"));
  return card;
}
function showSection(section) {
  const box = $("section", {class: "section"}, $("h2", {}, section.title));
  const table = $("table", {}, $("tr", {}, ...section.columns.map(c => $("th", {scope: "col"}, c))));
  for (const row of section.rows) table.append($("tr", {}, ...row.map(c => $("td", {}, String(c)))));
  box.append(table);
  return box;
}
function chatScroll() {
  // where each room's chat was scrolled: it follows its newest line unless the teacher scrolled up
  const kept = {};
  for (const chat of document.querySelectorAll(".room .chat")) {
    const room = chat.closest(".room").dataset.room;
    kept[room] = chat.scrollHeight - chat.scrollTop - chat.clientHeight > 4 ? chat.scrollTop : null;
  }
  return kept;
}
function show(data) {
  if (data.type === "error") { document.getElementById("status").textContent = data.message; return; }
  if (data.type !== "overview") return;
  const kept = chatScroll();
  const focused = document.activeElement && document.activeElement.dataset.focus;
  document.getElementById("rooms").replaceChildren(...data.rooms.map(showRoom));
  if (focused) {
    const again = [...document.querySelectorAll("#rooms [data-focus]")].find(e => e.dataset.focus === focused);
    if (again) again.focus();
  }
  for (const chat of document.querySelectorAll(".room .chat")) {
    const was = kept[chat.closest(".room").dataset.room];
    chat.scrollTop = was === undefined || was === null ? chat.scrollHeight : was;
  }
  document.getElementById("sections").replaceChildren(...data.sections.map(showSection));
  document.getElementById("status").textContent =
    t("live", {count: data.rooms.length, time: new Date().toLocaleTimeString()});
}
function connect(key) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  // beside this page, wherever it is served (a hub serves it under /services/NAME/)
  socket = new WebSocket(scheme + location.host + location.pathname.replace(/\/?$/, "") + "/live");
  socket.onopen = () => socket.send(JSON.stringify({key}));
  socket.onmessage = (event) => show(JSON.parse(event.data));
  socket.onclose = (event) => {
    document.getElementById("status").textContent = t("gone", {reason: event.reason || t("away_server")});
  };
}
document.getElementById("login").onsubmit = (event) => {
  event.preventDefault();
  connect(document.getElementById("key").value);
};
const fromUrl = new URLSearchParams(location.hash.slice(1)).get("key");
if (fromUrl) connect(fromUrl);
</script>
</body></html>
"""
