"""One HTML feedback page per student: each question's result, and each failed case shown.

A failed case shows its name, the call, the expected and the actual answer, what the
function printed, and the board as a picture (:func:`course.pictures.svg.board_svg`,
the case's squares highlighted) or the case's text picture.  Everything the student
wrote or returned is escaped; the page has no script and loads nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from course.grading.runner import Failure, Raised

if TYPE_CHECKING:
    from course.grading.checker import CheckResult, Report

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
.passed { color: #176b2c; } .failed { color: #a11d1d; }
.case { border: 1px solid #ddd; border-radius: 6px; padding: .6em 1em; margin: .6em 0; }
.case svg { width: 220px; height: 220px; float: right; margin-left: 1em; }
pre { background: #f6f6f6; padding: .4em; white-space: pre-wrap; }
table { border-collapse: collapse; } td, th { padding: .2em .8em; text-align: left; }
.note { color: #555; } .clear { clear: both; }
"""


def page(student: str, reports: dict[str, Report], similar: Iterable[str] = ()) -> str:
    """The feedback page of ``student`` as HTML text."""
    passed = sum(r.passed for r in reports.values())
    total = sum(r.total for r in reports.values())
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Feedback for {escape(student)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Feedback for {escape(student)}</h1>",
        f"<p>{passed} of {total} questions passed. Each question was checked on the cases "
        "your notebook shows and on cases it does not show.</p>",
    ]  # fmt: skip
    for line in similar:
        parts.append(f'<p class="note">Your teacher may ask about this answer: {escape(line)}</p>')
    for name in sorted(reports):
        parts.append(_exercise(name, reports[name]))
    parts.append("</body></html>")
    return "\n".join(parts)


def _exercise(name: str, report: Report) -> str:
    parts = [f"<h2>{escape(name)}: {report.passed}/{report.total}</h2>", "<table>"]
    for result in report.checks:
        mark = (
            '<span class="passed">passed</span>'
            if result.passed
            else '<span class="failed">failed</span>'
        )
        counts = f"{result.cases_passed}/{result.cases_total} cases"
        parts.append(f"<tr><th>{escape(result.tag)}</th><td>{mark}</td><td>{counts}</td>"
                     f"<td>{escape(result.message)}</td></tr>")  # fmt: skip
    parts.append("</table>")
    parts += [f'<p class="note">{escape(note)}</p>' for note in report.notes]
    for result in report.checks:
        for failure in result.failures:
            parts.append(_case(result, failure))
    return "\n".join(parts)


def _case(result: CheckResult, failure: Failure) -> str:
    case = failure.case
    spec = _spec_of(result, failure)
    show = spec.show if spec else repr
    parts = ['<div class="case">', _picture(case)]
    parts.append(f"<h3>{escape(result.tag)}: {escape(case.name)}</h3>")
    if spec and spec.call:
        with contextlib.suppress(IndexError, KeyError, ValueError):
            parts.append(f"<p>call: <code>{escape(spec.call.format(*case.args))}</code></p>")
    parts.append(f"<p>expected:</p><pre>{escape(_shown(show, case.expected))}</pre>")
    if failure.problem:
        parts.append(f"<p>but {escape(failure.problem)}</p>")
    elif isinstance(failure.actual, Raised):
        parts.append(f"<p>but it {escape(str(failure.actual))}</p>")
    else:
        parts.append(f"<p>actual:</p><pre>{escape(_shown(show, failure.actual))}</pre>")
    if failure.printed:
        parts.append(f"<p>it printed:</p><pre>{escape(failure.printed[:1000])}</pre>")
    parts.append('<div class="clear"></div></div>')
    return "\n".join(parts)


def _spec_of(result: CheckResult, failure: Failure) -> Any:
    if result.question is None:
        return None
    for part in result.question.parts:
        if any(c is failure.case for c in part.spec.cases):
            return part.spec
    return None


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


def write_pages(
    by_student: dict[str, dict[str, Report]], similar: dict[str, list[str]], folder: Path
) -> list[Path]:
    """Write ``STUDENT.html`` for every student into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for student, reports in sorted(by_student.items()):
        path = folder / f"{_safe(student)}.html"
        path.write_text(page(student, reports, similar.get(student, [])), encoding="utf-8")
        written.append(path)
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).lstrip(".") or "student"
