"""The worksheets read in greyscale: every board of every lesson's sheet, drawn by Chromium,
turned grey as a black-and-white printer or photocopier does, keeps each mark at a contrast
of 3:1 or more with the paper (WCAG 2.x 1.4.11, non-text contrast, taken for paper).

The marks are measured on the pixels, where the page draws them: a black disc at its
centre, a white disc by its darkest point (its rim), a legal move's ring and the
coordinates by their darkest point, the last move's frame on its line, a highlighted
square inside its corner; the paper is the board's commonest grey.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from course import worksheets
from tests.browser.test_board_accessibility import GRAPHICS_CONTRAST, contrast

pytestmark = pytest.mark.browser

# Each board picture's parts, as boxes [left, top, width, height] in CSS pixels from its corner.
_JS_PARTS = """(svg) => {
  const box = svg.getBoundingClientRect();
  const rel = e => { const r = e.getBoundingClientRect();
                     return [r.left - box.left, r.top - box.top, r.width, r.height]; };
  const all = css => Array.from(svg.querySelectorAll(css)).map(rel);
  return {width: box.width, board: rel(svg.querySelector('rect.board')),
          black: all('circle.disc.black'), white: all('circle.disc.white'),
          markers: all('circle.marker'), last: all('rect.last-move'),
          highlight: all('rect.highlight'), coords: all('text.coord')};
}"""


def grey(value: int) -> tuple[int, int, int]:
    return (value, value, value)


def measure(picture: Image.Image, parts: dict[str, Any]) -> dict[str, list[float]]:
    """The contrast with the paper of each mark on one greyscale board picture, by kind."""
    scale = picture.width / parts["width"]

    def window(x: float, y: float, w: float = 0, h: float = 0) -> list[int]:
        left, top = int(x * scale), int(y * scale)
        right, bottom = max(left + 1, int((x + w) * scale)), max(top + 1, int((y + h) * scale))
        return [picture.getpixel((i, j)) for i in range(left, right) for j in range(top, bottom)]

    x, y, w, h = parts["board"]
    paper = Counter(window(x, y, w, h)).most_common(1)[0][0]
    seen: dict[str, list[int]] = {
        "black disc": [window(bx + bw / 2, by + bh / 2)[0] for bx, by, bw, bh in parts["black"]],
        "white disc (its rim)": [min(window(*box)) for box in parts["white"]],
        "legal move's ring": [min(window(*box)) for box in parts["markers"]],
        "coordinate": [min(window(*box)) for box in parts["coords"]],
        # the frame's 3-unit line is centred on its box's edge
        "last move's frame": [
            min(window(bx - 0.5, by + bh / 2, 1, 1)) for bx, by, bw, bh in parts["last"]
        ],
        "highlighted square": [
            window(bx + bw / 8, by + bh / 8)[0] for bx, by, bw, bh in parts["highlight"]
        ],
    }
    found = {
        kind: [contrast(grey(v), grey(paper)) for v in values] for kind, values in seen.items()
    }
    if parts["black"] and parts["white"]:  # a white disc's inside against a black one
        bx, by, bw, bh = parts["white"][0]
        found["black disc against a white one"] = [
            contrast(grey(window(bx + bw / 2, by + bh / 2)[0]), grey(seen["black disc"][0]))
        ]
    return found


def test_every_worksheet_board_reads_in_greyscale(tmp_path: Path, browser: Any) -> None:
    worksheets.write(tmp_path, worksheets.NOTEBOOKS, pdf=False)
    context = browser.new_context(viewport={"width": 794, "height": 1123}, device_scale_factor=2)
    page = context.new_page()  # an A4 page at 96 dpi, drawn at twice that (a 192 dpi scan)
    low, kinds, boards = [], Counter[str](), 0
    try:
        for sheet in sorted(tmp_path.glob("[0-9]*.html")):
            page.goto(sheet.as_uri())
            for svg in page.locator("svg:has(rect.board)").all():
                svg.scroll_into_view_if_needed()
                parts = svg.evaluate(_JS_PARTS)
                picture = Image.open(io.BytesIO(svg.screenshot())).convert("L")
                boards += 1
                for kind, ratios in measure(picture, parts).items():
                    kinds[kind] += len(ratios)
                    low += [
                        (sheet.stem, kind, round(r, 2)) for r in ratios if r < GRAPHICS_CONTRAST
                    ]
    finally:
        context.close()
    assert boards >= 10 and kinds["black disc"] and kinds["last move's frame"], (boards, kinds)
    assert kinds["legal move's ring"] and kinds["white disc (its rim)"], kinds
    assert not low, f"marks under {GRAPHICS_CONTRAST}:1 against the paper in greyscale: {low}"
    print(f"\n[greyscale] {boards} boards, marks measured: {dict(kinds)}")
