"""Every rule of a room, on the sans-I/O Room with a fake clock (no socket, no sleep)."""

from __future__ import annotations

import random

import pytest

from course.classroom.storage import restore
from reversi import BLACK, WHITE, Board, Game
from tests.course.classroom.helpers import Desk, seated

START = Board()


def test_the_first_two_play_and_the_rest_watch() -> None:
    desk = Desk()
    ada, bob, cy = desk.join("a", "Ada")[0], desk.join("b", "Bob")[0], desk.join("o", "Cy")[0]
    assert (ada["role"], bob["role"], cy["role"]) == ("black", "white", "observer")
    assert ada["token"] and bob["token"] and ada["token"] != bob["token"]
    assert cy["token"] is None
    assert "Game 1 starts: Ada (Black) against Bob (White)" in desk.chat("a")
    history = [line["text"] for line in desk.got("o", "history")[0]["lines"]]
    assert history[-1] == "Game 1 starts: Ada (Black) against Bob (White)"
    state = desk.got("o", "state")[-1]
    assert state["seats"]["black"]["name"] == "Ada" and state["watching"] == ["Cy"]
    assert desk.room.snapshot()["seats"]["black"]["token_hash"] != ada["token"]  # only a hash kept


def test_a_move_reaches_everyone_and_refusals_reach_only_the_sender() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    for conn in "abo":
        assert desk.got(conn, "state")[-1]["game"]["last"] == {
            "color": "black", "square": "d3", "flipped": ["d4"]}
    desk.clear()
    before = desk.room.snapshot()
    desk.send("a", "move", square="c5")  # out of turn
    desk.send("b", "move", square="a1")  # illegal
    desk.send("o", "move", square="c5")  # an observer
    desk.send("b", "move", square="j9")  # not a square of this board
    assert desk.errors("a") == ["it is White's turn, not yours (Black)"]
    assert desk.errors("b")[0] == "'a1' is not a legal move for White: no Black disc is next to a1"
    assert "not a square" in desk.errors("b")[1] or "columns run" in desk.errors("b")[1]
    assert desk.errors("o") == ["observers can only watch and chat: a 'move' request is refused"]
    assert not desk.got("a", "state") and not desk.got("o", "chat") and len(desk.inbox["b"]) == 2
    assert desk.room.snapshot() == before


@pytest.mark.parametrize("kind, fields", [("undo", {}), ("answer", {"accept": True}),
                                          ("resign", {}), ("rematch", {})])
def test_observers_cannot_use_player_requests(kind: str, fields: dict) -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    if kind == "answer":
        desk.send("a", "undo")
    before = desk.room.snapshot()
    desk.clear()
    desk.send("o", kind, **fields)
    assert desk.errors("o") == [f"observers can only watch and chat: a {kind!r} request is refused"]
    assert set(desk.inbox) == {"o"}
    assert desk.room.snapshot() == before


def test_a_player_who_runs_out_of_time_loses_the_move_not_the_game() -> None:
    desk, _ = seated(move_time=10)
    desk.wait(9.9)
    assert desk.game.turn is BLACK
    desk.wait(0.2)
    assert desk.game.turn is WHITE and not desk.game.is_over
    assert desk.game.plies[-1].timeout
    alert = "Ada (Black) ran out of time (10 s): the turn passes to White"
    for conn in "abo":
        assert alert in desk.chat(conn)
    desk.send("b", "move", square="f4")  # White plays on the untouched start position
    assert desk.game.board["f4"] is WHITE


def test_a_late_move_is_checked_against_the_clock_first() -> None:
    desk, _ = seated(move_time=5)
    desk.now += 6  # no tick came in between
    desk.send("a", "move", square="d3")
    assert desk.errors("a") == ["it is White's turn, not yours (Black)"]
    assert desk.game.board == START


def test_undo_before_the_opponent_replied() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    desk.clear()
    desk.send("a", "undo")
    assert [q["from"] for q in desk.got("b", "question")] == ["Ada"]
    assert not desk.got("a", "question") and not desk.got("o", "question")
    desk.send("b", "answer", accept=True)
    assert desk.game.board == START and desk.game.turn is BLACK
    assert desk.game.undos_left(BLACK) == 0
    assert "Bob accepts Ada's undo request" in desk.chat("o")
    desk.send("a", "move", square="c4")
    desk.clear()
    desk.send("a", "undo")  # the second undo of the game
    assert desk.errors("a") == ["Black has used all 1 undo(s) of this game"]
    assert not desk.got("b", "question")


def test_undo_after_the_opponent_replied_takes_both_moves_back() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    desk.send("b", "move", square="c5")
    after_d3 = desk.game.board.copy()
    desk.send("a", "undo")
    desk.send("b", "answer", accept=True)
    assert desk.game.board == START and desk.game.turn is BLACK and after_d3 != START
    assert desk.game.undos_left(WHITE) == 1


def test_a_declined_undo_changes_nothing_and_the_asker_keeps_the_chance() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    desk.send("b", "move", square="c5")
    board = desk.game.board.copy()
    desk.send("a", "undo")
    desk.clear()
    desk.send("a", "answer", accept=True)  # the asker cannot answer their own question
    assert desk.errors("a") == ["there is no undo question for you to answer"]
    desk.send("b", "answer", accept=False)
    assert desk.game.board == board and desk.game.turn is BLACK
    assert desk.game.undos_left(BLACK) == 1
    assert "Bob declines Ada's undo request" in desk.chat("a")
    desk.send("a", "undo")
    desk.send("b", "answer", accept=True)
    assert desk.game.board == START


def test_moves_wait_while_an_undo_question_is_open() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    desk.send("a", "undo")
    desk.clear()
    desk.send("b", "move", square="c5")
    assert "undo request waits" in desk.errors("b")[0]


def test_resigning_loses_and_the_teacher_can_export_the_game() -> None:
    desk, _ = seated()
    desk.join("t", "Mrs Lee", teacher=True)
    desk.send("a", "move", square="d3")
    desk.send("b", "resign")
    assert desk.game.winner is BLACK
    assert "Bob (White) resigns" in desk.chat("o")
    assert "Game over: Black wins, Black 4 – White 1 (resignation)" in desk.chat("o")
    desk.send("a", "export")
    assert desk.errors("a") == ["only the teacher (with the teacher key) may send 'export' in a room"]
    export = desk.send("t", "export")[0]
    assert export["type"] == "export" and len(export["games"]) == 1
    from reversi.saves import game_from_dict

    assert game_from_dict(export["games"][0]).transcript() == "d3"
    desk.send("a", "move", square="c5")
    assert desk.errors("a")[-1].startswith("the game is over")


def test_resigning_while_an_undo_question_is_open_withdraws_it() -> None:
    desk, _ = seated()
    desk.send("a", "move", square="d3")
    desk.send("a", "undo")
    desk.send("b", "resign")
    assert desk.game.winner is BLACK and desk.game.pending_undo is None


def test_a_seat_is_held_for_its_player_through_the_grace_time() -> None:
    desk, ada_token = seated(grace=60)
    desk.send("a", "move", square="d3")
    desk.send("a", "chat", text="brb")
    desk.leave("a")
    assert "Ada lost the connection; the seat is held for 60 s" in desk.chat("b")
    desk.wait(30)
    assert desk.errors("x") == [] and not desk.join("x", "Ada")[0].get("role")
    assert "belongs to the Black seat" in desk.errors("x")[0]
    assert desk.join("z", "Zed")[0]["role"] == "observer"  # the free-looking seat is not free
    wrong = desk.join("y", "Ada", token="not-the-token")[0]
    assert wrong["type"] == "error" and "token" in wrong["message"]
    desk.clear()
    back = desk.join("a2", "Ada", token=ada_token)
    assert back[0]["role"] == "black"
    assert "brb" in [line["text"] for line in back[1]["lines"]]  # the chat comes back
    state = desk.got("a2", "state")[-1]
    assert state["game"]["plies"] == 1 and state["seats"]["black"]["present"]
    assert "Ada is back" in desk.chat("b")
    desk.wait(60)
    assert not desk.game.is_over
    desk.send("b", "move", square="c5")
    assert desk.game.plies[-1].move.name == "c5"


def test_after_the_grace_time_the_absent_player_resigns() -> None:
    desk, _ = seated(grace=60)
    desk.send("a", "move", square="d3")
    desk.send("b", "undo")
    desk.leave("b")
    desk.wait(59)
    assert not desk.game.is_over
    desk.wait(1.5)
    assert desk.game.winner is BLACK
    assert "Bob did not come back within 60 s and resigns" in desk.chat("o")


def test_the_move_clock_keeps_running_while_a_player_is_away() -> None:
    desk, _ = seated(move_time=10, grace=60)
    desk.leave("a")
    desk.wait(10.5)
    assert desk.game.turn is WHITE and desk.game.plies[-1].timeout


def test_a_question_is_asked_again_when_its_player_comes_back() -> None:
    desk = Desk()
    desk.join("a", "Ada")
    bob = desk.join("b", "Bob")[0]
    desk.send("a", "move", square="d3")
    desk.send("a", "undo")
    desk.leave("b")
    desk.clear()
    desk.join("b2", "Bob", token=bob["token"])
    assert [q["from"] for q in desk.got("b2", "question")] == ["Ada"]


def test_observers_chat_among_themselves_while_the_game_runs() -> None:
    desk, _ = seated()
    desk.join("o2", "Dee")
    desk.send("o", "chat", text="Ada should take the corner")
    assert "Ada should take the corner" in desk.chat("o2")
    assert not desk.chat("a") and not desk.chat("b")
    desk.send("a", "chat", text="good luck")
    assert all("good luck" in desk.chat(c) for c in ("a", "b", "o", "o2"))
    desk.send("a", "resign")
    desk.send("o", "chat", text="well played")
    assert all("well played" in desk.chat(c) for c in ("a", "b", "o2"))


def test_names_cannot_be_taken_twice() -> None:
    desk, _ = seated()
    refused = desk.join("x", "cy")[0]
    assert refused["message"] == "someone called 'cy' is already in room 'table-1': choose another name"


def test_the_teacher_closes_a_room() -> None:
    desk, _ = seated()
    desk.join("t", "Lee", teacher=True)
    desk.send("o", "close")
    assert desk.errors("o") == ["only the teacher (with the teacher key) may send 'close' in a room"]
    desk.send("t", "close")
    assert all(desk.got(c, "closed") for c in "abot")
    assert "closed" in desk.join("n", "Nia")[0]["message"]


def test_a_rematch_swaps_the_colours() -> None:
    desk, _ = seated()
    desk.send("a", "resign")
    desk.send("a", "rematch")
    assert desk.game.is_over
    desk.send("b", "rematch")
    assert not desk.game.is_over and desk.room.games_played == 2
    assert desk.room.seats[BLACK].name == "Bob" and desk.room.role_of("b") == "black"
    desk.send("b", "move", square="d3")
    assert desk.game.plies[-1].color is BLACK


def test_a_stored_room_comes_back_with_its_game_and_held_seats() -> None:
    desk, ada_token = seated(move_time=30)
    for square, conn in (("d3", "a"), ("c5", "b"), ("f6", "a")):
        desk.send(conn, "move", square=square)
    desk.send("a", "chat", text="nice")
    stale = desk.room.snapshot()  # the snapshot may be older than the last moves
    stale["game"]["actions"] = stale["game"]["actions"][:1]
    actions = [data["action"] for kind, data in desk.room.records if kind == "action"]
    assert [a.get("square") for a in actions] == ["d3", "c5", "f6"]
    room = restore(stale, list(desk.room.chat), [], now=5.0, actions=actions)
    assert room.game is not None and room.game.board == desk.game.board
    assert room.game.turn is WHITE and room.running
    assert all(seat.conn is None and seat.away_since == 5.0 for seat in room.seats.values())
    hello = {"type": "hello", "room": "table-1", "name": "Ada", "token": ada_token}
    out = room.join("a", hello, now=6.0)
    assert out[0][1]["role"] == "black" and "nice" in [line["text"] for line in out[1][1]["lines"]]


def test_every_message_kind_of_the_table_has_one_handler_and_nothing_else_does() -> None:
    from course.classroom.protocol import MESSAGES
    from course.classroom.room import HANDLERS

    assert set(HANDLERS) | {"hello"} == set(MESSAGES)


def random_game(seed: int) -> tuple[Desk, list[str]]:
    rng = random.Random(seed)
    desk, _ = seated()
    conns = {"black": "a", "white": "b"}
    played = []
    while desk.room.running:
        state = desk.room.state()["game"]
        square = rng.choice(state["legal"])
        played.append(square)
        desk.send(conns[state["turn"]], "move", square=square)
    return desk, played


def test_random_games_end_as_the_rules_say_and_forced_passes_are_made() -> None:
    passes = 0
    for seed in range(40):
        desk, played = random_game(seed)
        oracle = Game()
        for square in played:  # an independent replay: pass when forced, as the room does
            if oracle.must_pass:
                oracle.pass_turn()
            oracle.play(square)
        assert oracle.is_over and oracle.outcome == desk.game.outcome
        passes += sum("has no legal move and passes" in text for text in desk.chat("o"))
        assert f"Game over: {desk.game.outcome}" in desk.chat("o")
    assert passes > 0  # some of these games needed a forced pass


def test_coming_back_restores_the_clock_as_it_ran_meanwhile() -> None:
    desk, ada_token = seated(move_time=30, grace=60)
    desk.wait(5)
    desk.leave("a")
    desk.wait(10)
    desk.clear()
    desk.join("a2", "Ada", token=ada_token)
    assert desk.got("a2", "state")[-1]["game"]["time_left"] == pytest.approx(15)
