"""Real websocket clients for the end-to-end tests: join, play a random game, check nothing else arrived."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from typing import Any, TypeVar

from course.classroom.client import RoomClient

T = TypeVar("T")


def run(coro: Awaitable[T], timeout: float = 60.0) -> T:
    """Run a coroutine to the end in a fresh event loop, bounded in time."""
    return asyncio.run(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]


async def table(url: str, room: str, observers: int = 1) -> list[RoomClient]:
    """Ada (Black), Bob (White) and ``observers`` watchers, all connected to ``room``."""
    names = ["Ada", "Bob", *(f"Obs{i}" for i in range(observers))]
    clients = [await RoomClient(url, room, name).connect() for name in names]
    await clients[-1].wait_for(lambda m: m["type"] == "state" and m["game"] is not None)
    return clients


def game_of(client: RoomClient) -> dict[str, Any]:
    assert client.state is not None and client.state["game"] is not None
    return client.state["game"]


async def settled(client: RoomClient, plies: int, timeout: float = 5.0) -> dict[str, Any]:
    """Wait until ``client``'s latest state has ``plies`` turns played and no open question."""

    def done(m: dict[str, Any]) -> bool:
        return (m["type"] == "state" and m["game"] is not None and m["game"]["plies"] == plies
                and m["game"]["undo_pending"] is None)  # fmt: skip

    if client.state is not None and done(client.state):
        return client.state["game"]
    message = await client.wait_for(done, timeout, since=len(client.received))
    return message["game"]


async def play_random_game(players: dict[str, RoomClient], watcher: RoomClient, seed: int) -> list[str]:
    """Play random legal moves (as the server lists them) until the game ends; returns the squares."""
    rng = random.Random(seed)
    played: list[str] = []
    game = game_of(watcher)
    while not game["outcome"]:
        square = rng.choice(game["legal"])
        before = game["plies"]
        await players[game["turn"]].move(square)
        played.append(square)
        message = await watcher.wait_for(
            lambda m, before=before: m["type"] == "state" and m["game"]["plies"] > before
        )
        game = message["game"]
    return played


async def nothing_else(client: RoomClient, sender: RoomClient, text: str) -> list[dict[str, Any]]:
    """Everything ``client`` received before a chat line ``text`` that ``sender`` sends now.

    Messages on one connection arrive in order, so this proves what did (not) reach it.
    """
    since = len(client.received)
    await sender.say(text)
    await client.wait_for(lambda m: m["type"] == "chat" and m["text"] == text, since=since)
    before = []
    for message in client.received[since:]:
        if message["type"] == "chat" and message["text"] == text:
            break
        before.append(message)
    return before
