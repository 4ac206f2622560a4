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
