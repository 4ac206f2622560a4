"""Feedback pages: the notebook's cases in full, grade-time cases only counted, causes named."""

from __future__ import annotations

from html import escape
from pathlib import Path

from course.grading import feedback
from course.grading.exercise import Part, Question
from course.grading.records import Case, CheckResult, Failure, Raised, Raises, Report, Spec
from reversi import BLACK, WHITE, Board
from reversi.errors import IllegalMoveError


def _question(shown: list[Case], unseen: list[Case]) -> Question:
    def part(cases: list[Case], hidden: bool) -> Part:
        spec = Spec("play", cases, judge=lambda answer, args: answer, call="play(board, {0!r})")
        return Part(spec, [[str(c.args[0])] for c in cases], hidden)

    return Question("check:play", "play", "play", (part(shown, False), part(unseen, True)))


def _page(result: CheckResult) -> str:
    report = Report(Path("x.ipynb"), "05_play", checks=[result])
    return feedback.page("Ann", [feedback.section(report)])


def test_shown_cases_in_full_and_grade_time_cases_only_counted() -> None:
    shown = [Case("shown illegal move", ("z9",), Raises(IllegalMoveError), Board(), ("d3",)),
             Case("shown count", ("c4",), 4), Case("shown printer", ("e6",), 2)]  # fmt: skip
    unseen = [Case(f"SECRET-{i} [grade-time case]", (f"secret{i}",), i) for i in range(6)]
    failures = [
        Failure(shown[0], Raised("TypeError", "boom", where="line 3 of your code, in play: x()")),
        Failure(shown[1], 5),
        Failure(shown[2], None, printed="2\n"),
        *(Failure(case, "wrong") for case in unseen[:3]),
        Failure(unseen[3], Raised("KeyError", "k")),
        Failure(unseen[4], None, printed="x"),
        Failure(unseen[5], None, problem="it changed the board it was given"),
    ]
    result = CheckResult("check:play", False, "9 of 9 cases failed", 0, 9, failures,
                         _question(shown, unseen))  # fmt: skip
    page = _page(result)
    assert "should raise IllegalMoveError" in page
    assert "Raises(" not in page
    assert "<code>play(board, &#x27;z9&#x27;)</code>" in page and "<svg" in page
    assert "but it raised TypeError: boom" in page
    assert "<p>at: <code>line 3 of your code, in play: x()</code></p>" in page
    assert "Likely cause: off by one" in page
    assert "Likely cause: it printed its answer instead of returning it" in page
    assert "SECRET" not in page and "secret" not in page
    assert escape("6 grade-time cases failed (3 wrong answers, 1 raised KeyError, "
                  "1 printed instead of returning, 1 changed the board)") in page  # fmt: skip
    assert "<script" not in page


def test_only_so_many_notebook_cases_are_drawn() -> None:
    shown = [Case(f"case {i}", (f"a{i}",), i) for i in range(9)]
    failures = [Failure(case, -1) for case in shown]
    result = CheckResult("check:play", False, "", 0, 9, failures, _question(shown, []))
    page = _page(result)
    assert page.count('<div class="case">') == feedback.SHOWN_FAILURES
    assert f"{9 - feedback.SHOWN_FAILURES} more of your notebook's cases failed" in page


def test_partial_credit_is_shown_per_question() -> None:
    result = CheckResult("check:play", False, "", 3, 4, [], None, points=1, earned=0.75)
    assert "0.75/1 points" in _page(result)
    assert "<h2>05_play: 0.75/1 points</h2>" in _page(result)


def test_the_results_table_has_headings_and_counts_read_as_passes() -> None:
    result = CheckResult("check:play", False, "20 of 24 cases failed", 4, 24, [], None)
    page = _page(result)
    assert ("<tr><th>question</th><th>result</th><th>cases</th><th>points</th><th>why</th></tr>"
            in page)  # fmt: skip
    assert "<td>4 of 24 cases passed</td>" in page
    assert "4/24" not in page


def test_two_boards_read_as_the_squares_that_differ() -> None:
    """replay's page: 'b6 should be White; yours is empty', not two whole boards."""
    wanted, got = Board(), Board()
    for at, color in (("f5", BLACK), ("f6", WHITE), ("e6", BLACK)):
        wanted.play(at, color)
    for at, color in (("f5", BLACK), ("f6", WHITE)):
        got.play(at, color)
    case = Case("3 moves: f5f6e6", ("f5f6e6",), str(wanted), wanted)
    spec = Spec("replay", [case], judge=lambda answer, args: answer,
                show=lambda text: "\n" + text, call="replay({0!r})")  # fmt: skip
    question = Question("check:replay", "replay", "replay", (Part(spec, [["f5f6e6"]], False),))
    page = _page(CheckResult("check:replay", False, "", 0, 1, [Failure(case, str(got))], question))
    assert "e6 should be Black; yours is empty" in page
    assert "a b c d e f g h" not in page  # the board is the picture, drawn once
    assert page.count("<svg") == 1
