import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi.cursormap import (
    HIDDEN,
    OFFSETS,
    Change,
    Cursor,
    CursorGameError,
    CursorMap,
    Field,
    Operator,
    Owner,
    Position,
    Value,
    apply_cursor,
    covered,
    truth_table,
)

from .strategies import cursor_maps, cursors

# The table of the original game, written out by hand: (field, cursor) -> AND, OR, XOR.
SEED_TABLE = {
    (0, 0): (0, 0, 0),
    (0, 1): (0, 1, 1),
    (1, 0): (0, 1, 1),
    (1, 1): (1, 1, 0),
}


@pytest.mark.parametrize("column", [0, 1, 2])
def test_truth_tables_match_the_original_table(column):
    operator = [Operator.AND, Operator.OR, Operator.XOR][column]
    rows = truth_table(operator)
    assert [(f, c) for f, c, _ in rows] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for field, cursor, result in rows:
        assert result == SEED_TABLE[field, cursor][column]
        assert operator.apply(field, cursor) == result


def test_operator_symbols_and_names():
    assert [op.symbol for op in Operator] == ["&", "|", "^"]
    assert [str(op) for op in Operator] == ["AND", "OR", "XOR"]


@pytest.mark.parametrize("bits", [(2, 0), (0, -1), (0, "1")])
def test_operator_refuses_non_bits(bits):
    with pytest.raises(CursorGameError, match="a bit is 0 or 1"):
        Operator.OR.apply(*bits)


# -- the cursor ---------------------------------------------------------------------------


def test_bits_go_clockwise_from_the_top_left():
    assert OFFSETS == ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
    cursor = Cursor((1, 0, 0, 1, 1, 0, 0, 0), Operator.AND)
    assert cursor.rows() == ("100", "0.1", "001")
    assert cursor.bit_at(0, 1) == 1
    assert cursor.bit_at(1, -1) == 0
    assert str(cursor) == "AND 100/0.1/001"


def test_the_centre_has_no_bit():
    with pytest.raises(CursorGameError, match="no bit at offset"):
        Cursor((0,) * 8, Operator.OR).bit_at(0, 0)


def test_hidden_cursor_shows_a_question_mark_and_keeps_its_secret():
    cursor = Cursor((0, 1) * 4, Operator.XOR, hidden=True)
    assert cursor.label == HIDDEN == "?"
    assert "XOR" not in str(cursor)
    assert "XOR" not in repr(cursor)
    assert cursor.operator is Operator.XOR
    assert cursor.revealed() == Cursor((0, 1) * 4, Operator.XOR)
    assert cursor.revealed().label == "XOR"


@pytest.mark.parametrize(
    ("bits", "operator", "words"),
    [
        ((1,) * 7, Operator.OR, "8 bits, got 7"),
        ((1,) * 9, Operator.OR, "8 bits, got 9"),
        ((1,) * 7 + (2,), Operator.OR, "a bit is 0 or 1"),
        ((1,) * 8, "OR", "operator is an Operator"),
    ],
)
def test_malformed_cursors_are_refused(bits, operator, words):
    with pytest.raises(CursorGameError, match=words):
        Cursor(bits, operator)


def test_deal_is_reproducible():
    first = [Cursor.deal(random.Random(99)) for _ in range(3)]
    rng_a, rng_b = random.Random(5), random.Random(5)
    assert [Cursor.deal(rng_a) for _ in range(50)] == [Cursor.deal(rng_b) for _ in range(50)]
    assert first[0] == first[1] == first[2]


def test_deal_draws_in_the_documented_order():
    rng, twin = random.Random(11), random.Random(11)
    for _ in range(200):
        cursor = Cursor.deal(rng)
        bits = tuple(twin.randrange(2) for _ in range(8))
        face = twin.choice([Operator.AND, Operator.OR, Operator.XOR, "?"])
        operator = twin.choice(list(Operator)) if face == "?" else face
        assert cursor == Cursor(bits, operator, hidden=face == "?")


def test_deal_odds_are_even():
    rng = random.Random(2024)
    dealt = [Cursor.deal(rng) for _ in range(8000)]
    faces = Counter(c.label for c in dealt)
    assert set(faces) == {"AND", "OR", "XOR", "?"}
    for count in faces.values():
        assert 1800 < count < 2200  # 2000 expected; the spread is about 40
    hidden = Counter(c.operator for c in dealt if c.hidden)
    assert all(500 < n < 840 for n in hidden.values()) and len(hidden) == 3
    ones = sum(sum(c.bits) for c in dealt)
    assert 31_200 < ones < 32_800  # 32,000 expected


# -- applying -----------------------------------------------------------------------------


def blank(width, height):
    """A map of OFF fields: player one on the top row, player two below."""
    owners = ["b" * width] + ["r" * width] * (height - 1)
    return CursorMap.from_strings(owners, ["0" * width] * height)


@pytest.mark.parametrize("row", [0, 1, 2])
@pytest.mark.parametrize("col", [0, 1, 2])
def test_bits_over_the_edge_are_ignored(row, col):
    board = blank(3, 3)
    after, changes = apply_cursor(board, Cursor((1,) * 8, Operator.OR), (row, col))
    neighbours = {
        (r, c) for r in range(3) for c in range(3) if max(abs(r - row), abs(c - col)) == 1
    }
    assert {change.position for change in changes} == neighbours
    assert len(changes) == {0: 8, 1: 5, 2: 3}[(row != 1) + (col != 1)]
    for position in board.positions():
        expected = Value.ON if position in neighbours else Value.OFF
        assert after[position].value is expected


def test_corner_uses_the_right_bits():
    board = blank(2, 2)
    # Only bits 3 (right), 4 (bottom right) and 5 (below) reach the map from (0, 0).
    cursor = Cursor((1, 1, 1, 0, 1, 0, 1, 1), Operator.OR)
    assert [index for _, index in covered(board, (0, 0))] == [3, 4, 5]
    after, changes = apply_cursor(board, cursor, (0, 0))
    assert changes == (Change(Position(1, 1), Value.OFF, Value.ON),)
    assert after[1, 1].value is Value.ON


def test_one_field_map_changes_nothing():
    board = CursorMap.from_strings(["b", "r"], ["0", "0"])
    after, changes = apply_cursor(board, Cursor((1,) * 8, Operator.XOR), (0, 0))
    assert changes == (Change(Position(1, 0), Value.OFF, Value.ON),)
    after, changes = apply_cursor(after, Cursor((0,) * 8, Operator.AND), (1, 0))
    assert changes == ()


def test_the_centre_field_never_changes():
    board = CursorMap.from_strings(["bbb", "bbb", "rrr"], ["000", "000", "000"])
    for operator in Operator:
        after, changes = apply_cursor(board, Cursor((1,) * 8, operator), (1, 1))
        assert after[1, 1] == board[1, 1]
        assert Position(1, 1) not in {c.position for c in changes}


def test_empty_and_penguin_fields_never_change_but_grey_ones_do():
    board = CursorMap.from_strings(["bgb", "rgr", "bgr"], ["p.0", "0.1", "01p"])
    for operator in Operator:
        for bits in [(0,) * 8, (1,) * 8]:
            after, _ = apply_cursor(board, Cursor(bits, operator), (1, 1))
            for position in [(0, 0), (0, 1), (2, 2)]:
                assert after[position] == board[position]
    after, changes = apply_cursor(board, Cursor((1,) * 8, Operator.XOR), (1, 1))
    assert after[2, 1] == Field(Owner.NONE, Value.OFF)  # grey, was ON
    assert {c.position for c in changes} == {(0, 2), (1, 0), (1, 2), (2, 0), (2, 1)}


def test_applying_leaves_the_old_map_alone():
    board = blank(3, 3)
    apply_cursor(board, Cursor((1,) * 8, Operator.OR), (1, 1))
    assert board == blank(3, 3)


def test_centre_must_be_on_the_map():
    with pytest.raises(CursorGameError, match=r"\(3, 0\) is off the 3x3 map"):
        apply_cursor(blank(3, 3), Cursor((1,) * 8, Operator.OR), (3, 0))


def oracle(board, cursor, position):
    """Apply the cursor the slow way: look at every field and work out which bit, if any,
    lies on it from a picture of the cursor."""
    picture = [row.replace(".", "c") for row in cursor.rows()]
    new = {}
    for row in range(board.height):
        for col in range(board.width):
            drow, dcol = row - position[0], col - position[1]
            field = board.fields[row][col]
            if abs(drow) > 1 or abs(dcol) > 1 or picture[drow + 1][dcol + 1] == "c":
                continue
            if field.value not in (Value.ON, Value.OFF):
                continue
            bit = int(picture[drow + 1][dcol + 1])
            field_bit = 1 if field.value is Value.ON else 0
            result = {
                Operator.AND: field_bit and bit,
                Operator.OR: field_bit or bit,
                Operator.XOR: int(field_bit != bit),
            }[cursor.operator]
            new[row, col] = Value.ON if result else Value.OFF
    return new


@settings(max_examples=300, deadline=None)
@given(data=st.data(), board=cursor_maps(max_side=6), cursor=cursors())
def test_apply_agrees_with_a_slow_oracle(data, board, cursor):
    row = data.draw(st.integers(0, board.height - 1))
    col = data.draw(st.integers(0, board.width - 1))
    after, changes = apply_cursor(board, cursor, (row, col))
    expected = oracle(board, cursor, (row, col))
    for position in board.positions():
        assert after[position].owner is board[position].owner
        assert after[position].value is expected.get(position, board[position].value)
    assert {c.position for c in changes} == {
        p for p, value in expected.items() if value is not board[p].value
    }
    assert all(
        c.before is board[c.position].value and c.after is after[c.position].value for c in changes
    )
