"""One HTML feedback page per student: each question's points, the failed cases that teach.

A failed case *of the notebook* (one the student can see and run) is shown in full: its
name, the call, the expected and the actual answer, what the function printed, and the
board as a picture (:func:`course.pictures.svg.board_svg`, the case's squares
highlighted) or the case's text picture.  A failed *grade-time* case is never shown: the
page says how many failed and of which kind (a wrong answer, an error raised, the board
changed...), so a page cannot be harvested for the hidden cases.  Everything the student
wrote or returned is escaped; the page has no script and loads nothing.

Page names never collide: :func:`page_name` keeps a plain student id as it is and gives
any other name a tag made from its hash (``collide lee`` and ``collide_lee`` get two pages).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from course.grading.judging import kit_reached
from course.grading.mistakes import cause
from course.grading.precheck import kit_import
from course.grading.records import CheckResult, Failure, Raised, Report, Spec
from course.grading.runner import compared_boards, expected_text
from course.grading.sheet import number, when
from course.i18n import LANGUAGES, N_, language, ngettext
from course.i18n import gettext as _

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
.passed { color: #176b2c; } .failed { color: #a11d1d; }
.case { border: 1px solid #ddd; border-radius: 6px; padding: .6em 1em; margin: .6em 0; }
.case svg { width: 220px; height: 220px; float: right; margin-left: 1em; }
pre { background: #f6f6f6; padding: .4em; white-space: pre-wrap; }
table { border-collapse: collapse; } td, th { padding: .2em .8em; text-align: left; }
.note { color: #555; } .clear { clear: both; } .hint { color: #7a4d00; }
"""


#: Failed cases of the notebook shown in full per question.
SHOWN_FAILURES = 5
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(10)),
    *(f"lpt{i}" for i in range(10)),
}


def page_name(student: str) -> str:
    """The file name of ``student``'s page, different for different names.

    >>> page_name("ann"), page_name("collide_lee")
    ('ann.html', 'collide_lee.html')
    >>> page_name("collide lee")
    'collide_lee~b0328b3541.html'
    """
    plain = (
        0 < len(student) <= 64
        and student.isascii()
        and all(c.islower() or c.isdigit() or c in "-_" for c in student)
        and student not in _RESERVED
    )
    if plain:
        return f"{student}.html"
    digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    safe = "".join(
        c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in student.lower()
    )
    return f"{safe[:40] or 'student'}~{digest}.html"


def page(name: str, sections: Iterable[str], notes: Iterable[str] = (), total: str = "") -> str:
    """The feedback page of the student ``name``, in the language of now (the grader writes
    a page inside ``speaking(language_of(sections))``): ``sections`` are from :func:`section`."""
    title = escape(_("Feedback for {name}").format(name=name))
    parts = [
        "<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{_STYLE}</style></head><body><main>", f"<h1>{title}</h1>",
    ]  # fmt: skip
    if total:
        parts.append("<p>" + escape(_("{total}. Each question was checked on the cases your notebook "
                     "shows and on cases it does not show.").format(total=total)) + "</p>")  # fmt: skip
    parts += [f'<p class="note">{escape(note)}</p>' for note in notes]
    parts += list(sections)
    parts.append("</main></body></html>")
    return "\n".join(parts)


def language_of(sections: Iterable[str]) -> str:
    """The language of the first of ``sections`` that says one (:func:`section` does), else
    English: a page is in the language of the student's hand-ins.

    >>> language_of(['<section lang="fr">...</section>']), language_of([])
    ('fr', 'en')
    """
    for text in sections:
        found = _LANG.match(text)
        if found and found.group(1) in LANGUAGES:
            return found.group(1)
    return "en"


_LANG = re.compile(r'<section lang="([a-z]{2,3})">')


def history(exercise: str, marks: Sequence[tuple[Any, Any]], chosen: Any, pick: str) -> list[str]:
    """The note on a page listing an exercise's hand-ins (``marks``: each hand-in with its
    grade, or None) when there are several, the ``chosen`` one marked."""
    if len(marks) < 2:
        return []
    times = []
    for handin, marked in marks:
        score = _(" ({points} points)").format(points=number(marked.earned)) if marked else ""
        times.append(when(handin.received) + score + (_(" [graded]") if handin is chosen else ""))
    said = _("{exercise}: {count} hand-ins, the best counts: ") if pick == "best" else _(
        "{exercise}: {count} hand-ins, the last counts: ")  # fmt: skip
    return [said.format(exercise=exercise, count=len(marks)) + ", ".join(times)]


def section(report: Report, heading: str = "") -> str:
    """One exercise of a page, in the report's language: each question's result, then its
    failed cases."""
    earned = sum(r.earned for r in report.checks)
    points = sum(r.points for r in report.checks)
    said = _("{exercise}: {earned}/{points} points").format(
        exercise=report.exercise, earned=number(earned), points=number(points))  # fmt: skip
    parts = [f'<section lang="{report.language}">', f"<h2>{escape(said)}</h2>"]
    if heading:
        parts.append(f'<p class="note">{escape(heading)}</p>')
    parts.append("<table><tr>" + "".join(f"<th>{escape(_(word))}</th>" for word in _COLUMNS)
                 + "</tr>")  # fmt: skip
    for result in report.checks:
        passed, failed = escape(_("passed")), escape(_("failed"))
        mark = f'<span class="passed">{passed}</span>' if result.passed else f'<span class="failed">{failed}</span>'
        counts = escape(_("{passed} of {total} cases passed").format(
            passed=result.cases_passed, total=result.cases_total))  # fmt: skip
        worth = _("{earned}/{points} points").format(
            earned=number(result.earned), points=number(result.points))  # fmt: skip
        parts.append(f"<tr><th>{escape(result.tag)}</th><td>{mark}</td><td>{counts}</td>"
                     f"<td>{worth}</td><td>{escape(result.message)}</td></tr>")  # fmt: skip
    parts.append("</table>")
    parts += [f'<p class="note">{escape(note)}</p>' for note in report.notes]
    for result in report.checks:
        visible = [f for f in result.failures if not _unseen(result, f)]
        hidden = [f for f in result.failures if _unseen(result, f)]
        for failure in visible[:SHOWN_FAILURES]:
            parts.append(_case(result, failure))
        if len(visible) > SHOWN_FAILURES:
            more = _("{question}: {count} more of your notebook's cases failed.").format(
                question=result.tag, count=len(visible) - SHOWN_FAILURES)  # fmt: skip
            parts.append(f'<p class="note">{escape(more, quote=False)}</p>')
        if hidden:
            parts.append(f'<p class="note">{escape(result.tag)}: {escape(_grade_time_summary(hidden))}</p>')
    parts.append("</section>")
    return "\n".join(parts)


_COLUMNS = (N_("question"), N_("result"), N_("cases"), N_("points"), N_("why"))


def _grade_time_summary(failures: Sequence[Failure]) -> str:
    """How many grade-time cases failed and of which kind, never which ones.

    >>> _grade_time_summary([Failure(None, Raised("KeyError")), Failure(None, [1]), Failure(None, [])])
    '3 grade-time cases failed (2 wrong answers, 1 raised KeyError); their positions are not shown'
    """
    kinds = Counter(_kind(failure) for failure in failures)
    listing = ", ".join(_plural(count, kind) for kind, count in kinds.most_common())
    return ngettext("{count} grade-time case failed ({listing}); its position is not shown",
                    "{count} grade-time cases failed ({listing}); their positions are not shown",
                    len(failures)).format(count=len(failures), listing=listing)  # fmt: skip


def _kind(failure: Failure) -> str:
    if failure.problem in (_("it changed the board it was given"), _("it changed the board before raising")):
        return "changed the board"
    if failure.problem:
        return "unusable answer"
    if isinstance(failure.actual, Raised):
        return "raised " + failure.actual.kind[:40]
    if failure.actual is None and failure.printed:
        return "printed instead of returning"
    return "wrong answer"


def _plural(count: int, kind: str) -> str:
    if kind.startswith("raised "):
        return _("{count} raised {error}").format(count=count, error=kind.removeprefix("raised "))
    kinds = {"wrong answer": ngettext("{count} wrong answer", "{count} wrong answers", count),
             "unusable answer": ngettext("{count} unusable answer", "{count} unusable answers", count),
             "changed the board": _("{count} changed the board"),
             "printed instead of returning": _("{count} printed instead of returning")}  # fmt: skip
    return kinds[kind].format(count=count)


def _unseen(result: CheckResult, failure: Failure) -> bool:
    """Whether the failed case is a grade-time one (or cannot be told apart from one)."""
    part = result.question.part_of(failure.case) if result.question else None
    return part is None or part.unseen


def _case(result: CheckResult, failure: Failure) -> str:
    case = failure.case
    spec = _spec_of(result, failure)
    show = spec.show if spec else repr
    parts = ['<div class="case">', _picture(case)]
    parts.append(f"<h3>{escape(result.tag)}: {escape(case.name)}</h3>")
    if spec and spec.call:
        with contextlib.suppress(IndexError, KeyError, ValueError):
            call = escape(spec.call.format(*case.args))
            parts.append(_said(_("call:"), f" <code>{call}</code>"))
    compared = compared_boards(show, failure)  # two boards: the squares that differ
    if compared:
        parts.append(f"<pre>{escape(chr(10).join(compared))}</pre>")
    else:
        parts.append(_said(_("expected:"), _pre(_expected(show, case.expected))))
    if compared:
        pass  # said above
    elif failure.problem:
        parts.append(_said(_("but {problem}").format(problem=failure.problem)))
    elif isinstance(failure.actual, Raised):
        parts.append(_said(_("but it {raised}").format(raised=failure.actual)))
        if failure.actual.where:  # the student's own line, never a traceback through the kit
            parts.append(_said(_("at:"), f" <code>{escape(failure.actual.where)}</code>"))
    else:
        parts.append(_said(_("actual:"), _pre(_shown(show, failure.actual))))
    if failure.printed:
        parts.append(_said(_("it printed:"), _pre(failure.printed[:1000])))
    package = kit_reached(failure)
    function = result.question.function if result.question else "this"
    cause = kit_import(function, package) if package else _likely_cause(case.expected, failure)
    if cause:
        likely = escape(_("Likely cause: {cause}").format(cause=cause))
        parts.append(f'<p class="hint">{likely}</p>')
    parts.append('<div class="clear"></div></div>')
    return "\n".join(parts)


def _said(words: str, html: str = "") -> str:
    """A paragraph of ``words`` (escaped), then ``html`` (a ``<pre>`` is outside it)."""
    if html.startswith("<pre>"):
        return f"<p>{escape(words)}</p>{html}"
    return f"<p>{escape(words)}{html}</p>"


def _pre(text: str) -> str:
    return f"<pre>{escape(text)}</pre>"


def _likely_cause(expected: Any, failure: Failure) -> str:
    """The likely cause the self-check names too (:func:`course.grading.mistakes.cause`).

    >>> _likely_cause((2, 3), Failure(None, (2, 4)))
    'off by one: rows and columns count from 0 (row 0 is row 1 on the board)'
    >>> _likely_cause(5, Failure(None, None, printed="5"))
    'it printed its answer instead of returning it: use return'
    """
    return failure.cause or cause(failure, expected)


def _expected(show: Any, value: Any) -> str:
    """The expected answer in words, as the self-check says it (``should raise ValueError``)."""
    try:
        return expected_text(show, value)[:2000]
    except Exception:
        return repr(value)[:2000]


def _spec_of(result: CheckResult, failure: Failure) -> Spec | None:
    part = result.question.part_of(failure.case) if result.question else None
    return part.spec if part else None


def _shown(show: Any, value: Any) -> str:
    try:
        return str(show(value))[:2000]
    except Exception:
        return repr(value)[:2000]


def _picture(case: Any) -> str:
    if case.board is not None:
        from course.pictures.svg import board_svg

        try:
            return board_svg(case.board, highlight=case.highlight)
        except Exception:
            return ""
    if case.picture:
        return f"<pre>{escape(case.picture)}</pre>"
    return ""
