"""A self-check stops a student's runaway function by time and by memory, with or without threads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from course.grading import limits
from course.grading.limits import Overrun, bounded

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(params=["threads", "browser"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "browser":
        monkeypatch.setattr(limits, "has_threads", lambda: False)
    return str(request.param)


def spin() -> None:
    count = 0
    while True:
        count += 1


def quick(n: int) -> int:
    return sum(range(n))


def test_an_endless_loop_is_stopped_after_its_time(mode: str) -> None:
    with pytest.raises(Overrun, match=r"your walk ran for 0.3 s and was stopped: does the loop step"), bounded("walk", seconds=0.3):
        spin()


HOARD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, resource.RLIM_INFINITY))  # a failed bound ends here
from course.grading import limits
if sys.argv[1] == "browser":
    limits.has_threads = lambda: False
def hoard():
    path = []
    while True:
        path.append([len(path)])
try:
    with limits.bounded("walk", seconds=60, megabytes=40):
        hoard()
except limits.Overrun as stopped:
    print(stopped)
"""


@pytest.mark.parametrize("way", ["threads", "browser"])
def test_an_endless_append_is_stopped_by_memory(way: str) -> None:
    """In a Python of its own, under a 4 GB ceiling: a failed bound is a MemoryError there,
    never the test machine's memory."""
    done = subprocess.run([sys.executable, "-c", HOARD, way], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)  # fmt: skip
    assert done.stdout.startswith("your walk used more than 40 MB and was stopped"), done.stdout + done.stderr


def test_a_correct_answer_comes_back_untouched_and_nothing_is_raised_later(mode: str) -> None:
    for _ in range(200):
        with bounded("total", seconds=5):
            answer = quick(1000)
        assert answer == 499500
    assert sum(range(10**6)) == 499999500000  # no late exception lands after the block


def test_the_previous_trace_hook_is_restored(mode: str) -> None:
    before = sys.gettrace()
    with pytest.raises(Overrun), bounded("walk", seconds=0.2):
        spin()
    assert sys.gettrace() is before


def test_an_error_of_the_students_own_passes_through(mode: str) -> None:
    with pytest.raises(ZeroDivisionError), bounded("walk"):
        quick(1) // 0


def test_memory_is_read_on_this_system() -> None:
    reading = limits.resident_bytes()
    assert reading is not None and reading > 10 * 2**20


def stuck_walk(start, direction, size):  # type: ignore[no-untyped-def]
    row, col = start
    while 0 <= row < size and 0 <= col < size:  # neither steps nor grows
        pass
    return []


@pytest.mark.parametrize("walk", [stuck_walk])
def test_a_self_check_stops_a_runaway_walk_once_and_names_the_students_line(
    mode: str, walk: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from course.grading import checks

    monkeypatch.setattr(limits, "SECONDS", 0.5)
    monkeypatch.setattr(limits, "MEGABYTES", 100)
    with pytest.raises(AssertionError, match="and was stopped"):
        checks.walk(walk)
    shown = capsys.readouterr().out
    assert "0/12 cases passed" in shown
    assert "of your code, in stuck_walk:" in shown
    assert "walk ran for 0.5 s" in shown or "walk used more than 100 MB" in shown


def test_nested_bounds_are_each_watched(mode: str) -> None:
    """A student's function that runs a bounded call of its own (a self-check inside an answer)
    leaves the outer call watched when the inner one ends."""

    def inner_then_spin() -> None:
        with bounded("helper", seconds=5):
            quick(10)
        spin()

    with pytest.raises(Overrun, match="your walk ran for 0.3 s"), bounded("walk", seconds=0.3):
        inner_then_spin()


RUNAWAY_CHECK = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, resource.RLIM_INFINITY))  # a failed bound ends here
from course.grading import checks, limits
limits.MEGABYTES = 100
if sys.argv[1] == "browser":
    limits.has_threads = lambda: False
def walk(start, direction, size):
    squares = []
    row, col = start
    while 0 <= row < size and 0 <= col < size:  # forgets to step
        squares.append((row + direction[0], col + direction[1]))
    return squares
try:
    checks.walk(walk)
except AssertionError as failed:
    print("FAILED:", failed)
"""


@pytest.mark.parametrize("way", ["threads", "browser"])
def test_a_self_check_stops_a_runaway_walk_by_memory_once(way: str) -> None:
    done = subprocess.run([sys.executable, "-c", RUNAWAY_CHECK, way], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)  # fmt: skip
    shown = done.stdout
    assert "walk: 0/12 cases passed" in shown and "of your code, in walk:" in shown, shown + done.stderr
    assert "your walk used more than 100 MB and was stopped" in shown
