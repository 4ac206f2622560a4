"""Durability: a bounded loop of load, ``kill -9`` at a random moment, restart; nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal

from course.classroom.client import RoomClient
from course.classroom.storage import Storage
from reversi.notation import Square
from tests.course.classroom.play import run
from tests.course.classroom.server_process import ServerProcess

ROUNDS = 3
ROOMS = 3


async def keep_playing(url: str, room: str, acked: list[str], said: list[str], seed: int) -> None:
    """Two players move at random and chat until the server dies; record what was acknowledged."""
    rng = random.Random(seed)
    ada = await RoomClient(url, room, "Ada").connect()
    bob = await RoomClient(url, room, "Bob").connect()
    players = {"black": ada, "white": bob}
    try:
        state = await ada.until(lambda s: s["game"] is not None)
        for turn in range(1000):
            game = state["game"]
            if game["outcome"]:
                return
            mover = players[game["turn"]]
            square = rng.choice(game["legal"])
            await mover.move(square)
            state = await mover.until(lambda s, n=game["plies"]: s["game"]["plies"] > n)
            acked.append(square)  # the mover was told: it must survive
            if turn % 3 == 0:
                text = f"{room} line {turn}"
                await mover.say(text)
                await mover.wait_for(lambda m, t=text: m["type"] == "chat" and m["text"] == t)
                said.append(text)
    except (TimeoutError, ConnectionError, Exception):
        return  # the server was killed under us
    finally:
        for client in (ada, bob):
            with contextlib.suppress(Exception):
                await client.close()


def test_kill_9_under_load_then_restart_loses_nothing_acknowledged(class_server, tmp_path) -> None:
    data = tmp_path / "data"
    rng = random.Random(2024)
    acked: dict[str, list[str]] = {}
    said: dict[str, list[str]] = {}
    for round_ in range(ROUNDS):
        server = class_server(grace=600, data=data)

        async def load(server: ServerProcess = server, round_: int = round_) -> None:
            url = server.url
            tasks = []
            for i in range(ROOMS):
                room = f"k{round_}-{i}"
                acked[room], said[room] = [], []
                tasks.append(asyncio.ensure_future(
                    keep_playing(url, room, acked[room], said[room], seed=round_ * 10 + i)))  # fmt: skip
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            server.stop(signal.SIGKILL)  # at a random moment, mid-move for some room
            await asyncio.gather(*tasks)

        run(load(), timeout=60)
    final = class_server(grace=600, data=data)  # the server always starts again
    assert not any("Set aside" in line for line in final.lines)
    final.stop()
    storage = Storage(data)
    rooms = {room.name: room for room in storage.load_rooms(now=0.0)}
    finished = {}
    for save in storage.finished_games():
        finished[tuple(a.get("square") for a in save["actions"] if a["action"] == "move")] = save
    assert sum(len(squares) for squares in acked.values()) > 10  # the load did play
    for name, squares in acked.items():
        room = rooms.get(name)
        if room is not None and room.game is not None:
            played = [p.move.name for p in room.game.plies if isinstance(p.move, Square)]
        else:
            played = next((list(k) for k in finished if list(k[: len(squares)]) == squares), [])
        assert played[: len(squares)] == squares, name
        stored_chat = [line["text"] for line in storage.chat_lines(name)]
        assert set(said[name]) <= set(stored_chat), name
    storage.close()
