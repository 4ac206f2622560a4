"""Every graded exercise, declared once: its questions, points, partial credit and runtime.

One :class:`Entry` per exercise says

* ``answers``: the functions students write, one ``answer:NAME`` cell each, in order;
* ``questions``: one per ``check:NAME`` cell, each naming the check in
  :mod:`course.grading.checks` (which builds its cases, the notebook's and, drawn again
  from the teacher's seed, the grade-time ones), the student's function it calls, its
  points and its partial-credit rule (:class:`Partial`);
* what the student runtime offers (:mod:`course.grading.compose`): ``names`` put in the
  answer cells' namespace (``BLACK``, ``Board``, ``evaluate``...), ``lends``, the board
  methods the exercise's boards have (``flips`` in exercise 05, never in 04, where
  students write it), and ``modules``, standard modules the setup cell imports.

The grader (:mod:`course.grading.exercise`), the sandbox's runtime, ``release`` (which
refuses a notebook that disagrees with its entry) and the tests all read this table;
adding an exercise means adding its entry here and its notebook, nothing else.

>>> ENTRIES["04_flips"].asked
('flips', 'is_legal')
>>> [q.check for q in ENTRIES["04_flips"].questions]
['figure2', 'flips', 'is_legal']
>>> sum(entry.points for entry in ENTRIES.values())
39
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Partial(enum.Enum):
    """How much of a question's points a partly right answer earns.

    * ``NONE``: all or nothing (every case, the notebook's and the grade-time ones);
    * ``CASES``: points in proportion to the cases passed (never for an answer that
      fails any of the grade-time cases it has not seen more often than the ones it
      has: see :func:`earned`).
    """

    NONE = "none"
    CASES = "cases"


@dataclass(frozen=True)
class Question:
    """A ``check:NAME`` cell: ``checks.CHECK(FUNCTION)``, worth ``points``."""

    check: str
    function: str
    points: int = 1
    partial: Partial = Partial.NONE

    @property
    def tag(self) -> str:
        return f"check:{self.check}"


@dataclass(frozen=True)
class Entry:
    """One exercise: the functions students write, its questions, what its runtime offers."""

    name: str
    asked: tuple[str, ...]
    questions: tuple[Question, ...]
    names: tuple[str, ...] = ("BLACK", "WHITE", "Board")
    lends: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()  # standard modules the setup cell imports (``math``)

    @property
    def points(self) -> int:
        return sum(question.points for question in self.questions)

    @property
    def answer_tags(self) -> tuple[str, ...]:
        return tuple(f"answer:{function}" for function in self.asked)


def earned(partial: Partial, points: int, shown: tuple[int, int], unseen: tuple[int, int]) -> float:
    """The points earned with ``(passed, total)`` of the notebook's and the grade-time cases.

    >>> earned(Partial.NONE, 2, (5, 5), (4, 5))
    0.0
    >>> earned(Partial.CASES, 2, (5, 5), (4, 5))
    1.8
    >>> earned(Partial.CASES, 2, (5, 5), (0, 5))  # right only where it was shown the answers
    0.0
    """
    passed, total = shown[0] + unseen[0], shown[1] + unseen[1]
    if total == 0:
        return 0.0
    if passed == total:
        return float(points)
    if partial is Partial.NONE:
        return 0.0
    share_shown = shown[0] / shown[1] if shown[1] else 1.0
    share_unseen = unseen[0] / unseen[1] if unseen[1] else 1.0
    if share_unseen < share_shown / 2:  # a hard-coded answer: right only where it was shown
        return 0.0
    return round(points * passed / total, 2)


_SEARCH = ("BLACK", "WHITE", "Board", "PASS", "evaluate", "NodeCounter")
_PLAYER = ("legal_moves", "flips", "is_legal", "count", "copy", "play")

TABLE: tuple[Entry, ...] = (
    Entry("01_squares", ("to_notation", "from_notation"),
          (Question("to_notation", "to_notation"), Question("from_notation", "from_notation"))),
    Entry("02_counting", ("count_discs", "leader"),
          (Question("count_discs", "count_discs"), Question("leader", "leader"))),
    Entry("03_lines", ("walk", "neighbours"),
          (Question("walk", "walk"), Question("neighbours", "neighbours")),
          names=("BLACK", "WHITE", "Board", "DIRECTIONS")),
    Entry("04_flips", ("flips", "is_legal"),
          (Question("figure2", "flips"), Question("flips", "flips", 2),
           Question("is_legal", "is_legal")),
          names=("BLACK", "WHITE", "Board", "DIRECTIONS")),
    Entry("05_play", ("play", "replay"),
          (Question("play", "play", 2), Question("replay", "replay")),
          lends=("flips", "is_legal")),
    Entry("06_legal_moves", ("legal_moves", "must_pass", "game_over", "winner"),
          (Question("legal_moves", "legal_moves"), Question("must_pass", "must_pass"),
           Question("game_over", "game_over"), Question("winner", "winner")),
          lends=("flips", "is_legal", "count")),
    Entry("07_greedy", ("greedy_move",),
          (Question("greedy_move", "greedy_move", 2),
           Question("greedy_games", "greedy_move", 1, Partial.CASES)),
          names=("BLACK", "WHITE", "Board", "PASS"), lends=_PLAYER),
    Entry("08_positional", ("positional_score", "positional_move"),
          (Question("positional_score", "positional_score"),
           Question("positional_move", "positional_move", 2)),
          names=("BLACK", "WHITE", "Board", "PASS", "weights"), lends=_PLAYER),
    Entry("09_minimax", ("minimax", "best_move"),
          (Question("minimax_value", "minimax", 2), Question("minimax_nodes", "minimax"),
           Question("best_move", "best_move")),
          names=_SEARCH, lends=_PLAYER, modules=("math",)),
    Entry("10_alphabeta", ("alphabeta",),
          (Question("alphabeta_value", "alphabeta", 2), Question("alphabeta_window", "alphabeta"),
           Question("alphabeta_prunes", "alphabeta", 2)),
          names=_SEARCH, lends=_PLAYER, modules=("math",)),
    Entry("11_map_files", ("parse_definitions",),
          (Question("parse_definitions", "parse_definitions", 2, Partial.CASES),
           Question("definition_errors", "parse_definitions", 2, Partial.CASES)),
          names=("MapFileError",)),
    Entry("12_cursor", ("combine", "apply_cursor"),
          (Question("combine", "combine"), Question("apply_cursor", "apply_cursor", 2)),
          names=()),
)  # fmt: skip

#: The table by exercise name.
ENTRIES: dict[str, Entry] = {entry.name: entry for entry in TABLE}
