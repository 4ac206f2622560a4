"""Small builders the cursor-map tests share."""

from __future__ import annotations

from collections.abc import Iterable

from reversi.cursormap import Cursor, Operator

BASE = """\
width=3;
height=2;
one=b;
two=r;
none=g;
on=1;
off=0;
empty=.;
start:
"bgr"
"1.0"
"brr"
"001"
"""
"""A valid 3x2 map file; each parser error case edits one spot of it."""

ALL_ONES = (1,) * 8


def scripted(cursors: Iterable[Cursor]):
    """A dealer for CursorGame that hands out ``cursors`` in order, then ``OR`` all-ones."""
    queue = list(cursors)

    def deal(_rng):
        return queue.pop(0) if queue else Cursor(ALL_ONES, Operator.OR)

    return deal
