"""A chart as one description: a Vega-Lite specification, drawn wherever the lesson runs.

Every chart of the lessons (:mod:`course.plots`, :mod:`course.tournament`) is a :class:`Chart`:
a Vega-Lite v5 specification holding its own data, and a few lines of text saying the same.
JupyterLab, Notebook 7, Voila and the browser classroom (JupyterLite) draw the specification
themselves, with tooltips, from the mimetype :data:`VEGA_LITE`; nothing is computed for the
picture in Python, so the browser's kernel needs neither numpy nor matplotlib.  Where nothing
can draw it (a terminal, a plain ``print``) the text shows.  :meth:`Chart.svg` turns the same
description into a static picture with ``vl-convert-python`` (the ``plots`` extra), for stored
outputs (``scripts/store_outputs.py``) and worksheets.

>>> chart = Chart({"mark": "bar"}, "a bar")
>>> data, metadata = chart._repr_mimebundle_()
>>> sorted(data), metadata[VEGA_LITE]
(['application/vnd.vegalite.v5+json', 'text/plain'], {'embed_options': {'actions': False}})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The mimetype JupyterLab's and JupyterLite's Vega extension draws.
VEGA_LITE = "application/vnd.vegalite.v5+json"
SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
#: How JupyterLab's Vega renderer shows a chart (an output's metadata): without vega-embed's
#: actions menu, a "..." summary with no name (axe: summary-name; docs/accessibility.md).
EMBED = {"embed_options": {"actions": False}}
#: The Vega-Lite version the static pictures are compiled with (one of vl-convert's).
STATIC_VERSION = "5.20"
#: The types of a field of the data, as Vega-Lite names them: a number, an order, a name.
NUMBER, ORDERED, NAME = "quantitative", "ordinal", "nominal"


@dataclass(frozen=True)
class Chart:
    """A Vega-Lite specification (``spec``) and the same chart in words (``text``)."""

    spec: dict[str, Any]
    text: str

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        return {VEGA_LITE: self.spec, "text/plain": self.text}, {VEGA_LITE: EMBED}

    def __repr__(self) -> str:
        return self.text

    @property
    def data(self) -> list[dict[str, Any]]:
        """The rows the chart draws (its ``data.values``)."""
        rows: list[dict[str, Any]] = self.spec["data"]["values"]
        return rows

    def svg(self) -> str:
        """The chart as a static SVG picture (needs ``vl-convert-python``: the ``plots`` extra)."""
        return static_svg(self.spec)


def static_svg(spec: dict[str, Any]) -> str:
    """A Vega-Lite specification drawn as SVG, offline, by vl-convert (about 0.4 s a chart)."""
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(spec, vl_version=STATIC_VERSION)
    return svg


def chart(
    title: str | Sequence[str],
    rows: list[dict[str, Any]],
    text: str,
    width: int | dict[str, int] = 400,
    height: int | dict[str, int] = 220,
    **view: Any,
) -> Chart:
    """A chart of ``rows`` (its own data) with a title, a size and the rest of the view (``view``).

    A size is in pixels, or ``{"step": n}``: n pixels for each bar or row.
    """
    spec = {
        "$schema": SCHEMA,
        "title": title if isinstance(title, str) else list(title),
        "width": width,
        "height": height,
        "data": {"values": rows},
        **view,
    }
    return Chart(spec, text)


def field(name: str, kind: str, title: str | None = None, **more: Any) -> dict[str, Any]:
    """One encoding channel: a field of the rows, its type and the axis or legend title."""
    channel = {"field": name, "type": kind, **more}
    if title is not None:
        channel["title"] = title
    return channel


def grid(
    title: str | Sequence[str],
    cells: list[dict[str, Any]],
    text: str,
    colors: dict[str, Any],
    x_title: str | None = None,
    labels: bool = True,
    side: int = 32,
) -> Chart:
    """A coloured grid of ``cells`` (each with ``column``, ``row``, ``value`` and ``label``).

    Columns and rows keep the order they first appear in; ``colors`` is the colour scale.
    """
    columns = list(dict.fromkeys(cell["column"] for cell in cells))
    lines = list(dict.fromkeys(cell["row"] for cell in cells))
    x = field(
        "column", ORDERED, x_title or "", sort=columns, axis={"labelAngle": 0 if side < 40 else -30}
    )
    y = field("row", ORDERED, "", sort=lines)
    layers: list[dict[str, Any]] = [{
        "mark": {"type": "rect", "tooltip": True},
        "encoding": {"x": x, "y": y, "color": field("value", NUMBER, "", scale=colors)},
    }]  # fmt: skip
    if labels:
        layers.append({
            "mark": {"type": "text", "fontSize": 10},
            "encoding": {"x": x, "y": y, "text": field("label", NAME)},
        })  # fmt: skip
    return chart(title, cells, text, side * len(columns), side * len(lines), layer=layers)


def table_text(title: str, header: Sequence[str], lines: Sequence[Sequence[Any]]) -> str:
    """A chart in words: its title, then a small table (what a terminal shows).

    >>> print(table_text("Nodes", ["depth", "minimax"], [[1, 4], [2, 20]]))
    Nodes
    depth  minimax
    1            4
    2           20
    """
    rows = [list(map(str, header))] + [[_plain(value) for value in line] for line in lines]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    shown = [
        "  ".join(
            cell.rjust(width) if i else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    return "\n".join([title, *(line.rstrip() for line in shown)])


def _plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)
