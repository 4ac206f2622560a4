"""``python -m course class``: the class list, the cards and a student's data, as a teacher types them.

Each test runs ``course.__main__.main`` in a folder of its own and reads back the files it
wrote (the roster, the cards page, the sign-in database through :class:`SignIns`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course.__main__ import main
from course.classroom import announce
from course.classroom.progress import Progress
from course.roster import cli
from course.roster.signin import SignInRefused, SignIns
from course.roster.store import RosterFile
from course.site.store import HandInStore
from tests.course.roster.test_formats import CANVAS

CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}")
ADDRESS = "http://192.168.1.20:8765/"


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "canvas.csv").write_text(CANVAS, encoding="utf-8")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["class", *args])
    return status, capsys.readouterr().out


def signins(classroom: Path) -> SignIns:
    return SignIns(RosterFile(classroom / "class/roster.json"), classroom / "class/signin.sqlite")


def page_codes(page: Path) -> list[str]:
    return list(dict.fromkeys(CODE.findall(page.read_text(encoding="utf-8"))))


def test_import_a_canvas_export_then_again(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, said = run(capsys, "import", "canvas.csv")
    assert status == 0 and said.splitlines() == [
        "added Ada Lovelace (ada-lovelace)",
        "added Ada Lovelace (ada-lovelace-2): the same name as ada-lovelace, told apart by id 102",
        "added Jürgen Müller (jurgen-muller)",
        f"Read 3 students from canvas.csv (Canvas): 3 new, 3 on the list in {Path('class/roster.json')}. "
        "Next: python3 kit.py class cards",
    ]
    saved = json.loads((classroom / "class/roster.json").read_text(encoding="utf-8"))
    assert saved["students"][1] == {"key": "ada-lovelace-2", "name": "Ada Lovelace", "lms_id": "102",
                                    "sis_id": "S-0002", "login": "ada.l@school.example"}  # fmt: skip
    status, said = run(capsys, "import", "canvas.csv")
    assert status == 0 and "kept 3 students already on the list as they were" in said and ": 0 new, 3 on" in said
    assert not (classroom / "class/signin.sqlite").exists()  # nothing about sign-ins asked yet


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"Exercise,Points\n04_flips,3\n", "error: wrong.csv, line 1: its first line names no column of students"),
        (b"", "error: wrong.csv is empty"),
        (b"name\n" + b"A" * 5_000_001, "error: wrong.csv is 5000001 bytes"),
    ],
)
def test_a_wrong_file_changes_nothing(classroom: Path, capsys: pytest.CaptureFixture[str], content: bytes,
                                      reason: str) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    before = (classroom / "class/roster.json").read_bytes()
    (classroom / "wrong.csv").write_bytes(content)
    status, said = run(capsys, "import", "wrong.csv")
    assert status == 2 and said.startswith(reason)
    assert (classroom / "class/roster.json").read_bytes() == before


def test_cards_for_everyone_sign_in_and_no_code_reaches_the_terminal(classroom: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    status, said = run(capsys, "cards", "--address", "http://192.168.1.20:8765")
    page = classroom / "class/cards.html"
    assert status == 0 and said.startswith(f"Wrote 3 cards for {ADDRESS} to {Path('class/cards.html')}")
    assert "Earlier cards of these students stop working; browsers already signed in stay signed in" in said
    assert not CODE.search(said)
    assert stat.S_IMODE(page.stat().st_mode) == 0o600  # the codes: the teacher's account alone reads them
    codes = page_codes(page)
    assert len(codes) == 3 and "Jürgen Müller" in page.read_text(encoding="utf-8")
    who = signins(classroom)
    assert [who.sign_in(code, "10.0.0.1")[1].key for code in codes] == ["ada-lovelace", "ada-lovelace-2",
                                                                        "jurgen-muller"]  # fmt: skip
    _, listed = run(capsys, "list")
    assert "Ada Lovelace (ada-lovelace-2): id 102, SIS S-0002, login ada.l@school.example; card; " \
           "signed in on 1 browser(s)" in listed and listed.endswith("3 students in class/roster.json\n")


def test_cards_for_some_students_leave_the_others_cards_working(classroom: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    run(capsys, "cards", "--address", ADDRESS)
    old = page_codes(classroom / "class/cards.html")
    who = signins(classroom)
    token, _ = who.sign_in(old[2], "10.0.0.1")
    status, said = run(capsys, "cards", "Jürgen Müller", "ada-lovelace", "--address", ADDRESS, "--out", "two.html")
    new = page_codes(classroom / "two.html")
    assert status == 0 and said.startswith("Wrote 2 cards") and len(new) == 2
    assert who.sign_in(old[1], "10.0.0.2")[1].key == "ada-lovelace-2"  # not on the new page: still works
    for stale in (old[0], old[2]):
        with pytest.raises(SignInRefused, match="not right"):
            who.sign_in(stale, "10.0.0.3")
    assert who.who(token) is not None  # a browser already signed in stays signed in
    assert [who.sign_in(code, "10.0.0.4")[1].key for code in new] == ["jurgen-muller", "ada-lovelace"]


def test_a_new_code_signs_the_student_out_everywhere(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    run(capsys, "cards", "--address", ADDRESS)
    old = page_codes(classroom / "class/cards.html")
    who = signins(classroom)
    token, _ = who.sign_in(old[2], "10.0.0.1")
    status, said = run(capsys, "new-code", "103", "--address", ADDRESS)  # by Canvas's id
    page = classroom / "class/cards-jurgen-muller.html"
    assert status == 0 and said == (f"A new card for Jürgen Müller in {Path('class/cards-jurgen-muller.html')}; "
                                    "the old code stops working and 1 browser(s) were signed out.\n")  # fmt: skip
    (new,) = page_codes(page)
    assert who.who(token) is None and who.sign_in(new, "10.0.0.2")[1].key == "jurgen-muller"
    with pytest.raises(SignInRefused, match="not right"):
        who.sign_in(old[2], "10.0.0.3")
    assert page.read_text(encoding="utf-8").count("<div class='card'>") == 1


def test_the_cards_address_is_this_computers_unless_given(classroom: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    monkeypatch.setattr(announce, "machine_addresses", lambda: ["10.1.2.3", "192.168.0.9"])
    status, said = run(capsys, "new-code", "Jürgen Müller")
    assert status == 0 and "http://10.1.2.3:8765/" in (classroom / "class/cards-jurgen-muller.html").read_text()
    monkeypatch.setattr(announce, "machine_addresses", lambda: [])
    status, said = run(capsys, "cards")
    assert status == 2 and said.startswith("error: this computer's network address was not found")
    assert not (classroom / "class/cards.html").exists()
    who = signins(classroom)
    assert [who.has_code(key) for key in ("ada-lovelace", "ada-lovelace-2", "jurgen-muller")] == [False, False, True]


def test_no_code_changes_when_the_page_cannot_be_made(classroom: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    run(capsys, "cards", "--address", ADDRESS)
    codes = page_codes(classroom / "class/cards.html")
    monkeypatch.setitem(sys.modules, "segno", None)  # the QR codes cannot be drawn
    status, said = run(capsys, "cards", "--address", ADDRESS)
    assert status == 2 and "pip install 'segno>=1.6'" in said
    assert page_codes(classroom / "class/cards.html") == codes
    assert [signins(classroom).sign_in(code, "10.0.0.1")[1].name for code in codes][-1] == "Jürgen Müller"
    assert [path.name for path in (classroom / "class").iterdir() if path.name.startswith(".")] == []


def test_add_rename_remove_sign_out_and_the_list(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    assert run(capsys, "add", "Grace Hopper", "--id", "104", "--email", "grace@school.example") == (
        0, "added Grace Hopper (grace-hopper); make a card: python3 kit.py class new-code grace-hopper\n")
    assert run(capsys, "rename", "ada-lovelace-2", "Ada King")[1] == (
        "renamed Ada Lovelace to Ada King (ada-lovelace-2: the same work, the same card)\n")
    run(capsys, "cards", "--address", ADDRESS)
    who = signins(classroom)
    tokens = [who.sign_in(code, f"10.0.0.{n}")[0] for n, code in enumerate(page_codes(classroom / "class/cards.html"))]
    assert run(capsys, "sign-out", "ada king") == (0, "Ada King was signed out of 1 browser(s).\n")
    status, said = run(capsys, "remove", "JÜRGEN  müller")
    assert status == 0 and said == ("removed Jürgen Müller (jurgen-muller): signed out of 1 browser(s); their work "
                                    "is kept until you erase it (python3 kit.py class erase jurgen-muller --yes)\n")  # fmt: skip
    assert [who.who(token) is not None for token in tokens] == [True, False, False, True]
    _, listed = run(capsys, "list")
    assert listed.splitlines() == [
        "Ada Lovelace (ada-lovelace): id 101, SIS S-0001, login ada@school.example; card; signed in on 1 browser(s)",
        "Ada King (ada-lovelace-2): id 102, SIS S-0002, login ada.l@school.example; card; signed in on 0 browser(s)",
        "Grace Hopper (grace-hopper): id 104, email grace@school.example; card; signed in on 1 browser(s)",
        f"3 students in {Path('class/roster.json')}",
    ]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["remove", "Nobody Here"], "error: no student 'Nobody Here' on the roster"),
        (["rename", "Ada Lovelace", "Ada"], "error: 2 students are called 'Ada Lovelace' (ada-lovelace, "
                                            "ada-lovelace-2): give the key"),
        (["add", "Grace Hopper", "--id", "101"], "error: Ada Lovelace (ada-lovelace) already has the lms_id '101'"),
        (["add", "   "], "error: the student's name is blank"),
        (["rename", "103", "Bad\u0007Name"], "error: the new name 'Bad\\x07Name' contains a control character"),
        (["new-code", "nobody", "--address", ADDRESS], "error: no student 'nobody' on the roster"),
        (["cards", "Ada Lovelace", "--address", ADDRESS], "error: 2 students are called"),
        (["sign-out", "nobody"], "error: no student 'nobody' on the roster"),
        (["free", "Ada"], "error: no browser has taken the name 'Ada' in this class"),
        (["erase", "Jürgen Müller"], "error: erase takes away everything kept about Jürgen Müller (jurgen-muller)"),
    ],
)
def test_a_refusal_is_an_error_line_and_changes_nothing(classroom: Path, capsys: pytest.CaptureFixture[str],
                                                        args: list[str], reason: str) -> None:  # fmt: skip
    run(capsys, "import", "canvas.csv")
    before = (classroom / "class/roster.json").read_bytes()
    status, said = run(capsys, *args)
    assert status == 2 and said.startswith(reason), said
    assert (classroom / "class/roster.json").read_bytes() == before
    assert not (classroom / "class/cards.html").exists() and not list(classroom.glob("class/cards-*"))


def test_an_empty_class_has_no_cards_and_a_casual_name_is_freed(classroom: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert run(capsys, "cards", "--address", ADDRESS) == (
        2, "error: no class list in class/roster.json yet: python3 kit.py class import FILE\n")
    who = signins(classroom)
    token, _ = who.claim("Zoë Martin", None)
    _, listed = run(capsys, "list")
    assert "Zoë Martin (zoe-martin): a name a browser took, on 1 browser(s)" in listed
    assert run(capsys, "free", "zoe martin") == (0, "The name 'zoe martin' is free again (its browsers were signed out).\n")
    assert who.who(token) is None and who.claims() == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["import", "missing.csv"], "argument file: 'missing.csv' is not a file"),
        (["cards", "--address", "ftp://x"], "argument --address: 'ftp://x' is not the site's address"),
        (["new-code", "Ada", "--address", "http://x:99999"], "argument --address: 'http://x:99999' is not the site's"),
        (["cards", "--out", "no/such/folder/cards.html"], "argument --out: 'no/such/folder/cards.html': its folder"),
        (["export"], "the following arguments are required: name"),
        (["shuffle"], "argument STEP: invalid choice: 'shuffle'"),
    ],
)
def test_bad_arguments_are_named_by_argparse(classroom: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                             message: str) -> None:  # fmt: skip
    with pytest.raises(SystemExit) as stopped:
        main(["class", *args])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def _typed_flags() -> list[tuple[str, Callable[[str], Any]]]:
    """Every ``type=`` of ``class`` and its steps (tests/test_boundaries.py reaches only the first level)."""
    top = argparse.ArgumentParser()
    cli.add_arguments(top)
    found, parsers = [], [("class", top)]
    while parsers:
        name, parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += [(f"{name} {step}", sub) for step, sub in action.choices.items()]
            elif callable(action.type):
                found.append((f"{name} {action.option_strings[-1] if action.option_strings else action.dest}",
                              action.type))  # fmt: skip
    return found


FLAGS = _typed_flags()


def test_every_step_is_reached() -> None:
    assert {name for name, _ in FLAGS} >= {"class import file", "class cards --address", "class new-code --out",
                                           "class export --out", "class --roster"}  # fmt: skip


@pytest.mark.parametrize(("name", "read"), FLAGS, ids=[name for name, _ in FLAGS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.sampled_from(["", "http://[::1", "http://x:0x1/", "https://\udcff/", "http://a/\u202e",
                                       "/proc/self/mem", "/dev/null", "x" * 5000, "http://" + "9" * 5000]),
                      st.text(max_size=40).filter(lambda text: "\x00" not in text)))  # fmt: skip
def test_a_flag_takes_any_text_or_is_refused_as_argparse_reports_it(name: str, read: Callable[[str], Any],
                                                                    text: str) -> None:  # fmt: skip
    with contextlib.suppress(argparse.ArgumentTypeError):  # argparse prints "argument --address: <reason>"
        read(text)  # anything else (a ValueError too) would lose the reason or be a traceback


def _hand_in(classroom: Path, key: str, name: str) -> None:
    data = classroom / "class/classroom-data"
    HandInStore(data).hand_in(name, "04_flips", json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                                            "nbformat_minor": 5}).encode(), key=key)  # fmt: skip
    Progress(data).record(key, "04_flips", "flips", False, "off by one")


def test_export_then_erase_one_student(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    run(capsys, "cards", "--address", ADDRESS)
    _hand_in(classroom, "jurgen-muller", "Jürgen Müller")
    _hand_in(classroom, "ada-lovelace", "Ada Lovelace")
    status, said = run(capsys, "export", "jm@school.example")
    out = classroom / "class/exports/jurgen-muller.json"
    assert status == 0 and said == f"Everything kept about Jürgen Müller (jurgen-muller) is in {Path('class/exports/jurgen-muller.json')}.\n"
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["student"]["name"] == "Jürgen Müller" and len(exported["hand_ins"]) == 1
    assert exported["sign_in"]["code_issued"] and not CODE.search(out.read_text(encoding="utf-8"))
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    status, said = run(capsys, "erase", "Jürgen Müller", "--yes")
    assert status == 0 and said.splitlines()[-1] == "took Jürgen Müller off the class list"
    assert "removed 1 hand-in of 1 exercise" in said and "removed 1 self-check" in said
    assert "Müller" not in (classroom / "class/roster.json").read_text(encoding="utf-8")
    assert not (classroom / "class/classroom-data/handins/jurgen-muller").exists()
    assert (classroom / "class/classroom-data/handins/ada-lovelace").is_dir()
    assert not signins(classroom).has_code("jurgen-muller") and signins(classroom).has_code("ada-lovelace")


def test_a_student_taken_off_the_list_is_erased_by_key(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    _hand_in(classroom, "ada-lovelace-2", "Ada Lovelace")
    run(capsys, "remove", "ada-lovelace-2")
    status, said = run(capsys, "erase", "ada-lovelace-2", "--yes")
    assert status == 0 and said.startswith("'ada-lovelace-2' is not on the class list: looking for what is kept "
                                           "under the key 'ada-lovelace-2'")  # fmt: skip
    assert not (classroom / "class/classroom-data/handins/ada-lovelace-2").exists()
    assert [s.key for s in RosterFile(classroom / "class/roster.json").load()] == ["ada-lovelace", "jurgen-muller"]
