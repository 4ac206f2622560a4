r"""Reading map files: text in, a :class:`~reversi.cursormap.model.CursorMap` out.

A map file has two parts.  The definitions come first, one ``key=VALUE;`` a line::

    width=3;      the sizes: whole numbers from 1 to 64
    height=2;
    one=b;        the owner characters: player one, player two, nobody
    two=r;
    none=g;
    on=1;         the value characters: ON, OFF, EMPTY and (optionally) PENGUIN
    off=0;
    empty=.;
    penguin=p;
    start:
    "bgr"         the owner line of row 1
    "1.0"         its value line; text after the closing quote is a comment
    "brr"
    "p01"
    Full-line comments may follow the map.

How this module reads the open points of the format:

* Spaces and tabs may surround a key, its ``=`` and its value; a definition ends at the
  first ``;`` and whatever follows that ``;`` is a comment.
* A map character is one printable character other than whitespace, ``"`` and ``;``.
  Every defined character has one role only.
* Before ``start:`` a line whose first word is a key is a definition and must be
  well-formed; any other line is a comment.  A key cannot hide in a comment either:
  ``width=5; height=4;`` is refused, since ``height`` would be silently ignored.  Begin a
  comment line with ``;`` to write a key in it safely.
* ``start:`` stands alone on its line.  Blank lines may separate it from the first map
  line, but nothing else may, and nothing at all may stand between two map lines.
* After the last map line come full-line comments and blank lines, except that a line
  starting with ``"`` is a map line too many and a definition comes too late.
* Lines end at ``\n`` (a ``\r`` before it is dropped); columns count characters, so a
  tab is one column.  The end of the text is the place just after its last character.
* A player who owns no ON or OFF field is reported at the first map line.

Every problem raises :class:`~reversi.cursormap.errors.MapFileError` with its line, column
and reason:

>>> parse_map("width=4;\nheight=x;\n")
Traceback (most recent call last):
...
reversi.cursormap.errors.MapFileError: line 2, column 8: height must be a positive integer, got 'x'
"""

from __future__ import annotations

import os
import re

from reversi.cursormap.errors import MapFileError, student
from reversi.cursormap.model import (
    KEYS,
    MAX_SIDE,
    OWNER_KEYS,
    PLAYERS,
    QUOTE,
    START,
    VALUE_KEYS,
    CursorMap,
    Field,
    MapCharacters,
    Owner,
    Value,
    character_problem,
)
from reversi.errors import shown
from reversi.files import read_bounded

#: The largest map file read, in bytes (a 64 x 64 map with comments takes about 10 kB).
MAX_FILE_BYTES = 1_000_000
_WORD = re.compile(r"[A-Za-z0-9_]+")
_SIZES = ("width", "height")
_REQUIRED = tuple(key for key in KEYS if key != "penguin")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _shorten(text: str, limit: int = 20) -> str:
    """``repr(text)``, cut short when ``text`` is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _defined_key(text: str) -> tuple[str, int] | None:
    """The key and its 0-based index when ``text`` (after leading blanks) reads ``key =``."""
    start = _indent(text)
    word = _WORD.match(text, start)
    if word and word.group() in KEYS and text[word.end() :].lstrip().startswith("="):
        return word.group(), start
    return None


class _Reader:
    """Reads one map file; every ``fail`` names the line and the column of a problem."""

    def __init__(self, text: str, source: str | None) -> None:
        self.lines = [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]
        self.source = source
        self.values: dict[str, str] = {}
        self.places: dict[str, tuple[int, int]] = {}  # key -> (line, column) of its value

    def fail(self, line: int, column: int, problem: str) -> MapFileError:
        return MapFileError(problem, line, column, self.source)

    def end(self) -> tuple[int, int]:
        return len(self.lines), len(self.lines[-1]) + 1

    # -- definitions -------------------------------------------------------------------

    def read_definitions(self) -> int:
        """Read up to ``start:``; return the index of the ``start:`` line."""
        for index, line in enumerate(self.lines):
            number, start = index + 1, _indent(line)
            word = _WORD.match(line, start)
            if line.strip() == START:
                self.check_complete(number, start + 1)
                return index
            if word is None:
                continue
            if word.group() == "start":
                problem = (
                    "'start:' must stand alone on its line"
                    if line.lstrip().startswith(START)
                    else "a line that starts with 'start' must be the line 'start:'"
                    " (start a comment line with ';')"
                )
                raise self.fail(number, start + 1, problem)
            if word.group() in KEYS:
                self.read_definition(number, line, word.group(), start)
            elif _defined_key(line.lower()) or line.strip().lower() == START:
                raise self.fail(
                    number,
                    start + 1,
                    f"keys are written in lower case: {shown(word.group().lower())},"
                    f" not {shown(word.group())}",
                )
        raise self.fail(*self.end(), "the file ends without a 'start:' line before the map")

    def read_definition(self, number: int, line: str, key: str, start: int) -> None:
        after_key = start + len(key)
        equals = after_key + _indent(line[after_key:])
        if not line.startswith("=", equals):
            raise self.fail(
                number,
                equals + 1,
                f"expected '=' after {shown(key)}: a line that starts with a key is a definition"
                " (start a comment line with ';')",
            )
        semicolon = line.find(";", equals + 1)
        if semicolon < 0:
            raise self.fail(
                number, len(line.rstrip()) + 1, f"the definition of {shown(key)} must end with ';'"
            )
        if key in self.places:
            raise self.fail(
                number, start + 1, f"{shown(key)} is defined twice, first on line {self.places[key][0]}"
            )
        raw = line[equals + 1 : semicolon]
        value, column = raw.strip(), equals + 2 + _indent(raw)
        if not value:
            hint = "" if key in _SIZES else " (whitespace, '\"' and ';' cannot be map characters)"
            raise self.fail(number, semicolon + 1, f"the value of {shown(key)} is missing{hint}")
        if key in _SIZES:
            self.check_size(number, column, key, value)
        else:
            self.check_character(number, column, key, value)
        self.values[key] = value
        self.places[key] = (number, column)
        self.check_comment(number, line, semicolon + 1)

    def check_size(self, number: int, column: int, key: str, value: str) -> None:
        digits = value.lstrip("0")
        if not (value.isascii() and value.isdigit()) or not digits:
            raise self.fail(
                number, column, f"{key} must be a positive integer, got {_shorten(value)}"
            )
        if len(digits) > len(str(MAX_SIDE)) or int(digits) > MAX_SIDE:
            raise self.fail(
                number, column, f"{key} must be at most {MAX_SIDE}, got {_shorten(value)}"
            )

    def check_character(self, number: int, column: int, key: str, value: str) -> None:
        if len(value) != 1:
            raise self.fail(
                number,
                column,
                f"the value of {shown(key)} must be exactly one character, got {_shorten(value)}",
            )
        problem = character_problem(value)
        if problem:
            raise self.fail(number, column, problem)
        for other, char in self.values.items():
            if char == value and other not in _SIZES:
                raise self.fail(
                    number,
                    column,
                    f"{shown(value)} is already the character for {shown(other)}"
                    f" (line {self.places[other][0]}); it cannot stand for {shown(key)} too",
                )

    def check_comment(self, number: int, line: str, start: int) -> None:
        """Refuse a definition or ``start:`` hidden in the comment after a ``;``."""
        comment = line[start:]
        found = _defined_key(comment)
        if found:
            raise self.fail(
                number,
                start + found[1] + 1,
                f"one definition per line: after ';' comes a comment, so this {shown(found[0])}"
                " would be ignored",
            )
        if comment.strip().startswith(START):
            raise self.fail(
                number, start + _indent(comment) + 1, "'start:' must stand alone on its line"
            )

    def check_complete(self, number: int, column: int) -> None:
        missing = [key for key in _REQUIRED if key not in self.values]
        if missing:
            names = ", ".join(repr(key) for key in missing)
            raise self.fail(
                number,
                column,
                f"missing definition of {names} before 'start:'"
                " (a misspelt key is read as a comment)",
            )

    # -- the map -----------------------------------------------------------------------

    def read_map(self, start_index: int) -> CursorMap:
        defined = self.values
        chars = MapCharacters(
            one=defined["one"],
            two=defined["two"],
            none=defined["none"],
            on=defined["on"],
            off=defined["off"],
            empty=defined["empty"],
            penguin=defined.get("penguin"),
        )
        width, height = int(self.values["width"]), int(self.values["height"])
        index = start_index + 1
        while index < len(self.lines) and not self.lines[index].strip():
            index += 1
        first_line = index + 1
        owners: list[str] = []
        values: list[str] = []
        for count in range(2 * height):
            text = self.quoted_line(index, count, height, width)
            kind = "owner" if count % 2 == 0 else "value"
            self.check_characters(index + 1, text, kind, count // 2 + 1, chars)
            (owners if kind == "owner" else values).append(text)
            index += 1
        self.read_trailer(index, height)
        grid = tuple(
            tuple(
                Field(Owner(chars.role_of(o)), Value(chars.role_of(v)))  # both checked by check_characters
                for o, v in zip(owner_row, value_row, strict=True)
            )
            for owner_row, value_row in zip(owners, values, strict=True)
        )
        for player in PLAYERS:
            if not any(f.owner is player and f.switchable for row in grid for f in row):
                raise self.fail(
                    first_line,
                    _indent(self.lines[first_line - 1]) + 1,
                    f"{player} owns no field that can be switched: give"
                    f" {shown(chars.owner_char(player))} at least one field that is {shown(chars.on)} (on)"
                    f" or {shown(chars.off)} (off)",
                )
        return CursorMap(grid, chars)

    def quoted_line(self, index: int, count: int, height: int, width: int) -> str:
        """The text between the quotes of map line ``count`` (0-based), found at ``index``."""
        kind = "owner" if count % 2 == 0 else "value"
        what = f"the {kind} line of row {count // 2 + 1}"
        rest = self.lines[index:]
        if not any(line.strip() for line in rest):
            number, column = (index + 1, 1) if rest else self.end()
            raise self.fail(
                number,
                column,
                f"the map ends after {count} of its {2 * height} lines: {what} is missing"
                f" (height is {height}, and each row is an owner line and a value line)",
            )
        line = self.lines[index]
        start = _indent(line)
        if not line.startswith(QUOTE, start):
            found = _defined_key(line)
            if found:
                problem = f"{shown(found[0])} is defined after 'start:'; definitions come before it"
            elif not line.strip():
                problem = f"a blank line cannot stand between map lines; expected {what}"
            elif count == 0:
                problem = (
                    f"expected {what} in double quotes: only blank lines may stand between"
                    " 'start:' and the map"
                )
            else:
                problem = (
                    f"expected {what} (height is {height}) in double quotes: a comment cannot"
                    " stand between map lines (write it after the closing quote)"
                )
            raise self.fail(index + 1, start + 1, problem)
        close = line.find(QUOTE, start + 1)
        if close < 0:
            raise self.fail(index + 1, start + 1, f"unclosed quote: {what} has no closing '\"'")
        text = line[start + 1 : close]
        if len(text) != width:
            column = start + 2 + width if len(text) > width else close + 1
            raise self.fail(
                index + 1,
                column,
                f"{what} has {len(text)} characters between the quotes; width is {width}",
            )
        return text

    def check_characters(
        self, number: int, text: str, kind: str, row: int, chars: MapCharacters
    ) -> None:
        keys, other = (OWNER_KEYS, "value") if kind == "owner" else (VALUE_KEYS, "owner")
        column = _indent(self.lines[number - 1]) + 2
        for offset, char in enumerate(text):
            role = chars.role_of(char)
            if role in keys:
                continue
            takes = f"the {kind} line of row {row} takes {chars.listing(keys)}"
            if role is None:
                problem = f"{shown(char)} is not a defined character; {takes}"
            else:
                problem = f"{shown(char)} is the {other} character for {shown(role)}; {takes}"
            raise self.fail(number, column + offset, problem)

    def read_trailer(self, index: int, height: int) -> None:
        for number, line in enumerate(self.lines[index:], start=index + 1):
            start = _indent(line)
            if line.startswith(QUOTE, start):
                raise self.fail(
                    number,
                    start + 1,
                    f"a map line too many: height is {height}, so the map has {2 * height}"
                    " lines (an owner line and a value line for each row)",
                )
            found = _defined_key(line)
            if found:
                raise self.fail(
                    number,
                    start + 1,
                    f"{shown(found[0])} is defined after 'start:'; definitions come before it",
                )


@student
def parse_map(text: str, source: str | None = None) -> CursorMap:
    r"""The map that map-file ``text`` describes; ``source`` names it in error messages.

    >>> definitions = ["width=2;", "height=1;", "one=b;", "two=r;", "none=g;", "on=1;", "off=0;"]
    >>> print(parse_map("\n".join([*definitions, "empty=.;", "start:", '"br"', '"10"'])))
        0  1
     0  B1 R0
    """
    reader = _Reader(text, source)
    return reader.read_map(reader.read_definitions())


@student
def load_map(path: str | os.PathLike[str]) -> CursorMap:
    """The map in the UTF-8 file at ``path``.  A missing or unreadable file, a file larger
    than :data:`MAX_FILE_BYTES`, and bytes that are not UTF-8 raise :class:`MapFileError` too."""
    name = os.fsdecode(path)
    if "\0" in name:
        raise MapFileError(f"{shown(name)} is not a file path: it holds a NUL character")
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except (OSError, ValueError) as error:
        raise MapFileError(
            f"cannot read the file: {getattr(error, 'strerror', None) or error}", source=name
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise MapFileError(
            f"the file is larger than {MAX_FILE_BYTES:,} bytes, far more than a map", source=name
        )
    return parse_map(_decode(data, name), source=name)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8").removeprefix("\ufeff")) + 1
        problem = f"the file is not UTF-8 text: byte 0x{data[error.start]:02x} cannot be decoded"
        raise MapFileError(problem, before.count(b"\n") + 1, column, name) from None
