"""Who is who at the class server: only a browser signed in as a student hands in, reports or sits as them.

Three browsers (TestClients with their own cookie jars) against one app with a roster:
Ada and Grace sign in with their cards' codes; Mallory tries every request a browser can
craft.  Then the same for a casual class (no roster), where the first browser keeps a name.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import websockets
from starlette.applications import Starlette
from starlette.testclient import TestClient

from course.classroom.client import RoomClient, session_headers, sign_in
from course.classroom.progress import Progress
from course.classroom.protocol import ClassroomError
from course.classroom.server import ClassServer, build_app
from course.roster import codes
from course.roster.model import Roster
from course.roster.signin import SignInRefused, SignIns
from course.roster.store import RosterFile
from course.site.progress_routes import progress_routes
from course.site.routes import site_routes
from course.site.signin_routes import COOKIE, Gate, signin_routes
from course.site.store import HandInStore

NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
REPORT = {"exercise": "04_flips", "question": "flips", "passed": True}


class Class:
    """A roster of three (two called Ada), their codes, and the app serving them."""

    def __init__(self, folder: Path, roster: bool = True) -> None:
        self.folder = folder
        self.roster_file = RosterFile(folder / "roster.json")
        if roster:
            self.roster_file.save(
                Roster().add("Ada Lovelace", lms_id="101").add("Grace Hopper", lms_id="102")
                .add("Ada Lovelace", lms_id="103")
            )  # fmt: skip
        self.now = datetime(2026, 11, 28, 9, 0, tzinfo=timezone.utc)
        self.signins = SignIns(self.roster_file, folder / "signin.sqlite", now=lambda: self.now)
        self.codes = {s.key: self.signins.issue(s.key) for s in self.signins.roster}
        self.gate = Gate(self.signins)
        self.store = HandInStore(folder / "data", frozenset({"04_flips"}))
        self.progress = Progress(folder / "data")
        site = folder / "site"
        site.mkdir()
        (site / "index.html").write_text("<html>the classroom</html>")
        routes = [*signin_routes(self.gate), *progress_routes(self.progress, self.gate),
                  *site_routes(site, self.store, self.gate)]  # fmt: skip
        self.app = Starlette(routes=routes)

    def browser(self) -> TestClient:
        return TestClient(self.app, base_url="http://class.local:8765")

    def signed_in(self, key: str) -> TestClient:
        browser = self.browser()
        answer = browser.post("/signin/code", json={"code": self.codes[key]})
        assert answer.status_code == 200, answer.text
        return browser

    def handins(self) -> list[str]:
        return sorted(str(p.relative_to(self.store.root).parent) for p in self.store.root.rglob("*.ipynb"))


@pytest.fixture
def school(tmp_path: Path) -> Class:
    return Class(tmp_path)


def hand_in(browser: TestClient, **fields: object) -> dict[str, object]:
    answer = browser.post("/hand-in", json={"exercise": "04_flips", "notebook": NOTEBOOK, **fields})
    return {"status": answer.status_code, **answer.json()}


def test_a_code_signs_a_browser_in_as_its_student_in_any_case_and_spacing(school: Class) -> None:
    browser = school.browser()
    typed = school.codes["grace-hopper"].lower().replace("-", " ")
    answer = browser.post("/signin/code", json={"code": typed})
    assert answer.json() == {"ok": True, "name": "Grace Hopper"}
    cookie = answer.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert browser.get("/signin/me").json() == {"ok": True, "casual": False, "signed_in": True, "name": "Grace Hopper"}


def test_the_server_decides_who_hands_in_reports_and_nobody_acts_for_another(school: Class) -> None:
    ada, grace, mallory = school.signed_in("ada-lovelace"), school.signed_in("grace-hopper"), school.browser()
    receipt = hand_in(ada)
    assert receipt["status"] == 200 and receipt["receipt"]["student"] == "Ada Lovelace"  # type: ignore[index]
    assert hand_in(grace)["status"] == 200
    # Mallory, not signed in, by every field a body can carry:
    for fields in ({}, {"student": "Ada Lovelace"}, {"student": "ada-lovelace"}, {"student": "101"}):
        refused = hand_in(mallory, **fields)
        assert refused["status"] == 403 and "not signed in on this browser" in str(refused["error"])
    # Grace, signed in, cannot hand in as Ada under any spelling of her name, key or id:
    for name in ("Ada Lovelace", "ada lovelace", "ada-lovelace", "101"):
        refused = hand_in(grace, student=name)
        assert refused["status"] == 403 and "you are signed in as Grace Hopper" in str(refused["error"])
    assert hand_in(grace, student="grace hopper")["status"] == 200  # her own name is fine
    assert school.handins() == ["ada-lovelace/04_flips", "grace-hopper/04_flips", "grace-hopper/04_flips"]
    assert mallory.post("/progress", json=REPORT).status_code == 403
    assert ada.post("/progress", json=REPORT).status_code == 200
    assert [a.student for a in school.progress.attempts()] == ["ada-lovelace"]


def test_forged_copied_and_replayed_cookies_are_refused(school: Class) -> None:
    ada, mallory = school.signed_in("ada-lovelace"), school.browser()
    token = ada.cookies[COOKIE]
    for forged in ("ada-lovelace", "Ada Lovelace", codes.new_token(), token + "x", "x" * 5000):
        mallory.cookies.set(COOKIE, forged, domain="class.local")
        assert hand_in(mallory)["status"] == 403
        mallory.cookies.clear()
    assert ada.post("/signin/out", json={}).json() == {"ok": True}
    mallory.cookies.set(COOKIE, token, domain="class.local")  # a copy taken before the sign-out
    assert hand_in(mallory)["status"] == 403
    assert mallory.post("/progress", json=REPORT).status_code == 403
    assert school.handins() == []


def test_a_request_from_another_sites_page_is_refused(school: Class) -> None:
    ada = school.signed_in("ada-lovelace")
    evil = {"Origin": "http://evil.example"}
    answer = ada.post("/hand-in", json={"exercise": "04_flips", "notebook": NOTEBOOK}, headers=evil)
    assert answer.status_code == 403 and "another web site" in answer.json()["error"]
    assert ada.post("/signin/code", json={"code": school.codes["grace-hopper"]}, headers=evil).status_code == 403
    same = {"Origin": "http://class.local:8765"}
    assert ada.post("/hand-in", json={"exercise": "04_flips", "notebook": NOTEBOOK}, headers=same).status_code == 200


def test_a_wrong_code_says_so_without_telling_who_exists(school: Class) -> None:
    browser = school.browser()
    for typed in ("AAAAA-AAAAA", "Ada Lovelace", "12345", ""):
        answer = browser.post("/signin/code", json={"code": typed})
        assert answer.status_code in (400, 403) and "set-cookie" not in answer.headers
        assert "Ada" not in answer.json()["error"] and "Grace" not in answer.json()["error"]
    assert "check it against your card" in browser.post("/signin/code", json={"code": "AAAAA-AAAAA"}).json()["error"]


def test_guesses_are_limited_per_address_and_for_the_whole_class(school: Class, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codes, "GUESSES_IN_TOTAL", 50)  # each wrong code costs a slow hash
    signins = school.signins
    for _ in range(codes.GUESSES_PER_ADDRESS):
        with pytest.raises(SignInRefused, match="not right|not a sign-in code"):
            signins.sign_in("ZZZZZ-ZZZZZ", "10.0.0.1")
    with pytest.raises(SignInRefused, match="from this computer") as refused:
        signins.sign_in(school.codes["ada-lovelace"], "10.0.0.1")  # even the right code, for a while
    assert refused.value.status == 429
    for number in range(codes.GUESSES_IN_TOTAL - codes.GUESSES_PER_ADDRESS):
        with pytest.raises(SignInRefused):
            signins.sign_in("ZZZZZ-ZZZZZ", f"10.1.{number // 200}.{number % 200}")
    with pytest.raises(SignInRefused, match="in this class lately"):
        signins.sign_in(school.codes["ada-lovelace"], "10.9.9.9")


def test_ten_thousand_guesses_check_at_most_the_limit_and_find_nothing(school: Class) -> None:
    browser, statuses = school.browser(), set()
    for number in range(100):  # through HTTP: refused, no cookie, from the 21st on without a check
        answer = browser.post("/signin/code", json={"code": f"{number:05d}-00000"})
        statuses.add(answer.status_code)
        assert "set-cookie" not in answer.headers
    assert statuses == {403, 429}
    found = 0
    for number in range(10_000):  # from as many addresses
        try:
            school.signins.sign_in(f"{number:05d}-11111", f"10.2.{number // 250}.{number % 250}")
            found += 1
        except SignInRefused as refused:
            assert refused.status in (403, 429)
    assert found == 0 and len(school.signins.guesses.wrong) == codes.GUESSES_IN_TOTAL


def test_a_new_code_stops_the_old_one_and_a_removed_student_is_signed_out(school: Class) -> None:
    old = school.codes["grace-hopper"]
    ada = school.signed_in("ada-lovelace")
    school.signins.issue("grace-hopper")
    assert school.browser().post("/signin/code", json={"code": old}).status_code == 403
    school.roster_file.save(school.roster_file.load().remove("ada-lovelace"))
    refused = hand_in(ada)
    assert refused["status"] == 403 and ada.get("/signin/me").json()["signed_in"] is False


def test_one_code_on_two_browsers_is_allowed_and_the_teacher_sees_both(school: Class) -> None:
    pc, tablet = school.signed_in("grace-hopper"), school.signed_in("grace-hopper")
    assert hand_in(pc)["status"] == hand_in(tablet)["status"] == 200
    assert school.signins.signed_in() == {"grace-hopper": 2}
    assert len(school.signins.browsers("grace-hopper")) == 2
    assert school.signins.sign_out_student("grace-hopper") == 2
    assert hand_in(pc)["status"] == hand_in(tablet)["status"] == 403


def test_a_clock_change_signs_nobody_in_or_out_and_hand_ins_keep_their_order(school: Class) -> None:
    ada = school.signed_in("ada-lovelace")
    school.now += timedelta(days=900)
    assert hand_in(ada)["status"] == 200
    school.now -= timedelta(days=2000)
    assert ada.get("/signin/me").json()["name"] == "Ada Lovelace"
    school.store.clock = lambda: datetime(2001, 1, 1, tzinfo=timezone.utc)  # the computer's clock went back
    assert hand_in(ada)["status"] == 200
    stamps = sorted(p.name for p in (school.store.root / "ada-lovelace" / "04_flips").glob("*.ipynb"))
    latest = json.loads((school.store.root / "ada-lovelace" / "04_flips" / stamps[-1].replace(".ipynb", ".json")).read_text())
    assert len(stamps) == 2 and not latest["received"].startswith("2001")  # the later one still sorts last


def test_codes_and_sessions_are_stored_only_as_hashes(school: Class) -> None:
    ada = school.signed_in("ada-lovelace")
    kept = (school.folder / "signin.sqlite").read_bytes()
    for code in school.codes.values():
        assert code.encode() not in kept and code.replace("-", "").encode() not in kept
    assert ada.cookies[COOKIE].encode() not in kept
    rows = sqlite3.connect(school.folder / "signin.sqlite").execute("SELECT hash FROM codes").fetchall()
    assert len(rows) == 3 and all(len(row[0]) == 128 for row in rows)


def test_a_casual_class_lets_the_first_browser_keep_a_name_until_the_teacher_frees_it(tmp_path: Path) -> None:
    school = Class(tmp_path, roster=False)
    first, second = school.browser(), school.browser()
    assert first.post("/signin/name", json={"student": "Zoë Martin"}).json() == {"ok": True, "student": "Zoë Martin"}
    assert hand_in(first, student="zoe martin")["status"] == 200  # the same name, spelled as typed
    taken = second.post("/signin/name", json={"student": "ZOË  MARTIN"})
    assert taken.status_code == 403 or taken.status_code == 409
    assert "already taken" in taken.json()["error"]
    assert hand_in(second, student="Zoë Martin")["status"] == 409
    assert second.post("/progress", json=REPORT).status_code == 403
    assert school.signins.free("Zoë Martin") is True
    assert hand_in(second, student="Zoë Martin")["status"] == 200
    assert hand_in(first)["status"] == 403  # freed: the first browser no longer holds it
    assert school.handins() == ["zoe-martin/04_flips", "zoe-martin/04_flips"]
    assert first.post("/signin/code", json={"code": "AAAAA-AAAAA"}).status_code == 409


def test_a_seat_is_taken_only_as_the_signed_in_student(school: Class) -> None:
    grace, _ = school.signins.sign_in(school.codes["grace-hopper"], "10.0.0.2")
    ada, _ = school.signins.sign_in(school.codes["ada-lovelace"], "10.0.0.3")

    async def hello(url: str, cookie: str | None, **fields: object) -> dict[str, object]:
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
        async with websockets.connect(url, additional_headers=headers) as socket:
            await socket.send(json.dumps({"type": "hello", "room": "table-1", "name": "Ada", **fields}))
            answer: dict[str, object] = json.loads(await socket.recv())
            return answer

    async def scenario() -> None:
        server = ClassServer(identify=school.gate.who)
        url = await server.start(app=build_app(server, extra_routes=signin_routes(school.gate))) + "/room"
        try:
            welcome = await hello(url, grace)
            assert welcome["type"] == "welcome" and welcome["name"] == "Grace" and welcome["role"] == "black"
            token = welcome["token"]
            refused = await hello(url, None, token=token)  # no sign-in: no seat, not even with the token
            assert refused["type"] == "error" and "not signed in" in str(refused["message"])
            refused = await hello(url, codes.new_token(), token=token)  # a forged session
            assert refused["type"] == "error" and "not signed in" in str(refused["message"])
            refused = await hello(url, ada, name="Grace", token=token)  # Ada with Grace's copied token
            assert refused["type"] == "error" and "does not hold a seat" in str(refused["message"])
            back = await hello(url, grace, token=token)
            assert back["type"] == "welcome" and back["role"] == "black" and back["name"] == "Grace"
            teacher = await hello(url, None, key=server.teacher_key, name="Teacher1")
            assert teacher["type"] == "welcome" and teacher["role"] == "teacher"
        finally:
            await server.close()

    asyncio.run(scenario())


def test_a_laptop_kernel_signs_in_with_its_code_and_sits_as_its_student(school: Class) -> None:
    async def scenario() -> None:
        server = ClassServer(identify=school.gate.who)
        url = await server.start(app=build_app(server, extra_routes=signin_routes(school.gate))) + "/room"
        try:
            with pytest.raises(ClassroomError, match="not right"):
                await asyncio.to_thread(sign_in, url, "", "AAAAA-AAAAA")
            session = await asyncio.to_thread(sign_in, url, "", school.codes["grace-hopper"].lower())
            grace = await RoomClient(url, "table-2", "Ada", headers=session_headers(session)).connect()
            assert (grace.name, grace.role) == ("Grace", "black")
            with pytest.raises(ClassroomError, match="not signed in"):
                await RoomClient(url, "table-2", "Grace").connect()
            await grace.close()
        finally:
            await server.close()

    asyncio.run(scenario())


def test_a_rooms_only_server_has_no_sign_in(tmp_path: Path) -> None:
    async def scenario() -> None:
        server = ClassServer()
        url = await server.start() + "/room"
        try:
            assert await asyncio.to_thread(sign_in, url, "Ada") is None
            ada = await RoomClient(url, "table-1", "Ada").connect()
            assert ada.name == "Ada"
            await ada.close()
        finally:
            await server.close()

    asyncio.run(scenario())


def test_the_teacher_downloads_the_term_and_a_student_cannot(school: Class) -> None:
    import types

    from course.roster.store import Places
    from course.site.serving import term_route

    ada = school.signed_in("ada-lovelace")
    hand_in(ada)
    ada.post("/progress", json=REPORT)
    places = Places(school.folder / "roster.json", school.folder / "data")
    app = Starlette(routes=[term_route(school.roster_file, places, ["04_flips"])])
    app.state.classroom = types.SimpleNamespace(teacher_key="sesame")
    client = TestClient(app)
    assert client.get("/teacher/term.csv").status_code == 403
    assert client.get("/teacher/term.csv?key=wrong").status_code == 403
    sheet = client.get("/teacher/term.csv?key=sesame")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    lines = sheet.text.splitlines()
    assert len(lines) == 4 and "Ada Lovelace" in lines[1] and "Grace Hopper" in sheet.text


def test_a_practice_room_is_its_students_alone_under_any_names(school: Class) -> None:
    grace, _ = school.signins.sign_in(school.codes["grace-hopper"], "10.0.0.2")
    ada, _ = school.signins.sign_in(school.codes["ada-lovelace"], "10.0.0.3")

    async def scenario() -> None:
        server = ClassServer(identify=school.gate.who)
        url = await server.start(app=build_app(server, extra_routes=signin_routes(school.gate))) + "/room"
        try:
            room = "practice-table-3-1a2b"  # lesson 06 in the browser: one student plays three people
            people = [await RoomClient(url, room, name, headers=session_headers(grace)).connect()
                      for name in ("Ada", "Bob", "Cy")]  # fmt: skip
            assert [p.name for p in people] == ["Ada", "Bob", "Cy"]
            with pytest.raises(ClassroomError, match="another student's"):
                await RoomClient(url, room, "Eve", headers=session_headers(ada)).connect()
            with pytest.raises(ClassroomError, match="another student's"):
                await RoomClient(url, room, "Eve").connect()  # not signed in: not Grace's either
            for person in people:
                await person.close()
        finally:
            await server.close()

    asyncio.run(scenario())
