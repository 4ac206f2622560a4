"""The "what the computer thinks" panel: its reports, its plot, and stopping unwanted searches."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from course.board.controller import GameController
from course.board.events import Event, EventKind
from course.board.thinking import ThinkingPanel, idle_html, thought_html
from course.charts import VEGA_LITE
from course.plots import advantage, evaluation_curve
from reversi.engine import Thought, think
from reversi.evaluation import FINAL_DISC_VALUE
from reversi.game import Game
from reversi.notation import BLACK, PASS, WHITE, Square
from reversi.players import Hard, StrongPlayer


def thinking_board(tmp_path) -> tuple[GameController, ThinkingPanel, StrongPlayer]:
    controller = GameController(black="human", white=Hard(time_limit=60.0), saves_folder=tmp_path)
    panel = ThinkingPanel(controller)
    player = controller.players[WHITE]
    assert isinstance(player, StrongPlayer)
    return controller, panel, player


def think_in_a_thread(controller: GameController, player: StrongPlayer) -> threading.Thread:
    """Do what the background runner does: mark White thinking, search in a worker thread."""
    controller.game.play("d3")
    controller.set_thinking(WHITE)
    board = controller.game.board.copy()
    worker = threading.Thread(target=player.choose_move, args=(board, WHITE))
    worker.start()
    time.sleep(0.3)
    return worker


def test_stop_ends_a_search_under_way_at_once(tmp_path):
    controller, _panel, player = thinking_board(tmp_path)
    worker = think_in_a_thread(controller, player)
    asked = time.perf_counter()
    controller.stop()
    worker.join(timeout=5)
    assert not worker.is_alive() and time.perf_counter() - asked < 0.3


def test_resign_ends_a_search_under_way_at_once(tmp_path):
    controller, _panel, player = thinking_board(tmp_path)
    worker = think_in_a_thread(controller, player)
    asked = time.perf_counter()
    controller.resign(BLACK)
    worker.join(timeout=5)
    assert not worker.is_alive() and time.perf_counter() - asked < 0.3


def test_a_search_is_left_alone_while_nothing_happens(tmp_path):
    controller, panel, player = thinking_board(tmp_path)
    worker = think_in_a_thread(controller, player)
    panel.on_event(Event(EventKind.TICK, controller.message))  # the clock ticking changes nothing
    worker.join(timeout=0.5)
    assert worker.is_alive()
    player.stop()
    worker.join(timeout=5)


def test_reports_reach_the_panel_through_the_event_loop(tmp_path):
    controller, panel, player = thinking_board(tmp_path)
    panel.toggle.value = True
    controller.game.play("d3")

    async def search() -> None:
        controller.set_thinking(WHITE)  # the panel hooks itself to the player here
        board = controller.game.board.copy()
        player.time_limit = 0.5
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, player.choose_move, board, WHITE)
        await asyncio.sleep(0.05)  # let the last report's redraw run

    asyncio.run(search())
    assert panel.latest is not None and panel.latest.depth >= 2
    assert "White is thinking" in panel.text.value and "expected line:" in panel.text.value
    assert str(panel.latest.line[0]) in panel.text.value


def test_the_text_says_depth_value_and_line():
    thought = Thought(5, Square(2, 3), -42, (Square(2, 3), Square(2, 2)), 12345, 0.8)
    shown = thought_html(thought, BLACK)
    assert "depth 5" in shown and "-42 points" in shown and "d3 c3" in shown and "12,345" in shown
    solved = Thought(12, Square(2, 3), 6 * FINAL_DISC_VALUE, (Square(2, 3),), 99, 0.2, exact=True)
    assert "solved to the end" in thought_html(solved, WHITE)
    assert "a sure win by 6" in thought_html(solved, WHITE)
    assert "Nothing to show yet" in idle_html(None)


def test_the_toggle_shows_and_hides_the_panel(tmp_path):
    _controller, panel, _player = thinking_board(tmp_path)
    assert panel.text.layout.display == "none"
    panel.toggle.value = True
    assert panel.text.layout.display == "" and "Nothing to show yet" in panel.text.value
    panel.toggle.value = False
    assert panel.text.layout.display == "none"


def finished_game() -> Game:
    game = Game()
    while not game.is_over:
        legal = game.legal_moves()
        if legal:
            game.play(legal[0])  # reading order: a quick, lopsided game
        else:
            game.pass_turn()
    return game


def test_the_evaluation_curve_follows_a_game_and_ends_on_the_result():
    game = finished_game()
    curve = evaluation_curve(game.plies, depth=1)
    assert len(curve) == len(game.plies) + 1
    margin = game.board.count(BLACK) - game.board.count(WHITE)
    assert curve[-1] == advantage(Thought(0, Square(0, 0), margin * FINAL_DISC_VALUE, (), 0, 0.0))
    start = think(Game().board, BLACK, max_depth=1, solve_empties=0)
    assert curve[0] == start.value


def test_at_the_end_of_a_game_the_panel_sets_the_chart_into_its_output_widget(tmp_path):
    controller = GameController(saves_folder=tmp_path)
    panel = ThinkingPanel(controller)
    panel.toggle.value = True
    for name in ("d3", "c5"):
        assert controller.click(name)
    controller.resign(WHITE)  # no event loop here: the curve is worked out at once
    (output,) = panel.chart.outputs
    advantages = [row["advantage"] for row in output["data"][VEGA_LITE]["data"]["values"]]
    assert advantages == evaluation_curve(controller.game.plies)
    assert panel.chart in panel.plot.children


def test_at_the_end_of_a_game_the_panel_plots_the_evaluation_of_every_move(tmp_path, monkeypatch):
    controller = GameController(saves_folder=tmp_path)
    panel = ThinkingPanel(controller)
    drawn: list[list[float]] = []
    monkeypatch.setattr(panel, "draw_plot", lambda curve, version: drawn.append(curve))
    panel.toggle.value = True
    for name in ("d3", "c5", "e6"):
        assert controller.click(name)
    assert not drawn  # the game goes on: no plot yet
    controller.resign(WHITE)
    assert len(drawn) == 1 and len(drawn[0]) == 4  # the start and the three moves
    assert panel.plot.layout.display == ""


def test_the_panel_speaks_french_when_the_kit_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from course.board.thinking import bar_html, verdict
    from course.plots import plot_evaluation

    monkeypatch.setenv("KIT_LANG", "fr")
    _controller, panel, _player = thinking_board(tmp_path)
    assert panel.toggle.description == "Ce que pense l’ordinateur"
    thought = Thought(9, Square(2, 3), -50, (Square(2, 3), PASS, Square(4, 5)), 12345, 0.8)
    assert verdict(thought, WHITE) == (
        "Blanc calcule 9 coups à l’avance et s’attend à avoir environ 2 pions de retard."
    )
    assert verdict(Thought(1, Square(2, 3), 25, (), 0, 0.0), BLACK) == (
        "Noir calcule 1 coup à l’avance et s’attend à avoir environ 1 pion d’avance."
    )
    solved = Thought(12, Square(2, 3), 6 * FINAL_DISC_VALUE, (Square(2, 3),), 99, 0.2, exact=True)
    assert verdict(solved, WHITE) == (
        "Blanc voit jusqu’à la fin de la partie : si les deux camps jouent au mieux, il gagne de 6 pions."
    )
    shown = thought_html(thought, BLACK)
    assert "Sur le plateau : <b>1</b> est le coup que Noir envisage, <b>2</b> la réponse qu’il attend de Blanc" in shown
    assert "Noir réfléchit : profondeur 9, 12\u202f345 positions<br>" in shown
    assert "évaluation pour Noir : <b>-50 points</b>" in shown and "d3 passe f5" in shown
    assert "une victoire assurée de 6" in thought_html(solved, WHITE)
    assert 'aria-label="Barre d’évaluation : Noir a environ 2 d’avance"' in bar_html(thought, WHITE)
    assert idle_html(None).startswith("Rien à montrer pour l’instant : les niveaux difficile et expert")
    game = Game()
    game.play("d3")
    chart = plot_evaluation(game, curve=[0.0, -10.0])
    assert chart.spec["title"] == "L’évaluation après chaque coup"
    assert {row["side"] for row in chart.spec["layer"][0]["data"]["values"]} == {"Noir est mieux", "Blanc est mieux"}
    monkeypatch.delenv("KIT_LANG")
    assert verdict(thought, WHITE) == "White looks 9 moves ahead and expects to be about 2 discs behind."
