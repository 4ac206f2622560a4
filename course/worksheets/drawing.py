"""The pictures of a worksheet, drawn for paper: boards, game trees, maps and tables.

Boards use the print theme of :mod:`course.pictures.palette` (white squares, dark outlines
and coordinates, discs with a black rim), so pencil marks show and a page takes little
toner.  A game tree is drawn from the lesson's own nested list: its leaves carry their
values, every branching point an empty box to fill in, and each level says who chooses.
"""

from __future__ import annotations

import html

from course.charts import Chart
from course.cursormap.scene import Layout
from course.cursormap.svg import CursorMapPicture, cursormap_svg
from course.i18n import N_
from course.i18n import gettext as _
from course.pictures.svg import board_svg
from reversi import Board
from reversi.cursormap import Operator, truth_table

from .lesson import Paper, See, Shown

#: The width of a board on the sheet, in CSS pixels (about 8 cm on A4).
BOARD_PX = 300
Tree = int | float | list["Tree"]


def print_board(shown: Shown | Board, px: int = BOARD_PX) -> str:
    """A board with its marks, drawn for paper."""
    if isinstance(shown, Board):
        shown = Shown(shown)
    return board_svg(
        shown.board, highlight=shown.highlight, markers=shown.markers,
        last_move=shown.last_move, size_px=px, theme="print",
    )  # fmt: skip


#: What each mark looks like on paper, and on the screen the lesson's words describe.
MARKS = {
    "last_move": N_("a black frame marks the last move (white on the screen)"),
    "highlight": N_("grey squares are the highlighted ones (yellow on the screen)"),
    "markers": N_("small rings are the dotted squares (yellow dots on the screen)"),
}


def legend(shown: Shown | Board) -> str:
    """A line saying what the marks of a board are on paper, where the lesson names colours."""
    if isinstance(shown, Board):
        return ""
    found = [_(text) for mark, text in MARKS.items() if getattr(shown, mark)]
    said = _("On paper: {marks}.").format(marks="; ".join(found))
    return f'<p class="legend">{html.escape(said)}</p>' if found else ""


def blank_board(size: int = 8, px: int = BOARD_PX) -> str:
    """An empty board with its coordinates, to draw discs on."""
    return print_board(Board.empty(size), px)


def _depth(tree: Tree) -> int:
    return 1 + max(map(_depth, tree)) if isinstance(tree, list) and tree else 0


def tree_svg(tree: Tree, maximizing: bool = True) -> str:
    """A game tree from the lesson's nested list: empty boxes above, the leaves' values below."""
    levels = _depth(tree)
    leaves: list[float] = []
    shapes: list[str] = []
    step_x, step_y, box = 56, 64, 34

    def place(node: Tree, level: int) -> float:
        """Draw ``node`` and its children; returns the x of its centre."""
        y = 24 + level * step_y
        if not isinstance(node, list):
            leaf_x = 30.0 + len(leaves) * step_x
            leaves.append(leaf_x)
            value = f"{node:+g}" if node else "0"
            shapes.append(f'<text x="{leaf_x}" y="{y + 6}" class="leaf">{value}</text>')
            return leaf_x
        xs = [place(child, level + 1) for child in node]
        x = sum(xs) / len(xs)
        for child_x in xs:
            shapes.append(
                f'<line x1="{x}" y1="{y + box / 2}" x2="{child_x}" y2="{y + step_y - 14}"/>'
            )
        shapes.append(f'<rect x="{x - box / 2}" y="{y - box / 2}" width="{box}" height="{box}"/>')
        return x

    place(tree, 0)
    width = 30 + len(leaves) * step_x + 150
    largest, smallest = html.escape(_("Black: largest")), html.escape(_("White: smallest"))
    labels = [
        f'<text x="{width - 145}" y="{30 + level * step_y}" class="who">'
        f"{largest if (level % 2 == 0) == maximizing else smallest}</text>"
        for level in range(levels)
    ]
    named = html.escape(_("The game tree {tree}").format(tree=tree))
    height = 24 + levels * step_y + 24
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tree" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img"><title>{named}</title>'
        "<style>line,rect{stroke:#141414;stroke-width:1.5;fill:#fff} "
        "text{font:14px sans-serif;fill:#141414;text-anchor:middle} .who{text-anchor:start;font-size:12px}</style>"
        + "".join(shapes + labels)
        + "</svg>"
    )


def truth_tables() -> str:
    """AND, OR and XOR with the game's own cases and the result column left empty."""
    words = (_("operator"), _("field"), _("cursor bit"), _("new field"))
    head = "<tr>" + "".join(f"<th>{html.escape(word)}</th>" for word in words) + "</tr>"
    rows = "".join(
        f"<tr><td>{operator}</td><td>{field}</td><td>{bit}</td><td></td></tr>"
        for operator in Operator
        for field, bit, _result in truth_table(operator)
    )
    return f'<table class="truth">{head}{rows}</table>'


def cursor_bits() -> str:
    """A cursor's 3x3 square with the eight bits numbered clockwise from the top-left."""
    order: list[list[int | str]] = [[0, 1, 2], [7, "OP", 3], [6, 5, 4]]
    rows = "".join(
        "<tr>" + "".join(f"<td><small>bits[{n}]</small></td>" if n != "OP" else "<td>OP</td>"
                         for n in row) + "</tr>"
        for row in order
    )  # fmt: skip
    return f'<table class="cursor">{rows}</table>'


def map_svg(picture: CursorMapPicture, pixels: int = BOARD_PX) -> str:
    """A cursor map with its columns and rows numbered from 0 in the margin, as ``(row, column)``
    positions count them."""
    svg = cursormap_svg(picture.map, picture.cursor, picture.position, pixels=pixels)
    layout = Layout.for_map(picture.map, pixels)
    cell, margin = layout.cell, layout.margin
    style = 'font-family="sans-serif" font-size="11" fill="#141414" text-anchor="middle"'
    numbers = [
        f'<text x="{margin + (column + 0.5) * cell}" y="11" {style}>{column}</text>'
        for column in range(layout.columns)
    ] + [
        f'<text x="6" y="{margin + (row + 0.5) * cell + 4}" {style}>{row}</text>'
        for row in range(layout.rows)
    ]
    return svg.replace("</svg>", "".join(numbers) + "</svg>")


def code_block(source: str) -> str:
    """Code as the lesson's cell holds it, its lines numbered (the numbers are not copied)."""
    lines = "".join(
        f'<span class="line">{html.escape(line)}\n</span>' for line in source.splitlines()
    )
    return f'<pre class="code"><code>{lines}</code></pre>'


#: The papers a prompt can ask for by name (``"paper"`` in the lesson's metadata).
PAPERS = {"truth tables": truth_tables, "cursor bits": cursor_bits}


def anchor(title: str) -> str:
    """The id of a piece of paper material on the page, from its title."""
    return "m-" + "-".join(title.lower().split())


def picture(thing: object) -> str:
    """The HTML of something a prompt points to: a board, a chart, a tree, a map or code."""
    if isinstance(thing, (Shown, Board)):
        return f'<div class="figure">{print_board(thing)}{legend(thing)}</div>'
    if isinstance(thing, Chart):  # the lesson's chart, drawn as a static picture
        return f'<div class="figure chart">{thing.svg()}</div>'
    if isinstance(thing, CursorMapPicture):
        return f'<div class="figure">{map_svg(thing)}</div>'
    if isinstance(thing, See):
        title = _(thing.title)  # a material's title, in the catalogue where the sheet names it
        link = f'<a href="#{anchor(title)}">{html.escape(title.lower())}</a>'
        work = html.escape(_("Work on {material} at the end of this sheet."))
        return f'<p class="see">{work.format(material=link)}</p>'
    if isinstance(thing, Paper):
        return f'<div class="figure">{PAPERS[thing.name]()}</div>'
    if isinstance(thing, list):
        return f'<div class="figure">{tree_svg(thing)}</div>'
    if isinstance(thing, str):
        return code_block(thing)
    raise TypeError(f"a worksheet cannot draw {type(thing).__name__}")
