"""The board's sentences: each written once, as a person would say it.

The phrases the issue quoted as wrong ("White is now Greedy (Greedy).", a colour
repeated in brackets, "(thinking...)" glued to "to move.", brackets inside
brackets) are checked never to come back, over whole games and every ending.
"""

from __future__ import annotations

import re

import pytest

from course.board import messages as say
from course.board.controller import GameController
from course.board.settings import Settings
from reversi import BLACK, WHITE
from reversi.game import Game
from reversi.outcome import EndReason, NoMovePolicy, Outcome
from reversi.players import GreedyPlayer, HumanPlayer, RandomPlayer

BLACK_STUCK = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]


def clumsy(sentence: str) -> list[str]:
    """The clumsy patterns found in ``sentence``."""
    patterns = {
        "a name repeated in brackets": r"\b(\w+) \(\1\)",
        "brackets inside brackets": r"\([^()]*\(",
        "three dots for an ellipsis": r"\.\.\.",
        "a score written 8-4": r"\b\d+-\d+\b",
        "two full stops": r"\.\s*\.",
    }
    return [what for what, pattern in patterns.items() if re.search(pattern, sentence)]


def test_scores_are_written_with_both_colours():
    assert say.score(8, 4) == "Black 8 – White 4"


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (
            Outcome(None, EndReason.NO_MOVES, 8, 8),
            "A draw, Black 8 – White 8: neither side can move.",
        ),
        (
            Outcome(WHITE, EndReason.RESIGNATION, 2, 2),
            "White wins, Black 2 – White 2: Black resigned.",
        ),
        (
            Outcome(None, EndReason.STALEMATE, 8, 4),
            "Stalemate, Black 8 – White 4: the side to move had no move, "
            "and these rules call that a stalemate.",
        ),
        (
            Outcome(BLACK, EndReason.TIMEOUTS, 3, 1),
            "Black wins, Black 3 – White 1: both sides kept running out of time.",
        ),
    ],
)
def test_each_ending_is_one_plain_sentence(outcome, expected):
    assert say.result(outcome) == expected
    assert clumsy(say.result(outcome)) == []


@pytest.mark.parametrize("reason", list(EndReason))
def test_every_end_reason_has_words(reason):
    winner = None if reason in (EndReason.NO_MOVES, EndReason.STALEMATE) else BLACK
    text = say.result(Outcome(winner, reason, 10, 6))
    assert text.endswith(".") and "Black 10 – White 6" in text and clumsy(text) == []


def test_a_player_change_names_the_kind_once():
    assert say.player_changed(WHITE, GreedyPlayer()) == (
        "White is now played by Greedy, a computer player"
    )
    assert say.player_changed(WHITE, GreedyPlayer("Gus")) == (
        "White is now played by Gus (Greedy, a computer player)"
    )
    assert say.player_changed(BLACK, HumanPlayer("Black")) == (
        "Black is now played by Black, a person"
    )
    controller = GameController()
    controller.set_player(WHITE, "greedy")
    assert controller.message == "White is now played by Greedy, a computer player. Black to move."


def test_the_turn_line_says_who_is_thinking_instead_of_who_is_to_move():
    game = Game(HumanPlayer("Ann"), GreedyPlayer())
    game.play("d3")
    assert say.turn_line(game) == "White (Greedy) to move."
    assert say.turn_line(game, thinking=WHITE) == "White (Greedy) is thinking…"
    assert say.turn_line(game, thinking=BLACK) == "White (Greedy) to move."


def test_a_person_named_after_the_colour_is_not_named_twice():
    game = Game()
    assert say.who(game, BLACK) == "Black"
    assert say.to_move(game) == "Black to move."


def test_whole_games_say_nothing_clumsy():
    """Every status and turn line of full games (each no-move rule) reads cleanly."""
    said: list[str] = []
    for policy in NoMovePolicy:
        controller = GameController(settings=Settings(no_move_policy=policy))
        controller.listen(lambda event: said.append(event.message))
        for square in BLACK_STUCK:
            controller.click(square)
            said.append(controller.turn_text())
        controller.click("a1")  # refused: the game may be over, or a1 is not legal
        controller.pass_turn()
        said.append(controller.turn_text())
    controller = GameController(RandomPlayer(seed=3), GreedyPlayer(), autostart=False)
    controller.listen(lambda event: said.append(event.message))
    while not controller.game.is_over:
        turn = controller.computer_turn()
        assert turn is not None
        move = turn.player.choose_move(turn.board, turn.color)
        controller.play_computer_move(move, turn.version)
        said.append(controller.turn_text())
    controller.resign(BLACK)
    controller.request_undo(BLACK)
    controller.new_game()
    controller.resign(WHITE)
    assert any("Game over" in s for s in said)
    assert any("passes" in s or "passed" in s for s in said)
    bad = {s: clumsy(s) for s in said if clumsy(s)}
    assert bad == {}
