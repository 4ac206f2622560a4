"""The cursor-map board: who owns each field, what it holds, and how a map file spells it.

A map is a grid of :class:`Field` values.  Each field has an owner (player one, who plays
blue; player two, red; or nobody, grey) and a value (ON, OFF, or one of the two values
that never change: EMPTY and PENGUIN).  ``print`` shows the grid with one letter for the
owner and one sign for the value:

>>> board = CursorMap.from_strings(["bbg", "rrg"], ["10.", "01p"])
>>> print(board)
    0  1  2
 0  B1 B0 G.
 1  R0 R1 Gp
>>> board.switchable(Owner.ONE), board.remaining(Owner.ONE)
(2, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from reversi.cursormap.errors import CursorChoice, MapError, student
from reversi.errors import shown
from reversi.i18n import N_, _

MAX_SIDE = 64
"""The largest width or height a map may have."""

KEYS = ("width", "height", "one", "two", "none", "on", "off", "empty", "penguin")
"""The keys of a map file's definitions, in the order :meth:`CursorMap.to_text` writes them."""

CHARACTER_KEYS = KEYS[2:]
OWNER_KEYS = ("one", "two", "none")
VALUE_KEYS = ("on", "off", "empty", "penguin")
START = "start:"
QUOTE = '"'
FORBIDDEN_CHARACTERS = '";'
# Each owner in words, translated where it is said (:meth:`Owner.said`).
_SAID = {"one": N_("player one (blue)"), "two": N_("player two (red)"), "none": N_("nobody (grey)")}


class Owner(CursorChoice):
    """Who a field belongs to: player one (blue), player two (red) or nobody (grey)."""


    ONE = "one"
    TWO = "two"
    NONE = "none"

    @property
    def color(self) -> str:
        """``'blue'``, ``'red'`` or ``'grey'``: the colour the field is painted."""
        return {"one": "blue", "two": "red", "none": "grey"}[self.value]

    @property
    def is_player(self) -> bool:
        """True for the two players, False for the grey fields' ``NONE``."""
        return self is not Owner.NONE

    @property
    def opponent(self) -> Owner:
        """The other player.

        >>> Owner.ONE.opponent
        <Owner.TWO: 'two'>
        """
        if self is Owner.NONE:
            raise ValueError(_("grey fields belong to nobody, so Owner.NONE has no opponent"))
        return Owner.TWO if self is Owner.ONE else Owner.ONE

    @property
    def letter(self) -> str:
        """``'B'``, ``'R'`` or ``'G'`` (the colour's initial), as in ``print(map)``."""
        return self.color[0].upper()

    def said(self) -> str:
        """The owner in the reader's language: ``'player one (blue)'``, ``'joueur un (bleu)'``."""
        return _(_SAID[self.value])

    def __str__(self) -> str:
        return _SAID[self.value]


PLAYERS = (Owner.ONE, Owner.TWO)
"""The two players, in the order they play."""


class Value(CursorChoice):
    """What a field holds.  Only ON and OFF fields can be switched."""


    ON = "on"
    OFF = "off"
    EMPTY = "empty"
    PENGUIN = "penguin"

    @property
    def bit(self) -> int | None:
        """1 for ON, 0 for OFF, None for the fields that never change."""
        return {"on": 1, "off": 0}.get(self.value)

    @property
    def switchable(self) -> bool:
        """True for ON and OFF: the values a cursor can change."""
        return self.bit is not None

    @property
    def sign(self) -> str:
        """``'1'``, ``'0'``, ``'.'`` or ``'p'``, as in ``print(map)``."""
        return {"on": "1", "off": "0", "empty": ".", "penguin": "p"}[self.value]

    @classmethod
    def from_bit(cls, bit: int) -> Value:
        """ON for 1, OFF for 0."""
        return cls.ON if bit else cls.OFF


@student
@dataclass(frozen=True)
class Field:
    """One square of the map: its owner and its value."""

    owner: Owner
    value: Value

    @property
    def switchable(self) -> bool:
        """True when the value is ON or OFF, whoever owns the field."""
        return self.value.switchable

    def __str__(self) -> str:
        return self.owner.letter + self.value.sign


class Position(NamedTuple):
    """A field's 0-based ``(row, col)``; equal to the plain tuple."""

    row: int
    col: int


def character_problem(char: str) -> str | None:
    """Why ``char`` cannot stand for an owner or a value, or None if it can.

    A map character is one printable character that is not whitespace, not the quote
    that delimits map lines and not the ``;`` that ends a definition.

    >>> character_problem("#") is None
    True
    >>> character_problem(";")
    "';' cannot be a map character: it ends a definition"
    """
    if len(char) != 1:
        return _("a map character is exactly one character, got {value}").format(value=shown(char))
    if char == QUOTE:
        return _("'\"' cannot be a map character: it quotes the map lines")
    if char == ";":
        return _("';' cannot be a map character: it ends a definition")
    if char.isspace() or not char.isprintable():
        return _("{char} cannot be a map character: use a visible character").format(char=shown(char))
    return None


@student
@dataclass(frozen=True)
class MapCharacters:
    """The characters a map file uses for each owner and each value.

    ``penguin`` may be None: a map without penguins need not define one.  Keeping the
    characters with the map lets :meth:`CursorMap.to_text` write a file as it was read.
    """

    one: str = "b"
    two: str = "r"
    none: str = "g"
    on: str = "1"
    off: str = "0"
    empty: str = "."
    penguin: str | None = "p"

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for key, char in self.roles().items():
            problem = character_problem(char)
            if problem:
                raise MapError(_("{key}: {problem}").format(key=key, problem=problem))
            if char in seen:
                raise MapError(_("{char} cannot stand for both {first} and {second}").format(
                    char=shown(char), first=shown(seen[char]), second=shown(key)))  # fmt: skip
            seen[char] = key

    def roles(self) -> dict[str, str]:
        """Each defined key with its character, in file order (``{'one': 'b', ...}``)."""
        chars = {key: getattr(self, key) for key in CHARACTER_KEYS}
        return {key: char for key, char in chars.items() if char is not None}

    def role_of(self, char: str) -> str | None:
        """The key ``char`` is defined for (``'one'``, ``'off'``, ...), or None."""
        return next((key for key, c in self.roles().items() if c == char), None)

    def owner_of(self, char: str) -> Owner | None:
        """The owner ``char`` stands for, or None if it is not an owner character."""
        role = self.role_of(char)
        return Owner(role) if role in OWNER_KEYS else None

    def value_of(self, char: str) -> Value | None:
        """The value ``char`` stands for, or None if it is not a value character."""
        role = self.role_of(char)
        return Value(role) if role in VALUE_KEYS else None

    def owner_char(self, owner: Owner) -> str:
        """The character written for ``owner``."""
        return str(getattr(self, Owner(owner).value))

    def value_char(self, value: Value) -> str:
        """The character written for ``value``; a MapError for an undefined penguin."""
        char = getattr(self, Value(value).value)
        if char is None:
            raise MapError(_("the map has penguins but no character is defined for 'penguin'"))
        return str(char)

    def listing(self, keys: Sequence[str]) -> str:
        """The defined characters of ``keys`` in words: ``"'b' (one), 'r' (two) or 'g' (none)"``."""
        roles = self.roles()
        parts = [f"{shown(roles[k])} ({k})" for k in keys if k in roles]
        if not parts:
            return _("no character")
        return parts[0] if len(parts) == 1 else _("{first} or {second}").format(first=", ".join(parts[:-1]), second=parts[-1])


@student
@dataclass(frozen=True, repr=False)
class CursorMap:
    """A rectangular grid of fields, ``fields[row][col]``, and the characters of its file.

    The map is immutable: a move makes a new map (:meth:`with_values`).  Two maps are
    equal when their fields and their characters are equal.  Every map obeys the rules
    of the format: each side from 1 to 64 fields, every row as wide as the first, and
    each player owning at least one field that can be switched.
    """

    fields: Sequence[Sequence[Field]]
    chars: MapCharacters = MapCharacters()

    def __post_init__(self) -> None:
        rows = tuple(tuple(row) for row in self.fields)
        object.__setattr__(self, "fields", rows)
        if not 1 <= len(rows) <= MAX_SIDE:
            raise MapError(_("a map has 1 to {high} rows, got {count}").format(high=MAX_SIDE, count=len(rows)))
        if not 1 <= len(rows[0]) <= MAX_SIDE:
            raise MapError(_("a map has 1 to {high} columns, got {count}").format(high=MAX_SIDE, count=len(rows[0])))
        for number, row in enumerate(rows):
            if len(row) != len(rows[0]):
                raise MapError(_("row {number} has {count} fields, row 0 has {first}").format(
                    number=number, count=len(row), first=len(rows[0])))  # fmt: skip
        if self.chars.penguin is None and any(f.value is Value.PENGUIN for f in self):
            raise MapError(_("the map has penguins but no character is defined for 'penguin'"))
        for player in PLAYERS:
            if self.switchable(player) == 0:
                raise MapError(_("{player} owns no field that can be switched (on or off)").format(player=player.said()))

    @classmethod
    def from_strings(
        cls,
        owner_rows: Sequence[str],
        value_rows: Sequence[str],
        chars: MapCharacters = MapCharacters(),
    ) -> CursorMap:
        """Build a map from the owner lines and value lines of a map file, unquoted.

        >>> CursorMap.from_strings(["br"], ["01"]).width
        2
        """
        if len(owner_rows) != len(value_rows):
            raise MapError(_("{owners} owner lines but {values} value lines").format(
                owners=len(owner_rows), values=len(value_rows)))  # fmt: skip
        grid = []
        for number, (owners, values) in enumerate(zip(owner_rows, value_rows, strict=True)):
            if len(owners) != len(values):
                raise MapError(_("row {number}: {owners} owners but {values} values").format(
                    number=number, owners=len(owners), values=len(values)))  # fmt: skip
            row = []
            for owner_char, value_char in zip(owners, values, strict=True):
                owner, value = chars.owner_of(owner_char), chars.value_of(value_char)
                if owner is None:
                    raise MapError(_("row {number} of the owner lines: {char} is not an owner character ({listing})")
                                   .format(number=number, char=shown(owner_char), listing=chars.listing(OWNER_KEYS)))
                if value is None:
                    raise MapError(_("row {number} of the value lines: {char} is not a value character ({listing})")
                                   .format(number=number, char=shown(value_char), listing=chars.listing(VALUE_KEYS)))
                row.append(Field(owner, value))
            grid.append(tuple(row))
        return cls(tuple(grid), chars)

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.fields[0])

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.fields)

    def __getitem__(self, position: tuple[int, int]) -> Field:
        row, col = position
        if not self.contains(position):
            raise IndexError(_("{position} is off the {width}x{height} map").format(
                position=tuple(position), width=self.width, height=self.height))  # fmt: skip
        return self.fields[row][col]

    def __iter__(self) -> Iterator[Field]:
        """The fields row by row, left to right."""
        return (field for row in self.fields for field in row)

    def contains(self, position: tuple[int, int]) -> bool:
        """True when ``(row, col)`` is a field of this map."""
        row, col = position
        return 0 <= row < self.height and 0 <= col < self.width

    def positions(self) -> Iterator[Position]:
        """Every position row by row, left to right."""
        return (Position(r, c) for r in range(self.height) for c in range(self.width))

    def switchable(self, owner: Owner) -> int:
        """How many fields of ``owner`` are ON or OFF."""
        return sum(1 for f in self if f.owner is owner and f.switchable)

    def remaining(self, owner: Owner) -> int:
        """How many fields of ``owner`` are still OFF: 0 means they are all on."""
        return sum(1 for f in self if f.owner is owner and f.value is Value.OFF)

    def all_on(self, owner: Owner) -> bool:
        """True when every switchable field of ``owner`` is ON (the winning condition)."""
        return self.remaining(owner) == 0

    def with_values(self, values: Mapping[tuple[int, int], Value]) -> CursorMap:
        """A copy of the map with the values at some positions replaced."""
        grid = [list(row) for row in self.fields]
        for (row, col), value in values.items():
            grid[row][col] = Field(grid[row][col].owner, value)
        return CursorMap(tuple(tuple(row) for row in grid), self.chars)

    def to_text(self) -> str:
        """The map as map-file text that :func:`~reversi.cursormap.parse_map` reads back.

        >>> print(CursorMap.from_strings(["br"], ["01"], MapCharacters(penguin=None)).to_text())
        width=2;
        height=1;
        one=b;
        two=r;
        none=g;
        on=1;
        off=0;
        empty=.;
        start:
        "br"
        "01"
        <BLANKLINE>
        """
        lines = [f"width={self.width};", f"height={self.height};"]
        lines += [f"{key}={char};" for key, char in self.chars.roles().items()]
        lines.append(START)
        for row in self.fields:
            owners = "".join(self.chars.owner_char(f.owner) for f in row)
            values = "".join(self.chars.value_char(f.value) for f in row)
            lines += [QUOTE + owners + QUOTE, QUOTE + values + QUOTE]
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        header = ("    " + " ".join(f"{col:<2}" for col in range(self.width))).rstrip()
        rows = [
            f"{number:>2}  " + " ".join(str(field) for field in row)
            for number, row in enumerate(self.fields)
        ]
        return "\n".join([header, *rows])

    def __repr__(self) -> str:
        return f"<CursorMap {self.width}x{self.height}>"
