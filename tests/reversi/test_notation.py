"""Colours, squares, the pass move, and the errors for text that is not a square."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reversi.errors import ArgumentError, BoardSizeError, NotationError, ReversiError
from reversi.notation import BLACK, PASS, WHITE, Color, Pass, Square, parse_move, square


def test_colour_opponents_and_names():
    assert BLACK.opponent is WHITE and WHITE.opponent is BLACK
    assert (str(BLACK), str(WHITE)) == ("Black", "White")
    assert (BLACK.letter, WHITE.letter) == ("B", "W")
    assert Color("black") is BLACK


def test_a_square_is_a_tuple_that_prints_in_notation():
    d3 = Square(2, 3)
    assert d3 == (2, 3) and (d3.row, d3.col) == (2, 3)
    assert str(d3) == d3.name == "d3"
    assert repr(d3) == "d3" and repr([d3, Square(3, 2)]) == "[d3, c4]"
    assert repr(Square(-1, 20)) == "Square(row=-1, col=20)"  # off any board: spelled out
    assert str(Square(15, 15)) == "p16"


@pytest.mark.parametrize("text", ["d3", "D3", "d 3", " D 3 ", "\td3\n"])
def test_square_reads_the_usual_spellings(text):
    assert square(text, 8) == Square(2, 3)


def test_the_zx81_articles_c_4_with_a_space_parses():
    assert square("C 4", 8) == (3, 2)
    assert parse_move("C 4", 8) == Square(3, 2)


def test_square_accepts_row_col_pairs_and_squares():
    assert square((7, 0), 8) == Square(7, 0)
    assert str(square((7, 0), 8)) == "a8"
    assert square(Square(1, 1), 4) == (1, 1)


@pytest.mark.parametrize(
    ("value", "size", "message"),
    [
        ("z9", 8, r"^'z9' is not a square of an 8x8 board: columns run from a to h$"),
        ("i1", 8, r"^'i1' is not a square of an 8x8 board: columns run from a to h$"),
        ("a9", 8, r"^'a9' is not a square of an 8x8 board: rows run from 1 to 8$"),
        ("a0", 8, r"rows run from 1 to 8"),
        ("e5", 4, r"^'e5' is not a square of a 4x4 board: columns run from a to d$"),
        ("", 8, r"^'' is not a square: write a column letter then a row number, like 'd3'$"),
        ("d", 8, r"^'d' is not a square"),
        ("44", 8, r"^'44' is not a square"),
        ("d3d", 8, r"^'d3d' is not a square"),
        ("a100", 16, r"^'a100' is not a square"),
        ((8, 0), 8, r"^\(8, 0\) is not a square of an 8x8 board: row and column run from 0 to 7$"),
        ((0, -1), 8, r"row and column run from 0 to 7"),
    ],
)
def test_square_errors_name_the_input_and_the_reason(value, size, message):
    with pytest.raises(NotationError, match=message) as caught:
        square(value, size)
    assert isinstance(caught.value, ReversiError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("text", ["0", "pass", "PASS", " Pass "])
def test_parse_move_reads_a_pass(text):
    assert parse_move(text, 8) is PASS


def test_pass_is_one_explicit_value_not_none():
    assert Pass() is PASS and PASS is not None
    assert (repr(PASS), str(PASS)) == ("PASS", "pass")


def test_parse_move_rejects_what_is_neither_a_square_nor_a_pass():
    with pytest.raises(NotationError, match="'00' is not a square"):
        parse_move("00", 8)
    with pytest.raises(NotationError, match="columns run from a to f"):
        parse_move("g1", 6)


@given(size=st.sampled_from([4, 6, 8, 10, 12, 14, 16]), data=st.data())
def test_every_square_survives_a_round_trip_through_its_name(size, data):
    row = data.draw(st.integers(0, size - 1))
    col = data.draw(st.integers(0, size - 1))
    at = Square(row, col)
    assert square(str(at), size) == at
    assert square(str(at).upper(), size) == at
    assert parse_move(f"{str(at)[0]} {str(at)[1:]}", size) == at


@pytest.mark.parametrize("text", ["h𝟜", " a٤", "\u3000pass", "d\u00a03", "ｄ3", "d３"])
def test_only_ascii_is_read_and_the_refusal_names_the_character(text):
    with pytest.raises(NotationError, match="non-ASCII character"):
        parse_move(text)
    with pytest.raises(NotationError, match="non-ASCII character"):
        square(text)


@pytest.mark.parametrize("value", [None, (1, 2, 3), (True, 1), (1.0, 2), 3.5, ["d", 3], b"d3", {"d": 3}])
def test_a_move_that_is_not_text_or_a_pair_is_named(value):
    with pytest.raises(ArgumentError, match=r"^parse_move\(\): text(\[0\] must be a whole number| must be a square such as 'd3')"):
        parse_move(value)
    with pytest.raises(ArgumentError, match=r"^square\(\): value(\[0\] must be a whole number| must be a square such as 'd3')"):
        square(value)


@pytest.mark.parametrize("size", [17, 0, -8])
def test_a_bad_board_size_for_reading_squares_is_named(size):
    with pytest.raises(BoardSizeError, match="is not a board size"):
        square("z1", size=size)


@pytest.mark.parametrize("size", [8.0, "8", None, True])
def test_a_board_size_that_is_not_a_whole_number_is_named(size):
    with pytest.raises(ArgumentError, match=r"^square\(\): size must be a whole number, not "):
        square("z1", size=size)
