"""The text panels beside the board (Discs, Scores, Game log), the status line and the board's CSS.

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
from course.i18n import N_
from course.i18n import gettext as _
from reversi.board import PawnCounts
from reversi.scores import Scoreboard

#: Ten whole lines high: a line's height divides the box's, so the top line is never cut in half.
LOG_STYLE = (
    "max-height: 200px; overflow-y: auto; display: flex; "
    "flex-direction: column-reverse; font-family: monospace; font-size: 13px; line-height: 20px"
)

#: The board's own CSS, shown once with each board: visible keyboard focus, touch targets of
#: 40 px and more, a toggle whose label is never cut, and the presenter view's big texts.
STYLE = """<style>
.reversi-game .reversi-canvas {  /* room for the focus ring, which the boxes round it would clip */
  margin: 5px; max-width: calc(100% - 10px) !important; }
.reversi-game canvas:focus, .reversi-game canvas:focus-visible,
.reversi-game button:focus-visible, .reversi-game input:focus-visible {
  outline: 3px solid #1a5fb4; outline-offset: 2px; }
.reversi-game .widget-button, .reversi-game .widget-toggle-button,
.reversi-game .widget-text input, .reversi-game .widget-dropdown select {
  min-height: 40px; height: auto; }
.reversi-game .widget-button, .reversi-game .widget-toggle-button {
  min-width: 40px; white-space: normal; overflow: visible; text-overflow: clip; }
.reversi-thinking-toggle { width: auto; max-width: 100%; }
@media (max-width: 480px) {  /* a phone on a page without code: the board takes the whole width */
  .jp-mod-noInput .reversi-game .reversi-canvas { width: 100vw !important; max-width: 100vw !important;
    margin-left: calc(50% - 50vw) !important; margin-right: calc(50% - 50vw) !important; }
}
.reversi-legend { margin: 4px 0; }
.reversi-present, .reversi-present .widget-html, .reversi-present .widget-html-content,
.reversi-present .widget-button,
.reversi-present .widget-toggle-button, .reversi-present .widget-label,
.reversi-present input, .reversi-present select, .reversi-present .widget-text input {
  font-size: 22px !important; line-height: 1.4 !important; }
.reversi-present .reversi-log div { font-size: 20px !important; line-height: 30px !important; }
.reversi-present .reversi-log > div > div { max-height: 300px !important; }
.reversi-present .widget-vbox > .widget-vbox { width: auto !important; min-width: 220px; }
</style>"""
ROWS_STYLE = "line-height: 1.6"


def _rows(pairs: Iterable[tuple[str, object]]) -> str:
    row = escape(_("{label}: {value}"))  # "Noir : 4" in French
    return "\n".join(
        f'<div class="reversi-row" style="{ROWS_STYLE}">'
        + row.format(label=f"<b>{escape(label)}</b>", value=escape(str(value))) + "</div>"
        for label, value in pairs
    )  # fmt: skip


def pawns_html(counts: PawnCounts) -> str:
    """The Discs panel: black, white, total and empty squares."""
    return _rows(
        [
            (_("Black"), counts.black),
            (_("White"), counts.white),
            (_("Total"), counts.total),
            (_("Empty"), counts.empty),
        ]
    )


def scores_html(scoreboard: Scoreboard) -> str:
    """The Scores panel: wins per player and draws (stalemates too, once the rule of that name ended one).

    >>> from reversi.scores import Scoreboard
    >>> "Stalemate" in scores_html(Scoreboard())
    False
    """
    rows = [(label, count) for label, count in scoreboard.rows()
            if label != "Stalemates" or count]  # fmt: skip
    rows = [(_(_SCORE_WORDS.get(label, label)), count) for label, count in rows]
    finished = escape(_("Games finished: {count}").format(count=scoreboard.games))
    games = f'<div class="reversi-row" style="{ROWS_STYLE}">{finished}</div>'
    return games + "\n" + _rows(rows)


#: The Scores panel's words (a seat's name, "Black" say, is translated too).
_SCORE_WORDS = {"Draws": N_("Draws"), "Stalemates": N_("Stalemates (no-move rule)")}


def log_html(lines: Iterable[str]) -> str:
    """The game log, oldest line first, scrolled to the newest line.

    (``column-reverse`` on the outer box keeps the scroll at the bottom without
    any script.)  ``lines`` is a list (or tuple) of texts, such as a game's ``log``.
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


def live_html(spoken: str) -> str:
    """The live region a screen reader reads after every change (a polite status)."""
    return f'<div role="status" aria-live="polite" aria-atomic="true">{escape(spoken)}</div>'


ERROR_DETAILS = N_("Error details (for your teacher)")


def error_html(details: str | None) -> str:
    """A folded traceback under the board, for an error in a callback (``None``: nothing)."""
    if not details:
        return ""
    return (
        f'<details><summary style="color: #b00020">{escape(_(ERROR_DETAILS))}</summary>'
        f'<pre style="font-size: 11px">{escape(details)}</pre></details>'
    )


def display(visible: bool) -> str:
    """A widget's ``layout.display`` for shown or hidden: ``""`` and ``"none"``.

    Never ``None`` for shown: Pyodide's bridge (the browser kernel) drops ``None``, so a
    box hidden once would stay hidden for ever.
    """
    return "" if visible else "none"
