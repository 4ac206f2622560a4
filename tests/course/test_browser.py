"""course.browser: charts that say one line where matplotlib is missing, smaller round robins."""

from __future__ import annotations

import inspect
import sys

import pytest

import course.plots
import course.tournament
from course.browser import (
    BROWSER_TIME_LIMITS,
    NO_CHARTS,
    browser_games,
    can_draw_charts,
    in_browser,
)
from course.tournament import entrant, round_robin

CHART_MODULES = (course.plots, course.tournament)


def charts() -> list[object]:
    """Every public function of the chart modules that imports matplotlib."""
    found = []
    for module in CHART_MODULES:
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if getattr(function, "__module__", "") != module.__name__:
                continue
            if "matplotlib" in inspect.getsource(inspect.unwrap(function)):
                found.append(function)
    return found


def test_there_are_charts_to_check() -> None:
    names = {function.__name__ for function in charts()}  # type: ignore[attr-defined]
    assert {"heatmap", "weights_chart", "nodes_chart", "plot_standings"} <= names


@pytest.mark.parametrize("chart", charts(), ids=lambda function: function.__name__)
def test_every_chart_says_one_line_in_the_browser(
    chart: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert in_browser() and not can_draw_charts()
    assert chart(None) is None  # type: ignore[operator]  # nothing is drawn, whatever it got
    assert capsys.readouterr().out == NO_CHARTS + "\n"


def test_a_chart_draws_on_a_computer() -> None:
    import matplotlib

    matplotlib.use("Agg")
    ax = course.plots.nodes_chart({"minimax": [4, 20], "alpha-beta": [4, 12]})
    assert len(ax.patches) == 4
    assert ax.get_yscale() == "log"


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
