"""Hypothesis strategies for maps and cursors."""

from __future__ import annotations

from hypothesis import strategies as st

from reversi.cursormap import Cursor, CursorMap, Field, MapCharacters, Operator, Owner, Value

# Characters a map may use: ASCII punctuation, letters and digits, and a few beyond ASCII.
MAP_CHARACTERS = [c for c in map(chr, range(33, 127)) if c not in '";'] + [
    "é",
    "ß",
    "█",
    "░",
    "🐧",
    "☃",
]


@st.composite
def map_characters(draw) -> MapCharacters:
    with_penguin = draw(st.booleans())
    count = 7 if with_penguin else 6
    chars = draw(
        st.lists(st.sampled_from(MAP_CHARACTERS), min_size=count, max_size=count, unique=True)
    )
    return MapCharacters(*chars[:6], chars[6] if with_penguin else None)


@st.composite
def cursor_maps(draw, max_side: int = 10) -> CursorMap:
    """A valid map: any owners and values, then one switchable field for each player."""
    chars = draw(map_characters())
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1 if width > 1 else 2, max_side))
    values = [Value.ON, Value.OFF, Value.EMPTY] + ([Value.PENGUIN] if chars.penguin else [])
    field = st.builds(Field, st.sampled_from(list(Owner)), st.sampled_from(values))
    grid = [[draw(field) for _ in range(width)] for _ in range(height)]
    cells = [(r, c) for r in range(height) for c in range(width)]
    first, second = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
    for (row, col), owner in ((first, Owner.ONE), (second, Owner.TWO)):
        grid[row][col] = Field(owner, draw(st.sampled_from([Value.ON, Value.OFF])))
    return CursorMap(grid, chars)


def cursors():
    return st.builds(
        Cursor,
        st.tuples(*[st.integers(0, 1)] * 8),
        st.sampled_from(list(Operator)),
        st.booleans(),
    )
