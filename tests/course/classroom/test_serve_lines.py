"""What ``python -m course serve`` prints once it listens: the addresses students type, the
teacher's page with its key, where hand-ins and games are kept, how to stop."""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path

from starlette.routing import Mount, Route, WebSocketRoute

from course.classroom.announce import answers as _answers
from course.classroom.announce import machine_addresses as _machine_addresses
from course.classroom.announce import reachable as _reachable
from course.classroom.announce import ready_lines as _ready_lines
from tests.course.classroom.server_process import ServerProcess


def test_on_every_address_each_address_of_this_computer_is_given_to_students() -> None:
    lines = _ready_lines(
        "0.0.0.0", 8765, ["192.168.1.20", "10.0.0.5"], "K3y", "/srv/class", site=True
    )
    assert lines[:3] == [
        "Students open one of these addresses in a browser (the one of the network they are on):",
        "  http://192.168.1.20:8765/",
        "  http://10.0.0.5:8765/",
    ]
    assert 'join("ws://192.168.1.20:8765", room="table-1", name="Ada")' in lines[3]
    assert "Teacher key: K3y" in lines
    assert "Teacher's page (on this computer): http://127.0.0.1:8765/teacher#key=K3y" in lines
    assert lines[-1] == "Hand-ins and games are kept in /srv/class"
    assert not any("0.0.0.0" in line for line in lines)  # never an address nobody can type


def test_one_address_is_given_as_one_line() -> None:
    lines = _ready_lines("0.0.0.0", 80, ["172.16.4.2"], "k", "/d", site=True)
    assert lines[0] == "Students open this address in a browser: http://172.16.4.2:80/"


def test_a_host_of_its_own_is_the_one_address_and_loopback_says_it_is_this_computer_only() -> None:
    lines = _ready_lines("192.168.1.20", 8765, ["10.0.0.5"], "k", "/d", site=True)
    assert lines[0] == "Students open this address in a browser: http://192.168.1.20:8765/"
    assert "Teacher's page: http://192.168.1.20:8765/teacher#key=k" in lines
    assert not any("10.0.0.5" in line or "this computer only" in line for line in lines)
    local = _ready_lines("127.0.0.1", 8765, [], "k", "/d", site=True)
    assert local[0] == "Students open this address in a browser: http://127.0.0.1:8765/"
    assert "  (this computer only: --host 0.0.0.0 lets the students' machines in)" in local
    ipv6 = _ready_lines("::1", 8765, [], "k", "/d", site=True)
    assert ipv6[0] == "Students open this address in a browser: http://[::1]:8765/"


def test_without_an_address_found_the_lines_say_this_computers_address() -> None:
    lines = _ready_lines("0.0.0.0", 8765, [], "k", "/d", site=True)
    assert (
        lines[0]
        == "Students open this address in a browser: http://<this computer's address>:8765/"
    )
    assert "no network address of this computer was found" in lines[1]


def test_without_the_browser_classroom_students_join_from_a_notebook_and_nothing_is_handed_in() -> (
    None
):
    lines = _ready_lines("0.0.0.0", 8765, ["10.1.2.3", "192.168.0.2"], "k", "/d", site=False)
    assert lines[0] == (
        'Students join with:  from course import join; join("ws://10.1.2.3:8765", room="table-1", name="Ada")'
    )
    assert lines[1] == "  (or with another address of this computer: 192.168.0.2)"
    assert not any("http://10.1.2.3" in line for line in lines)  # no page is served there
    assert lines[-1] == "Games are kept in /d (no hand-ins without the browser classroom)"
    memory = _ready_lines("127.0.0.1", 1, [], "k", ":memory:", site=False)
    assert memory[-1] == "Nothing is kept: the database is in memory"


def test_this_computers_addresses_are_ipv4_without_loopback_or_repeats() -> None:
    found = _machine_addresses()
    assert len(found) == len(set(found))
    for address in found:
        parsed = ipaddress.IPv4Address(address)
        assert not parsed.is_loopback and not parsed.is_unspecified
    assert _reachable(["127.0.0.1", "127.0.1.1", "0.0.0.0", "10.0.0.1", "10.0.0.1"]) == ["10.0.0.1"]


def test_only_a_route_that_answers_a_browser_at_slash_counts_as_the_site() -> None:
    async def page(scope, receive, send):  # type: ignore[no-untyped-def]
        pass

    assert _answers(Mount("/", app=page), "/")
    assert not _answers(Route("/hand-in", page), "/")
    assert not _answers(WebSocketRoute("/", page), "/")


def test_the_real_server_prints_the_site_steps_then_what_to_type_then_how_to_stop(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-lite-schema-version": 0}))
    server = ServerProcess(tmp_path / "data", 60.0, None, site=site).start()
    try:
        lines = server.lines
        port = server.url.rsplit(":", 1)[1]
        note = next(n for n, line in enumerate(lines) if line.startswith("Note: the site in"))
        listening = next(
            n for n, line in enumerate(lines) if "listening on ws://127.0.0.1:" in line
        )
        assert note < listening  # what preparing the site said comes first, not swallowed
        after = lines[listening + 1 :]
        assert after[0] == f"Students open this address in a browser: http://127.0.0.1:{port}/"
        assert f"Teacher key: {server.key}" in after
        assert f"Teacher's page: http://127.0.0.1:{port}/teacher#key={server.key}" in after
        assert f"Hand-ins and games are kept in {(tmp_path / 'data').resolve()}" in after
        assert after[-1] == "Press Ctrl-C to stop."
    finally:
        server.stop()
