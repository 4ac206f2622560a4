"""A tournament refuses what it cannot run, naming it, before any game starts."""

from __future__ import annotations

import pytest

from course.tournament import entrant, play_game, random_openings, round_robin
from reversi import HumanPlayer, ReversiError


@pytest.mark.parametrize(
    "call",
    [
        lambda: random_openings(10**9, 1),
        lambda: random_openings(-1, 1),
        lambda: random_openings(2, "4"),
        lambda: random_openings(2, 4, size=5.0),
        lambda: round_robin({"a": entrant("random"), "b": entrant("greedy")}, games_per_pair=3),
        lambda: round_robin({"a": entrant("random"), "b": entrant("greedy")}, games_per_pair="4"),
        lambda: round_robin({}, games_per_pair=2),
        lambda: round_robin(["random", "greedy"]),
        lambda: round_robin({"a": "random", "b": "greedy"}),
        lambda: round_robin({"a": entrant("random"), "b": lambda seed: None}, games_per_pair=2),
        lambda: round_robin({"a": entrant("random"), "b": dict}, games_per_pair=2),
        lambda: round_robin({"a": entrant("random"), "b": lambda seed: 1 / 0}, games_per_pair=2),
        lambda: round_robin({"a": entrant("random"), "b": lambda seed: HumanPlayer()},
                            games_per_pair=2),
    ],
)
def test_a_bad_tournament_is_the_kits_own_error(call):
    with pytest.raises(ReversiError):
        call()


def test_a_small_tournament_still_runs():
    result = round_robin({"a": entrant("random"), "b": entrant("greedy")}, games_per_pair=2,
                         size=4)
    assert len(result.games) == 2 and {g.black for g in result.games} == {"a", "b"}


def test_a_person_never_sits_at_a_tournament_game_so_no_game_waits_for_typed_moves():
    def end_of_input(prompt: str) -> str:
        raise EOFError

    person = HumanPlayer("Ann", input=end_of_input)
    with pytest.raises(ReversiError, match="Ann is a person"):
        play_game(person, entrant("easy")(0), [], 4)
    with pytest.raises(ReversiError, match="'human' is a person"):
        entrant("human")
    with pytest.raises(ReversiError, match="is a person"):
        round_robin({"a": entrant("random"), "b": lambda seed: person}, games_per_pair=2, size=4)
