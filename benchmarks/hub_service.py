"""How far the class service goes on a real JupyterHub: hand-ins, self-checks and rooms through the hub's proxy.

Starts a real hub on 127.0.0.1 with the harness of the tests (tests/hub.py: JupyterHub,
configurable-http-proxy from npm, the kit's service managed by the hub), makes
``--students`` hub users and one API token each through the hub's REST API, then:

* **hand-ins**: every student at once posts ``--reports`` self-check reports (as
  course.grading.reports does) and hands in a released exercise (as ``hand_in()`` on a hub
  does), each request with the student's own token, through the proxy's address;
* **rooms**: ``--rooms`` rooms, two students each (their tokens again: the service names the
  seat), connect to the rooms' WebSocket and play a whole game of random legal moves, every
  room at once, each move as soon as the last one has reached both players (or about
  ``--pace`` seconds apart); a move's time runs from sending it to both players having the
  new state.

For each it prints p50 / p95 / p99 / max latency per kind (a student's first report
apart: it waits for the hub to check the new token), the errors by status (or the room's
refusal), and the CPU seconds and peak memory of the service process (and of the hub and
the proxy beside it, from /proc: Linux).  Every request reaches the service from
the proxy's address, as on a hub; ``--own-addresses`` gives each student an
``X-Forwarded-For`` address of their own (the proxy passes it on and the service trusts its
proxy), so the service's per-address limits count each student apart.

    python benchmarks/hub_service.py [--students 300] [--rooms 100] [--reports 5] [--pace 0] [--own-addresses]

Needs the ``jupyterhub`` package (the test extras) and npm.  Bounded: ``--time-limit``
seconds in all; the hub, the proxy and the service are stopped by their PIDs at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import signal
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.hub import Hub  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
EXERCISE = "04_flips"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mib(pid: int, field_name: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (the peak so far) of process ``pid``, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def command_line(pid: int) -> bytes:
    """The command line of process ``pid`` (empty once it has ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Tally:
    """Latencies (ms) and outcomes of one kind of request."""

    ms: list[float] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)

    def line(self, kind: str) -> str:
        ok = self.outcomes.get("ok", 0)
        errors = ", ".join(f"{what}: {n}" for what, n in sorted(self.outcomes.items()) if what != "ok")
        if not self.ms:
            return f"{kind:>12}: nothing measured ({errors or 'no errors'})"
        return (f"{kind:>12}: {ok:5d} ok of {sum(self.outcomes.values()):5d}, p50 {percentile(self.ms, .5):7.1f} ms, "
                f"p95 {percentile(self.ms, .95):7.1f} ms, p99 {percentile(self.ms, .99):7.1f} ms, "
                f"max {max(self.ms):7.1f} ms; errors: {errors or 'none'}")  # fmt: skip


class Processes:
    """The service's, the hub's and the proxy's CPU and memory, read from /proc."""

    def __init__(self, hub: Hub) -> None:
        assert hub.process is not None
        self.pids: dict[str, int] = {"service": hub.service_pid(), "hub": hub.process.pid}
        proxy = [pid for pid in hub.children() if b"configurable-http-proxy" in command_line(pid)]
        if proxy:
            self.pids["proxy"] = proxy[0]
        self.mark = self.cpu()

    def cpu(self) -> dict[str, float]:
        return {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    def line(self, wall: float, units: int, unit: str) -> str:
        """CPU seconds since the last line (a share of a core, ms per unit), peak and current memory of each."""
        now = self.cpu()
        used = {name: now[name] - self.mark[name] for name in now}
        self.mark = now
        parts = [f"{name} CPU {used[name]:6.2f} s ({100 * used[name] / wall:3.0f}% of a core, "
                 f"{1000 * used[name] / max(1, units):.2f} ms a {unit}), "
                 f"peak RSS {memory_mib(pid, 'VmHWM'):4.0f} MiB (now {memory_mib(pid, 'VmRSS'):4.0f})"
                 for name, pid in self.pids.items()]  # fmt: skip
        return "\n  ".join(parts)


def address(index: int) -> str:
    """Student ``index``'s own address, as ``--own-addresses`` gives it (a private range)."""
    return f"10.77.{index // 250}.{index % 250 + 1}"


async def hand_ins(service: str, tokens: list[str], reports: int, own: bool, seed: int) -> dict[str, Tally]:
    """Every student at once: ``reports`` self-check reports, then the hand-in of the exercise."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

    from course.grading.mistakes import MISTAKES
    from course.grading.table import TABLE

    AsyncHTTPClient.configure(None, max_clients=max(10, len(tokens)))
    client = AsyncHTTPClient()
    notebook = json.loads((REPO / "exercises" / f"{EXERCISE}.ipynb").read_text(encoding="utf-8"))
    handin = json.dumps({"exercise": EXERCISE, "notebook": notebook})
    questions = [q.check for e in TABLE if e.name == EXERCISE for q in e.questions]
    tallies = {"1st report": Tally(), "self-check": Tally(), "hand-in": Tally()}
    go = asyncio.Event()

    async def post(kind: str, path: str, body: str, headers: dict[str, str]) -> None:
        started = time.perf_counter()
        request = HTTPRequest(f"{service}{path}", "POST", headers, body, request_timeout=120)
        try:
            await client.fetch(request)
            outcome = "ok"
        except HTTPClientError as refused:
            outcome = f"HTTP {refused.code}"
        except OSError as failed:
            outcome = f"no connection ({type(failed).__name__})"
        tallies[kind].ms.append(1000 * (time.perf_counter() - started))
        tallies[kind].outcomes[outcome] += 1

    async def student(index: int, token: str) -> None:
        rng = random.Random(seed * 100_003 + index)
        headers = {"Content-Type": "application/json", "Authorization": f"token {token}"}
        if own:
            headers["X-Forwarded-For"] = address(index)
        await go.wait()
        for number in range(reports):
            report: dict[str, Any] = {"exercise": EXERCISE, "question": rng.choice(questions), "passed": rng.random() < .6}
            if not report["passed"]:
                report["mistake"] = rng.choice(MISTAKES).name
            await post("self-check" if number else "1st report", "/progress", json.dumps(report), headers)
        await post("hand-in", "/hand-in", handin, headers)

    everyone = asyncio.gather(*(student(i, token) for i, token in enumerate(tokens)))
    go.set()
    await everyone
    client.close()
    return tallies


@dataclass
class Games:
    """What the rooms did: joins and moves timed, games finished, why the others did not."""

    rooms: int
    joins: Tally = field(default_factory=Tally)
    moves: Tally = field(default_factory=Tally)
    finished: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    seated: int = 0
    everyone_seated: asyncio.Event = field(default_factory=asyncio.Event)

    def seated_one(self) -> None:
        """One room has joined (or failed to): when all have, they all play at once."""
        self.seated += 1
        if self.seated == self.rooms:
            self.everyone_seated.set()


async def one_room(url: str, name: str, seats: list[tuple[int, str]], own: bool, games: Games, seed: int,
                   pace: float) -> None:  # fmt: skip
    """Two students join room ``name`` and play a whole game of random legal moves (``pace`` s apart, about)."""
    from course.classroom.client import RoomClient
    from course.classroom.protocol import ClassroomError

    rng = random.Random(f"{seed}-{name}")
    clients: list[RoomClient] = []
    try:
        try:
            for index, token in seats:
                headers = {"Authorization": f"token {token}", **({"X-Forwarded-For": address(index)} if own else {})}
                started = time.perf_counter()
                try:
                    clients.append(await RoomClient(url, name, f"s{index}", headers=headers).connect(timeout=60))
                    games.joins.outcomes["ok"] += 1
                except ClassroomError as refused:
                    games.joins.outcomes[str(refused).split(": ", 1)[-1][:100]] += 1
                games.joins.ms.append(1000 * (time.perf_counter() - started))
        finally:
            games.seated_one()
        await games.everyone_seated.wait()
        if pace:
            await asyncio.sleep(rng.uniform(0, pace))  # rooms do not move in step
        if len(clients) < 2:
            games.failed["a seat could not join"] += 1
            return
        await clients[1].wait_for(lambda m: m["type"] == "state" and m["game"] is not None, 60)
        players = {client.role: client for client in clients}
        game = clients[1].state["game"]  # type: ignore[index]
        while not game["outcome"]:
            plies, marks = game["plies"], [len(c.received) for c in clients]
            started = time.perf_counter()
            await players[game["turn"]].move(rng.choice(game["legal"]))

            def moved(m: dict[str, Any], plies: int = plies) -> bool:
                return m["type"] == "state" and m["game"] is not None and m["game"]["plies"] > plies

            arrived = await asyncio.gather(*(c.wait_for(moved, 60, since=k) for c, k in zip(clients, marks, strict=True)))
            took = time.perf_counter() - started
            games.moves.ms.append(1000 * took)
            games.moves.outcomes["ok"] += 1
            game = arrived[-1]["game"]
            if pace:
                await asyncio.sleep(max(0.0, rng.uniform(0.8, 1.2) * pace - took))
        games.finished += 1
    except (TimeoutError, ClassroomError, KeyError) as failed:
        games.failed[f"{type(failed).__name__}: {str(failed)[:70]}"] += 1
    finally:
        for client in clients:
            await client.close()


async def rooms(service: str, tokens: list[str], count: int, own: bool, seed: int, pace: float) -> Games:
    url = service.replace("http://", "ws://", 1) + "/room"
    games = Games(count)
    await asyncio.gather(*(one_room(url, f"table-{r + 1:03d}", [(2 * r, tokens[2 * r]), (2 * r + 1, tokens[2 * r + 1])],
                                    own, games, seed, pace) for r in range(count)))  # fmt: skip
    return games


def make_students(hub: Hub, count: int) -> list[str]:
    """``count`` hub users and a token of each (in order), through the hub's REST API."""
    names = [f"s{i:04d}" for i in range(count)]
    hub.add_users(names)
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(hub.new_token, names))


async def measure(hub: Hub, args: argparse.Namespace, tokens: list[str]) -> None:
    """The two runs, one after the other, each with its own figures."""
    processes = Processes(hub)
    print(f"idle: service RSS {memory_mib(processes.pids['service'], 'VmRSS'):.0f} MiB")
    mine = time.process_time()
    if args.students:
        started = time.perf_counter()
        tallies = await hand_ins(hub.service, tokens[:args.students], args.reports, args.own_addresses, args.seed)
        wall = time.perf_counter() - started
        requests = sum(sum(t.outcomes.values()) for t in tallies.values())
        print(f"hand-ins: {args.students} students x ({args.reports} self-checks + 1 hand-in of {EXERCISE}) "
              f"in {wall:.1f} s ({requests / wall:.0f} requests/s)")  # fmt: skip
        for kind, tally in tallies.items():
            print(tally.line(kind))
        print(f"  {processes.line(wall, requests, 'request')}\n  this client: {time.process_time() - mine:.1f} s CPU")
    if args.rooms:
        mine, started = time.process_time(), time.perf_counter()
        games = await rooms(hub.service, tokens, args.rooms, args.own_addresses, args.seed, args.pace)
        wall = time.perf_counter() - started
        speed = f"a move every {args.pace:g} s a room" if args.pace else "each move at once"
        print(f"rooms: {args.rooms} rooms x 2 players ({speed}), {games.finished} games finished of {args.rooms} in {wall:.1f} s, "
              f"{len(games.moves.ms)} moves ({len(games.moves.ms) / wall:.0f} a second)")  # fmt: skip
        print(games.joins.line("join"))
        print(games.moves.line("move"))
        if games.failed:
            print("  rooms that did not finish: " + ", ".join(f"{why}: {n}" for why, n in games.failed.most_common()))
        moves = len(games.moves.ms)
        print(f"  {processes.line(wall, moves, 'move')}\n  this client: {time.process_time() - mine:.1f} s CPU")
    print(f"machine: load average {os.getloadavg()[0]:.1f} after the run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300, help="students handing in at once (0: none)")
    parser.add_argument("--reports", type=int, default=5, help="self-check reports per student")
    parser.add_argument("--rooms", type=int, default=100, help="rooms of two playing at once (0: none)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds between a room's moves, about (0: each move as soon as the last arrived)")
    parser.add_argument("--own-addresses", action="store_true",
                        help="each student its own X-Forwarded-For address (the per-address limits count apart)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds for everything")
    args = parser.parse_args()
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        print("error: this needs the jupyterhub package (the kit's test extras)", file=sys.stderr)
        return 2
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per student, and the hub's children inherit it
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} before the run")
    deadline = time.monotonic() + args.time_limit
    with tempfile.TemporaryDirectory(prefix="hub-bench-") as folder:
        hub = Hub(Path(folder), admin_token=secrets.token_hex(32))
        children: dict[int, bytes] = {}
        try:
            started = time.perf_counter()
            hub.start()
            children = {pid: command_line(pid) for pid in hub.children()}
            print(f"hub and service up in {time.perf_counter() - started:.1f} s")
            started = time.perf_counter()
            tokens = make_students(hub, max(args.students, 2 * args.rooms))
            print(f"made {len(tokens)} hub users and a token each in {time.perf_counter() - started:.1f} s")
            left = deadline - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError
            asyncio.run(asyncio.wait_for(measure(hub, args, tokens), left))
        except asyncio.TimeoutError:
            print(f"stopped: the time limit ({args.time_limit:g} s) was reached")
        finally:
            hub.stop()
            for pid, command in children.items():  # what the hub left running, by PID (if still the same)
                if command and command_line(pid) == command:
                    os.kill(pid, signal.SIGKILL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
