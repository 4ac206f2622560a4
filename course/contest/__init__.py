"""The class tournament, a final project: students' own players against each other and the levels.

* :mod:`.plain` - the plain board a player sees (the student runtime), the same everywhere;
* :mod:`.referee` - one game between two seats on the kit's :class:`reversi.game.Game`;
  a bad answer, a crash or a time-out loses that game and nothing more;
* :mod:`.sandboxed` - a student's notebook as a seat, run in the grading sandbox;
* :mod:`.handins` - the players handed in (the hand-in store, or a folder of notebooks);
* :mod:`.roundrobin` - every entrant against every other; the leaderboard;
* :mod:`.page` - the results: a static leaderboard page with a chart and every game
  replayable, and CSV files;
* :mod:`.practice` - :func:`try_player`, a few games against a level in the student's notebook;
* :mod:`.cli` - ``python -m course tournament HANDIN-FOLDER``.

In a student's notebook::

    from course.contest import BLACK, WHITE, PASS, try_player

    def choose(board, color):
        return board.legal_moves(color)[0]

    try_player(choose, against="easy")

and in the teacher's: ``run_tournament("class/classroom-data/handins", levels=["easy"])``.
"""

from __future__ import annotations

from typing import Any

from course.contest.practice import try_player

__all__ = ["BLACK", "PASS", "WHITE", "run_tournament", "try_player"]


def __getattr__(name: str) -> Any:
    """``BLACK``, ``WHITE``, ``PASS``, ``Square``, ``Board``: the plain runtime's, as in the tournament."""
    from course.contest.plain import PLAYER, plain

    if name == "run_tournament":
        from course.contest.cli import run_tournament

        return run_tournament
    if name in PLAYER.names:
        return getattr(plain(), name)
    raise AttributeError(f"module 'course.contest' has no attribute {name!r}")
