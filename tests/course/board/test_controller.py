"""The controller behind the notebook board, driven without widgets or a browser.

Computer players run on an asyncio loop, so the tests that need them run a
scenario with ``asyncio.run`` (pytest-asyncio is not installed).
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from course.board.controller import GameController
from course.board.events import Event, EventKind, MoveEvent
from course.board.messages import Tone
from course.board.settings import Settings
from reversi import BLACK, PASS, WHITE, Board, Square
from reversi.outcome import NoMovePolicy
from reversi.players import Player, RandomPlayer

# After these moves Black has no legal move while White has one (as in tests/test_game.py).
BLACK_STUCK = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SlowPlayer(Player):
    """A computer player that thinks until the test lets it answer (its first legal move)."""

    kind = "slow"
    label = "Slow"

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
        self.answer = threading.Event()
        self.asked = threading.Event()

    def choose_move(self, board: Board, color):
        self.asked.set()
        self.answer.wait(10)
        moves = board.legal_moves(color)
        return moves[0] if moves else PASS


class BrokenPlayer(Player):
    kind = "broken"
    label = "Broken"

    def choose_move(self, board: Board, color):
        raise RuntimeError("this player is broken on purpose")


def recorder(controller: GameController) -> list[Event]:
    events: list[Event] = []
    controller.listen(events.append)
    return events


def snapshot(controller: GameController):
    game = controller.game
    return game, game.board.copy(), game.turn, list(game.log), list(game.actions)


async def until(condition, timeout: float = 5.0) -> None:
    """Let the loop run until ``condition()`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


# -- people clicking -----------------------------------------------------------------------


def test_a_click_on_d3_plays_it_for_black():
    controller = GameController()
    events = recorder(controller)
    assert controller.click("d3") is True
    assert controller.game.counts() == (4, 1, 5, 59)
    assert controller.game.log[-1] == "1. Black d3 flips d4"
    assert controller.message == "Black played d3 and turned 1 disc. White to move."
    assert events[-1] == MoveEvent(
        EventKind.MOVE, controller.message, BLACK, square=Square(2, 3), flipped=(Square(3, 3),)
    )
    assert controller.tone is Tone.NORMAL
    assert controller.last_move() == Square(2, 3)
    assert [str(s) for s in controller.hints()] == ["c3", "e3", "c5"]


def test_clicks_take_squares_as_tuples_too():
    controller = GameController()
    assert controller.click((2, 3))
    assert controller.game.board[2, 3] is BLACK


def test_an_illegal_click_says_why_and_changes_nothing():
    controller = GameController()
    before = snapshot(controller)
    events = recorder(controller)
    assert controller.click("a1") is False
    assert controller.message == "'a1' is not a legal move for Black: no White disc is next to a1"
    assert Board().illegal_reason("a1", BLACK) in controller.message
    assert [e.kind for e in events] == ["refused"]
    game = controller.game
    assert (game, game.board, game.turn, game.log, game.actions) == before


def test_a_second_click_on_the_same_square_is_refused():
    controller = GameController()
    assert controller.click("d3")
    assert controller.click("d3") is False
    assert "d3 is already taken by a Black disc" in controller.message
    assert len(controller.game.plies) == 1


def test_a_click_after_the_end_is_refused():
    controller = GameController()
    controller.resign()
    assert controller.message == (
        "Black resigned. Game over: White wins, Black 2 – White 2: Black resigned."
    )
    before = snapshot(controller)
    assert controller.click("d3") is False
    assert controller.message == "The game is over: press New game to play again."
    assert controller.tone is Tone.REFUSAL
    assert snapshot(controller)[1:] == before[1:]


def test_a_player_with_no_move_must_press_pass():
    controller = GameController()
    for move in BLACK_STUCK:
        assert controller.click(move), controller.message
    assert controller.can_pass and controller.message.endswith(
        "Black has no legal move and must pass."
    )
    assert controller.click("a8") is False
    assert "press Pass" in controller.message
    assert controller.pass_turn() is True
    assert controller.game.turn is WHITE and not controller.can_pass
    assert controller.pass_turn() is False
    assert "White cannot pass: it has legal moves" in controller.message


@pytest.mark.parametrize(
    ("policy", "ending"),
    [
        (NoMovePolicy.STALEMATE, "Game over: Stalemate, Black 8 – White 4"),
        (NoMovePolicy.OPPONENT_WINS, "Game over: White wins, Black 8 – White 4"),
        (NoMovePolicy.MORE_DISCS_WINS, "Game over: Black wins, Black 8 – White 4"),
    ],
)
def test_the_other_policies_end_the_game_and_count_in_the_scores(policy, ending):
    controller = GameController(settings=Settings(no_move_policy=policy.value))
    for move in BLACK_STUCK:
        controller.click(move)
    assert controller.game.is_over and ending in controller.message
    assert controller.scoreboard.games == 1
    assert dict(controller.scoreboard.rows())["Stalemates"] == (policy is NoMovePolicy.STALEMATE)


def test_scores_count_each_finished_game_once():
    controller = GameController(black_name="Ann", white_name="Bob")
    controller.resign()  # Ann resigns
    controller.resign()  # refused: already over
    controller.new_game()
    controller.click("d3")
    controller.resign()  # Bob, to move, resigns
    assert controller.scoreboard.rows() == [("Ann", 1), ("Bob", 1), ("Draws", 0), ("Stalemates", 0)]


# -- undo ------------------------------------------------------------------------------------


def test_undo_between_people_waits_for_the_answer():
    controller = GameController()
    controller.click("d3")
    assert controller.request_undo() is True
    assert controller.undo_answerer is WHITE
    assert (
        controller.message == "Black asks to take back their last move. White: accept or decline?"
    )
    assert controller.click("c3") is False  # nobody moves while the question is open
    assert controller.answer_undo(False) is True
    assert "White declined Black's undo request" in controller.message
    assert controller.game.transcript() == "d3"
    controller.request_undo()
    controller.answer_undo(True)
    assert controller.game.transcript() == "" and controller.game.board == Board()
    assert controller.game.undos_left(BLACK) == 0
    controller.click("f5")
    assert controller.request_undo() is False
    assert "used all 1 undo" in controller.message


def test_undo_with_nothing_to_take_back_is_refused():
    controller = GameController()
    assert controller.request_undo() is False
    assert controller.message == "There is no move by a person to take back yet."
    assert controller.answer_undo(True) is False


@pytest.mark.parametrize("accepts", [True, False])
def test_a_computer_opponent_answers_undo_as_set(accepts):
    async def scenario():
        controller = GameController(
            white="greedy", settings=Settings(computer_accepts_undo=accepts)
        )
        controller.click("d3")
        await controller.idle()
        assert len(controller.game.plies) == 2
        assert controller.request_undo() is True
        return controller

    controller = asyncio.run(scenario())
    if accepts:
        assert controller.game.plies == [] and controller.game.turn is BLACK
        assert "White (Greedy) accepted Black's undo request" in controller.message
    else:
        assert len(controller.game.plies) == 2
        assert "White (Greedy) declined Black's undo request" in controller.message
    assert controller.game.pending_undo is None


# -- the computer ---------------------------------------------------------------------------


def test_the_computer_replies_to_a_click():
    async def scenario():
        controller = GameController(white="greedy")
        events = recorder(controller)
        assert controller.click("d3")
        assert controller.game.turn is WHITE  # the reply has not been played yet
        await controller.idle()
        return controller, events

    controller, events = asyncio.run(scenario())
    game = controller.game
    assert [str(ply.color) for ply in game.plies] == ["Black", "White"]
    assert game.log[-1].startswith("2. White ")
    assert game.counts()[:2] == (3, 3)
    assert [e.kind for e in events] == ["move", "thinking", "move"]
    assert controller.message.endswith("Black to move.")


def test_clicks_while_the_computer_thinks_are_refused_and_nothing_is_played_twice():
    slow = SlowPlayer()

    async def scenario():
        controller = GameController(white=slow)
        try:
            assert controller.click("d3")
            await until(slow.asked.is_set)
            assert controller.thinking is WHITE
            before = snapshot(controller)
            assert controller.click("c4") is False
            assert controller.click("c4") is False
            assert controller.message == "Please wait: White (Slow), the computer, is thinking."
            assert snapshot(controller)[1:] == before[1:]
        finally:
            slow.answer.set()
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert len(controller.game.plies) == 2 and controller.thinking is None


def test_a_move_worked_out_for_an_old_position_is_dropped():
    slow = SlowPlayer()

    async def scenario():
        controller = GameController(white=slow)
        old_game = controller.game
        try:
            controller.click("d3")
            await until(slow.asked.is_set)
            controller.new_game()  # while White thinks
        finally:
            slow.answer.set()
        await controller.idle()
        await asyncio.sleep(0.05)
        return controller, old_game

    controller, old_game = asyncio.run(scenario())
    assert old_game.transcript() == "d3"  # White's answer never reached the old game
    assert controller.game.plies == []  # nor the new one


def test_a_move_worked_out_before_a_load_is_dropped_even_if_the_computer_is_to_move(tmp_path):
    saved = GameController(white="greedy", saves_folder=tmp_path, autostart=False)
    saved.click("f5")
    saved.save("after f5")  # White (Greedy) to move, in another position than after d3
    slow = SlowPlayer()

    async def scenario():
        controller = GameController(white=slow, saves_folder=tmp_path)
        try:
            controller.click("d3")
            await until(slow.asked.is_set)
            assert controller.load("after f5")
        finally:
            slow.answer.set()  # Slow answers c3, legal after d3 but not after f5
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert controller.error is None, controller.error
    assert controller.game.transcript().startswith("f5") and len(controller.game.plies) == 2


def test_play_computer_move_checks_the_version():
    controller = GameController(white="greedy", autostart=False)
    controller.click("d3")
    version = controller.version
    assert controller.play_computer_move(Square(2, 2), version - 1) is False
    assert controller.play_computer_move(Square(2, 2), version) is True
    assert controller.game.log[-1] == "2. White c3 flips d4"


def test_an_undo_while_the_computer_thinks_drops_its_move():
    slow = SlowPlayer()

    async def scenario():
        controller = GameController(white=slow)
        try:
            controller.click("d3")
            await until(slow.asked.is_set)
            assert controller.request_undo()  # the computer accepts at once
        finally:
            slow.answer.set()
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert controller.game.plies == [] and controller.game.turn is BLACK


def test_an_error_in_a_computer_player_is_shown_not_lost():
    async def scenario():
        controller = GameController(white=BrokenPlayer())
        controller.click("d3")
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert controller.message == "Error: RuntimeError: this player is broken on purpose"
    assert "Traceback" in controller.error and "choose_move" in controller.error
    assert controller.failed and not controller.computer_should_move  # it does not retry forever


def test_a_computer_player_making_an_illegal_move_is_an_error():
    class Cheater(Player):
        kind = "cheater"
        label = "Cheater"

        def choose_move(self, board, color):
            return Square(0, 0)

    async def scenario():
        controller = GameController(white=Cheater())
        controller.click("d3")
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert controller.message.startswith(
        "Error: PlayerError: Cheater (White) chose a1, which is not legal"
    )
    assert "no Black disc is next to a1" in controller.message
    assert controller.game.transcript() == "d3"


def test_computer_against_computer_plays_to_the_end():
    async def scenario():
        controller = GameController(RandomPlayer(seed=3), "greedy")
        await controller.idle()
        return controller

    controller = asyncio.run(scenario())
    assert controller.game.is_over
    assert controller.scoreboard.games == 1
    assert "Game over" in controller.message


def test_stop_pauses_a_computer_game_and_continue_resumes_it():
    async def scenario():
        controller = GameController(RandomPlayer(seed=3), "greedy", autostart=False)

        def stop_after_four(event: Event) -> None:
            if event.kind == "move" and len(controller.game.plies) == 4:
                controller.stop()  # as if Stop was pressed right after the fourth move

        controller.listen(stop_after_four)
        controller.start()
        await controller.idle()
        stopped_at = len(controller.game.plies)
        await asyncio.sleep(0.1)
        assert len(controller.game.plies) == stopped_at and not controller.game.is_over
        assert controller.click("a1") is False and "stopped: press Continue" in controller.message
        controller.resume()
        await controller.idle()
        return controller

    assert asyncio.run(scenario()).game.is_over


def test_without_autostart_computers_wait_for_start():
    async def scenario():
        controller = GameController("greedy", "greedy", autostart=False)
        await asyncio.sleep(0.05)
        assert controller.game.plies == []
        controller.start()
        await controller.idle()
        return controller

    assert asyncio.run(scenario()).game.is_over


def test_the_view_animation_time_delays_the_next_computer_move():
    async def scenario():
        controller = GameController(white="greedy")
        controller.listen(lambda event: 0.3 if event.kind == "move" else None)
        loop = asyncio.get_running_loop()
        start = loop.time()
        controller.click("d3")
        await controller.idle()
        return loop.time() - start

    assert asyncio.run(scenario()) >= 0.3


# -- the clock ------------------------------------------------------------------------------


def test_the_clock_counts_down_and_a_late_player_loses_the_turn():
    clock = FakeClock()
    controller = GameController(settings=Settings(time_per_move=10), clock=clock)
    assert controller.countdown_text() == "Black: 10 s left"
    clock.now += 3.5
    assert controller.countdown_text() == "Black: 7 s left"
    assert controller.tick() is False
    clock.now += 7
    assert controller.tick() is True
    assert controller.message == (
        "Black ran out of time (10 s per move) and lost the turn. White to move."
    )
    assert controller.game.turn is WHITE
    assert controller.game.log[-1] == "1. Black ran out of time and loses the turn"
    assert (
        controller.countdown_text() == "White: 10 s left"
    )  # the next turn started when it ran out


def test_a_click_after_the_time_ran_out_forfeits_the_turn():
    clock = FakeClock()
    controller = GameController(settings=Settings(time_per_move=5), clock=clock)
    clock.now += 6
    assert controller.click("d3") is False
    assert controller.message.startswith("Black ran out of time (5 s per move) and lost the turn")
    assert controller.game.turn is WHITE and controller.game.board == Board()


def test_the_clock_task_forfeits_on_its_own_and_tells_the_view():
    clock = FakeClock()

    async def scenario():
        controller = GameController(settings=Settings(time_per_move=10), clock=clock)
        events = recorder(controller)
        await asyncio.sleep(0.05)
        clock.now += 4
        await until(lambda: any(e.kind == "tick" for e in events))
        clock.now += 7
        await until(lambda: controller.game.turn is WHITE)
        controller.close()
        return controller, events

    controller, events = asyncio.run(scenario())
    assert [e.kind for e in events if e.kind != "tick"] == ["timeout"]
    assert "Black ran out of time" in controller.message


# -- players and settings -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "name", "problem"),
    [
        ("greedy", "   ", "is blank"),
        ("greedy", "x" * 21, "too long"),
        ("wizard", None, "unknown player kind 'wizard'"),
    ],
)
def test_bad_players_and_names_are_refused_with_a_message(kind, name, problem):
    controller = GameController()
    assert controller.set_player(BLACK, kind, name) is False
    assert problem in controller.message
    assert controller.players[BLACK].name == "Black"


def test_a_new_player_joins_at_once_before_the_first_move_and_later_at_new_game():
    controller = GameController()
    assert controller.set_player(WHITE, "greedy")
    assert controller.game.player(WHITE).name == "Greedy"
    controller.set_player(WHITE, "human", "Zoe")
    controller.click("d3")
    assert controller.set_player(WHITE, "random")
    assert "takes effect when you press New game" in controller.message
    assert controller.game.player(WHITE).name == "Zoe"
    controller.new_game()
    assert controller.game.player(WHITE).kind == "random"


def test_two_computers_of_one_kind_are_told_apart_by_their_colour():
    controller = GameController("greedy", "greedy", autostart=False)
    assert [controller.players[c].name for c in (BLACK, WHITE)] == ["Greedy", "Greedy"]
    game = controller.game
    assert [game.label(c) for c in (BLACK, WHITE)] == ["Greedy (Black)", "Greedy (White)"]
    assert controller.message == "New game. Black (Greedy) to move."


def test_two_people_with_one_name_play_and_are_scored_per_seat():
    controller = GameController(black_name="Sam", white_name="Sam")
    assert controller.game.label(BLACK) == "Sam (Black)"
    controller.resign()
    assert [label for label, _ in controller.scoreboard.rows()][0] == "Sam (White)"


def test_settings_are_checked():
    controller = GameController()
    assert controller.update_settings(size=5) is False
    assert "board size 5 is not an even whole number" in controller.message
    assert controller.update_settings(no_move_policy="sometimes") is False
    assert controller.update_settings(time_per_move=-1) is False
    assert controller.update_settings(colour="red") is False
    assert controller.update_settings(size=6) is True
    assert controller.game.board.size == 6  # no move yet: applied at once


# -- saving and loading ---------------------------------------------------------------------


def test_save_and_load_from_the_controller(tmp_path):
    controller = GameController(saves_folder=tmp_path)
    controller.click("d3")
    controller.click("c3")
    assert controller.save("two moves") is True
    assert controller.save_names() == ["two moves"]
    controller.new_game()
    assert controller.load("two moves") is True
    assert controller.message == "Loaded 'two moves'. Black to move."
    assert controller.game.transcript() == "d3c3"


def test_loading_brings_back_the_players_and_settings(tmp_path):
    controller = GameController(white="greedy", settings=Settings(size=6), saves_folder=tmp_path)
    controller.click(controller.game.legal_moves()[0])
    controller.save("six")
    other = GameController(saves_folder=tmp_path)
    assert other.load("six")
    assert other.settings.size == 6 and other.players[WHITE].kind == "greedy"


def test_a_corrupt_save_is_refused_and_the_game_stays(tmp_path):
    controller = GameController(saves_folder=tmp_path)
    controller.click("d3")
    (tmp_path / "broken.json").write_text('{"format": "reversi-kit save", "version": 1, "size"')
    (tmp_path / "wrong.json").write_text(json.dumps({"format": "something else"}))
    before = snapshot(controller)
    assert controller.load("broken") is False
    assert controller.message.startswith("Not loaded: cannot load")
    assert "it is not valid JSON" in controller.message
    assert controller.load("wrong") is False
    assert "it is not a reversi-kit save" in controller.message
    assert controller.load("missing") is False
    assert "there is no save called 'missing'" in controller.message
    assert snapshot(controller) == before


def test_a_bad_save_name_is_refused(tmp_path):
    controller = GameController(saves_folder=tmp_path)
    assert controller.save("../escape") is False
    assert "is not a save name" in controller.message
    assert list(tmp_path.iterdir()) == []


def test_undo_applies_only_once_a_person_has_a_move_to_take_back():
    controller = GameController(white="greedy")
    assert controller.can_undo is False  # before any move
    assert controller.request_undo() is False and controller.tone is Tone.REFUSAL
    controller.click("d3")
    controller.play_computer_move(controller.game.legal_moves()[0], controller.version)
    assert controller.can_undo is True
    controller.resign()
    assert controller.can_undo is False


def test_the_view_gets_a_typed_square_and_the_last_move_comes_from_the_game():
    controller = GameController()
    controller.click(Square(2, 3))
    assert controller.last_move() == controller.game.last_move == Square(2, 3)


def test_a_person_given_as_a_terminal_player_plays_by_clicks_and_never_reads_input():
    from reversi.players import HumanPlayer

    def end_of_input(prompt: str) -> str:
        raise EOFError  # standard input at its end: the board must never ask it

    async def scenario() -> GameController:
        controller = GameController(HumanPlayer("Ann", input=end_of_input), "greedy")
        assert controller.click("d3")
        await controller.idle()  # the computer answers on the loop
        return controller

    controller = asyncio.run(scenario())
    assert len(controller.game.plies) == 2 and not controller.failed and controller.error is None
