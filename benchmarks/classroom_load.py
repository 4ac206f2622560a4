"""How far one class server goes: move-to-everyone latency, messages per second, server CPU per move.

Starts ``python -m course serve`` in its own process on 127.0.0.1 (a free port, a
temporary database) and connects real websocket clients from this process: each
room has 2 players and ``--observers`` watchers playing random legal moves.  For
each move it times, from the player sending it to the last of the room's clients
receiving the new state ("move to everyone").

Two runs:

* **full speed**: ``--rooms`` rooms, every room moves again the instant it hears
  the last move (the server is never idle);
* **paced**: each room moves about once a second, as a class does, at a rising
  number of rooms (``--steps``); it prints the room count at which p95 crosses 50 ms.

For each it prints p50 / p95 / p99, messages per second, the server's CPU time per
move (from /proc, Linux) and this client process's CPU, and says which side was
the bottleneck (a side using over 90% of a core is saturated).

    python benchmarks/classroom_load.py [--rooms 10] [--observers 3] [--seconds 10] [--steps 10,30,60,100]

Bounded: each run stops after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from course.classroom.client import RoomClient  # noqa: E402
from tests.course.classroom.server_process import ServerProcess  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Run:
    """One run's rooms: they all connect, then play together from ``go`` until ``deadline``."""

    rooms: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    messages: int = 0
    ready: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0

    async def start_when_all_ready(self) -> None:
        self.ready += 1
        if self.ready == self.rooms:
            self.deadline = time.monotonic() + self.seconds
            self.go.set()
        await self.go.wait()


async def one_room(url: str, name: str, observers: int, run: Run, pace: float | None) -> None:
    """Play random moves in room ``name`` until the run's deadline (a move every ``pace`` s, or at once)."""
    rng = random.Random(name)
    names = ["Ada", "Bob", *(f"Obs{i}" for i in range(observers))]
    clients = [await RoomClient(url, name, who).connect(timeout=30) for who in names]
    watcher = clients[-1]
    await watcher.wait_for(lambda m: m["type"] == "state" and m["game"] is not None, 30)
    players = {"black": clients[0], "white": clients[1]}
    game = watcher.state["game"]  # type: ignore[index]
    await run.start_when_all_ready()
    if pace:
        await asyncio.sleep(rng.uniform(0, pace))  # rooms do not move in step
    try:
        while not game["outcome"] and time.monotonic() < run.deadline:
            plies = game["plies"]
            marks = [len(c.received) for c in clients]
            started = time.perf_counter()
            await players[game["turn"]].move(rng.choice(game["legal"]))

            def moved(m: dict, plies: int = plies) -> bool:
                return m["type"] == "state" and m["game"]["plies"] > plies

            arrived = await asyncio.gather(
                *(c.wait_for(moved, 30, since=k) for c, k in zip(clients, marks, strict=True))
            )
            took = time.perf_counter() - started
            run.latencies.append(took)
            run.moves += 1
            run.messages += 1 + len(clients)
            game = arrived[-1]["game"]
            if pace:
                await asyncio.sleep(max(0.0, rng.uniform(0.8, 1.2) * pace - took))
    finally:
        for client in clients:
            await client.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, pid: int, label: str, rooms: int, observers: int, seconds: float,
                  pace: float | None) -> float:  # fmt: skip
    """One run; prints its line and returns its p95 in ms."""
    run = Run(rooms, seconds)
    playing = asyncio.gather(*(one_room(url, f"{label[:4]}-{rooms}-{i}", observers, run, pace)
                               for i in range(rooms)))  # fmt: skip
    await run.go.wait()  # everyone connected: measure the play alone
    server_cpu, client_cpu, wall = cpu_seconds(pid), time.process_time(), time.perf_counter()
    await playing
    wall = time.perf_counter() - wall
    server_cpu = cpu_seconds(pid) - server_cpu
    client_cpu = time.process_time() - client_cpu
    if not run.latencies:
        print(f"{label} {rooms} rooms: no move measured")
        return float("inf")
    ms = [x * 1000 for x in run.latencies]
    p95 = percentile(ms, 0.95)
    server_load, client_load = server_cpu / wall, client_cpu / wall
    if client_load > 0.9:
        bottleneck = "the clients (this process) use a whole core"
    elif server_load > 0.9:
        bottleneck = "the server uses a whole core"
    else:
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
        bottleneck = (f"neither side saturated a core; the machine is (load average {load:.1f} "
                      f"on {cores} cores: each process gets about {min(1, cores / max(load, 1)):.0%} "
                      "of a core)" if load > cores else
                      "neither side saturated a core: waiting, not computing (I/O or the network stack)")  # fmt: skip
    print(f"{label:>10} {rooms:4d} rooms x {2 + observers}: {run.moves:6d} moves, p50 {percentile(ms, 0.5):6.1f} ms, "
          f"p95 {p95:6.1f} ms, p99 {percentile(ms, 0.99):6.1f} ms, {run.messages / wall:7.0f} msg/s, "
          f"server CPU {1000 * server_cpu / run.moves:5.2f} ms/move ({100 * server_load:.0f}% of a core), "
          f"clients {100 * client_load:.0f}% of a core; bottleneck: {bottleneck}")  # fmt: skip
    return p95


async def main(args: argparse.Namespace, url: str, pid: int) -> None:
    await measure(url, pid, "full speed", args.rooms, args.observers, args.seconds, None)
    crossed = None
    for rooms in args.steps:
        p95 = await measure(url, pid, "paced", rooms, args.observers, args.seconds, 1.0)
        if p95 > 50 and crossed is None:
            crossed = rooms
    print("paced p95 crosses 50 ms at: "
          + (f"{crossed} rooms" if crossed else f"no step (up to {max(args.steps)} rooms)"))  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10, help="rooms of the full-speed run")
    parser.add_argument("--observers", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each run")
    parser.add_argument("--steps", default="10,30,60,100", help="room counts of the paced runs")
    arguments = parser.parse_args()
    arguments.steps = [int(x) for x in arguments.steps.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per client
    extra = ("--max-connections-per-address", "100000", "--max-rooms-per-address", "100000")
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder) / "data", grace=60, move_time=None, extra=extra).start()
        try:
            assert server.process is not None
            asyncio.run(main(arguments, server.url, server.process.pid))
        finally:
            tail = server.stop()
        for line in tail.splitlines():
            if line.startswith("Stored"):
                print("server:", line)
