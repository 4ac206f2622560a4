"""The text panels beside the board (Pawns, Scores, Game log) as small HTML snippets.

Pure functions of the game's records, so they are tested without widgets.  Each
line is its own ``<div>`` and lines are separated by newlines, so a test reading
the page text sees ``Black: 4`` and ``White: 1`` as separate words.

>>> from reversi.board import PawnCounts
>>> print(pawns_html(PawnCounts(4, 1, 5, 59)))  # doctest: +ELLIPSIS
<div class="reversi-row" ...><b>Black</b>: 4</div>
<div class="reversi-row" ...><b>White</b>: 1</div>
<div class="reversi-row" ...><b>Total</b>: 5</div>
<div class="reversi-row" ...><b>Empty</b>: 59</div>
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from reversi.board import PawnCounts
from reversi.scores import Scoreboard

LOG_STYLE = (
    "max-height: 260px; overflow-y: auto; display: flex; flex-direction: column-reverse; "
    "font-family: monospace; font-size: 12px; line-height: 1.45"
)
ROWS_STYLE = "line-height: 1.6"


def _rows(pairs: Iterable[tuple[str, object]]) -> str:
    return "\n".join(
        f'<div class="reversi-row" style="{ROWS_STYLE}"><b>{escape(label)}</b>: '
        f"{escape(str(value))}</div>"
        for label, value in pairs
    )


def pawns_html(counts: PawnCounts) -> str:
    """Seed 000's Pawns window: black, white, total and empty squares."""
    return _rows(
        [
            ("Black", counts.black),
            ("White", counts.white),
            ("Total", counts.total),
            ("Empty", counts.empty),
        ]
    )


def scores_html(scoreboard: Scoreboard) -> str:
    """Seed 000's Scores window: wins per player, then draws and stalemates."""
    rows = scoreboard.rows()
    games = f'<div class="reversi-row" style="{ROWS_STYLE}">Games finished: {scoreboard.games}</div>'
    return games + "\n" + _rows(rows)


def log_html(lines: Iterable[str]) -> str:
    """The game log, oldest line first, scrolled to the newest line.

    (``column-reverse`` on the outer box keeps the scroll at the bottom without
    any script.)
    """
    body = "\n".join(f"<div>{escape(line)}</div>" for line in lines)
    return f'<div style="{LOG_STYLE}"><div>\n{body}\n</div></div>'


def status_html(message: str, error: bool = False) -> str:
    """The status line; errors in red."""
    color = "#b00020" if error else "inherit"
    return f'<span style="color: {color}">{escape(message)}</span>'


def error_html(details: str) -> str:
    """A folded traceback under the board, for an error in a callback."""
    if not details:
        return ""
    return (
        '<details><summary style="color: #b00020">Error details (for your teacher)</summary>'
        f'<pre style="font-size: 11px">{escape(details)}</pre></details>'
    )
