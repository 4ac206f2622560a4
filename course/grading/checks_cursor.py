"""Checks for exercise 12: combining a field with a cursor's bit, and applying a cursor.

The expected answers come from :mod:`reversi.cursormap`: :meth:`Operator.apply` for the
truth tables and :func:`apply_cursor` for a cursor on a map.
"""

from __future__ import annotations

from typing import Any

from course.grading import answers
from course.grading.cases import seeded, teacher_seed
from course.grading.records import Case, NotAnAnswer, Raises
from course.grading.runner import run
from course.i18n import gettext as _
from course.i18n import ngettext
from reversi.cursormap import (
    OFFSETS,
    Cursor,
    CursorMap,
    Operator,
    Value,
    load_sample,
    rules,
)

# -- 12 applying a cursor ---------------------------------------------------------------------

_SIGN = {Value.ON: "1", Value.OFF: "0", Value.EMPTY: "."}
_VALUE = {"1": Value.ON, "0": Value.OFF, ".": Value.EMPTY}


_NOT_OPERATORS = ["NAND", "and", "", "XNOR"]


_OPERATORS = {operator.value: operator for operator in Operator}


def _combined(operator: str, field: str, bit: int) -> Any:
    """What a field's character becomes under ``bit``: '.' stays, an unknown operator raises."""
    known = _OPERATORS.get(operator)  # exactly a value: 'AND ' or 'and' is no operator
    if known is None:
        return Raises(ValueError)
    if field == ".":
        return "."
    return str(known.apply(int(field), bit))


def _field(value: Any) -> str:
    if not isinstance(value, str) or value not in ("0", "1", "."):
        raise NotAnAnswer(_("expected a field's character: '1', '0' or '.'"))
    return str.__str__(value)


def combine(function: Any) -> None:
    """``combine(operator, field, bit)``: a field's new character ('1', '0' or '.') under a bit."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    operators = [operator.value for operator in Operator] + _NOT_OPERATORS
    if teacher_seed() is not None:
        rng = seeded(5)
        operators += ["".join(rng.choice("ADNORX ") for _letter in range(rng.randrange(1, 6)))
                      for _word in range(4)]  # fmt: skip
        operators += [rng.choice(["And", "Or", "xor", "AND ", " OR"])]
    cases = [
        Case(
            f"{field!r} {operator!r} {bit}", (operator, field, bit), _combined(operator, field, bit)
        )
        for operator in operators
        for field in ("0", "1", ".")
        for bit in (0, 1)
        if operator in ("AND", "OR", "XOR") or (field, bit) == ("1", 1)
    ]
    run("combine", function, cases, _field, call="combine({0!r}, {1!r}, {2})")


def _map_of(rows: list[str]) -> CursorMap:
    """A map with these values; owners are made up (they do not matter to a cursor)."""
    switchable = [(r, c) for r, row in enumerate(rows) for c, sign in enumerate(row) if sign != "."]
    owner_of = {switchable[0]: "b", switchable[1]: "r"}
    owners = [
        "".join(owner_of.get((r, c), "g") for c in range(len(row))) for r, row in enumerate(rows)
    ]
    return CursorMap.from_strings(owners, rows)


def _cursor_picture(
    rows: list[str], bits: tuple[int, ...], operator: str, row: int, col: int
) -> str:
    """The map with the cursor's centre marked, and the cursor as a 3x3 square of bits.

    The centre is ``*`` in both, never a letter (``0O0`` for OR reads like three zeros);
    the operator is named in words.

    >>> print(_cursor_picture(["000", "000"], (1, 0, 1, 0, 1, 0, 1, 0), "OR", 1, 1))
    map (2 rows; the centre is row 1, column 1, marked *):
      0 0 0
      0 * 0
    cursor (operator OR; its centre * is not a bit):
      1 0 1
      0 * 0
      1 0 1
    """
    cursor = Cursor(bits, Operator(operator))
    said = ngettext("map ({count} row; the centre is row {row}, column {col}, marked *):",
                    "map ({count} rows; the centre is row {row}, column {col}, marked *):", len(rows))
    lines = [said.format(count=len(rows), row=row, col=col)]
    for r, text in enumerate(rows):
        lines.append(
            "  " + " ".join("*" if (r, c) == (row, col) else s for c, s in enumerate(text))
        )
    lines.append(_("cursor (operator {operator}; its centre * is not a bit):").format(operator=operator))
    for number, text in enumerate(cursor.rows()):
        lines.append(
            "  " + " ".join("*" if (number, c) == (1, 1) else s for c, s in enumerate(text))
        )
    return "\n".join(lines)


def _cursor_cases() -> list[tuple[str, list[str], tuple[int, ...], str, int, int]]:
    """``(label, rows, bits, operator, row, col)``: chosen cases, then random ones (seeded)."""
    chosen: list[tuple[str, list[str], tuple[int, ...], str, int, int]] = [
        (_("OR in the middle"), ["000", "000", "000"], (1, 0, 1, 0, 1, 0, 1, 0), "OR", 1, 1),
        (_("AND in the middle"), ["111", "111", "111"], (1, 1, 0, 0, 1, 1, 0, 0), "AND", 1, 1),
        (_("XOR in the middle"), ["101", "010", "101"], (1, 1, 1, 1, 0, 0, 0, 0), "XOR", 1, 1),
        (_("bits listed clockwise"), ["000", "000", "000"], (1, 1, 1, 1, 0, 0, 0, 0), "OR", 1, 1),
        (_("the centre never changes"), ["111", "101", "111"], (0,) * 8, "AND", 1, 1),
        (_("empty fields never change"), ["0.0", ".0.", "0.0"], (1,) * 8, "OR", 1, 1),
        (_("top-left corner"), ["0000", "0000", "0000"], (1,) * 8, "OR", 0, 0),
        (_("bottom-right corner"), ["1111", "1111", "1111"], (0,) * 8, "AND", 2, 3),
        (_("top edge"), ["01010", "10101"], (1,) * 8, "XOR", 0, 2),
        (_("left edge"), ["10", "01", "10"], (1, 0, 1, 1, 0, 1, 1, 0), "XOR", 1, 0),
        (_("one row"), ["0100"], (1,) * 8, "XOR", 0, 1),
    ]
    rng = seeded(12)
    grid = [row.replace("p", ".") for row in _values_of(load_sample("02_grey_river"))]
    for number in range(20):
        bits = tuple(rng.randrange(2) for _bit in range(8))
        operator = rng.choice(["AND", "OR", "XOR"])
        row, col = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
        label = _("random cursor {number} on {map}").format(number=number + 1, map="02_grey_river")
        chosen.append((label, grid, bits, operator, row, col))
    return chosen


def _values_of(cursor_map: CursorMap) -> list[str]:
    return ["".join(_SIGN.get(f.value, ".") for f in row) for row in cursor_map.fields]


def _expected_rows(
    rows: list[str], bits: tuple[int, ...], operator: str, row: int, col: int
) -> list[str]:
    """The expected rows after the cursor, from :func:`reversi.cursormap.apply_cursor`."""
    after, _changed = rules.apply_cursor(_map_of(rows), Cursor(bits, Operator(operator)), (row, col))
    return _values_of(after)


def _orders() -> list[tuple[tuple[int, int], ...]]:
    """The bit orders a student may take for clockwise from the top-left: clockwise from
    another corner or side, counter-clockwise from any, and reading order."""
    clockwise = list(OFFSETS)
    turned = [tuple(clockwise[n:] + clockwise[:n]) for n in range(1, 8)]
    back = clockwise[::-1]
    turned += [tuple(back[n:] + back[:n]) for n in range(8)]
    return turned + [tuple(sorted(OFFSETS))]


def _mistaken_rows(
    rows: list[str], bits: tuple[int, ...], operator: str, row: int, col: int
) -> tuple[tuple[str, Any], ...]:
    """What a cursor whose bits are read in another order makes of the rows, where that
    differs from the right answer (see :mod:`course.grading.mistakes`, ``bit order``)."""
    right = _expected_rows(rows, bits, operator, row, col)
    found: list[tuple[str, Any]] = []
    for order in _orders():
        moved = tuple(bits[order.index(offset)] for offset in OFFSETS)
        wrong = _expected_rows(rows, moved, operator, row, col)
        if wrong != right and ("bit order", wrong) not in found:
            found.append(("bit order", wrong))
    return tuple(found)


def _rows_answer(value: Any) -> list[str]:
    rows = answers.strings(value)
    if any(set(row) - set(_VALUE) for row in rows):
        raise NotAnAnswer(_("rows hold only '1', '0' and '.'"))
    return rows


def apply_cursor(function: Any) -> None:
    """``apply_cursor(rows, bits, operator, row, col)`` returns the rows after the cursor."""
    __tracebackhide__ = True  # IPython shows the student's cell, not the kit
    cases = [
        Case(label, (list(rows), bits, op, r, c), _expected_rows(rows, bits, op, r, c),
             picture=_cursor_picture(rows, bits, op, r, c),
             mistaken=_mistaken_rows(rows, bits, op, r, c))
        for label, rows, bits, op, r, c in _cursor_cases()
    ]  # fmt: skip
    run("apply_cursor", function, cases, _rows_answer, show=lambda rows: " / ".join(rows))
