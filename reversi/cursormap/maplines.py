"""The map part of a map file: the quoted lines after ``start:``, read into a
:class:`~reversi.cursormap.model.CursorMap`.

:mod:`reversi.cursormap.mapfile` reads the definitions and hands the rest to
:func:`read_map`.  Both report a problem through :class:`MapText`, with the line and the
column where it is, and the reason in the reader's words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from reversi.cursormap.errors import MapFileError
from reversi.cursormap.model import (
    KEYS,
    OWNER_KEYS,
    PLAYERS,
    QUOTE,
    VALUE_KEYS,
    CursorMap,
    Field,
    MapCharacters,
    Owner,
    Value,
)
from reversi.errors import shown
from reversi.i18n import _

WORD = re.compile(r"[A-Za-z0-9_]+")
# A map line in words, by kind (the owner line, then the value line, of each row).
_WHAT = {
    "owner": lambda row: _("the owner line of row {row}").format(row=row),
    "value": lambda row: _("the value line of row {row}").format(row=row),
}


def indent(line: str) -> int:
    """How many blanks ``line`` begins with."""
    return len(line) - len(line.lstrip())


def shorten(text: str, limit: int = 20) -> str:
    """``repr(text)``, cut short when ``text`` is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def defined_key(text: str) -> tuple[str, int] | None:
    """The key and its 0-based index when ``text`` (after leading blanks) reads ``key =``."""
    start = indent(text)
    word = WORD.match(text, start)
    if word and word.group() in KEYS and text[word.end() :].lstrip().startswith("="):
        return word.group(), start
    return None


def defined_too_late(key: str) -> str:
    """Why a definition after ``start:`` is refused."""
    return _("{key} is defined after 'start:'; definitions come before it").format(key=shown(key))


class MapText:
    """The lines of one map file; every :meth:`fail` names the line and the column of a problem."""

    def __init__(self, text: str, source: str | None) -> None:
        self.lines = [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]
        self.source = source

    def fail(self, line: int, column: int, problem: str) -> MapFileError:
        return MapFileError(problem, line, column, self.source)

    def end(self) -> tuple[int, int]:
        return len(self.lines), len(self.lines[-1]) + 1


def read_map(text: MapText, start_index: int, defined: Mapping[str, str]) -> CursorMap:
    """The map written after the ``start:`` line at ``start_index``, with the characters and
    sizes ``defined`` before it (every required key is there)."""
    chars = MapCharacters(
        one=defined["one"],
        two=defined["two"],
        none=defined["none"],
        on=defined["on"],
        off=defined["off"],
        empty=defined["empty"],
        penguin=defined.get("penguin"),
    )
    width, height = int(defined["width"]), int(defined["height"])
    index = start_index + 1
    while index < len(text.lines) and not text.lines[index].strip():
        index += 1
    first_line = index + 1
    owners: list[str] = []
    values: list[str] = []
    for count in range(2 * height):
        line = _quoted_line(text, index, count, height, width)
        kind = "owner" if count % 2 == 0 else "value"
        _check_characters(text, index + 1, line, kind, count // 2 + 1, chars)
        (owners if kind == "owner" else values).append(line)
        index += 1
    _read_trailer(text, index, height)
    grid = tuple(
        tuple(
            Field(Owner(chars.role_of(o)), Value(chars.role_of(v)))  # both checked by _check_characters
            for o, v in zip(owner_row, value_row, strict=True)
        )
        for owner_row, value_row in zip(owners, values, strict=True)
    )
    for player in PLAYERS:
        if not any(f.owner is player and f.switchable for row in grid for f in row):
            raise text.fail(
                first_line,
                indent(text.lines[first_line - 1]) + 1,
                _("{player} owns no field that can be switched: give {char} at least one field"
                  " that is {on} (on) or {off} (off)").format(
                    player=player.said(), char=shown(chars.owner_char(player)),
                    on=shown(chars.on), off=shown(chars.off)),
            )  # fmt: skip
    return CursorMap(grid, chars)


def _quoted_line(text: MapText, index: int, count: int, height: int, width: int) -> str:
    """The text between the quotes of map line ``count`` (0-based), found at ``index``."""
    what = _WHAT["owner" if count % 2 == 0 else "value"](count // 2 + 1)
    rest = text.lines[index:]
    if not any(line.strip() for line in rest):
        number, column = (index + 1, 1) if rest else text.end()
        raise text.fail(
            number,
            column,
            _("the map ends after {count} of its {total} lines: {what} is missing"
              " (height is {height}, and each row is an owner line and a value line)").format(
                count=count, total=2 * height, what=what, height=height),
        )  # fmt: skip
    line = text.lines[index]
    start = indent(line)
    if not line.startswith(QUOTE, start):
        found = defined_key(line)
        if found:
            problem = defined_too_late(found[0])
        elif not line.strip():
            problem = _("a blank line cannot stand between map lines; expected {what}").format(what=what)
        elif count == 0:
            problem = _("expected {what} in double quotes: only blank lines may stand between"
                        " 'start:' and the map").format(what=what)  # fmt: skip
        else:
            problem = _("expected {what} (height is {height}) in double quotes: a comment cannot"
                        " stand between map lines (write it after the closing quote)").format(
                what=what, height=height)  # fmt: skip
        raise text.fail(index + 1, start + 1, problem)
    close = line.find(QUOTE, start + 1)
    if close < 0:
        raise text.fail(index + 1, start + 1, _("unclosed quote: {what} has no closing '\"'").format(what=what))
    inside = line[start + 1 : close]
    if len(inside) != width:
        column = start + 2 + width if len(inside) > width else close + 1
        raise text.fail(
            index + 1,
            column,
            _("{what} has {count} characters between the quotes; width is {width}").format(
                what=what, count=len(inside), width=width),
        )  # fmt: skip
    return inside


def _check_characters(text: MapText, number: int, line: str, kind: str, row: int, chars: MapCharacters) -> None:
    keys = OWNER_KEYS if kind == "owner" else VALUE_KEYS
    column = indent(text.lines[number - 1]) + 2
    for offset, char in enumerate(line):
        role = chars.role_of(char)
        if role in keys:
            continue
        takes = _("{what} takes {listing}").format(what=_WHAT[kind](row), listing=chars.listing(keys))
        if role is None:
            problem = _("{char} is not a defined character; {takes}").format(char=shown(char), takes=takes)
        elif kind == "owner":
            problem = _("{char} is the value character for {role}; {takes}").format(
                char=shown(char), role=shown(role), takes=takes)  # fmt: skip
        else:
            problem = _("{char} is the owner character for {role}; {takes}").format(
                char=shown(char), role=shown(role), takes=takes)  # fmt: skip
        raise text.fail(number, column + offset, problem)


def _read_trailer(text: MapText, index: int, height: int) -> None:
    for number, line in enumerate(text.lines[index:], start=index + 1):
        start = indent(line)
        if line.startswith(QUOTE, start):
            raise text.fail(
                number,
                start + 1,
                _("a map line too many: height is {height}, so the map has {count}"
                  " lines (an owner line and a value line for each row)").format(height=height, count=2 * height),
            )  # fmt: skip
        found = defined_key(line)
        if found:
            raise text.fail(number, start + 1, defined_too_late(found[0]))
