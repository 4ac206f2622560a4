"""The live progress: the store's grid and bounds, the routes' refusals, the kernel side without a server."""

from __future__ import annotations

import socket
import types
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import course.classroom.progress as progress_module
from course.classroom.progress import Progress, ProgressRefused
from course.grading import reports
from course.grading.mistakes import OFF_BY_ONE
from course.roster.signin import SignIns
from course.roster.store import RosterFile
from course.site import progress_client
from course.site.progress_routes import BODY, progress_routes
from course.site.signin_routes import Gate, signin_routes
from course.site.store import Flood


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_grid_puts_the_student_stuck_longest_first(tmp_path: Path) -> None:
    clock = Clock()
    progress = Progress(tmp_path, clock)
    progress.record("Ada", "04_flips", "flips", False, "off by one")
    clock.now += 60
    progress.record("Bo", "04_flips", "flips", False, "swapped")
    progress.record("Cy", "04_flips", "flips", True)
    clock.now += 60
    progress.record("Ada", "03_legal_moves", "legal_moves", True)
    clock.now += 240
    grid = progress.grid()
    assert grid["columns"] == ["Student", "Stuck", "03_legal_moves/legal_moves", "04_flips/flips"]
    assert [row[0] for row in grid["rows"]] == ["Ada", "Bo", "Cy"]
    assert grid["rows"][0] == ["Ada", "6 min", "ok (1)", "failing 6 min, off by one (1)"]
    assert grid["rows"][2] == ["Cy", "0 min", "", "ok (1)"]


def test_a_pass_ends_being_stuck_and_a_later_failure_starts_the_clock_again(tmp_path: Path) -> None:
    clock = Clock()
    progress = Progress(tmp_path, clock)
    progress.record("Ada", "04_flips", "flips", False)
    clock.now += 600
    progress.record("Ada", "04_flips", "flips", True)
    clock.now += 60
    progress.record("Ada", "04_flips", "flips", False)
    clock.now += 120
    assert progress.stuck_for("Ada", clock.now) == 120
    assert progress.grid()["rows"][0][2] == "failing 2 min (3)"


def test_progress_survives_a_restart_and_the_csv_has_every_attempt(tmp_path: Path) -> None:
    clock = Clock()
    first = Progress(tmp_path, clock)
    first.record("Ada", "04_flips", "flips", False, "off by one")
    first.record("=cmd", "04_flips", "flips", True)
    with (tmp_path / progress_module.FILE).open("a") as file:
        file.write("not json\n")  # a line someone else wrote is passed over
    again = Progress(tmp_path, clock)
    assert again.grid() == first.grid()
    lines = again.csv().splitlines()
    assert lines[0] == "time,student,exercise,question,passed,mistake"
    assert lines[1].endswith(",Ada,04_flips,flips,no,off by one")
    assert lines[2].endswith(",'=cmd,04_flips,flips,yes,")  # never a formula in a spreadsheet
    assert len(lines) == 3


def test_a_student_has_a_bounded_number_of_attempts_and_a_rate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    progress = Progress(tmp_path, clock)
    for _ in range(progress_module.RATE_LIMIT):
        progress.record("Ada", "04_flips", "flips", False)
    with pytest.raises(ProgressRefused, match="too many self-checks from Ada") as refused:
        progress.record("Ada", "04_flips", "flips", False)
    assert refused.value.status == 429
    progress.record("Bo", "04_flips", "flips", False)  # another student is not slowed down
    clock.now += progress_module.RATE_WINDOW
    progress.record("Ada", "04_flips", "flips", True)
    monkeypatch.setattr(progress_module, "MAX_PER_STUDENT", progress.counts["Ada"])
    with pytest.raises(ProgressRefused, match="already has"):
        progress.record("Ada", "04_flips", "flips", True)
    monkeypatch.setattr(progress_module, "MAX_STUDENTS", 2)
    with pytest.raises(ProgressRefused, match="2 students"):
        progress.record("Cy", "04_flips", "flips", True)
    kept = (tmp_path / progress_module.FILE).read_text().splitlines()
    assert len(kept) == progress_module.RATE_LIMIT + 2


@pytest.fixture
def app(tmp_path: Path) -> tuple[TestClient, Progress]:
    progress = Progress(tmp_path, Clock())
    gate = Gate(SignIns(RosterFile(tmp_path / "roster.json")))  # a class without a roster
    app = Starlette(routes=[*signin_routes(gate), *progress_routes(progress, gate)])
    app.state.classroom = types.SimpleNamespace(teacher_key="sesame")
    return TestClient(app), progress


REPORT = {"exercise": "04_flips", "question": "flips", "passed": False, "mistake": "off by one"}


def test_a_browser_names_itself_once_then_reports(app: tuple[TestClient, Progress]) -> None:
    client, progress = app
    assert client.post("/progress", json=REPORT).status_code == 403  # no name chosen yet
    named = client.post("/signin/name", json={"student": "Zoë Martin"})
    assert named.status_code == 200 and "reversi_session" in named.headers["set-cookie"]
    assert "HttpOnly" in named.headers["set-cookie"]
    assert client.post("/progress", json=REPORT).json() == {"ok": True}
    assert client.post("/progress", json={"exercise": "04_flips", "question": "flips", "passed": True}).status_code == 200
    assert [row[0] for row in progress.grid()["rows"]] == ["zoe-martin"]  # the key; the server shows names


def test_only_the_teacher_reads_the_csv(app: tuple[TestClient, Progress]) -> None:
    client, _ = app
    client.post("/signin/name", json={"student": "Ada"})
    client.post("/progress", json=REPORT)
    assert client.get("/teacher/progress.csv").status_code == 403
    assert client.get("/teacher/progress.csv?key=wrong").status_code == 403
    csv = client.get("/teacher/progress.csv?key=sesame")
    assert csv.headers["content-type"].startswith("text/csv")
    assert ",ada,04_flips,flips,no,off by one" in csv.text


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"not json", "a self-check report"),
        (b"[" * 500, "nests deeper"),
        (b'{"exercise": "04_flips", "question": "flips", "passed": NaN}', "a self-check report"),
        (b'{"exercise": "04_flips", "question": "flips", "passed": "yes"}', "must be bool"),
        (b'{"exercise": "04_flips", "question": "flips"}', "needs the field 'passed'"),
        (b'{"exercise": "04_flips", "question": "flips", "passed": true, "code": "x"}', "no field 'code'"),
        (b'{"exercise": "04\\u0000", "question": "flips", "passed": true}', "exercise name"),
        (b'{"exercise": "' + b"x" * 100 + b'", "question": "flips", "passed": true}', "exercise name"),
        (b'{"exercise": "a", "question": "' + b"x" * (BODY.bytes + 10) + b'", "passed": true}', "larger than"),
    ],
)
def test_hostile_reports_are_refused_with_the_reason(app: tuple[TestClient, Progress], body: bytes, reason: str) -> None:
    client, progress = app
    client.post("/signin/name", json={"student": "Ada"})
    answer = client.post("/progress", content=body)
    assert answer.status_code == 400
    assert reason in answer.json()["error"]
    assert progress.grid()["rows"] == []


@pytest.mark.parametrize("name", ["../etc", "", "x" * 100, "\u202e", 7])
def test_a_bad_name_is_refused_and_no_cookie_is_set(app: tuple[TestClient, Progress], name: object) -> None:
    client, _ = app
    answer = client.post("/signin/name", json={"student": name})
    assert answer.status_code == 400 and answer.json()["error"]
    assert "set-cookie" not in answer.headers


def test_a_forged_cookie_is_read_by_the_same_rules(app: tuple[TestClient, Progress]) -> None:
    client, progress = app
    client.cookies.set("reversi_session", "%2E%2E%2Fetc")
    assert client.post("/progress", json=REPORT).status_code == 403
    assert progress.grid()["rows"] == []


def test_the_mistake_kind_is_the_short_name_of_the_likely_cause() -> None:
    assert reports.mistake_kind(OFF_BY_ONE) == "off by one"
    assert reports.mistake_kind("") == ""
    assert reports.exercise_of("flips").endswith("flips")


def test_without_a_class_server_a_report_is_silent(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REVERSI_CLASS_SERVER", raising=False)
    assert reports.class_server() is None
    reports.report("flips", False, OFF_BY_ONE)
    progress_client.my_name("Ada")
    assert capsys.readouterr() == ("", "")


def test_a_server_that_never_answers_is_given_up_silently(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        reports.post("/progress", dict(REPORT), f"http://127.0.0.1:{port}")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    reports.post("/progress", dict(REPORT), f"http://127.0.0.1:{port}")  # nothing listens
    assert capsys.readouterr() == ("", "")


def test_one_computer_is_bounded_whatever_names_it_gives(tmp_path: Path) -> None:
    progress = Progress(tmp_path, Clock())
    gate = Gate(SignIns(RosterFile(tmp_path / "roster.json")))
    client = TestClient(Starlette(routes=[*signin_routes(gate), *progress_routes(progress, gate, Flood(limit=4, window=60))]))
    for number in range(2):
        client.post("/signin/name", json={"student": f"Ada {number}"})
        assert client.post("/progress", json=REPORT).status_code == 200
    client.post("/progress", json=REPORT)
    client.post("/progress", json=REPORT)
    answer = client.post("/progress", json=REPORT)
    assert answer.status_code == 429 and "this computer" in answer.json()["error"]
    assert len(progress.grid()["rows"]) == 2
