"""What the lessons do in the browser classroom, where some of a computer's tools are missing.

The browser classroom runs the lessons in a JupyterLite kernel (Pyodide): Python
compiled for the web page.  It has no matplotlib, no threads, only the kit's small
stand-ins for numpy and Pillow, and it is a few times slower.  This module owns the
promises the lessons make there: a chart says in ONE line that it shows on a
computer, instead of failing (:func:`needs_matplotlib`), a round robin plays a
smaller number of games and says so (:func:`browser_games`), and a computer level
thinks at most about 3 seconds a move (:func:`level_options`).

>>> in_browser()  # these doctests run on a computer
False
>>> browser_games(400, pairs=1)
400
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: The one line a chart prints where it cannot be drawn.
NO_CHARTS = (
    "Charts need matplotlib, which the browser classroom does not have: "
    "this chart shows on a computer with the kit installed."
)
#: About how many games a round robin plays in the browser, all pairs together.
BROWSER_GAMES = 40
#: Thinking time per move of the levels in the browser, chosen by measurement: the engine is
#: 2.5-3 times slower there, and expert's exact solve of 14 empty squares took up to 2.6 s
#: (30 positions; ``benchmarks/engine_slices.py``), so it keeps 3 s to play those perfectly.
BROWSER_TIME_LIMITS = {"expert": 3.0}


def in_browser() -> bool:
    """Whether this Python runs in a web page (Pyodide says ``sys.platform == "emscripten"``)."""
    return sys.platform == "emscripten"


def can_draw_charts() -> bool:
    """Whether matplotlib can be used here: not in the browser, nor where it is not installed."""
    if in_browser():
        return False
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def needs_matplotlib(draw: Callable[P, T]) -> Callable[P, T | None]:
    """Make a chart function print :data:`NO_CHARTS` and return ``None`` where it cannot draw.

    >>> @needs_matplotlib
    ... def chart():
    ...     return "drawn"
    >>> chart() == ("drawn" if can_draw_charts() else None)
    True
    """
    @functools.wraps(draw)
    def drawn_if_possible(*args: P.args, **kwargs: P.kwargs) -> T | None:
        if not can_draw_charts():
            print(NO_CHARTS)
            return None
        return draw(*args, **kwargs)

    return drawn_if_possible


class Axes(Protocol):
    """What a chart draws on: matplotlib's ``Axes`` (``plt.subplots()[1]``), by what it can do.

    Named here so that a chart's arguments are checked without importing matplotlib.
    """

    def axhline(self, *args: Any, **kwargs: Any) -> Any: ...
    def barh(self, *args: Any, **kwargs: Any) -> Any: ...
    def fill_between(self, *args: Any, **kwargs: Any) -> Any: ...
    def imshow(self, *args: Any, **kwargs: Any) -> Any: ...
    def legend(self, *args: Any, **kwargs: Any) -> Any: ...
    def plot(self, *args: Any, **kwargs: Any) -> Any: ...
    def set_title(self, *args: Any, **kwargs: Any) -> Any: ...
    def set_xlabel(self, *args: Any, **kwargs: Any) -> Any: ...
    def set_xticks(self, *args: Any, **kwargs: Any) -> Any: ...
    def set_ylabel(self, *args: Any, **kwargs: Any) -> Any: ...
    def set_yticks(self, *args: Any, **kwargs: Any) -> Any: ...
    def text(self, *args: Any, **kwargs: Any) -> Any: ...


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
