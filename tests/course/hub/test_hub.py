"""The hub service's rules without a hub: who a token is, who may teach, the prefix, the lessons copy.

A real hub (tests/browser/test_hub.py) proves the whole path; here a stand-in for JupyterHub's
HubOAuth (:class:`StandInAuth`, named so: it answers from a table instead of asking a hub)
drives every case of bad input quickly: unknown, revoked and service tokens, names a
folder cannot hold, another student's name, a request from outside.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from course import i18n
from course.hub import lessons
from course.hub.identity import COOKIE, HubGate, key_for
from course.hub.service import build
from course.site.languages import translated_notebooks
from course.site.store import student_folder

PREFIX = "/services/reversi/"
NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


class StandInAuth:
    """A stand-in for ``jupyterhub.services.auth.HubOAuth``: tokens looked up in a table."""

    oauth_client_id = "service-reversi"
    oauth_redirect_uri = "/services/reversi/oauth_callback"
    oauth_authorization_url = "/hub/api/oauth2/authorize"
    cache_max_age = 300

    def __init__(self, users: dict[str, dict[str, Any]]) -> None:
        self.users = users
        self.asked: list[str] = []

    async def user_for_token(self, token: str, sync: bool = True) -> dict[str, Any] | None:
        self.asked.append(token)
        return self.users.get(token)

    def generate_pkce_code_challenge(self) -> tuple[str, str, str]:
        return "verifier", "challenge", "S256"

    def generate_state(self, next_url: str | None = None, **extra: Any) -> str:
        return "state-1"


USERS = {
    "t-ada": {"kind": "user", "name": "ada", "admin": False, "groups": []},
    "t-grace": {"kind": "user", "name": "grace.hopper", "admin": False, "groups": ["teachers"]},
    "t-teach": {"kind": "user", "name": "teach", "admin": True, "groups": []},
    "t-service": {"kind": "service", "name": "announcer"},
}


@pytest.fixture
def service(tmp_path: Path) -> TestClient:
    app, _ = build(tmp_path / "data", StandInAuth(USERS), PREFIX, teachers=None)
    return TestClient(app, base_url="http://hub.local")


def post(client: TestClient, path: str, body: object, token: str | None = None) -> Any:
    headers = {"Authorization": f"token {token}"} if token else {}
    return client.post(PREFIX.rstrip("/") + path, json=body, headers=headers)


@pytest.mark.parametrize("names", [["ada", "Ada", "ada.lovelace", "ada-lovelace", "ada_lovelace", "zoë", "李雷", "x" * 200,
                                    "a@b.c", "..", "-ada-"]])  # fmt: skip
def test_every_hub_name_gets_a_folder_of_its_own(names: list[str]) -> None:
    keys = [key_for(name) for name in names]
    assert len(set(keys)) == len(keys)
    for key in keys:
        assert student_folder(key) == key and len(key) <= 40


def test_a_kernel_hands_in_and_reports_as_its_hub_user_only(service: TestClient, tmp_path: Path) -> None:
    answer = post(service, "/hand-in", {"exercise": "04_flips", "notebook": NOTEBOOK}, "t-grace")
    assert answer.status_code == 200 and answer.json()["receipt"]["student"] == "grace.hopper"
    assert [p.parent.parent.name for p in (tmp_path / "data" / "handins").rglob("*.ipynb")] == [key_for("grace.hopper")]
    for token, status in ((None, 403), ("unknown", 403), ("t-service", 403)):
        assert post(service, "/hand-in", {"exercise": "04_flips", "notebook": NOTEBOOK}, token).status_code == status
    refused = post(service, "/hand-in", {"student": "ada", "exercise": "04_flips", "notebook": NOTEBOOK}, "t-grace")
    assert refused.status_code == 403 and "logged in to the hub as grace.hopper" in refused.json()["error"]
    assert post(service, "/progress", {"exercise": "04_flips", "question": "flips", "passed": True}, "t-ada").status_code == 200
    assert post(service, "/progress", {"exercise": "04_flips", "question": "flips", "passed": True}).status_code == 403
    assert json.loads((tmp_path / "data" / "progress.jsonl").read_text())["student"] == "ada"


def test_a_revoked_token_acts_for_nobody_once_the_hub_says_so(tmp_path: Path) -> None:
    users = dict(USERS)
    auth = StandInAuth(users)
    app, _ = build(tmp_path / "data", auth, PREFIX)
    client = TestClient(app, base_url="http://hub.local")
    assert post(client, "/hand-in", {"exercise": "04_flips", "notebook": NOTEBOOK}, "t-ada").status_code == 200
    del users["t-ada"]  # the hub revoked it (the real HubOAuth asks again after cache_max_age)
    assert post(client, "/hand-in", {"exercise": "04_flips", "notebook": NOTEBOOK}, "t-ada").status_code == 403
    assert auth.cache_max_age == 60


def test_a_browser_signs_in_through_the_hub_and_only_a_teacher_reaches_the_teacher_page(service: TestClient) -> None:
    first = service.get(PREFIX, follow_redirects=False)
    assert first.status_code == 302 and first.headers["location"].startswith("/hub/api/oauth2/authorize?")
    assert "code_challenge=challenge" in first.headers["location"] and "state=state-1" in first.headers["location"]
    for token, teacher in (("t-teach", True), ("t-ada", False)):
        service.cookies.set(COOKIE, token, domain="hub.local", path=PREFIX)
        page = service.get(PREFIX, follow_redirects=False)
        if teacher:
            assert page.status_code == 302 and page.headers["location"].startswith(f"{PREFIX}teacher#key=")
        else:
            assert page.status_code == 200 and "logged in as ada" in page.text and "key=" not in page.text
        service.cookies.clear()
    forged = service.get(PREFIX + "oauth_callback?code=x&state=other", follow_redirects=False)
    assert forged.status_code == 403


def test_a_group_makes_teachers(tmp_path: Path) -> None:
    gate = HubGate(StandInAuth(USERS), teachers="teachers")

    class Connection:
        def __init__(self, token: str) -> None:
            self.headers, self.cookies = {"authorization": f"Bearer {token}"}, {}

    async def teachers() -> list[bool]:
        return [await gate.is_teacher(Connection(t)) for t in ("t-grace", "t-teach", "t-ada")]  # type: ignore[arg-type]

    assert asyncio.run(teachers()) == [True, True, False]


def test_the_lessons_are_copied_once_and_an_edited_one_is_never_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kit = {"lessons": tmp_path / "kit" / "notebooks", "exercises": tmp_path / "kit" / "exercises"}
    for folder in kit.values():
        folder.mkdir(parents=True)
    (kit["lessons"] / "00_welcome.ipynb").write_text("v1 welcome")
    (kit["lessons"] / "01_play.ipynb").write_text("v1 play")
    (kit["exercises"] / "01_squares.ipynb").write_text("v1 squares")
    monkeypatch.setattr(lessons, "bundled", lambda package, checkout: kit[package.split(".")[1]])
    home = tmp_path / "home" / "reversi"
    assert lessons.copy_lessons(home) == [
        "copied lessons/00_welcome.ipynb", "copied lessons/01_play.ipynb", "copied exercises/01_squares.ipynb"]
    (home / "lessons" / "01_play.ipynb").write_text("my own notes")  # the student's edit
    (kit["lessons"] / "00_welcome.ipynb").write_text("v2 welcome")  # a newer kit
    (kit["lessons"] / "01_play.ipynb").write_text("v2 play")
    (kit["lessons"] / "02_rules.ipynb").write_text("v2 rules")
    assert lessons.copy_lessons(home) == [
        "updated lessons/00_welcome.ipynb", "kept lessons/01_play.ipynb (you changed it)", "copied lessons/02_rules.ipynb"]
    assert (home / "lessons" / "01_play.ipynb").read_text() == "my own notes"
    assert (home / "lessons" / "00_welcome.ipynb").read_text() == "v2 welcome"
    assert lessons.copy_lessons(home) == ["kept lessons/01_play.ipynb (you changed it)"]


def test_a_french_hub_copies_the_french_notebooks_and_an_english_one_the_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kit = {"lessons": tmp_path / "kit" / "notebooks", "exercises": tmp_path / "kit" / "exercises"}
    for folder in kit.values():
        (folder / "fr").mkdir(parents=True)
    (kit["lessons"] / "00_welcome.ipynb").write_text("welcome")
    (kit["lessons"] / "fr" / "00_welcome.ipynb").write_text("bienvenue")
    (kit["lessons"] / "01_play.ipynb").write_text("play")  # no translation: English
    (kit["exercises"] / "01_squares.ipynb").write_text("squares")
    (kit["exercises"] / "fr" / "01_squares.ipynb").write_text("cases")
    monkeypatch.setattr(lessons, "bundled", lambda package, checkout: kit[package.split(".")[1]])
    monkeypatch.delenv("KIT_LANG", raising=False)
    english = tmp_path / "ada" / "reversi"
    lessons.copy_lessons(english)
    assert [(english / name).read_text() for name in ("lessons/00_welcome.ipynb", "lessons/01_play.ipynb",
            "exercises/01_squares.ipynb")] == ["welcome", "play", "squares"]  # fmt: skip
    monkeypatch.setenv("KIT_LANG", "fr")  # the hub's (or the single-user server's) environment
    french = tmp_path / "bob" / "reversi"
    assert lessons.copy_lessons(french) == [
        "copié : lessons/00_welcome.ipynb", "copié : lessons/01_play.ipynb", "copié : exercises/01_squares.ipynb"]
    assert [(french / name).read_text() for name in ("lessons/00_welcome.ipynb", "lessons/01_play.ipynb",
            "exercises/01_squares.ipynb")] == ["bienvenue", "play", "cases"]  # fmt: skip
    assert not (french / "lessons" / "fr").exists()
    assert lessons.copy_lessons(english) == [  # the hub turned French: untouched copies follow
        "mis à jour : lessons/00_welcome.ipynb", "mis à jour : exercises/01_squares.ipynb"]


def test_the_installed_kit_brings_its_lessons_and_only_the_student_copies_of_the_exercises() -> None:
    found = {path.name for path in lessons.bundled("course.lessons", "notebooks").glob("*.ipynb")}
    exercises = {path.name for path in lessons.bundled("course.exercises", "exercises").glob("*.ipynb")}
    assert "00_welcome.ipynb" in found and "04_flips.ipynb" in exercises
    setup = (Path(__file__).resolve().parents[3] / "setup.py").read_text()
    assert '"course.exercises": ["*.ipynb", *TRANSLATED]' in setup  # the student copies and their
    assert 'TRANSLATED = [f"{code}/*.ipynb" for code in LANGUAGES]' in setup  # translations, one folder
    assert "source" not in i18n.LANGUAGES  # per language: never source/ with the answers
    assert "00_welcome.ipynb" in {path.name for path in translated_notebooks(
        sorted(lessons.bundled("course.lessons", "notebooks").glob("*.ipynb")), "fr") if path.parent.name == "fr"}
