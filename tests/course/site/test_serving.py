"""The browser classroom inside serve: the teacher's hand-ins page and the routes beside the rooms."""

from __future__ import annotations

import json
import types
from pathlib import Path

from starlette.applications import Starlette
from starlette.testclient import TestClient

from course.site.serving import handins_html, prepare
from course.site.stamp import STAMP_FILE, built_from_this_kit, kit_stamp
from course.site.store import HandInStore

NOTEBOOK = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "files" / "exercises").mkdir(parents=True)
    (root / "files" / "exercises" / "04_flips.ipynb").write_text(NOTEBOOK)
    (root / "jupyter-lite.json").write_text("{}")
    (root / "index.html").write_text("<html>classroom</html>")
    return root


def test_the_teacher_sees_each_hand_in_by_student_and_exercise_with_the_key(tmp_path: Path) -> None:
    said: list[str] = []
    app = Starlette(routes=prepare(site(tmp_path), tmp_path / "data", said.append, tmp_path / "roster.json").routes)
    app.state.classroom = types.SimpleNamespace(teacher_key="sesame")
    client = TestClient(app)
    assert client.get("/").text == "<html>classroom</html>"
    sent = {"student": "<i>Ada &", "exercise": "04_flips", "notebook": NOTEBOOK}
    assert client.post("/hand-in", content=json.dumps(sent)).json()["ok"]
    assert client.get("/teacher/handins").status_code == 403
    assert client.get("/teacher/handins?key=wrong").status_code == 403
    page = client.get("/teacher/handins?key=sesame").text
    assert "&lt;i&gt;Ada &amp;" in page and "<i>Ada" not in page and "04_flips" in page
    assert "python -m course grade" in page and any("hand-ins go to" in line for line in said)


def test_an_empty_store_says_so(tmp_path: Path) -> None:
    assert "No hand-ins yet." in handins_html(HandInStore(tmp_path))


def test_a_site_built_from_another_copy_of_the_kit_is_served_with_a_note(tmp_path: Path) -> None:
    root = site(tmp_path)
    said: list[str] = []
    prepare(root, tmp_path / "data", said.append, tmp_path / "roster.json")
    assert any("built from another copy of the kit" in line for line in said)
    (root / STAMP_FILE).write_text(kit_stamp() + "\n")
    said.clear()
    prepare(root, tmp_path / "data", said.append, tmp_path / "roster.json")
    assert not any("another copy" in line for line in said) and built_from_this_kit(root)
    (root / STAMP_FILE).write_text("0" * 16)
    assert not built_from_this_kit(root)


def test_the_hand_ins_page_is_in_the_teacher_s_language(tmp_path: Path, monkeypatch) -> None:
    app = Starlette(routes=prepare(site(tmp_path), tmp_path / "data", lambda line: None, tmp_path / "roster.json").routes)
    app.state.classroom = types.SimpleNamespace(teacher_key="sesame")
    client = TestClient(app)
    sent = {"student": "Ada", "exercise": "04_flips", "notebook": NOTEBOOK}
    assert client.post("/hand-in", content=json.dumps(sent)).json()["ok"]
    english = client.get("/teacher/handins?key=sesame").text
    assert "<html lang='en'>" in english and "<title>Hand-ins</title>" in english
    assert "<th>Student</th><th>Exercise</th><th>Hand-ins</th><th>Last (UTC)</th>" in english
    assert "; grade them with <code>python -m course grade " in english
    monkeypatch.setenv("KIT_LANG", "fr")
    french = client.get("/teacher/handins?key=sesame").text
    assert "<html lang='fr'>" in french and "<title>Rendus</title>" in french and "<h2>Rendus</h2>" in french
    assert "<th>Élève</th><th>Exercice</th><th>Rendus</th><th>Dernier (UTC)</th>" in french
    assert "Gardés dans " in french and " ; notez-les avec <code>python -m course grade " in french
    assert "Ada" in french and "04_flips" in french
    refused = client.get("/teacher/handins?key=wrong")
    assert refused.status_code == 403 and "Donnez la clé de l’enseignant : /teacher/handins?key=CLÉ" in refused.text
    assert "/teacher/term.csv?key=CLÉ" in client.get("/teacher/term.csv?key=wrong").text
    assert "Aucun rendu pour l’instant." in handins_html(HandInStore(tmp_path / "empty"))
