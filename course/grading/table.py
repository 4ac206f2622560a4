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
42
"""

from __future__ import annotations

from dataclasses import dataclass

from reversi.surface import Choice


class Partial(Choice):
    """How much of a question's points a partly right answer earns.

    * ``NONE``: all or nothing (every case, the notebook's and the grade-time ones).  For a
      question that is one fact (Figure 2, "does it prune") or whose answer is one of a few
      values (``True``/``False``, a colour or ``None``, a field's character), where an answer
      that guesses one value for every case would pass many of them;
    * ``CASES``: points in proportion to the cases passed, once at least half of them pass,
      for a question whose cases check one function independently on many positions (never
      for an answer that fails the grade-time cases it has not seen much more often than
      the ones it has: see :func:`earned`).  The checks make sure that a trivial answer
      (``None``, ``[]``, ``0``, a constant square, an error...) passes fewer than half.
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
    >>> earned(Partial.CASES, 2, (2, 5), (2, 5)), earned(Partial.CASES, 2, (3, 5), (2, 5))
    (0.0, 1.0)
    """
    passed, total = shown[0] + unseen[0], shown[1] + unseen[1]
    if total == 0:
        return 0.0
    if passed == total:
        return float(points)
    if partial is Partial.NONE or 2 * passed < total:  # under half: nothing, as for a guess
        return 0.0
    share_shown = shown[0] / shown[1] if shown[1] else 1.0
    share_unseen = unseen[0] / unseen[1] if unseen[1] else 1.0
    if share_unseen < share_shown / 2:  # a hard-coded answer: right only where it was shown
        return 0.0
    return round(points * passed / total, 2)


_SEARCH = ("BLACK", "WHITE", "Board", "PASS", "evaluate", "NodeCounter")
_PLAYER = ("legal_moves", "flips", "is_legal", "count", "copy", "play")
_CASES = Partial.CASES

TABLE: tuple[Entry, ...] = (
    Entry("01_squares", ("to_notation", "from_notation"),
          (Question("to_notation", "to_notation", 1, _CASES),
           Question("from_notation", "from_notation", 1, _CASES))),
    Entry("02_counting", ("count_discs", "leader"),
          (Question("count_discs", "count_discs", 1, _CASES), Question("leader", "leader"))),
    Entry("03_lines", ("walk", "neighbours"),
          (Question("walk", "walk", 1, _CASES), Question("neighbours", "neighbours", 1, _CASES)),
          names=("BLACK", "WHITE", "Board", "DIRECTIONS")),
    Entry("04_flips", ("flips", "is_legal"),
          (Question("figure2", "flips"), Question("flips", "flips", 2, _CASES),
           Question("is_legal", "is_legal")),
          names=("BLACK", "WHITE", "Board", "DIRECTIONS")),
    Entry("05_play", ("play", "replay"),
          (Question("play", "play", 2, _CASES), Question("replay", "replay", 1, _CASES)),
          lends=("flips", "is_legal")),
    Entry("06_legal_moves", ("legal_moves", "must_pass", "game_over", "winner"),
          (Question("legal_moves", "legal_moves", 1, _CASES), Question("must_pass", "must_pass"),
           Question("game_over", "game_over"), Question("winner", "winner")),
          lends=("flips", "is_legal", "count")),
    Entry("07_greedy", ("greedy_move",),
          (Question("greedy_move", "greedy_move", 2, _CASES),
           Question("greedy_games", "greedy_move", 1, _CASES)),
          names=("BLACK", "WHITE", "Board", "PASS"), lends=_PLAYER),
    Entry("08_positional", ("positional_score", "positional_move"),
          (Question("positional_score", "positional_score", 1, _CASES),
           Question("positional_move", "positional_move", 2, _CASES)),
          names=("BLACK", "WHITE", "Board", "PASS", "weights"), lends=_PLAYER),
    Entry("09_minimax", ("minimax", "best_move"),
          (Question("minimax_value", "minimax", 2, _CASES),
           Question("minimax_nodes", "minimax", 1, _CASES),
           Question("best_move", "best_move", 1, _CASES)),
          names=_SEARCH, lends=_PLAYER, modules=("math",)),
    Entry("10_alphabeta", ("alphabeta",),
          (Question("alphabeta_value", "alphabeta", 2, _CASES),
           Question("alphabeta_window", "alphabeta", 1, _CASES),
           Question("alphabeta_prunes", "alphabeta", 2)),
          names=_SEARCH, lends=_PLAYER, modules=("math",)),
    Entry("11_map_files", ("parse_definitions", "map_lines"),
          (Question("parse_definitions", "parse_definitions", 2, _CASES),
           Question("definition_errors", "parse_definitions", 2, _CASES),
           Question("map_lines", "map_lines", 1, _CASES),
           Question("map_line_errors", "map_lines", 2, _CASES)),
          names=("MapFileError",)),
    Entry("12_cursor", ("combine", "apply_cursor"),
          (Question("combine", "combine"), Question("apply_cursor", "apply_cursor", 2, _CASES)),
          names=()),
)  # fmt: skip

#: The table by exercise name.
ENTRIES: dict[str, Entry] = {entry.name: entry for entry in TABLE}
