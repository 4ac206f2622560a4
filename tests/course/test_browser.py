"""course.browser: smaller round robins and shorter thinking in the browser classroom."""

from __future__ import annotations

import sys

import pytest

from course.browser import BROWSER_TIME_LIMITS, browser_games
from course.tournament import entrant, round_robin


def test_round_robins_are_smaller_only_in_the_browser(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert browser_games(400, pairs=1) == 400
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert browser_games(2, pairs=15) == 2
    assert capsys.readouterr().out == ""
    assert (browser_games(400, pairs=1), browser_games(20, pairs=15)) == (40, 2)
    assert "2 games here instead of 20" in capsys.readouterr().out
    pair = {"Greedy": entrant("greedy"), "Random": entrant("random")}
    assert len(round_robin(pair, games_per_pair=400, opening_plies=0).games) == 40


def test_in_the_browser_the_expert_thinks_its_browser_time_and_every_other_level_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from course.board.seats import seat_player
    from reversi.notation import WHITE
    from reversi.players import PLAYER_KINDS

    on_computer = {kind: getattr(seat_player(WHITE, kind, None), "time_limit", None)
                   for kind in PLAYER_KINDS if not PLAYER_KINDS[kind].is_human}  # fmt: skip
    monkeypatch.setattr(sys, "platform", "emscripten")
    in_page = {kind: getattr(seat_player(WHITE, kind, None), "time_limit", None)
               for kind in PLAYER_KINDS if not PLAYER_KINDS[kind].is_human}  # fmt: skip
    assert in_page["expert"] == BROWSER_TIME_LIMITS["expert"] <= on_computer["expert"] == 3.0
    assert {k: v for k, v in in_page.items() if k != "expert"} == {
        k: v for k, v in on_computer.items() if k != "expert"
    }
    assert max(v for v in in_page.values() if v is not None) <= max(BROWSER_TIME_LIMITS.values())
