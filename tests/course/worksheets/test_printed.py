"""Every worksheet printed by a real Chromium (Playwright, Debian's /usr/bin/chromium), to PDF
and PNG, and read back as a teacher reads the paper.

The checks work on what the browser lays out, not on the HTML text: a prompt that says
"below" must have a picture or the code under it inside its own block, one that says "above"
above it, "this tree" a drawn tree, "the grid" its clues; every "Check your understanding"
asks something; no Markdown is left as `*stars*` or back-ticks; and a board takes little ink
(its mean darkness on the PNG, 0 for white and 1 for black, stays under 15 %).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageStat
from playwright.sync_api import sync_playwright

from course import worksheets

NOTEBOOKS = worksheets.NOTEBOOKS
LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb") if p.name[:2].isdigit())
#: Most ink a board may take: the mean darkness of its pixels (the screen theme's green is 0.45).
MOST_INK = 0.15
BELOW = re.compile(r"\bbelow\b|\bnext cell\b|\bthe diagram\b|\bthis little\b", re.IGNORECASE)
ABOVE = re.compile(r"\babove\b", re.IGNORECASE)
RUN = re.compile(r"\brun (?:the|this) cell\b|\bbefore you run\b", re.IGNORECASE)
PICTURE = re.compile(
    r"\bthis (?:tree|position|picture|diagram|board|map)\b|\bthe (?:picture|diagram|printed board)\b",
    re.IGNORECASE,
)

#: For each prompt: its words, and what stands before and after its question in its block.
READ_PROMPTS = """() => Array.from(document.querySelectorAll('.prompt')).map(block => {
  const kids = Array.from(block.children);
  const at = kids.findIndex(k => /\\[[\\w.]+\\]\\./.test(k.textContent) && k.querySelector('strong'));
  const kinds = k => k.matches('pre.code') ? 'code'
      : k.querySelector('svg.tree') ? 'tree' : k.querySelector('svg') ? 'picture'
      : k.matches('ol, ul') ? 'list' : k.matches('div.lines') ? 'lines' : 'text';
  const question = kids.filter((k, i) => i >= at && ['P', 'OL', 'UL', 'PRE', 'TABLE'].includes(k.tagName)
      && !k.matches('pre.code')).map(k => k.textContent).join(' ');
  return {id: block.id, question, before: kids.slice(0, at).map(kinds), after: kids.slice(at + 1).map(kinds),
          lines: block.querySelector('div.lines').getBoundingClientRect().height};
})"""


#: The words of a sheet outside its code and pictures.
PROSE = """() => { const body = document.body.cloneNode(true);
  body.querySelectorAll('code, pre, svg, style').forEach(e => e.remove()); return body.textContent; }"""


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("printed")
    worksheets.write(out, NOTEBOOKS, pdf=False)
    return out


@pytest.fixture(scope="module")
def browser():
    assert worksheets._chromium(), "Chromium is needed (python3 kit.py test installs it)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )  # fmt: skip
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def printed(sheets, browser, tmp_path_factory):
    """Each lesson's sheet laid out by Chromium: its prompts, boards' ink, PDF and PNG."""
    out = tmp_path_factory.mktemp("png")
    page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
    found = {}
    for lesson in LESSONS:
        page.goto((sheets / f"{lesson}.html").as_uri())
        pdf = page.pdf(format="A4")
        png = out / f"{lesson}.png"
        page.screenshot(path=str(png), full_page=True)
        boards = page.locator("svg:has(rect.board)")
        ink = [darkness(board.screenshot()) for board in boards.all()]
        found[lesson] = {
            "prompts": page.evaluate(READ_PROMPTS),
            "materials": page.evaluate("() => Array.from(document.querySelectorAll('.material'))"
                                       ".map(m => ({text: m.innerText, tables: m.querySelectorAll('table').length,"
                                       " boards: m.querySelectorAll('svg').length}))"),
            "prose": page.evaluate(PROSE),
            "ink": ink,
            "pdf": pdf,
            "png": png,
        }  # fmt: skip
    page.close()
    return found


def darkness(png: bytes) -> float:
    """The mean darkness of a picture: 0 all white, 1 all black."""
    grey = Image.open(io.BytesIO(png)).convert("L")
    return 1 - ImageStat.Stat(grey).mean[0] / 255


def test_darkness_measures_ink():
    white, black = io.BytesIO(), io.BytesIO()
    Image.new("RGB", (10, 10), "white").save(white, "PNG")
    Image.new("RGB", (10, 10), "#2e8b57").save(black, "PNG")  # the screen board's green
    assert darkness(white.getvalue()) == 0
    assert darkness(black.getvalue()) > 0.4


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_sheet_prints_to_pdf_and_png(printed, lesson):
    sheet = printed[lesson]
    assert sheet["pdf"].startswith(b"%PDF") and sheet["pdf"].count(b"/Type /Page") >= 1
    picture = Image.open(sheet["png"])
    assert picture.height > 1000 and darkness(sheet["png"].read_bytes()) < MOST_INK


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_prompt_points_to_something_absent(printed, lesson):
    for prompt in printed[lesson]["prompts"]:
        words, before, after = prompt["question"], prompt["before"], prompt["after"]
        shown_after = [kind for kind in after if kind != "lines"]
        if BELOW.search(words):
            assert {"picture", "tree", "code"} & set(shown_after), (
                f"{prompt['id']}: '{words}' shows nothing below"
            )
        if ABOVE.search(words):
            assert {"picture", "tree", "code"} & set(before), (
                f"{prompt['id']}: '{words}' shows nothing above"
            )
        if RUN.search(words):
            assert "code" in before + after, f"{prompt['id']} says to run a cell it does not show"
        if re.search(r"\bthis tree\b", words, re.IGNORECASE):
            assert "tree" in before + after, f"{prompt['id']} has no tree"
        if PICTURE.search(words) and not re.search(r"\bthis tree\b", words, re.IGNORECASE):
            assert {"picture", "tree", "code"} & set(before + after), f"{prompt['id']}: '{words}'"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_check_your_understanding_asks_questions(printed, lesson):
    prompts = printed[lesson]["prompts"]
    assert prompts, f"{lesson} has no prompts"
    for prompt in prompts:
        question = re.sub(r"^.*?\[[\w.]+\]\.", "", prompt["question"], count=1)
        asks = "?" in question or re.search(
            r"\b(?:write|count|fill|decide|work out|mark|say|draw)\b", question, re.I
        )
        assert asks and len(question.split()) >= 5, f"{prompt['id']}: no question: {question!r}"
        assert prompt["lines"] > 80, f"{prompt['id']} leaves no room to write"


@pytest.mark.parametrize("lesson", LESSONS)
def test_markdown_is_rendered(printed, lesson):
    prose = printed[lesson]["prose"]
    assert "Predict, then run" in prose
    assert "`" not in prose, f"{lesson}: a back-tick is printed"
    assert not re.search(r"\*\w[^*]*\*", prose), f"{lesson}: *emphasis* printed with stars"


@pytest.mark.parametrize("lesson", LESSONS)
def test_boards_take_little_ink(printed, lesson):
    for ink in printed[lesson]["ink"]:
        assert ink < MOST_INK, f"{lesson}: a board is {ink:.0%} dark"


def test_every_lesson_with_boards_prints_some(printed):
    assert sum(len(sheet["ink"]) for sheet in printed.values()) >= 10


def test_the_grid_comes_with_its_clues(printed):
    for lesson, sheet in printed.items():
        for material in sheet["materials"]:
            if "grid" in material["text"].lower():
                assert material["tables"] >= 1 and material["boards"] >= 1, (
                    f"{lesson}: a grid without clues"
                )
