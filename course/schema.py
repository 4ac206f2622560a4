r"""One schema for every byte that comes from outside the process.

A network message, an HTTP body, a hand-in, a notebook, an override or CSV file, a
sandbox's reply: whatever a program we do not control wrote is read here, once, into
typed records, and the code behind this line trusts what it gets.  Two steps:

* :func:`read_json` turns bytes into plain JSON values, bounded in size (bytes),
  nesting depth and item count.  The depth is measured by a flat scan *before*
  :func:`json.loads` runs, so ten thousand ``[`` are a clean refusal, never a
  ``RecursionError``; the scan and the parse are linear in the size, which bounds
  the time.  ``NaN``, ``Infinity`` and numbers too large for a float are refused.
* A :class:`Schema` checks a JSON object against its :class:`Field` list (a type, a
  limit and an optional cleaning step each) and builds the record (``make``: a
  dataclass, a ``TypedDict`` or ``dict``).  Unknown and missing fields are refused.

A refusal is a :class:`SchemaError` naming the input and the reason, in the reader's
language (:mod:`course.i18n`; a name marked with ``N_`` where it is given, ``N_("the
name")``, is said in it too); nothing is changed before it, since the record is built only
when every field passed.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Move:
...     square: str
>>> MOVE = Schema("a 'move' message", (Field("square", str, limit=3, clean=str.lower),), Move)
>>> MOVE.load(b'{"square": " D3 "}', Limits(bytes=100))
Move(square='d3')
>>> MOVE.load(b"[" * 1000, Limits(bytes=2000))
Traceback (most recent call last):
...
course.schema.SchemaError: a 'move' message nests deeper than 8 levels
>>> MOVE.load(b'{"square": "d3", "x": 1}', Limits(bytes=100))
Traceback (most recent call last):
...
course.schema.SchemaError: a 'move' message has no field 'x'
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from course.i18n import gettext as _
from reversi.errors import ReversiError

R = TypeVar("R")

#: Unicode categories refused in text: controls, format characters, surrogates,
#: private use, unassigned code points and line/paragraph separators.
CONTROL = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: A JSON string (exactly JSON's escapes): what it holds is not structure.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
#: Everything but JSON's structural characters.
_NOT_STRUCTURE = re.compile(r"[^\[\]{},]++")


class SchemaError(ReversiError, ValueError):
    """Input from outside refused: the message names the input and the reason."""


@dataclass(frozen=True)
class Limits:
    """How much JSON is read: ``bytes`` of UTF-8, ``depth`` levels, ``items`` values."""

    bytes: int
    depth: int = 8
    items: int = 10_000


def _refuse_constant(name: str) -> float:
    raise SchemaError(_("{name} is not a number JSON allows").format(name=name))


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise SchemaError(_("the number {number} is too large").format(number=text[:20]))
    return number


def structure(text: str) -> str:
    """JSON's structural characters in ``text``, outside its strings, in order (two passes in C,
    not a token at a time: a line of 11,000 answers from the grader's sandbox is 2 MB).

    >>> structure('{"a": [1, "]"], "b": {}}')
    '{[,],{}}'
    """
    return _NOT_STRUCTURE.sub("", _STRING.sub("", text))


def read_json(raw: bytes | str, what: str, limits: Limits) -> Any:
    """The JSON value in ``raw`` (``what`` names it in a refusal), within ``limits``."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    what = _(what)
    if len(data) > limits.bytes:
        raise SchemaError(_("{what} is {size} bytes; at most {most} are read").format(
            what=what, size=len(data), most=limits.bytes))  # fmt: skip
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SchemaError(_("{what} is not UTF-8 text").format(what=what)) from None
    depth = items = 0
    for char in structure(text):
        if char in "[{":
            depth += 1
            items += 1
            if depth > limits.depth:
                raise SchemaError(_("{what} nests deeper than {most} levels").format(
                    what=what, most=limits.depth))  # fmt: skip
        elif char in "]}":
            depth -= 1
        elif char == ",":
            items += 1
        if items > limits.items:
            raise SchemaError(_("{what} holds more than {most} items").format(what=what, most=limits.items))
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except SchemaError as refused:
        raise SchemaError(_("{what} is not valid JSON: {reason}").format(what=what, reason=refused)) from None
    except (ValueError, RecursionError) as refused:  # RecursionError: belt and braces
        raise SchemaError(_("{what} is not valid JSON: {reason}").format(
            what=what, reason=str(refused)[:80])) from None  # fmt: skip


def text(value: str, what: str, limit: int, *, strip: bool = True) -> str:
    """``value`` as clean text: not blank, at most ``limit`` characters, no control character.

    >>> text("  Ada ", "the name", 9)
    'Ada'
    >>> text("a\\x07", "'text'", 9)
    Traceback (most recent call last):
    ...
    course.schema.SchemaError: 'text' contains the control character '\\x07'
    """
    stripped = value.strip()
    what = _(what)
    if not stripped:
        raise SchemaError(_("{what} is blank").format(what=what))
    bad = next((char for char in stripped if unicodedata.category(char) in CONTROL), None)
    if bad is not None:
        raise SchemaError(_("{what} contains the control character {character!r}").format(
            what=what, character=bad))  # fmt: skip
    if limit and len(stripped) > limit:
        shown = stripped if len(stripped) <= 30 else stripped[:27] + "..."
        raise SchemaError(_("{what} {text!r} has {count} characters; at most {most} are allowed").format(
            what=what, text=shown, count=len(stripped), most=limit))  # fmt: skip
    return stripped if strip else value


@dataclass(frozen=True)
class Field:
    """One field of a record: its JSON type, its limit, whether it is required, a cleaning step.

    ``kind`` is ``str``, ``int``, ``float``, ``bool``, ``list``, ``dict`` or ``object``
    (any JSON value).  The limit is the most characters of a string (checked by
    :func:`text`), the largest whole number (from 0), or the most items of a list or
    dict; 0 means none.  ``clean`` (if any) checks the value further and returns the
    value kept; it raises a :class:`SchemaError` to refuse.
    """

    name: str
    kind: type
    required: bool = True
    limit: int = 0
    clean: Callable[[Any], Any] | None = None
    #: How a refusal calls the field (``'name'`` when empty).
    what: str = ""
    #: Whether surrounding spaces are dropped from a string.
    strip: bool = True

    def read(self, raw: object, where: str) -> Any:
        """The checked value of this field of ``where`` (``a 'move' message``)."""
        value: Any = raw
        kind = self.kind
        if kind is not object and type(value) is not kind and not (kind is float and type(value) is int):
            raise SchemaError(_("field {name!r} of {where} must be {kind}, not {given}").format(
                name=self.name, where=_(where), kind=kind.__name__, given=type(value).__name__))  # fmt: skip
        if isinstance(value, str):
            value = text(value, self.what or repr(self.name), self.limit, strip=self.strip)
        elif self.limit and kind is int and not 0 <= value <= self.limit:
            raise SchemaError(_("field {name!r} must be from 0 to {most}, not {given}").format(
                name=self.name, most=self.limit, given=value))  # fmt: skip
        elif self.limit and kind in (list, dict) and len(value) > self.limit:
            raise SchemaError(_("field {name!r} holds {count} items; at most {most} are allowed").format(
                name=self.name, count=len(value), most=self.limit))  # fmt: skip
        return self.clean(value) if self.clean else value

    def describe(self) -> str:
        """``name (optional): str, 1-9 characters`` for a table of fields."""
        optional = "" if self.required else " (optional)"
        limit = {str: f", 1-{self.limit} characters", int: f", 0 to {self.limit}"}.get(self.kind, "")
        return f"{self.name}{optional}: {self.kind.__name__}{limit if self.limit else ''}"


@dataclass(frozen=True)
class Schema(Generic[R]):
    """A JSON object's fields, and ``make`` to build the record from the clean values."""

    what: str
    fields: tuple[Field, ...]
    make: Callable[..., R]
    #: Keys read and dropped (the ``type`` of a message, read by the table before).
    ignored: frozenset[str] = frozenset()

    def read(self, data: object) -> R:
        """The record built from a parsed JSON object, or a SchemaError naming what is wrong."""
        what = _(self.what)
        if not isinstance(data, dict):
            raise SchemaError(_("{what} must be a JSON object, not {given}").format(
                what=what, given=type(data).__name__))  # fmt: skip
        by_name = {field.name: field for field in self.fields}
        clean: dict[str, Any] = {}
        for key, value in data.items():
            if key in self.ignored:
                continue
            if key not in by_name:
                raise SchemaError(_("{what} has no field {name!r}").format(what=what, name=str(key)[:30]))
            clean[key] = by_name[key].read(value, self.what)
        missing = [field.name for field in self.fields if field.required and field.name not in clean]
        if missing:
            raise SchemaError(_("{what} needs the field {name!r}").format(what=what, name=missing[0]))
        return self.make(**clean)

    def load(self, raw: bytes | str, limits: Limits) -> R:
        """:func:`read_json` then :meth:`read`: bytes from outside to a record."""
        return self.read(read_json(raw, self.what, limits))
