"""The tournament's results in a real browser: the leaderboard, the chart, a replay stepped by clicks.

The pages are static files; the test serves them with Python's ``http.server`` on
127.0.0.1 (started and stopped by its PID here), as a teacher would put them online.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from course.contest.handins import Entrant
from course.contest.page import write_results
from course.contest.roundrobin import Settings, play_contest

pytestmark = pytest.mark.browser

PLAYER = "def choose(board, color):\n    return board.legal_moves(color)[-1]\n"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    out = tmp_path_factory.mktemp("contest")
    entrants = [Entrant("ann", cells=(PLAYER,)), Entrant("Easy", level="easy")]
    contest = play_contest(entrants, Settings(games_per_pair=2, size=6))
    write_results(contest, out)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", len(contest.games[0].moves)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)


def test_the_leaderboard_shows_the_table_and_the_chart(page, results):
    url, _ = results
    page.goto(f"{url}/index.html")
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() == 2
    assert page.locator("svg.chart").is_visible()
    assert page.locator("svg.chart rect.wins").count() >= 1
    assert page.locator("ol.games li a").count() == 2


def test_a_game_steps_forward_and_back_on_clicks_and_keys(page, results):
    url, moves = results
    page.goto(f"{url}/index.html")
    page.locator("ol.games li a").first.click()
    page.wait_for_url("**/games/game-001.html")
    caption = page.locator(".replay .caption")
    visible = page.locator(".replay .position:not([hidden])")
    assert caption.text_content().startswith("The start")
    assert visible.count() == 1 and visible.locator("circle.disc").count() == 4
    page.get_by_role("button", name="Next >").click()
    assert caption.text_content().startswith("Move 1 of ")
    assert visible.count() == 1 and visible.locator("circle.disc").count() == 5
    page.keyboard.press("ArrowRight")
    assert caption.text_content().startswith("Move 2 of ")
    page.get_by_role("button", name="< Back").click()
    assert caption.text_content().startswith("Move 1 of ")
    page.get_by_role("button", name="End >|").click()
    assert caption.text_content().startswith(f"Move {moves} of {moves}")
    assert " wins " in caption.text_content() or "a draw" in caption.text_content()
    assert page.locator(".replay").get_attribute("data-at") == str(moves)
    page.get_by_role("button", name="|< Start").click()
    assert caption.text_content().startswith("The start")
