"""The text panels beside the board (Pawns, Scores, Game log) and the status line as HTML.

This module owns how those texts look; it words nothing itself (the messages come
from :mod:`.messages`) and imports no widget.  Pure functions of the game's
records, so they are tested without widgets.  Each
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

from course.board.messages import Tone
from reversi.board import PawnCounts
from reversi.scores import Scoreboard

LOG_STYLE = (
    "max-height: 200px; overflow-y: auto; display: flex; flex-direction: column-reverse; "
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
    """The Pawns panel: black, white, total and empty squares."""
    return _rows(
        [
            ("Black", counts.black),
            ("White", counts.white),
            ("Total", counts.total),
            ("Empty", counts.empty),
        ]
    )


def scores_html(scoreboard: Scoreboard) -> str:
    """The Scores panel: wins per player, then draws and stalemates."""
    rows = scoreboard.rows()
    games = (
        f'<div class="reversi-row" style="{ROWS_STYLE}">Games finished: {scoreboard.games}</div>'
    )
    return games + "\n" + _rows(rows)


def log_html(lines: Iterable[str]) -> str:
    """The game log, oldest line first, scrolled to the newest line.

    (``column-reverse`` on the outer box keeps the scroll at the bottom without
    any script.)
    """
    body = "\n".join(f"<div>{escape(line)}</div>" for line in lines)
    return f'<div style="{LOG_STYLE}"><div>\n{body}\n</div></div>'


#: How each tone of the status line looks: its CSS class, a sign before the text, a style.
TONE_LOOKS = {
    Tone.NORMAL: ("reversi-note", "", "color: inherit"),
    Tone.REFUSAL: (
        "reversi-refusal",
        "\u26a0\ufe0f",
        "color: #7a4100; background: #fff3d6; border-left: 4px solid #e08a00; "
        "padding: 2px 8px; border-radius: 3px; display: inline-block",
    ),
    Tone.ERROR: (
        "reversi-error-line",
        "\u274c",
        "color: #b00020; background: #fde8ea; border-left: 4px solid #b00020; "
        "padding: 2px 8px; border-radius: 3px; display: inline-block",
    ),
}


def status_html(message: str, tone: Tone = Tone.NORMAL) -> str:
    """The status line: a refusal stands out with a warning sign, an error in red.

    >>> status_html("Please wait.", Tone.REFUSAL)  # doctest: +ELLIPSIS
    '<span class="reversi-refusal" role="alert" style="..."><span class="reversi-sign" aria-hidden="true">⚠️</span> Please wait.</span>'
    """
    css_class, sign, style = TONE_LOOKS[tone]
    role = "" if tone is Tone.NORMAL else ' role="alert"'
    if sign:
        sign = f'<span class="reversi-sign" aria-hidden="true">{sign}</span> '
    return f'<span class="{css_class}"{role} style="{style}">{sign}{escape(message)}</span>'


def error_html(details: str) -> str:
    """A folded traceback under the board, for an error in a callback."""
    if not details:
        return ""
    return (
        '<details><summary style="color: #b00020">Error details (for your teacher)</summary>'
        f'<pre style="font-size: 11px">{escape(details)}</pre></details>'
    )
