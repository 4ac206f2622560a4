"""The browser classroom in French: the class server's sign-in page and its answers (sign-in,
hand-in, self-check) speak the server's language (KIT_LANG, the teacher's choice), and the
hand-in's own sentences in the page speak the kernel's; English stays the default."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from course import i18n
from course.classroom.progress import Progress
from course.roster.model import Roster
from course.roster.signin import SignIns
from course.roster.store import RosterFile
from course.site import handin_client
from course.site.progress_routes import progress_routes
from course.site.routes import site_routes
from course.site.signin_routes import Gate, page, signin_routes
from course.site.store import HandInError, HandInStore, exercise_name

NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def words(text: str) -> dict[str, str]:
    """The sentences a page's script writes (its ``WORDS``)."""
    found = re.search(r"const WORDS = (.*);\n", text)
    assert found is not None
    loaded: dict[str, str] = json.loads(found.group(1))
    return loaded


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    """A browser, not signed in, at a French class server with a roster of one."""
    monkeypatch.setenv("KIT_LANG", "fr")
    roster = RosterFile(tmp_path / "roster.json")
    roster.save(Roster().add("Ada Lovelace"))
    gate = Gate(SignIns(roster, tmp_path / "signin.sqlite"))
    site = tmp_path / "site"
    site.mkdir()
    routes = [*signin_routes(gate), *progress_routes(Progress(tmp_path / "data"), gate),
              *site_routes(site, HandInStore(tmp_path / "data", frozenset({"04_flips"})), gate)]  # fmt: skip
    return TestClient(Starlette(routes=routes), base_url="http://class.local:8765")


def test_the_sign_in_page_is_french_when_the_server_is(browser: TestClient) -> None:
    french = browser.get("/signin/").text
    assert '<html lang="fr">' in french and "<h1>Connexion à la classe</h1>" in french
    assert '<label for="code">Ton code</label>' in french and ">Se déconnecter</button>" in french
    assert '<p>Ce navigateur est connecté au nom de <strong id="name"></strong>. Tes rendus' in french
    assert "Sur un ordinateur partagé, déconnecte-toi en partant." in french
    assert words(french) == {"answered": "le serveur de classe a répondu {status}",
                             "checking": "Vérification du code...",
                             "signedIn": "Connexion réussie : {name}.", "signedOut": "Déconnexion faite."}  # fmt: skip
    assert "@@" not in french and "Sign" not in french.replace("signin", "").replace("signout", "")
    with i18n.speaking("en"):
        english = page()
    assert '<html lang="en">' in english and "<h1>Sign in to the class</h1>" in english
    assert 'You are signed in as <strong id="name"></strong>. Your hand-ins' in english
    assert words(english)["signedIn"] == "Signed in as {name}."


def test_the_server_s_refusals_are_french_when_it_is(browser: TestClient) -> None:
    wrong = browser.post("/signin/code", json={"code": "nothing"}).json()
    assert wrong["error"] == "ce n’est pas un code de connexion : un code a 10 lettres et chiffres, comme K7QM4-XRT9P"
    assert browser.post("/signin/code", json={"code": "K7QM4-XRT9P"}).json()["error"].startswith(
        "ce code n’est pas le bon : compare-le à ta carte"
    )
    handed = browser.post("/hand-in", json={"exercise": "04_flips", "notebook": NOTEBOOK}).json()
    assert handed["error"] == (
        "ce navigateur n’est pas connecté à la classe : ouvre http://class.local:8765/signin/ et tape le code "
        "de ta carte (ton professeur l’a), puis exécute de nouveau cette cellule"
    )
    assert browser.get("/hand-in").json()["error"] == "rends ton travail avec hand_in() dans le notebook (une requête POST)"
    evil = browser.post("/progress", json={}, headers={"Origin": "http://evil.example"}).json()
    assert evil["error"] == "cette requête vient de la page d’un autre site web"
    assert browser.get("/nothing/here").text == "Introuvable : /nothing/here"
    with pytest.raises(HandInError, match="^'flips' n’est pas un nom d’exercice comme '04_flips'"):
        exercise_name("flips")


def test_the_hand_in_s_sentences_are_in_the_kernel_s_language(monkeypatch: pytest.MonkeyPatch) -> None:
    with i18n.speaking("fr"):
        script = handin_client.page_script("", "04_flips")
        with pytest.raises(HandInError, match="^hand_in\\(\\) marche dans la classe du navigateur"):
            handin_client.hand_in()
        shown: list[dict[str, Any]] = []
        monkeypatch.setattr(sys, "platform", "emscripten")
        monkeypatch.setattr("IPython.display.display", lambda bundle, raw: shown.append(bundle))
        handin_client.hand_in("Zoé")
    said = words(script)
    assert said["saving"] == "Enregistrement du notebook..." and said["refused"] == "Pas rendu : {reason}"
    assert said["handed"] == "Rendu : {exercise} par {student}, {bytes} octets, reçu le {received} (récépissé {receipt}){note}."
    assert said["noServer"].startswith("Pas rendu : le serveur de cette page ne prend pas les rendus (HTTP {status})")
    assert shown[0]["text/plain"] == "Rendu au nom de Zoé en cours..."
    assert "Saving" not in shown[0]["application/javascript"] and "__WORDS__" not in script
    assert words(handin_client.page_script("", None))["saving"] == "Saving the notebook..."
