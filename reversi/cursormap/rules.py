"""The cursor and what applying it does to the map.

The cursor is a 3x3 square: eight bits around a centre that shows its operator.  Its
bits are listed clockwise from the top-left corner::

    bits[0] bits[1] bits[2]
    bits[7]  AND    bits[3]
    bits[6] bits[5] bits[4]

Applying the cursor with its centre on a field combines each bit with the field below it
(``new = operator(field, bit)``).  The field under the centre never changes, nor do EMPTY
and PENGUIN fields; grey fields are ordinary ON/OFF fields that belong to nobody, so they
do change.  Bits hanging over the edge of the map are ignored.

>>> from reversi.cursormap.model import CursorMap
>>> board = CursorMap.from_strings(["bbb", "bgr", "rrr"], ["000", "0.1", "1p1"])
>>> cursor = Cursor((1, 1, 0, 0, 1, 1, 1, 0), Operator.XOR)
>>> print(cursor)
XOR 110/0.0/111
>>> after, changes = apply_cursor(board, cursor, (1, 1))
>>> print(after)
    0  1  2
 0  B1 B1 B0
 1  B0 G. R1
 2  R0 Rp R0
>>> len(changes)
4
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reversi.cursormap.errors import CursorChoice, CursorGameError, student
from reversi.cursormap.model import CursorMap, Position, Value
from reversi.errors import shown
from reversi.i18n import _

HIDDEN = "?"
"""What the centre of a cursor with a hidden operator shows."""

OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
"""The ``(row, col)`` offset of each cursor bit from the centre, clockwise from the top-left."""


def _check_bit(bit: int) -> int:
    if bit not in (0, 1):
        raise CursorGameError(_("a bit is 0 or 1, got {value}").format(value=shown(bit)))
    return int(bit)


class Operator(CursorChoice):
    """The logical operator a cursor combines its bits with: ``"AND"``, ``"OR"`` or ``"XOR"``, in capitals."""

    @classmethod
    def case_sensitive(cls) -> bool:
        return True

    AND = "AND"
    OR = "OR"
    XOR = "XOR"

    @property
    def symbol(self) -> str:
        """Python's operator for it: ``'&'``, ``'|'`` or ``'^'``."""
        return {"AND": "&", "OR": "|", "XOR": "^"}[self.value]

    def apply(self, field_bit: int, cursor_bit: int) -> int:
        """The new value of a field with ``field_bit`` under a cursor bit ``cursor_bit``.

        >>> Operator.OR.apply(0, 1), Operator.AND.apply(0, 1), Operator.XOR.apply(1, 1)
        (1, 0, 0)
        """
        field_bit, cursor_bit = _check_bit(field_bit), _check_bit(cursor_bit)
        if self is Operator.AND:
            return field_bit & cursor_bit
        if self is Operator.OR:
            return field_bit | cursor_bit
        return field_bit ^ cursor_bit

    def __str__(self) -> str:
        return self.value


@student
def truth_table(operator: Operator) -> list[tuple[int, int, int]]:
    """The rows ``(field, cursor, result)`` of ``operator``'s truth table.

    >>> for row in truth_table(Operator.OR):
    ...     print(*row)
    0 0 0
    0 1 1
    1 0 1
    1 1 1
    """
    return [(f, c, operator.apply(f, c)) for f in (0, 1) for c in (0, 1)]


@dataclass(frozen=True, repr=False)
class Cursor:
    """Eight bits (clockwise from the top-left) and an operator, perhaps hidden.

    ``operator`` is always the true operator; when ``hidden`` is True a front end shows
    :attr:`label` (``'?'``) instead, and neither ``str`` nor ``repr`` gives it away.
    """

    bits: tuple[int, ...]
    operator: Operator
    hidden: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.bits, list | tuple):
            raise CursorGameError(_("a cursor's bits are a tuple of {count}, not {value}").format(
                count=len(OFFSETS), value=shown(self.bits)))  # fmt: skip
        bits = tuple(self.bits)
        if len(bits) != len(OFFSETS):
            raise CursorGameError(_("a cursor has {count} bits, got {got}").format(count=len(OFFSETS), got=len(bits)))
        object.__setattr__(self, "bits", tuple(_check_bit(bit) for bit in bits))
        if not isinstance(self.operator, Operator):
            raise CursorGameError(_("a cursor's operator is an Operator, got {value}").format(value=shown(self.operator)))

    @classmethod
    def deal(cls, rng: random.Random) -> Cursor:
        """A random cursor, drawn from ``rng`` in a fixed order so that games replay.

        First the eight bits, each 0 or 1 with even odds; then the face, one of AND, OR,
        XOR and ``?`` with even odds; for ``?`` last the hidden operator, one of the three
        with even odds.

        >>> Cursor.deal(random.Random(7)) == Cursor.deal(random.Random(7))
        True
        """
        bits = tuple(rng.randrange(2) for _ in OFFSETS)
        face = rng.choice([*Operator, HIDDEN])
        if face == HIDDEN:
            return cls(bits, rng.choice(list(Operator)), hidden=True)
        assert isinstance(face, Operator)
        return cls(bits, face)

    @property
    def label(self) -> str:
        """What the centre shows: ``'AND'``, ``'OR'``, ``'XOR'`` or ``'?'``."""
        return HIDDEN if self.hidden else self.operator.value

    def revealed(self) -> Cursor:
        """The same cursor with its operator shown."""
        return Cursor(self.bits, self.operator)

    def bit_at(self, drow: int, dcol: int) -> int:
        """The bit at offset ``(drow, dcol)`` from the centre, each -1, 0 or 1 but not both 0."""
        try:
            return self.bits[OFFSETS.index((drow, dcol))]
        except ValueError:
            raise CursorGameError(_("the cursor has no bit at offset {offset}").format(offset=(drow, dcol))) from None

    def rows(self) -> tuple[str, str, str]:
        """The 3x3 square as three strings, ``'.'`` at the centre: ``('110', '0.0', '111')``."""
        top = "".join(str(self.bit_at(-1, c)) for c in (-1, 0, 1))
        bottom = "".join(str(self.bit_at(1, c)) for c in (-1, 0, 1))
        return top, f"{self.bit_at(0, -1)}.{self.bit_at(0, 1)}", bottom

    def __str__(self) -> str:
        return f"{self.label} {'/'.join(self.rows())}"

    def __repr__(self) -> str:
        return f"<Cursor {self}>"


@student
@dataclass(frozen=True)
class Change:
    """A field whose value a cursor changed."""

    position: Position
    before: Value
    after: Value


@student
def covered(cursor_map: CursorMap, position: tuple[int, int]) -> list[tuple[Position, int]]:
    """The fields under the eight bits of a cursor centred on ``position``, with each
    bit's index; bits over the edge of the map are left out.

    >>> board = CursorMap.from_strings(["bb", "rr"], ["00", "00"])
    >>> covered(board, (0, 0))
    [(Position(row=0, col=1), 3), (Position(row=1, col=1), 4), (Position(row=1, col=0), 5)]
    """
    row, col = position
    cells = [(Position(row + dr, col + dc), index) for index, (dr, dc) in enumerate(OFFSETS)]
    return [(cell, index) for cell, index in cells if cursor_map.contains(cell)]


@student
def apply_cursor(
    cursor_map: CursorMap, cursor: Cursor, position: tuple[int, int]
) -> tuple[CursorMap, tuple[Change, ...]]:
    """The map after applying ``cursor`` centred on ``position``, and the fields it changed."""
    position = Position(*position)
    if not cursor_map.contains(position):
        raise CursorGameError(_("{position} is off the {width}x{height} map").format(
            position=tuple(position), width=cursor_map.width, height=cursor_map.height))  # fmt: skip
    changes = []
    for cell, index in covered(cursor_map, position):
        before = cursor_map[cell].value
        if before.bit is None:  # EMPTY and PENGUIN fields never change
            continue
        after = Value.from_bit(cursor.operator.apply(before.bit, cursor.bits[index]))
        if after is not before:
            changes.append(Change(cell, before, after))
    new_map = cursor_map.with_values({c.position: c.after for c in changes})
    return new_map, tuple(changes)
