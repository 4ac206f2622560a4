"""``python -m course class``: the class list, the cards and a student's data, as a teacher types them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import segno

from course.__main__ import main
from course.roster.cards import cards_html, signin_link
from course.roster.model import Student
from course.roster.signin import SignIns
from course.roster.store import RosterFile
from tests.course.roster.test_formats import CANVAS

CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}")


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "canvas.csv").write_text(CANVAS, encoding="utf-8")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["class", *args])
    return status, capsys.readouterr().out


def test_import_cards_and_sign_in_with_a_printed_code(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, said = run(capsys, "import", "canvas.csv")
    assert status == 0 and "Read 3 students from canvas.csv (Canvas): 3 new" in said
    status, said = run(capsys, "cards", "--address", "http://192.168.1.20:8765")
    assert status == 0 and not CODE.search(said)  # codes go on the page only
    page = (classroom / "class" / "cards.html").read_text()
    codes = CODE.findall(page)
    assert len(codes) == 3 and "Jürgen Müller" in page and "http://192.168.1.20:8765/" in page
    signins = SignIns(RosterFile(classroom / "class" / "roster.json"), classroom / "class" / "signin.sqlite")
    names = [signins.sign_in(code, "10.0.0.1")[1].name for code in dict.fromkeys(codes)]
    assert names == ["Ada Lovelace", "Ada Lovelace", "Jürgen Müller"]
    status, said = run(capsys, "new-code", "103")  # by Canvas's id
    assert status == 0 and "1 browser(s) were signed out" in said
    new = CODE.findall((classroom / "class" / "cards-jurgen-muller.html").read_text())[0]
    assert signins.sign_in(new, "10.0.0.2")[1].key == "jurgen-muller"
    with pytest.raises(Exception, match="not right"):
        signins.sign_in(codes[-1], "10.0.0.3")


def test_add_rename_remove_and_the_list(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    assert run(capsys, "add", "Grace Hopper", "--id", "104")[0] == 0
    assert run(capsys, "rename", "ada-lovelace-2", "Ada King")[0] == 0
    status, said = run(capsys, "remove", "Jürgen Müller")
    assert status == 0 and "their work is kept" in said
    _, listed = run(capsys, "list")
    assert "Ada King (ada-lovelace-2)" in listed and "Grace Hopper (grace-hopper): id 104" in listed
    assert "Müller" not in listed and "4 students" not in listed
    status, said = run(capsys, "rename", "Ada Lovelace", "Ada")  # still one Ada Lovelace: fine
    assert status == 0
    status, said = run(capsys, "remove", "Nobody Here")
    assert status == 2 and said.startswith("error: no student 'Nobody Here' on the roster")
    before = (classroom / "class" / "roster.json").read_bytes()
    assert run(capsys, "add", "Grace Hopper", "--id", "104")[0] == 2  # the id is taken: nothing written
    assert (classroom / "class" / "roster.json").read_bytes() == before


def test_export_then_erase_one_student(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", "canvas.csv")
    run(capsys, "cards", "--address", "http://127.0.0.1:8765/")
    status, said = run(capsys, "export", "Jürgen Müller")
    exported = json.loads((classroom / "class" / "exports" / "jurgen-muller.json").read_text())
    assert status == 0 and "Jürgen Müller" in json.dumps(exported, ensure_ascii=False)
    assert not CODE.search(json.dumps(exported))
    assert run(capsys, "erase", "Jürgen Müller")[0] == 1  # asks for --yes first
    status, said = run(capsys, "erase", "Jürgen Müller", "--yes")
    assert status == 0 and "took Jürgen Müller off the class list" in said
    assert "Müller" not in (classroom / "class" / "roster.json").read_text()


@pytest.mark.parametrize("args", [["import", "missing.csv"], ["cards", "--address", "ftp://x"], ["cards", "--address", "nonsense"]])
def test_bad_arguments_are_named(classroom: Path, args: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["class", *args])
    assert stopped.value.code == 2


def test_an_empty_roster_has_no_cards(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, said = run(capsys, "cards")
    assert status == 2 and "no class list" in said


def test_the_cards_page_escapes_names_and_its_qr_codes_open_the_sign_in_page() -> None:
    cards = [(Student("x", "<script>alert(1)</script> Zoë"), "K7QM4-XRT9P")]
    page = cards_html(cards, "http://192.168.1.20:8765")
    assert "<script>alert" not in page and "&lt;script&gt;" in page and "Zoë" in page
    link = signin_link("http://192.168.1.20:8765/", "K7QM4-XRT9P")
    assert link == "http://192.168.1.20:8765/signin/#code=K7QM4-XRT9P"
    assert segno.make(link, error="m").svg_inline(scale=3, omitsize=True) in page
    assert page.count("class='card'") == 1 and "@page { size: A4" in page
