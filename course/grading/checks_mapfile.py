"""Checks for exercise 11: reading a map file, its definitions, then its map lines.

The expected answers come from :func:`reversi.cursormap.parse_map`: the definitions, the
map lines and the line of an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from course.grading import answers
from course.grading.cases import seeded, teacher_seed
from course.grading.records import Case, Raised
from course.grading.runner import run
from course.i18n import N_
from course.i18n import gettext as _
from reversi.cursormap import (
    MapFileError,
    parse_map,
    sample_maps,
    sample_text,
)

# -- 11 map-file definitions ------------------------------------------------------------------

#: The sample map the rearranged cases start from.
_FIRST = "01_first_steps"


@dataclass(frozen=True)
class _ErrorAt:
    """The answer "raises MapFileError naming line ``line``"."""

    line: int

    def __str__(self) -> str:
        return _("MapFileError on line {line}").format(line=self.line)


def _with_lines(text: str) -> str:
    return "\n".join(f"{n:>3} | {line}" for n, line in enumerate(text.split("\n"), start=1))


def _expected_definitions(text: str) -> Any:
    try:
        parsed = parse_map(text)
    except MapFileError as error:
        return _ErrorAt(error.line)
    found: dict[str, Any] = {"width": parsed.width, "height": parsed.height, **parsed.chars.roles()}
    head = text.split("\nstart:")[0]
    if not re.search(r"^\s*penguin\s*=", head, re.MULTILINE):  # optional: absent unless defined
        found.pop("penguin", None)
    return found


def _definition_texts() -> list[tuple[str, str]]:
    """``(label, text)`` of valid map files: the samples and rearranged definitions."""
    texts = [(_("the sample map {name}").format(name=name), sample_text(name)) for name in sample_maps()]
    first = sample_text("01_first_steps")
    head, _start, tail = first.partition("\nstart:")
    lines = head.split("\n")
    definitions = [line for line in lines if "=" in line and not line.startswith(";")]
    shuffled = "\n".join(reversed(definitions)) + "\n\n\nstart:" + tail
    spaced = first.replace("width=5;", "  width =  5 ;").replace("two=r;", "two  = r;  red")
    texts += [(_("{map} with its definitions in reverse order").format(map=_FIRST), shuffled),
              (_("{map} with spaces around '=' and the values").format(map=_FIRST), spaced)]  # fmt: skip
    return texts + _unseen_variants(texts, 6)


_COMMENTS = ["; a comment", "", "   ", "colour = blue;", "notes: none", "=", "penguins=2;"]


def _unseen_variants(texts: list[tuple[str, str]], seed: int) -> list[tuple[str, str]]:
    """At grade time, each text with comment lines put in and its definitions reordered."""
    if teacher_seed() is None:
        return []
    rng, found = seeded(seed), []
    for label, text in texts:
        head, start, tail = text.partition("\nstart:")
        lines = head.split("\n")
        if seed == 6:
            rng.shuffle(lines)
        for _comment in range(rng.randrange(1, 5)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(_COMMENTS))
        said = _("{case}, rearranged for grading").format(case=label)
        found.append((said, "\n".join(lines) + start + tail))
    return found


def _error_texts() -> list[tuple[str, str]]:
    """``(label, text)`` of map files with an error in their definitions part."""
    base = sample_text("01_first_steps")
    head = base[: base.index("\nstart:")]
    edits = [
        (_("a missing ';'"), "width=5;", "width=5 "),
        (_("a height that is not a number"), "height=4;", "height=x;"),
        (_("a width of 0"), "width=5;", "width=0;"),
        (_("two characters for 'one'"), "one=b;", "one=bb;"),
        (_("no character for 'off'"), "off=0;", "off=;"),
        (_("'on' defined twice"), "empty=.;", "on=2;"),
        (_("'empty' never defined"), "empty=.;", "; empty is gone"),
    ]
    found = [(label, base.replace(old, new, 1)) for label, old, new in edits]
    found.append((_("no 'start:' line"), head.rstrip("\n")))
    return found + _unseen_variants(found, 7)


def _definitions_answer(value: Any) -> Any:
    if isinstance(value, _ErrorAt):
        return value
    return answers.definitions(value)


def parse_definitions(function: Any) -> None:
    """``parse_definitions(text)`` returns the definitions of a valid map file as a dict."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    _definition_check("parse_definitions", function, _definition_texts())


def definition_errors(function: Any) -> None:
    """``parse_definitions(text)`` raises MapFileError with the line of the first problem."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    _definition_check("definition_errors", function, _error_texts())


def _error_line(raised: Raised) -> _ErrorAt | None:
    """A raised MapFileError as the answer "an error on line N" (None for other errors)."""
    if not raised.is_a(MapFileError):
        return None
    if raised.line is None:
        return _ErrorAt(-1)  # a MapFileError without a line number names no line
    return _ErrorAt(raised.line)


def _definition_check(title: str, function: Any, texts: list[tuple[str, str]]) -> None:
    cases = [
        Case(
            label,
            (text,),
            _expected_definitions(text),
            picture=_with_lines(text.split("\nstart:")[0] + "\nstart:"),
        )
        for label, text in texts
    ]
    run(title, function, cases, _definitions_answer, show=str, catch=_error_line)


# -- 11 step 2: the map lines -----------------------------------------------------------------


def _quoted(text: str) -> tuple[int, int, int, int]:
    """``(start index, first map line index, width, height)`` of a valid map file's text."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "start:")
    first = start + 1
    while not lines[first].strip():
        first += 1
    parsed = parse_map(text)
    return start, first, parsed.width, parsed.height


def _expected_map_lines(text: str) -> Any:
    """The texts between the quotes, owner line then value line of each row, from the
    kit's parser (:func:`parse_map`), or the line of the first problem it finds."""
    try:
        parsed = parse_map(text)
    except MapFileError as error:
        return _ErrorAt(error.line)
    chars, found = parsed.chars, []
    for row in parsed.fields:
        found.append("".join(chars.owner_char(field.owner) for field in row))
        found.append("".join(chars.value_char(field.value) for field in row))
    return found


def _map_line_texts() -> list[tuple[str, str, int, int]]:
    """``(label, text, width, height)`` of valid map files: the samples, and the map lines
    laid out otherwise."""
    texts = [(_("the sample map {name}").format(name=name), sample_text(name)) for name in sample_maps()]
    first = sample_text("01_first_steps")
    lines = first.split("\n")
    start, top, _width, height = _quoted(first)
    indented = lines[:top] + ["   " + line for line in lines[top : top + 2 * height]]
    indented += lines[top + 2 * height :]
    texts += [
        (_("{map} with blank lines after 'start:'").format(map=_FIRST),
         "\n".join(lines[: start + 1] + ["", "  "] + lines[start + 1 :])),
        (_("{map} with its map lines indented").format(map=_FIRST), "\n".join(indented)),
        (_("{map} with no comment after the map").format(map=_FIRST),
         "\n".join(lines[: top + 2 * height])),
    ]  # fmt: skip
    if teacher_seed() is not None:
        rng = seeded(8)
        for label, text in list(texts):
            lines = text.split("\n")
            start, top, _width, height = _quoted(text)
            row = top + rng.randrange(2 * height)
            lines[row] += rng.choice(["  a comment", ' "quoted" comment', "\t;", "x"])
            lines.insert(start + 1, "")
            found = "\n".join(lines) + rng.choice(["", "\n; the end", "\n\n"])
            texts.append((_("{case}, rearranged for grading").format(case=label), found))
    return [(label, text, *_quoted(text)[2:]) for label, text in texts]


def _map_error_texts() -> list[tuple[str, str, int, int]]:
    """``(label, text, width, height)`` of map files whose map lines break one rule each (the
    definitions are fine)."""
    if teacher_seed() is None:
        return [_broken(kind, "01_first_steps", row) for kind, row in _BREAKS]
    rng = seeded(9)
    names = sample_maps()
    return [_broken(kind, rng.choice(names), rng.randrange(8)) for kind, _row in _BREAKS]


#: One case per rule of step 2: (what is broken, which map line, counted from 0).  What is
#: broken is said in English, as :func:`_broken` reads it; a label says ``_(kind)``.
_BREAKS = (
    (N_("no closing quote"), 3), (N_("a line one character short"), 0),
    (N_("a line one character too long"), 5), (N_("a comment between two map lines"), 2),
    (N_("a blank line between two map lines"), 6), (N_("a comment before the first map line"), 0),
    (N_("a row missing"), 7), (N_("a map line too many"), 7),
)  # fmt: skip


def _broken(kind: str, name: str, row: int) -> tuple[str, str, int, int]:
    """Sample ``name`` with map line ``row`` (within the map) broken the way ``kind`` says."""
    text = sample_text(name)
    lines = text.split("\n")
    _start, top, width, height = _quoted(text)
    row = min(row, 2 * height - 1)
    at = top + row
    quoted = lines[at]
    opening = quoted.index('"')
    closing = quoted.index('"', opening + 1)
    inside = quoted[opening + 1 : closing]
    if kind == "no closing quote":
        lines[at] = quoted[:closing] + " " + quoted[closing + 1 :].replace('"', "")
    elif kind == "a line one character short":
        lines[at] = quoted[: opening + 1] + inside[1:] + quoted[closing:]
    elif kind == "a line one character too long":
        lines[at] = quoted[: opening + 1] + inside + inside[-1] + quoted[closing:]
    elif kind == "a comment between two map lines":
        lines.insert(at + 1 if row < 2 * height - 1 else at, "this row is tricky")
    elif kind == "a blank line between two map lines":
        lines.insert(at + 1 if row < 2 * height - 1 else at, "")
    elif kind == "a comment before the first map line":
        lines.insert(top, "the map:")
    elif kind == "a row missing":
        del lines[top + 2 * height - 2 : top + 2 * height]
    else:  # a map line too many
        lines.insert(top + 2 * height, '"' + inside[:1] * width + '"')
    label = _("{problem} ({map}, width {width}, height {height})").format(
        problem=_(kind), map=name, width=width, height=height)  # fmt: skip
    return label, "\n".join(lines), width, height


def _map_lines_answer(value: Any) -> Any:
    if isinstance(value, _ErrorAt):
        return value
    return answers.strings(value)


def _map_lines_check(title: str, function: Any, texts: list[tuple[str, str, int, int]]) -> None:
    cases = []
    for label, text, width, height in texts:
        cases.append(
            Case(label, (text, width, height), _expected_map_lines(text),
                 picture=_with_lines(text))
        )  # fmt: skip
    run(title, function, cases, _map_lines_answer, show=str, catch=_error_line,
        call="map_lines(text, {1}, {2})")  # fmt: skip


def map_lines(function: Any) -> None:
    """``map_lines(text, width, height)``: the texts between the quotes of the map's lines."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    _map_lines_check("map_lines", function, _map_line_texts())


def map_line_errors(function: Any) -> None:
    """``map_lines(text, width, height)`` raises MapFileError with the line of the problem."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    _map_lines_check("map_line_errors", function, _map_error_texts())
