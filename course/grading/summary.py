"""The class summary page: pass rate per question and a histogram of totals, static HTML.

Made from the grade sheet's rows (:mod:`course.grading.sheet`), so it shows exactly what
the sheet says, overrides included.  The charts are inline SVG: the page needs no script,
no network and no plotting library, and opens from a USB stick.  Its words are in the
teacher's language (:func:`course.i18n.language`); its figures and columns are the sheet's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from course.grading.sheet import Row, number
from course.i18n import gettext as _
from course.i18n import language, ngettext
from reversi.errors import ArgumentError

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; } td, th { padding: .15em .7em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { fill: #3a7bd5; } .axis { stroke: #888; } text { font-size: 11px; fill: #333; }
"""
BAR_WIDTH = 200
#: The most totals (students) and bins a histogram takes.
MOST_TOTALS = 100_000
MOST_BINS = 1000


def pass_rates(
    rows: Sequence[Row], columns: Mapping[str, Mapping[str, float]]
) -> dict[str, tuple[int, int, float]]:
    """For each question column: (students who passed it, students who handed it in, mean points)."""
    rates = {}
    for exercise, questions in columns.items():
        handed = [row for row in rows if row.get(f"{exercise}:handed_in")]
        for column, points in questions.items():
            got = [float(row[column]) for row in handed]
            passed = sum(1 for value in got if value >= points)
            rates[column] = (passed, len(handed), sum(got) / len(got) if got else 0.0)
    return rates


def exercise_lines(rows: Sequence[Row], columns: Mapping[str, Mapping[str, float]]) -> list[str]:
    """One line per exercise: how many of the students who handed it in passed each question."""
    rates = pass_rates(rows, columns)
    found = []
    for exercise, questions in columns.items():
        counts = [f"{column.split(':', 1)[1]} {rates[column][0]}/{rates[column][1]}"
                  for column in questions]  # fmt: skip
        found.append(f"{exercise}: " + ", ".join(counts))
    return found


def histogram(totals: Sequence[float], maximum: float, bins: int = 10) -> list[int]:
    """How many totals fall in each of ``bins`` equal ranges of 0..``maximum`` (the top one closed).

    >>> histogram([0, 1, 4.5, 10], 10, bins=5)
    [2, 0, 1, 0, 1]

    One pass over the totals: a class, not an endless range, so more than
    :data:`MOST_TOTALS` are refused before any is read.
    """
    if len(totals) > MOST_TOTALS or not 1 <= bins <= MOST_BINS:
        raise ArgumentError(
            f"a histogram takes at most {MOST_TOTALS} totals in 1 to {MOST_BINS} bins, "
            f"not {len(totals)} in {bins}"
        )
    counts = [0] * bins
    for total in totals:
        share = total / maximum if maximum > 0 else 0.0
        counts[min(bins - 1, max(0, int(share * bins)))] += 1
    return counts


def page(rows: Sequence[Row], columns: Mapping[str, Mapping[str, float]], title: str) -> str:
    """The summary page as HTML text."""
    maximum = sum(sum(q.values()) for q in columns.values())
    totals = [float(row["points"]) for row in rows]
    mean = sum(totals) / len(totals) if totals else 0.0
    said = ngettext("{count} student; mean total {mean} of {maximum} points.",
                    "{count} students; mean total {mean} of {maximum} points.", len(rows))
    said = escape(said.format(count=len(rows), mean=number(mean), maximum=number(maximum)))
    rates, totals_head = escape(_("Pass rate per question")), escape(_("Totals"))
    parts = [
        "<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body><main>",
        f"<h1>{escape(title)}</h1>", f"<p>{said}</p>",
        f"<h2>{rates}</h2>", _rates_table(pass_rates(rows, columns)),
        f"<h2>{totals_head}</h2>", _histogram_svg(histogram(totals, maximum), maximum),
        "</main></body></html>",
    ]  # fmt: skip
    return "\n".join(parts)


def _rates_table(rates: Mapping[str, tuple[int, int, float]]) -> str:
    heads = (_("question"), _("students who passed"), _("share"), _("mean points"))
    lines = ["<table>", "<tr>" + "".join(f"<th>{escape(head)}</th>" for head in heads) + "</tr>"]
    of = _("{passed} of {handed}")
    for column, (passed, handed, mean) in rates.items():
        share = passed / handed if handed else 0.0
        bar = (
            f'<svg width="{BAR_WIDTH}" height="12" role="img" aria-label="{share:.0%}">'
            f'<rect class="bar" x="0" y="1" height="10" width="{share * BAR_WIDTH:.1f}"/>'
            f'<rect x="0" y="1" height="10" width="{BAR_WIDTH}" fill="none" stroke="#ccc"/></svg>'
        )
        lines.append(
            f"<tr><td>{escape(column)}</td><td class='n'>{escape(of.format(passed=passed, handed=handed))}</td>"
            f"<td>{bar}</td><td class='n'>{number(mean)}</td></tr>"
        )
    lines.append("</table>")
    return "\n".join(lines)


def _histogram_svg(counts: Sequence[int], maximum: float) -> str:
    width, height, pad = 40 * len(counts), 160, 24
    top = max(counts, default=0) or 1
    named, spans = escape(_("histogram of totals")), _("{low} to {high}: {count}")
    parts = [
        f'<svg width="{width + 2 * pad}" height="{height + 2 * pad}" role="img" '
        f'aria-label="{named}">',
        f'<line class="axis" x1="{pad}" y1="{pad + height}" x2="{pad + width}" y2="{pad + height}"/>',
    ]
    step = maximum / len(counts) if counts else 0
    for index, count in enumerate(counts):
        bar = height * count / top
        x = pad + 40 * index
        span = escape(spans.format(low=number(index * step), high=number((index + 1) * step), count=count))
        parts.append(
            f'<rect class="bar" x="{x + 4}" y="{pad + height - bar:.1f}" width="32" '
            f'height="{bar:.1f}"><title>{span}</title></rect>'
        )
        parts.append(f'<text x="{x + 20}" y="{pad + height - bar - 4:.1f}" '
                     f'text-anchor="middle">{count}</text>')  # fmt: skip
        parts.append(f'<text x="{x + 20}" y="{pad + height + 14}" '
                     f'text-anchor="middle">{number(index * step)}</text>')  # fmt: skip
    parts.append("</svg>")
    return "\n".join(parts)
