"""The printable cards: each QR code opens the sign-in page with the card's own code after ``#``,
names are shown as written and escaped, and ten cards fill an A4 sheet."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import pytest
import segno

from course.roster.cards import PER_PAGE, cards_html, check_address, signin_link
from course.roster.model import RosterError, Student

ADDRESS = "http://192.168.1.20:8765/"


def qr(link: str) -> str:
    """The QR code as segno draws it for ``link``: the oracle for the page's pictures."""
    return str(segno.make_qr(link, error="m").svg_inline(scale=3, omitsize=True))


def test_each_qr_code_opens_the_sign_in_page_with_its_own_code_after_the_hash() -> None:
    cards = [(Student("ada-lovelace", "Ada Lovelace"), "K7QM4-XRT9P"), (Student("zoe", "Zoë"), "0123A-BCDEF")]
    page = cards_html(cards, "http://192.168.1.20:8765")
    assert signin_link(ADDRESS, "K7QM4-XRT9P") == "http://192.168.1.20:8765/signin/#code=K7QM4-XRT9P"
    for _, code in cards:
        assert qr(signin_link(ADDRESS, code)) in page
    assert qr(signin_link(ADDRESS, "K7QM4-XRT9Q")) not in page  # one character else, another picture
    assert qr(f"{ADDRESS}signin/?code=K7QM4-XRT9P") not in page  # never in the query: the server would log it


def test_names_are_escaped_and_accents_kept() -> None:
    names = ["<script>alert(1)</script>", "O'Brien & Søn", "Zoë Martin", "李雷", "Ñúñez \"Sofi\""]
    page = cards_html([(Student(f"s{n}", name), "K7QM4-XRT9P") for n, name in enumerate(names)], ADDRESS)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "O&#x27;Brien &amp; Søn" in page and "O'Brien" not in page  # not even inside aria-label='...'
    assert "Zoë Martin" in page and "李雷" in page and "Ñúñez &quot;Sofi&quot;" in page
    assert "<meta charset='utf-8'>" in page


def test_ten_cards_to_an_a4_sheet_with_cut_lines_and_print_rules() -> None:
    cards = [(Student(f"s{n}", f"Student {n}"), f"{n:05d}-AAAAA") for n in range(23)]
    page = cards_html(cards, ADDRESS)
    sheets = re.findall(r"<div class='page'>(.*?)</div></div></div>(?=<div class='page'>|</main>)", page)
    assert [sheet.count("<div class='card'>") for sheet in sheets] == [PER_PAGE, PER_PAGE, 3] == [10, 10, 3]
    assert page.index("Student 9<") < page.index("<div class='page'>", page.index("Student 0<"))  # sheet 1 in order
    assert "@page { size: A4; margin: 10mm; }" in page and "grid-template-rows: repeat(5, 55mm)" in page
    assert 5 * 55 <= 297 - 2 * 10 and 2 * 95 <= 210 - 2 * 10  # the sheet fits inside the margins
    assert "break-after: page" in page and "1px dashed" in page and "@media print { .note { display: none; } }" in page
    assert "23 sign-in cards for http://192.168.1.20:8765/ on 3 A4 pages" in page
    assert re.search(r"\.code \{ font: 700 17pt [^}]*monospace", page)


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("http://192.168.1.20:8765", "http://192.168.1.20:8765/"),
        (" https://reversi.school.example/class/ ", "https://reversi.school.example/class/"),
        ("http://[fd00::1]:8765", "http://[fd00::1]:8765/"),
    ],
)
def test_the_address_as_students_type_it(typed: str, address: str) -> None:
    assert check_address(typed) == address


@pytest.mark.parametrize(
    "typed",
    ["", "192.168.1.20:8765", "ftp://x/", "javascript:alert(1)", "http://", "http://a b/", "http://x:99999/",
     "http://[::1/", "http://me:pw@x/", "http://x/?a=1", "http://x/#code=1", "http://x/\u202e", "http://" + "x" * 300],
)
def test_an_address_students_could_not_open_is_refused(typed: str) -> None:
    with pytest.raises(RosterError, match="give one like http://192.168.1.20:8765/"):
        check_address(typed)


def test_without_segno_the_page_is_refused_before_any_card_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = []

    def cards() -> Iterator[tuple[Student, str]]:
        taken.append("a code was made")
        yield Student("ada", "Ada"), "K7QM4-XRT9P"

    monkeypatch.setitem(sys.modules, "segno", None)  # import segno now fails
    with pytest.raises(RosterError, match="pip install 'segno>=1.6'"):
        cards_html(cards(), ADDRESS)
    with pytest.raises(RosterError, match="not the site's address"):
        cards_html(cards(), "nonsense")
    assert taken == []
