"""The sign-in cards: a printable page, ten cards to an A4 sheet, each with a name, a code and a QR code.

The QR code opens ``ADDRESS/signin/#code=XXXXX-XXXXX``: the code after ``#`` stays in the
browser (the sign-in page sends it and takes it off the address bar), so it never
reaches the server's log.  Drawn by the ``segno`` package as inline SVG: the page is one
file, with no picture to lose and no request to make.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from urllib.parse import urlsplit

from course.roster.model import RosterError, Student

STYLE = """
@page { size: A4; margin: 10mm; }
body { font: 11pt system-ui, sans-serif; margin: 0; color: #000; }
.sheet { display: grid; grid-template-columns: 1fr 1fr; gap: 0; }
.card { box-sizing: border-box; height: 55mm; padding: 5mm; border: 1px dashed #888; display: flex;
        gap: 4mm; align-items: center; break-inside: avoid; }
.card svg { flex: none; width: 34mm; height: 34mm; }
.name { font-size: 14pt; font-weight: 700; margin: 0 0 2mm; overflow-wrap: anywhere; }
.code { font: 700 17pt ui-monospace, "DejaVu Sans Mono", monospace; letter-spacing: .06em; margin: 1mm 0; }
.how { font-size: 9pt; margin: 1mm 0; overflow-wrap: anywhere; }
@media screen { body { margin: 1em; } .note { max-width: 60em; } }
@media print { .note { display: none; } }
"""


def signin_link(address: str, code: str) -> str:
    """The address a card's QR code opens: the site's sign-in page with the code after ``#``."""
    return f"{address.rstrip('/')}/signin/#code={code}"


def check_address(address: str) -> str:
    """The site's address as students type it (``http://192.168.1.20:8765/``), or a refusal."""
    parts = urlsplit(address.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RosterError(f"{address!r} is not the site's address: give one like http://192.168.1.20:8765/")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/"


def cards_html(cards: Sequence[tuple[Student, str]], address: str) -> str:
    """The printable page of cards: each (student, code) with the site's ``address``."""
    import segno

    address = check_address(address)
    items = []
    for student, code in cards:
        picture = segno.make(signin_link(address, code), error="m").svg_inline(scale=3, omitsize=True)
        items.append(
            "<div class='card'>"
            f"<div role='img' aria-label='QR code that signs in {html.escape(student.name)}'>{picture}</div>"
            f"<div><p class='name'>{html.escape(student.name)}</p>"
            f"<p class='how'>Open <b>{html.escape(address)}</b> and type your code:</p>"
            f"<p class='code'>{html.escape(code)}</p>"
            "<p class='how'>or scan the square. Keep this card to yourself.</p></div></div>"
        )
    count = len(cards)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Sign-in cards ({count})</title><style>{STYLE}</style></head><body>"
        f"<p class='note'>{count} sign-in card{'s' if count != 1 else ''} for {html.escape(address)}: print "
        "(ten to an A4 page) and cut along the dashed lines. A code stops working when you make a "
        "new one; a browser already signed in stays signed in. Delete this file once printed.</p>"
        f"<div class='sheet'>{''.join(items)}</div></body></html>"
    )
