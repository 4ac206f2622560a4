"""The sign-in cards: a printable page, ten cards to an A4 sheet, each with a name, a code and a QR code.

The QR code opens ``ADDRESS/signin/#code=XXXXX-XXXXX``: the code after ``#`` stays in the
browser (the sign-in page reads it and takes it off the address bar), so it never
reaches the server's log.  Drawn by the ``segno`` package as inline SVG: the page is one
file, with no picture to lose and no request to make.  Each sheet is its own block of
2 x 5 cards, so every browser breaks the pages in the same places; the dashed lines
are where to cut.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from urllib.parse import urlsplit

from course.roster.model import RosterError, Student

#: Cards on one A4 sheet: two columns of five.
PER_PAGE = 10
STYLE = """
@page { size: A4; margin: 10mm; }
* { box-sizing: border-box; }
body { font: 11pt system-ui, sans-serif; margin: 0; color: #000; background: #fff; }
.page { display: grid; grid-template-columns: 95mm 95mm; grid-template-rows: repeat(5, 55mm);
        border-top: 1px dashed #777; border-left: 1px dashed #777; width: 190mm;
        break-after: page; page-break-after: always; }
.page:last-child { break-after: auto; page-break-after: auto; }
.card { padding: 4mm; border-right: 1px dashed #777; border-bottom: 1px dashed #777;
        display: flex; gap: 4mm; align-items: center; overflow: hidden; break-inside: avoid; }
.qr { flex: none; width: 34mm; height: 34mm; }
.qr svg { width: 100%; height: 100%; }
.name { font-size: 14pt; font-weight: 700; margin: 0 0 2mm; overflow-wrap: anywhere; }
.code { font: 700 17pt ui-monospace, "DejaVu Sans Mono", Consolas, monospace; letter-spacing: .06em;
        margin: 1mm 0; white-space: nowrap; }
.how { font-size: 9pt; margin: 1mm 0; overflow-wrap: anywhere; }
@media screen { body { margin: 1em; } .page { margin-bottom: 1em; } .note { max-width: 60em; } }
h1.note { font-size: 16pt; margin: 0 0 .5em; }
@media print { .note { display: none; } }
"""


def signin_link(address: str, code: str) -> str:
    """The address a card's QR code opens: the site's sign-in page with the code after ``#``.

    >>> signin_link("http://192.168.1.20:8765/", "K7QM4-XRT9P")
    'http://192.168.1.20:8765/signin/#code=K7QM4-XRT9P'
    """
    return f"{address.rstrip('/')}/signin/#code={code}"


def check_address(address: str) -> str:
    """The site's address as students type it, ending in ``/``, or a refusal saying why.

    >>> check_address("http://192.168.1.20:8765")
    'http://192.168.1.20:8765/'
    """
    text = address.strip()
    example = "give one like http://192.168.1.20:8765/"
    if not text or len(text) > 200 or any(char.isspace() or not char.isprintable() for char in text):
        raise RosterError(f"{address[:60]!r} is not the site's address: {example}")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (reading it checks it: a port must be a number up to 65535)
    except ValueError as refused:
        raise RosterError(f"{address!r} is not the site's address ({refused}): {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RosterError(f"{address!r} is not the site's address: {example}")
    if parts.username is not None or parts.query or parts.fragment:
        raise RosterError(f"{address!r} has a name, a '?' or a '#' in it; the site's address has none: {example}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/"


def qr_code(link: str) -> str:
    """The QR code of ``link`` as inline SVG (error correction M: a creased card still scans)."""
    try:
        import segno  # the teacher's extra; only the cards need it
    except ImportError:
        raise RosterError("the cards' QR codes are drawn by the segno package, which is not installed: "
                          "pip install 'segno>=1.6' (the kit's teacher tools include it)") from None
    return str(segno.make_qr(link, error="m").svg_inline(scale=3, omitsize=True))


def _card(student: Student, code: str, address: str) -> str:
    name = html.escape(student.name)
    return (
        "<div class='card'>"
        f"<div class='qr' role='img' aria-label='QR code that signs in {name}'>"
        f"{qr_code(signin_link(address, code))}</div>"
        f"<div><p class='name'>{name}</p>"
        f"<p class='how'>Open <b>{html.escape(address)}</b> and type your code:</p>"
        f"<p class='code'>{html.escape(code)}</p>"
        "<p class='how'>or scan the square. Keep this card to yourself.</p></div></div>"
    )


def cards_html(cards: Iterable[tuple[Student, str]], address: str) -> str:
    """The printable page of cards: each (student, code) with the site's ``address``.

    Refuses a bad address, or no way to draw QR codes, before it takes the first card (so a
    caller issuing codes as they are taken issues none).
    """
    address = check_address(address)
    qr_code(address)
    items = [_card(student, code, address) for student, code in cards]
    pages = ["<div class='page'>" + "".join(items[start : start + PER_PAGE]) + "</div>"
             for start in range(0, len(items), PER_PAGE)]  # fmt: skip
    count = len(items)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Sign-in cards ({count})</title><style>{STYLE}</style></head><body><main>"
        f"<h1 class='note'>Sign-in cards</h1><p class='note'>{count} sign-in card{'s' if count != 1 else ''} for {html.escape(address)} "
        f"on {len(pages)} A4 page{'s' if len(pages) != 1 else ''}: print at 100% (no fitting to the page) "
        "and cut along the dashed lines. A code stops working when you make a new one; a browser already "
        "signed in stays signed in. Delete this file once printed: it holds the codes.</p>"
        f"{''.join(pages)}</main></body></html>"
    )
