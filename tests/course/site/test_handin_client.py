"""hand_in(): checks first, then gives the page the script that saves, posts and shows the receipt."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

import course
from course.site.handin_client import hand_in
from course.site.store import HandInError


def test_outside_the_browser_it_says_how_to_hand_in_instead() -> None:
    with pytest.raises(HandInError, match="give the .ipynb file to your teacher"):
        course.hand_in("Ada")


@pytest.mark.parametrize(
    ("name", "exercise"), [("A/da", None), ("", None), ("Ada", "../x"), ("Ada", "flips")]
)
def test_bad_names_are_refused_before_anything_is_sent(name: str, exercise: str | None) -> None:
    with pytest.raises(HandInError):
        hand_in(name, exercise)


def test_in_the_browser_the_page_gets_the_script_with_the_name_and_exercise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[dict[str, Any]] = []
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr("IPython.display.display", lambda bundle, raw: shown.append(bundle))
    hand_in(' Zoë "EXERCISE" ', "04_flips")
    script = shown[0]["application/javascript"]
    typed = 'Zoë "EXERCISE"'
    assert "const student = " + json.dumps(typed) + ";" in script
    assert 'const exercise = "04_flips" ||' in script
    assert "__STUDENT__" not in script and "__EXERCISE__" not in script
    assert "panel.context.save()" in script.replace("await ", "") and '"../hand-in"' in script
    assert shown[0]["text/plain"] == 'Handing in as Zoë "EXERCISE"...'


def test_signed_in_no_name_is_sent_and_the_server_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[dict[str, Any]] = []
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr("IPython.display.display", lambda bundle, raw: shown.append(bundle))
    hand_in()
    script = shown[0]["application/javascript"]
    assert 'const student = "";' in script  # falsy in the page: the body has no student field
    assert shown[0]["text/plain"] == "Handing in..."


def test_on_a_hub_the_kernel_sends_the_saved_file_with_its_token_and_retries_a_restarting_service(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import http.server
    import threading

    from course.site import handin_client

    seen: list[tuple[str, dict[str, Any]]] = []
    answers = [503, 200]

    class Service(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append((self.headers["Authorization"], body))
            status = answers.pop(0)
            reply = {"ok": True, "receipt": {"exercise": body["exercise"], "student": "ada", "bytes": 9,
                                              "received": "now", "sha256": "ab" * 32}}  # fmt: skip
            data = json.dumps(reply if status == 200 else {"ok": False, "error": "restarting"}).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    notebook = tmp_path / "04_flips.ipynb"
    notebook.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    monkeypatch.setenv("REVERSI_CLASS_SERVER", f"http://127.0.0.1:{server.server_port}/services/reversi")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "ada-token")
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))
    monkeypatch.setattr(handin_client, "SAVE_WAIT", 0.2)
    monkeypatch.setattr(handin_client, "RETRY_WAIT", 0.0)
    monkeypatch.setattr("IPython.display.display", lambda bundle, raw: None)
    try:
        said = handin_client.hand_in_on_hub(None, None)
    finally:
        server.shutdown()
    assert said.startswith("Handed in: 04_flips by ada") and "as last saved" in said
    assert len(seen) == 2 and all(auth == "token ada-token" for auth, _ in seen)
    assert seen[-1][1] == {"exercise": "04_flips", "notebook": json.loads(notebook.read_text())}
