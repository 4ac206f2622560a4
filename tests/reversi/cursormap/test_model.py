import pytest

from reversi.cursormap import (
    MAX_SIDE,
    PLAYERS,
    CursorMap,
    Field,
    MapCharacters,
    MapError,
    Owner,
    Position,
    Value,
)

# -- owners, values, fields ---------------------------------------------------------------


def test_owners_have_colours_and_opponents():
    assert [o.color for o in Owner] == ["blue", "red", "grey"]
    assert Owner.ONE.opponent is Owner.TWO
    assert Owner.TWO.opponent is Owner.ONE
    assert PLAYERS == (Owner.ONE, Owner.TWO)
    assert str(Owner.ONE) == "player one (blue)"
    assert str(Owner.NONE) == "nobody (grey)"


def test_grey_has_no_opponent():
    with pytest.raises(ValueError, match="nobody"):
        _ = Owner.NONE.opponent


def test_values_bits_and_switchability():
    assert [v.bit for v in Value] == [1, 0, None, None]
    assert [v.switchable for v in Value] == [True, True, False, False]
    assert Value.from_bit(1) is Value.ON
    assert Value.from_bit(0) is Value.OFF


def test_field_prints_owner_letter_and_value_sign():
    assert str(Field(Owner.ONE, Value.ON)) == "B1"
    assert str(Field(Owner.TWO, Value.PENGUIN)) == "Rp"
    assert str(Field(Owner.NONE, Value.EMPTY)) == "G."
    assert Field(Owner.NONE, Value.OFF).switchable
    assert not Field(Owner.ONE, Value.EMPTY).switchable


def test_position_equals_its_tuple():
    assert Position(2, 3) == (2, 3)
    assert Position(2, 3).col == 3


# -- characters ---------------------------------------------------------------------------


def test_default_characters():
    chars = MapCharacters()
    assert chars.roles() == {
        "one": "b",
        "two": "r",
        "none": "g",
        "on": "1",
        "off": "0",
        "empty": ".",
        "penguin": "p",
    }
    assert chars.owner_of("r") is Owner.TWO
    assert chars.value_of("p") is Value.PENGUIN
    assert chars.owner_of("1") is None
    assert chars.value_of("b") is None
    assert chars.role_of("x") is None


def test_penguin_character_is_optional():
    chars = MapCharacters(penguin=None)
    assert "penguin" not in chars.roles()
    with pytest.raises(MapError, match="penguin"):
        chars.value_char(Value.PENGUIN)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"one": "r"}, "both 'one' and 'two'"),
        ({"empty": "1"}, "both 'on' and 'empty'"),
        ({"two": '"'}, "quotes the map lines"),
        ({"none": ";"}, "ends a definition"),
        ({"on": " "}, "visible"),
        ({"off": "\t"}, "visible"),
        ({"off": "00"}, "exactly one character"),
        ({"one": ""}, "exactly one character"),
    ],
)
def test_bad_characters_are_refused(changes, words):
    with pytest.raises(MapError, match=words):
        MapCharacters(**changes)


def test_listing_names_characters_and_keys():
    assert MapCharacters().listing(("one", "two", "none")) == "'b' (one), 'r' (two) or 'g' (none)"


# -- the map ------------------------------------------------------------------------------


def small_map():
    return CursorMap.from_strings(["bbg", "rrg"], ["10.", "01p"])


def test_from_strings_reads_owner_and_value_rows():
    board = small_map()
    assert (board.width, board.height) == (3, 2)
    assert board[0, 0] == Field(Owner.ONE, Value.ON)
    assert board[1, 2] == Field(Owner.NONE, Value.PENGUIN)
    assert board.fields[1][0] == Field(Owner.TWO, Value.OFF)


def test_counts():
    board = small_map()
    assert board.switchable(Owner.ONE) == 2
    assert board.remaining(Owner.ONE) == 1
    assert board.switchable(Owner.NONE) == 0
    assert not board.all_on(Owner.TWO)
    assert CursorMap.from_strings(["br"], ["10"]).all_on(Owner.ONE)


def test_print_shows_a_labelled_grid():
    assert str(small_map()) == "    0  1  2\n 0  B1 B0 G.\n 1  R0 R1 Gp"


def test_wide_maps_keep_labels_aligned():
    board = CursorMap.from_strings(["b" * 11 + "r"], ["0" * 12])
    header, row = str(board).splitlines()
    assert header.index("10") == row.index("B0", 4 + 3 * 10)
    assert header.index("11") == row.index("R0")


def test_with_values_makes_a_new_map():
    board = small_map()
    after = board.with_values({(0, 1): Value.ON})
    assert after[0, 1] == Field(Owner.ONE, Value.ON)
    assert board[0, 1] == Field(Owner.ONE, Value.OFF)
    assert after != board
    assert after.with_values({(0, 1): Value.OFF}) == board


def test_equality_includes_the_characters():
    board = small_map()
    other = CursorMap(board.fields, MapCharacters(on="+"))
    assert other != board
    assert CursorMap(board.fields) == board
    assert hash(CursorMap(board.fields)) == hash(board)


def test_contains_and_positions():
    board = small_map()
    assert board.contains((1, 2))
    assert not board.contains((2, 0))
    assert not board.contains((0, -1))
    assert list(board.positions())[:4] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    with pytest.raises(IndexError):
        board[-1, 0]


@pytest.mark.parametrize(
    ("owners", "values", "words"),
    [
        (["bb"], ["00"], "player two .* no field that can be switched"),
        (["br"], [".0"], "player one .* no field that can be switched"),
        (["br", "br"], ["00", "0"], "row 1: 2 owners but 1 values"),
        (["br"], ["00", "00"], "1 owner lines but 2 value lines"),
        (["bx"], ["00"], "'x' is not an owner character"),
        (["br"], ["0b"], "'b' is not a value character"),
        ([], [], "1 to 64 rows"),
        (["b" * 64 + "r"], ["0" * 65], "1 to 64 columns"),
        (["br"] * 65, ["01"] * 65, "1 to 64 rows"),
    ],
)
def test_maps_that_break_a_rule_are_refused(owners, values, words):
    with pytest.raises(MapError, match=words):
        CursorMap.from_strings(owners, values)


def test_largest_map_is_allowed():
    board = CursorMap.from_strings(["b" * 63 + "r"] * MAX_SIDE, ["0" * 64] * MAX_SIDE)
    assert (board.width, board.height) == (64, 64)


def test_ragged_rows_are_refused():
    row = (Field(Owner.ONE, Value.OFF), Field(Owner.TWO, Value.OFF))
    with pytest.raises(MapError, match="row 1 has 1 fields"):
        CursorMap((row, row[:1]))


def test_penguins_need_a_character():
    fields = [
        [Field(Owner.ONE, Value.OFF), Field(Owner.TWO, Value.OFF), Field(Owner.NONE, Value.PENGUIN)]
    ]
    with pytest.raises(MapError, match="penguin"):
        CursorMap(fields, MapCharacters(penguin=None))
    assert CursorMap(fields).fields[0][2].value is Value.PENGUIN


def test_lists_become_tuples():
    fields = [[Field(Owner.ONE, Value.OFF), Field(Owner.TWO, Value.OFF)]]
    board = CursorMap(fields)
    assert isinstance(board.fields, tuple)
    assert isinstance(board.fields[0], tuple)
    assert board == CursorMap.from_strings(["br"], ["00"])
