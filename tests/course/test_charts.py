"""The lessons' charts: valid Vega-Lite descriptions whose data match an independent count.

Each chart is validated against the Vega-Lite v5 JSON schema (shipped by Altair), and its
data are compared with numbers worked out here another way: the evaluation by replaying
the game and searching every position, the standings and cross-table from the games.
One chart is drawn offline as SVG (vl-convert, about 0.4 s a chart once it has started).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import jsonschema
import pytest

from course.browser import in_browser
from course.charts import VEGA_LITE, Chart
from course.plots import heatmap, nodes_chart, plot_evaluation, weights_chart
from course.tournament import entrant, plot_crosstable, plot_standings, round_robin
from reversi.engine import think
from reversi.errors import ArgumentError
from reversi.evaluation import STABLE, weights
from reversi.game import Game
from reversi.notation import BLACK, WHITE

SCHEMA = json.loads(
    (resources.files("altair") / "vegalite/v5/schema/vega-lite-schema.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)


def valid(chart: Chart) -> dict[str, Any]:
    """The chart's specification, once the schema accepts it (and it survives JSON)."""
    errors = [error.message for error in VALIDATOR.iter_errors(chart.spec)]
    assert errors == []
    bundle, metadata = chart._repr_mimebundle_()
    assert metadata[VEGA_LITE]["embed_options"]["actions"] is False  # no unnamed menu
    assert json.loads(json.dumps(bundle[VEGA_LITE])) == chart.spec
    assert bundle["text/plain"] == chart.text
    return chart.spec


@pytest.fixture(scope="module")
def game() -> Game:
    """A short game with both sides ahead at times, ending in a pass-free finish on 6x6."""
    game = Game(size=6)
    while not game.is_over:
        legal = game.legal_moves()
        game.play(legal[len(game.plies) % len(legal)]) if legal else game.pass_turn()
    return game


def test_the_evaluation_chart_follows_the_replayed_game(game: Game) -> None:
    spec = valid(plot_evaluation(game, depth=1))
    replay, expected = Game(size=6), []
    for ply in [None, *game.plies]:
        if ply is not None:
            replay.play(ply.move)
        board, turn = replay.board, replay.turn
        if replay.is_over:
            expected.append(float((board.count(BLACK) - board.count(WHITE)) * STABLE))
            continue
        thought = think(board, turn, max_depth=1, solve_empties=10)
        value = float(thought.discs * STABLE if thought.discs is not None else thought.value)
        expected.append(value if turn is BLACK else -value)
    rows = spec["data"]["values"]
    assert [row["move"] for row in rows] == list(range(len(game.plies) + 1))
    assert [row["advantage"] for row in rows] == expected
    (areas,) = [layer for layer in spec["layer"] if "data" in layer]
    for row in areas["data"]["values"]:  # each area keeps to its side of the zero line
        assert row["share"] >= 0 if row["side"] == "Black is better" else row["share"] <= 0


def test_the_grids_hold_every_square_and_its_number() -> None:
    table = [[row * 3 + col for col in range(3)] for row in range(3)]
    spec = valid(heatmap(table, "two\nlines", labels=True))
    assert spec["title"] == ["two", "lines"]
    assert {(c["column"], c["row"], c["value"]) for c in spec["data"]["values"]} == {
        ("abc"[col], row + 1, table[row][col]) for row in range(3) for col in range(3)
    }
    assert len(valid(heatmap(table)).get("layer", [])) == 1  # no numbers written
    squares = valid(weights_chart(6))["data"]["values"]
    assert sorted((c["row"], c["column"], c["value"]) for c in squares) == sorted(
        (row + 1, "abcdef"[col], weight) for row, line in enumerate(weights(6))
        for col, weight in enumerate(line)
    )  # fmt: skip
    with pytest.raises(ArgumentError, match="n rows of n numbers"):
        heatmap([[1, 2], [3]])


def test_the_nodes_chart_has_a_bar_per_search_and_depth_on_a_log_scale() -> None:
    nodes = {"minimax": [4, 20, 88], "alpha-beta": [4, 12]}
    chart = nodes_chart(nodes)
    spec = valid(chart)
    assert spec["encoding"]["y"]["scale"] == {"type": "log"}
    bars = {(row["search"], row["depth"]): row["positions"] for row in spec["data"]["values"]}
    assert bars == {
        (name, d + 1): n for name, counts in nodes.items() for d, n in enumerate(counts)
    }
    assert chart.text.splitlines()[-1].split() == ["3", "88", "-"]


def test_the_tournament_charts_count_the_games() -> None:
    result = round_robin({"Greedy": entrant("greedy"), "Random": entrant("random"),
                          "Positional": entrant("positional")}, games_per_pair=2, size=6, seed=5)  # fmt: skip
    standings = valid(plot_standings(result))
    counted: dict[tuple[str, str], int] = {}
    for record in result.games:  # the oracle: every game's winner, counted here
        for name, color in ((record.black, BLACK), (record.white, WHITE)):
            winner = record.outcome.winner
            kind = "draws" if winner is None else "wins" if winner is color else "losses"
            counted[name, kind] = counted.get((name, kind), 0) + 1
    assert {
        (r["player"], r["result"]): r["games"] for r in standings["data"]["values"] if r["games"]
    } == counted
    order = [row.name for row in result.standings()]
    assert standings["encoding"]["y"]["sort"] == order
    cross = valid(plot_crosstable(result))
    cells = {(c["row"], c["column"]): c["value"] for c in cross["data"]["values"]}
    for name in result.names:
        assert cells[name, name] is None
        taken = sum(value for (row, _), value in cells.items() if row == name and value is not None)
        assert taken == next(row.points for row in result.standings() if row.name == name)


def test_a_chart_is_drawn_as_a_static_svg_and_reads_as_text() -> None:
    nodes = {"minimax": [4, 20], "alpha-beta": [4, 12]}
    chart = nodes_chart(nodes)
    svg = chart.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "Positions visited at each depth" in svg
    bars = re.findall(r'aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="bar" '
                      r'd="M[\d.]+,[\d.]+h[\d.]+v([\d.]+)', svg)  # fmt: skip
    heights = {re.search(r"positions: (\d+)", label)[1]: float(height) for label, height in bars}
    assert len(bars) == 4 and 0 < heights["4"] < heights["12"] < heights["20"]  # drawn, log scale
    assert repr(chart) == chart.text and "alpha-beta" in chart.text
    assert not in_browser()
