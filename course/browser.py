"""What the lessons do in the browser classroom, where some of a computer's tools are missing.

The browser classroom runs the lessons in a JupyterLite kernel (Pyodide): Python
compiled for the web page.  It has no threads, only the kit's small stand-ins for numpy
and Pillow, and it is a few times slower.  (Charts need nothing here: they are Vega-Lite
descriptions the page draws, :mod:`course.charts`.)  This module owns the promises the
lessons make there: a round robin plays a smaller number of games and says so
(:func:`browser_games`), and a computer level thinks at most about 3 seconds a move
(:func:`level_options`).

>>> in_browser()  # these doctests run on a computer
False
>>> browser_games(400, pairs=1)
400
"""

from __future__ import annotations

import sys

#: About how many games a round robin plays in the browser, all pairs together.
BROWSER_GAMES = 40
#: Thinking time per move of the levels in the browser, chosen by measurement: the engine is
#: 2.5-3 times slower there, and expert's exact solve of 14 empty squares took up to 2.6 s
#: (30 positions; ``benchmarks/engine_slices.py``), so it keeps 3 s to play those perfectly.
BROWSER_TIME_LIMITS = {"expert": 3.0}


def in_browser() -> bool:
    """Whether this Python runs in a web page (Pyodide says ``sys.platform == "emscripten"``)."""
    return sys.platform == "emscripten"


def browser_games(games_per_pair: int, pairs: int) -> int:
    """The games per pair a round robin plays here: all of them on a computer, fewer in the browser.

    In the browser the pairs share about :data:`BROWSER_GAMES` games (at least two
    each, an even number), and one line says how many are played instead.
    """
    if not in_browser():
        return games_per_pair
    fewer = max(2, BROWSER_GAMES // max(pairs, 1) // 2 * 2)
    if fewer >= games_per_pair:
        return games_per_pair
    print(
        f"The browser classroom is slower: each pair plays {fewer} games here instead of "
        f"{games_per_pair} (a computer with the kit plays them all)."
    )
    return fewer


def level_options(kind: object) -> dict[str, float]:
    """The options a computer level of this ``kind`` gets here: a shorter time in the browser.

    >>> level_options("expert")  # on a computer: the level as it is
    {}
    """
    if not in_browser() or not isinstance(kind, str) or kind not in BROWSER_TIME_LIMITS:
        return {}
    return {"time_limit": BROWSER_TIME_LIMITS[kind]}
