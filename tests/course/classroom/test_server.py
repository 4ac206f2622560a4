"""The class server in its own process, played by real websocket clients on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import signal

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from course.classroom.client import RoomClient
from course.classroom.protocol import MAX_FRAME_BYTES, ClassroomError
from reversi import Game, load_game
from reversi.saves import game_from_dict
from tests.course.classroom.play import game_of, nothing_else, play_random_game, run, settled, table
from tests.ports import free_port


def test_a_full_game_between_two_clients_with_an_observer_is_stored_and_exported(class_server, tmp_path):
    server = class_server()

    async def scenario() -> tuple[list[str], dict, list]:
        ada, bob, cy = await table(server.url, "table-1")
        played = await play_random_game({"black": ada, "white": bob}, cy, seed=7)
        await settled(ada, game_of(cy)["plies"])
        teacher = await RoomClient(server.url, "table-1", "Lee", key=server.key).connect()
        await teacher.send("export")
        export = await teacher.next("export")
        return played, game_of(cy), export["games"]

    played, final, games = run(scenario())
    oracle = Game()  # an independent replay of the squares, passing when forced
    for square in played:
        if oracle.must_pass:
            oracle.pass_turn()
        oracle.play(square)
    assert oracle.is_over and final["outcome"] == str(oracle.outcome)
    assert [game_from_dict(save).transcript() for save in games] == [oracle.transcript()]

    server.stop()  # the teacher's export command writes save files that load_game reads
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "course", "serve", "--data", str(server.data), "--export", str(tmp_path / "saves")],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    assert "Exported 1 finished games" in out
    loaded = load_game(tmp_path / "saves" / "table-1-1.json")
    assert loaded.transcript() == oracle.transcript() and loaded.outcome == oracle.outcome


def test_refusals_reach_only_their_sender_and_change_nothing(class_server):
    server = class_server()

    async def scenario() -> None:
        ada, bob, cy = await table(server.url, "table-2")
        await ada.move("d3")
        await settled(cy, 1)
        for who, kind, fields, reason in [
            (ada, "move", {"square": "c5"}, "it is White's turn, not yours (Black)"),
            (bob, "move", {"square": "a1"}, "'a1' is not a legal move for White"),
            (cy, "move", {"square": "c5"}, "observers can only watch and chat: a 'move' request is refused"),
            (cy, "undo", {}, "observers can only watch and chat: a 'undo' request is refused"),
            (cy, "resign", {}, "observers can only watch and chat: a 'resign' request is refused"),
            (cy, "answer", {"accept": True}, "observers can only watch and chat: a 'answer' request is refused"),
        ]:
            await who.send(kind, **fields)
            assert reason in await who.expect_error()
        # Nothing of that reached the others: the next thing they got is Bob's chat line.
        assert await nothing_else(ada, bob, "barrier 1") == []
        await cy.wait_for(lambda m: m["type"] == "chat" and m["text"] == "barrier 1")  # it was on its way
        assert [m["type"] for m in await nothing_else(cy, bob, "barrier 2")] == []
        assert game_of(cy)["plies"] == 1 and game_of(cy)["turn"] == "white"
        await cy.say("go Ada!")  # observers' chat stays with observers while the game runs
        assert "go Ada!" not in [m.get("text") for m in await nothing_else(ada, bob, "barrier 3")]

    run(scenario())


def test_undo_before_and_after_the_reply_declined_and_a_second_one_refused(class_server):
    server = class_server()

    async def scenario() -> None:
        ada, bob, cy = await table(server.url, "table-3")
        await ada.move("d3")
        await settled(bob, 1)
        await ada.undo()  # before Bob replied
        question = await bob.next("question")
        assert question["from"] == "Ada"
        assert [m["type"] for m in await nothing_else(ada, bob, "b1")].count("question") == 0
        assert [m["type"] for m in await nothing_else(cy, bob, "b2")].count("question") == 0
        await bob.answer(True)
        game = await settled(cy, 0)
        assert game["turn"] == "black" and game["rows"][3:5] == ["...WB...", "...BW..."]
        await ada.move("d3")
        await settled(bob, 1)
        await bob.move("c5")
        await settled(bob, 2)
        await bob.undo()  # Bob declined once, then accepted after Ada's reply
        await ada.next("question")
        await ada.answer(False)
        game = await settled(cy, 2)
        assert game["plies"] == 2 and game_of(cy)["undo_pending"] is None
        assert cy.state["seats"]["white"]["undos_left"] == 1
        await ada.move("f6")  # Ada replies, then Bob asks again: both moves go back
        await settled(bob, 3)
        await bob.undo()
        await ada.next("question")
        await ada.answer(True)
        game = await settled(cy, 1)
        assert game["turn"] == "white" and cy.state["seats"]["white"]["undos_left"] == 0
        await bob.move("c5")
        await settled(ada, 2)
        await bob.undo()  # the second undo of the game
        assert "has used all 1 undo" in await bob.expect_error()
        texts = [line["text"] for line in cy.chat]
        assert "Bob declines Ada's undo request" not in texts
        assert "Ada declines Bob's undo request" in texts and "Ada accepts Bob's undo request" in texts

    run(scenario())


def test_running_out_of_time_forfeits_the_move(class_server):
    server = class_server(move_time=2)

    async def scenario() -> None:
        ada, bob, cy = await table(server.url, "table-4")
        alert = await cy.wait_for(lambda m: m["type"] == "chat" and "ran out of time" in m["text"], 8)
        assert alert["text"] == "Ada (Black) ran out of time (2 s): the turn passes to White"
        game = await cy.wait_for(lambda m: m["type"] == "state" and m["game"]["plies"] >= 1)
        assert game["game"]["turn"] == "white" and game["game"]["outcome"] is None
        await bob.move("f4")
        game = await settled(cy, 2, timeout=3)
        assert game["last"] == {"color": "white", "square": "f4", "flipped": ["e4"]}

    run(scenario())


def test_a_disconnected_player_keeps_the_seat_within_the_grace_time_then_resigns(class_server):
    server = class_server(grace=4)

    async def scenario() -> None:
        ada, bob, cy = await table(server.url, "table-5")
        token = ada.token
        await ada.move("d3")
        await ada.say("back soon")
        await settled(cy, 1)
        await ada.drop()
        await cy.wait_for(lambda m: m["type"] == "chat" and m["text"].startswith("Ada lost the connection"))
        with pytest.raises(ClassroomError, match="belongs to the Black seat"):
            await RoomClient(server.url, "table-5", "Ada").connect()  # the same name, no token
        eve = await RoomClient(server.url, "table-5", "Eve").connect()
        assert eve.role == "observer"  # the held seat is not free
        back = await RoomClient(server.url, "table-5", "Ada", token=token).connect()
        assert back.role == "black"
        await back.wait_for(lambda m: m["type"] == "state")
        assert game_of(back)["plies"] == 1 and "back soon" in [line["text"] for line in back.chat]
        await cy.wait_for(lambda m: m["type"] == "chat" and m["text"] == "Ada is back")
        await asyncio.sleep(4.5)
        assert game_of(cy)["outcome"] is None  # came back in time: the game goes on
        await bob.drop()
        alert = await cy.wait_for(lambda m: m["type"] == "chat" and "resigns" in m["text"], 10)
        assert alert["text"] == "Bob did not come back within 4 s and resigns"
        game = await cy.wait_for(lambda m: m["type"] == "state" and m["game"]["outcome"] is not None)
        assert game["game"]["winner"] == "black"

    run(scenario())


def test_a_restarted_server_resumes_the_game(class_server, tmp_path):
    first = class_server(grace=30)

    async def before() -> tuple[str, str, list[str]]:
        ada, bob, cy = await table(first.url, "table-6")
        for who, square, plies in ((ada, "d3", 1), (bob, "c5", 2), (ada, "f6", 3)):
            await who.move(square)
            await settled(cy, plies)
        await bob.say("hold on")
        await cy.wait_for(lambda m: m["type"] == "chat" and m["text"] == "hold on")
        return ada.token, bob.token, game_of(cy)["rows"]

    ada_token, bob_token, rows = run(before())
    first.stop(signal.SIGKILL)  # no chance to store anything more: what is stored is what happened
    second = class_server(grace=30, data=first.data)
    assert "Resumed games in rooms: table-6" in second.lines

    async def after() -> None:
        ada = await RoomClient(second.url, "table-6", "Ada", token=ada_token).connect()
        bob = await RoomClient(second.url, "table-6", "Bob", token=bob_token).connect()
        await ada.wait_for(lambda m: m["type"] == "state" and m["seats"]["white"]["present"])
        game = game_of(ada)
        assert game["rows"] == rows and game["turn"] == "white" and game["plies"] == 3
        history = await bob.wait_for(lambda m: m["type"] == "history")
        assert "hold on" in [line["text"] for line in history["lines"]]
        await bob.move(game["legal"][0])
        await settled(ada, 4)

    run(after())


def test_players_boards_come_back_by_themselves_after_the_server_restarts(class_server):
    port = free_port()
    first = class_server(grace=30, port=port)

    async def scenario() -> None:
        ada, bob, cy = await table(first.url, "table-7")
        await ada.move("d3")
        await settled(cy, 1)
        marks = [len(ada.received), len(bob.received)]
        first.stop(signal.SIGKILL)
        second = await asyncio.to_thread(class_server, grace=30, data=first.data, port=port)
        assert second.url == first.url
        for client, mark in zip((ada, bob), marks, strict=True):  # no call by the test: by themselves
            back = await client.wait_for(lambda m: m["type"] == "welcome", 20, since=mark)
            assert back["role"] == client.role
            said = [m for m in client.received[mark:] if m["type"] == "reconnecting"]
            assert said and said[0]["seconds"] == 30  # the board says it is coming back
        await cy.wait_for(lambda m: m["type"] == "disconnected")  # observers hold no seat to keep
        await ada.until(lambda state: state["seats"]["white"]["present"])
        await bob.move("c5")
        game = await settled(ada, 2)
        assert game["last"]["square"] == "c5"
        assert {"* Ada is back", "* Bob is back"} <= set(cy.chat_texts() + ada.chat_texts())

    run(scenario())


def test_bad_input_gets_errors_and_flooding_is_cut_off_while_other_rooms_play_on(class_server):
    server = class_server()

    async def scenario() -> None:
        ada, bob, cy = await table(server.url, "calm")
        async with connect(server.url, max_size=None) as raw:
            await raw.send("{nonsense")
            assert "not valid JSON" in json.loads(await raw.recv())["message"]
            await raw.send(json.dumps({"type": "move", "square": "d3"}))
            assert "say hello first" in json.loads(await raw.recv())["message"]
            await raw.send(json.dumps({"type": "hello", "room": "wild", "name": "N" * 12}))
            assert "at most 9" in json.loads(await raw.recv())["message"]
            await raw.send(json.dumps({"type": "hello", "room": "wild", "name": "Mal"}))
            assert json.loads(await raw.recv())["type"] == "welcome"
            await raw.send(json.dumps({"type": "chat", "text": "x" * 3000}))
            reply = await raw.recv()
            while json.loads(reply)["type"] != "error":
                reply = await raw.recv()
            assert "bytes; at most 2048" in json.loads(reply)["message"]
            await raw.send(json.dumps({"type": "chat", "text": "bell\a"}))
            reply = await raw.recv()
            assert "control character" in json.loads(reply)["message"]
            for _ in range(400):  # a flood: the first 40 pass, then errors, then the cut
                await raw.send(json.dumps({"type": "chat", "text": "spam"}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await raw.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with connect(server.url, max_size=None) as raw:
            await raw.send("x" * (MAX_FRAME_BYTES + 10))  # too big to read at all
            with pytest.raises(ConnectionClosed) as closed:
                await raw.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        played = await play_random_game({"black": ada, "white": bob}, cy, seed=3)
        assert played and game_of(cy)["outcome"]

    run(scenario(), timeout=120)


def test_refused_hellos_leave_no_room_and_empty_rooms_are_forgotten():
    from course.classroom.server import ClassServer

    async def scenario() -> None:
        server = ClassServer()
        url = await server.start()
        try:
            with pytest.raises(ClassroomError, match="token does not hold a seat"):
                await RoomClient(url, "ghost", "Ada", token="made-up").connect()
            assert "ghost" not in server.rooms
            cy = await RoomClient(url, "lobby", "Cy", watch=True).connect()
            assert cy.role == "observer" and "lobby" in server.rooms
            await cy.close()
            for _ in range(100):
                if "lobby" not in server.rooms:
                    break
                await asyncio.sleep(0.05)
            assert "lobby" not in server.rooms
        finally:
            await server.close()

    run(scenario())


def test_the_app_serves_the_rooms_at_slash_and_slash_room_beside_extra_routes():
    """Contract 1: build_app(extra_routes=...) puts other pages on the same port as the rooms."""
    import urllib.request

    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from course.classroom.server import ClassServer, build_app

    async def hello_page(request):  # type: ignore[no-untyped-def]
        return PlainTextResponse("a page beside the rooms")

    async def scenario() -> None:
        server = ClassServer()
        url = await server.start(app=build_app(server, extra_routes=[Route("/site", hello_page)]))
        try:
            ada = await RoomClient(url, "t1", "Ada").connect()
            bob = await RoomClient(url + "/room", "t1", "Bob").connect()
            assert (ada.role, bob.role) == ("black", "white")
            await ada.move("d3")
            assert (await settled(bob, 1))["last"]["square"] == "d3"
            http = url.replace("ws://", "http://") + "/site"
            page = await asyncio.to_thread(lambda: urllib.request.urlopen(http, timeout=5).read())
            assert page == b"a page beside the rooms"
            assert server._ticker is not None  # the lifespan started the clocks
        finally:
            await server.close()
        assert server._ticker is None  # and stopped them

    run(scenario())


def test_idle_rooms_leave_memory_and_storage_and_one_address_cannot_fill_the_server():
    from course.classroom.people import Limits, RoomSettings
    from course.classroom.server import ClassServer

    async def scenario() -> None:
        server = ClassServer(settings=RoomSettings(grace=0.3), limits=Limits(connections=4, rooms=3),
                             forget_after=0.5)  # fmt: skip
        url = await server.start()
        try:
            held = [await RoomClient(url, "r1", f"W{i}", watch=True).connect() for i in range(4)]
            with pytest.raises(ClassroomError, match="too many connections from your address"):
                await RoomClient(url, "r1", "W9", watch=True).connect()
            await held[0].say("still here")
            for client in held:
                await client.close()
            for name in ("r2", "r3"):
                ada = await RoomClient(url, name, "Ada").connect()  # a seat: held, then freed
                await ada.close()
            with pytest.raises(ClassroomError, match="opened 3 rooms in the last 600 s"):
                await RoomClient(url, "r4", "Ada").connect()
            for _ in range(100):
                if not server.rooms:
                    break
                await asyncio.sleep(0.05)
            assert server.rooms == {}
            assert server.storage.db.execute("SELECT count(*) FROM rooms").fetchone() == (0,)
            said = server.storage.db.execute("SELECT data FROM events WHERE kind = 'chat'").fetchall()
            assert any(json.loads(data)["text"] == "still here" for (data,) in said)  # chat is kept
        finally:
            await server.close()

    run(scenario())


def test_chat_is_held_to_human_speed_with_a_polite_refusal():
    from course.classroom.lobby import CHAT_BURST
    from course.classroom.server import ClassServer

    async def scenario() -> None:
        server = ClassServer()
        url = await server.start()
        try:
            ada = await RoomClient(url, "c1", "Ada").connect()
            for i in range(CHAT_BURST + 3):
                await ada.say(f"line {i}")
            refusal = await ada.wait_for(lambda m: m["type"] == "error")
            assert refusal["message"].startswith("please slow down")
            await asyncio.sleep(0.3)
            said = [line["text"] for line in ada.chat if not line["alert"]]
            assert said == [f"line {i}" for i in range(CHAT_BURST)]
        finally:
            await server.close()

    run(scenario())


def test_a_websocket_from_another_site_is_refused_and_the_servers_own_pages_are_let_in(class_server):
    server = class_server()
    port = server.url.rsplit(":", 1)[1]

    async def welcome(origin: str | None, path: str = "/room") -> str:
        hello = json.dumps({"type": "hello", "room": "origins", "name": "Ada", "watch": True})
        headers = {} if origin is None else {"Origin": origin}
        async with connect(server.url + path, additional_headers=headers) as socket:
            await socket.send(hello if path == "/room" else json.dumps({"key": "wrong"}))
            return json.loads(await socket.recv())["type"]

    async def scenario() -> None:
        assert await welcome(None) == "welcome"  # a program (the kit's own client) sends no Origin
        assert await welcome(f"http://127.0.0.1:{port}") == "welcome"  # a page this server served
        for stranger in ("http://evil.example", f"http://127.0.0.1:{int(port) + 1}", f"https://localhost:{port}"):
            for path in ("/room", "/teacher/live"):
                with pytest.raises(InvalidStatus) as refused:
                    await welcome(stranger, path)
                assert refused.value.response.status_code == 403, (stranger, path)

    run(scenario())
