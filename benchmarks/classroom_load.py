"""A class at full stretch: 30 rooms x (2 players + 3 observers) playing random games at once.

Starts ``python -m course serve`` in its own process on 127.0.0.1 (a free port, a
temporary database), connects 150 real websocket clients from this process and
lets every room play random legal moves as fast as the server answers.  For each
move it times, from the player sending it to the last of the room's five clients
receiving the new state ("move to everyone").  The reference measured in the same
run is a websocket ping round trip to the same server (the transport alone).

    python benchmarks/classroom_load.py [--rooms 30] [--observers 3] [--seconds 60]

Prints messages per second (sent and received by all clients), the median and
p95 move-to-everyone latency next to the ping, and the server's own count of its
SQLite writes.  Bounded: the games stop at ``--seconds`` if not finished.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from course.classroom.client import RoomClient  # noqa: E402
from tests.course.classroom.server_process import ServerProcess  # noqa: E402


async def one_room(url: str, index: int, observers: int, deadline: float, latencies: list[float]) -> tuple[int, bool]:
    """Play one random game in room ``bench-INDEX``; returns (moves, finished)."""
    rng = random.Random(index)
    names = ["Ada", "Bob", *(f"Obs{i}" for i in range(observers))]
    clients = [await RoomClient(url, f"bench-{index}", name).connect() for name in names]
    watcher = clients[-1]
    await watcher.wait_for(lambda m: m["type"] == "state" and m["game"] is not None, 30)
    players = {"black": clients[0], "white": clients[1]}
    moves = 0
    game = watcher.state["game"]  # type: ignore[index]
    while not game["outcome"] and time.monotonic() < deadline:
        plies = game["plies"]
        marks = [len(c.received) for c in clients]
        started = time.perf_counter()
        await players[game["turn"]].move(rng.choice(game["legal"]))
        def moved(m: dict, plies: int = plies) -> bool:
            return m["type"] == "state" and m["game"]["plies"] > plies

        arrived = await asyncio.gather(
            *(c.wait_for(moved, 30, since=mark) for c, mark in zip(clients, marks, strict=True))
        )
        latencies.append(time.perf_counter() - started)
        moves += 1
        game = arrived[-1]["game"]
    finished = bool(game["outcome"])
    for client in clients:
        await client.close()
    return moves, finished


async def ping_times(url: str, count: int = 50) -> list[float]:
    """Websocket ping round trips to the same server, one at a time."""
    from websockets.asyncio.client import connect

    times = []
    async with connect(url) as socket:
        for _ in range(count):
            started = time.perf_counter()
            pong = await socket.ping()
            await pong
            times.append(time.perf_counter() - started)
    return times


def received(clients_total: list[RoomClient]) -> int:
    return sum(len(c.received) for c in clients_total)


async def main(args: argparse.Namespace, url: str) -> None:
    idle_ping = await ping_times(url)
    deadline = time.monotonic() + args.seconds
    latencies: list[float] = []
    started = time.perf_counter()
    rooms = [one_room(url, i, args.observers, deadline, latencies) for i in range(args.rooms)]
    loaded_ping_task = asyncio.ensure_future(ping_times(url, 20))
    results = await asyncio.gather(*rooms)
    wall = time.perf_counter() - started
    loaded_ping = await loaded_ping_task
    moves = sum(m for m, _ in results)
    finished = sum(f for _, f in results)
    people = 2 + args.observers
    # Every move sends one request and brings one state to each of the room's clients;
    # alerts (passes, game end) come on top and are not counted here.
    messages = moves * (1 + people)
    lat = sorted(latencies)
    p95 = lat[int(0.95 * (len(lat) - 1))]
    ms = 1000
    print(f"{args.rooms} rooms x ({people} clients): {moves} moves in {wall:.1f} s, "
          f"{finished}/{args.rooms} games finished")  # fmt: skip
    print(f"messages: {messages / wall:,.0f} per second (a move and its {people} states)")
    print(f"move to everyone: median {statistics.median(lat) * ms:.1f} ms, p95 {p95 * ms:.1f} ms")
    print(f"websocket ping (same server): idle median {statistics.median(idle_ping) * ms:.2f} ms, "
          f"under load median {statistics.median(loaded_ping) * ms:.1f} ms")  # fmt: skip
    print(f"ratio: median move-to-everyone / idle ping = {statistics.median(lat) / statistics.median(idle_ping):.0f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--observers", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0, help="stop the games after this")
    parser.add_argument("--url", help="use a server already running there (e.g. under a profiler)")
    arguments = parser.parse_args()
    if arguments.url:
        asyncio.run(main(arguments, arguments.url))
        sys.exit()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder) / "data", grace=60, move_time=None).start()
        try:
            asyncio.run(main(arguments, server.url))
        finally:
            tail = server.stop()
        for line in tail.splitlines():
            if line.startswith("Stored"):
                print("server:", line)
