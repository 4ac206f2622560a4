"""Every exercise check in one place, so a check cell reads ``checks.flips(flips)``.

Each check takes the student's function, runs it on cases whose answers come from the
``reversi`` package, prints ``NAME: n/n cases passed`` and raises AssertionError if a case
fails (see :mod:`course.grading.runner`).

>>> from course.grading import checks
>>> checks.to_notation(lambda row, col: "abcdefghijklmnop"[col] + str(row + 1))
to_notation: 11/11 cases passed (self-check; the grade is computed separately)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.grading.checks_board import (
    count_discs,
    figure2,
    flips,
    from_notation,
    is_legal,
    leader,
    neighbours,
    to_notation,
    walk,
)
from course.grading.checks_cursor import apply_cursor, combine
from course.grading.checks_mapfile import (
    definition_errors,
    map_line_errors,
    map_lines,
    parse_definitions,
)
from course.grading.checks_moves import game_over, legal_moves, must_pass, play, replay, winner
from course.grading.checks_players import (
    greedy_games,
    greedy_move,
    positional_move,
    positional_score,
)
from course.grading.checks_search import (
    NodeCounter as NodeCounter,  # the counter exercise 09 hands out
)
from course.grading.checks_search import (
    alphabeta_prunes,
    alphabeta_value,
    alphabeta_window,
    best_move,
    minimax_nodes,
    minimax_value,
)
from course.grading.precheck import checking_earlier_first
from reversi.surface import student

#: Every check by name, as a table entry's question names it.
CHECKS: dict[str, Callable[[Any], None]] = {
    check.__name__: check
    for check in (
        to_notation,
        from_notation,
        count_discs,
        leader,
        walk,
        neighbours,
        figure2,
        flips,
        is_legal,
        play,
        replay,
        legal_moves,
        must_pass,
        game_over,
        winner,
        greedy_move,
        greedy_games,
        positional_score,
        positional_move,
        minimax_value,
        minimax_nodes,
        best_move,
        alphabeta_value,
        alphabeta_window,
        alphabeta_prunes,
        parse_definitions,
        definition_errors,
        map_lines,
        map_line_errors,
        combine,
        apply_cursor,
    )
}

def _self_check(check: Callable[[Any], None]) -> Callable[[Any], None]:
    """``check`` as a check cell calls it: anything but a function is refused by the one
    decorator of the student surface (:func:`reversi.surface.student`); an answer using the
    kit's own code is refused, and the student's failing earlier functions are named first
    (:mod:`course.grading.precheck`)."""
    prechecked = checking_earlier_first(check, CHECKS)

    def self_check(function: Callable[..., object]) -> None:
        __tracebackhide__ = True  # IPython shows the student's cell, not the kit
        prechecked(function)

    self_check.__name__ = self_check.__qualname__ = check.__name__
    self_check.__doc__ = check.__doc__
    return student(self_check)


# A check cell calls these; the table's CHECKS stay as they are (the grader calls them with
# no function, to collect their cases).
globals().update({name: _self_check(check) for name, check in CHECKS.items()})
