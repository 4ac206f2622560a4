"""Random and malformed messages thrown at a running server; then a normal game in another room completes."""

from __future__ import annotations

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from course.classroom.protocol import MESSAGES
from tests.course.classroom.play import game_of, play_random_game, run, table
from tests.course.classroom.test_protocol import json_values

fields = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(MESSAGES))},
    optional={
        "room": st.sampled_from(["wild", "wild-2", "bad room", ""]) | st.text(max_size=30),
        "name": st.text(max_size=14),
        "square": st.sampled_from(["d3", "c4", "a1", "p16", "z0", ""]) | st.text(max_size=4),
        "text": st.text(max_size=250),
        "accept": st.booleans() | json_values,
        "token": st.text(max_size=70),
        "key": st.text(max_size=20),
        "watch": st.booleans(),
        "junk": json_values,
    },
).map(json.dumps)
frames = st.one_of(
    fields,
    fields,
    st.text(max_size=200),
    st.binary(max_size=200),
    json_values.map(json.dumps),
    st.integers(2000, 3000).map(lambda n: "x" * n),
)
hello = st.builds(
    lambda room, name: json.dumps({"type": "hello", "room": room, "name": name}),
    st.sampled_from(["wild", "wild-2"]),
    st.sampled_from(["Mal", "Eve", "Tro", "Zed"]),
)


async def throw(url: str, batch: list[str | bytes]) -> None:
    try:
        async with connect(url, max_size=None, open_timeout=10) as socket:
            for frame in batch:
                await socket.send(frame)
            await asyncio.sleep(0.05)
            while True:  # read what came back until the server is quiet
                reply = json.loads(await asyncio.wait_for(socket.recv(), 0.3))
                assert reply["type"] in ("welcome", "history", "state", "chat", "error", "question",
                                         "export", "closed")  # fmt: skip
    except (asyncio.TimeoutError, ConnectionClosed):
        pass


def test_random_messages_hurt_no_other_room(class_server):
    server = class_server(grace=1)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.one_of(hello, frames), max_size=12), st.booleans())
    def batch_of_junk(batch: list[str | bytes], polite: bool) -> None:
        if polite:
            batch = [json.dumps({"type": "hello", "room": "wild", "name": "Polly"}), *batch]
        run(throw(server.url, batch), timeout=30)

    batch_of_junk()

    async def calm_game() -> str:
        ada, bob, cy = await table(server.url, "calm")
        await play_random_game({"black": ada, "white": bob}, cy, seed=11)
        return game_of(cy)["outcome"]

    outcome = run(calm_game(), timeout=120)
    assert outcome.startswith(("Black wins", "White wins", "Draw")), outcome
    assert server.process is not None and server.process.poll() is None  # still serving
