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

from reversi.cursormap.errors import MapFileError, student
from reversi.cursormap.maplines import (
    WORD,
    MapText,
    defined_key,
    indent,
    read_map,
    shorten,
)
from reversi.cursormap.model import KEYS, MAX_SIDE, START, CursorMap, character_problem
from reversi.errors import shown
from reversi.files import read_bounded
from reversi.i18n import _

#: The largest map file read, in bytes (a 64 x 64 map with comments takes about 10 kB).
MAX_FILE_BYTES = 1_000_000
_SIZES = ("width", "height")
_REQUIRED = tuple(key for key in KEYS if key != "penguin")


class _Reader(MapText):
    """Reads the definitions of one map file, up to ``start:``; :func:`read_map` reads the rest."""

    def __init__(self, text: str, source: str | None) -> None:
        super().__init__(text, source)
        self.values: dict[str, str] = {}
        self.places: dict[str, tuple[int, int]] = {}  # key -> (line, column) of its value

    # -- definitions -------------------------------------------------------------------

    def read_definitions(self) -> int:
        """Read up to ``start:``; return the index of the ``start:`` line."""
        for index, line in enumerate(self.lines):
            number, start = index + 1, indent(line)
            word = WORD.match(line, start)
            if line.strip() == START:
                self.check_complete(number, start + 1)
                return index
            if word is None:
                continue
            if word.group() == "start":
                problem = (
                    _("'start:' must stand alone on its line")
                    if line.lstrip().startswith(START)
                    else _("a line that starts with 'start' must be the line 'start:'"
                           " (start a comment line with ';')")
                )  # fmt: skip
                raise self.fail(number, start + 1, problem)
            if word.group() in KEYS:
                self.read_definition(number, line, word.group(), start)
            elif defined_key(line.lower()) or line.strip().lower() == START:
                raise self.fail(
                    number,
                    start + 1,
                    _("keys are written in lower case: {lower}, not {key}").format(
                        lower=shown(word.group().lower()), key=shown(word.group())),
                )
        raise self.fail(*self.end(), _("the file ends without a 'start:' line before the map"))

    def read_definition(self, number: int, line: str, key: str, start: int) -> None:
        after_key = start + len(key)
        equals = after_key + indent(line[after_key:])
        if not line.startswith("=", equals):
            raise self.fail(
                number,
                equals + 1,
                _("expected '=' after {key}: a line that starts with a key is a definition"
                  " (start a comment line with ';')").format(key=shown(key)),
            )
        semicolon = line.find(";", equals + 1)
        if semicolon < 0:
            raise self.fail(number, len(line.rstrip()) + 1,
                            _("the definition of {key} must end with ';'").format(key=shown(key)))
        if key in self.places:
            raise self.fail(number, start + 1, _("{key} is defined twice, first on line {line}").format(
                key=shown(key), line=self.places[key][0]))
        raw = line[equals + 1 : semicolon]
        value, column = raw.strip(), equals + 2 + indent(raw)
        if not value:
            problem = (
                _("the value of {key} is missing")
                if key in _SIZES
                else _("the value of {key} is missing (whitespace, '\"' and ';' cannot be map characters)")
            )
            raise self.fail(number, semicolon + 1, problem.format(key=shown(key)))
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
            raise self.fail(number, column, _("{key} must be a positive integer, got {value}").format(
                key=key, value=shorten(value)))
        if len(digits) > len(str(MAX_SIDE)) or int(digits) > MAX_SIDE:
            raise self.fail(number, column, _("{key} must be at most {high}, got {value}").format(
                key=key, high=MAX_SIDE, value=shorten(value)))

    def check_character(self, number: int, column: int, key: str, value: str) -> None:
        if len(value) != 1:
            raise self.fail(
                number,
                column,
                _("the value of {key} must be exactly one character, got {value}").format(
                    key=shown(key), value=shorten(value)),
            )
        problem = character_problem(value)
        if problem:
            raise self.fail(number, column, problem)
        for other, char in self.values.items():
            if char == value and other not in _SIZES:
                raise self.fail(
                    number,
                    column,
                    _("{char} is already the character for {other} (line {line});"
                      " it cannot stand for {key} too").format(
                        char=shown(value), other=shown(other), line=self.places[other][0], key=shown(key)),
                )

    def check_comment(self, number: int, line: str, start: int) -> None:
        """Refuse a definition or ``start:`` hidden in the comment after a ``;``."""
        comment = line[start:]
        found = defined_key(comment)
        if found:
            raise self.fail(
                number,
                start + found[1] + 1,
                _("one definition per line: after ';' comes a comment, so this {key}"
                  " would be ignored").format(key=shown(found[0])),
            )
        if comment.strip().startswith(START):
            raise self.fail(number, start + indent(comment) + 1, _("'start:' must stand alone on its line"))

    def check_complete(self, number: int, column: int) -> None:
        missing = [key for key in _REQUIRED if key not in self.values]
        if missing:
            names = ", ".join(repr(key) for key in missing)
            raise self.fail(
                number,
                column,
                _("missing definition of {names} before 'start:'"
                  " (a misspelt key is read as a comment)").format(names=names),
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
    return read_map(reader, reader.read_definitions(), reader.values)


@student
def load_map(path: str | os.PathLike[str]) -> CursorMap:
    """The map in the UTF-8 file at ``path``.  A missing or unreadable file, a file larger
    than :data:`MAX_FILE_BYTES`, and bytes that are not UTF-8 raise :class:`MapFileError` too."""
    name = os.fsdecode(path)
    if "\0" in name:
        raise MapFileError(_("{path} is not a file path: it holds a NUL character").format(path=shown(name)))
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        raise MapFileError(_("cannot read the file: {reason}").format(reason=reason), source=name) from None
    if len(data) > MAX_FILE_BYTES:
        raise MapFileError(_("the file is larger than {limit:,} bytes, far more than a map").format(
            limit=MAX_FILE_BYTES), source=name)  # fmt: skip
    return parse_map(_decode(data, name), source=name)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8").removeprefix("\ufeff")) + 1
        problem = _("the file is not UTF-8 text: byte 0x{byte:02x} cannot be decoded").format(byte=data[error.start])
        raise MapFileError(problem, before.count(b"\n") + 1, column, name) from None
