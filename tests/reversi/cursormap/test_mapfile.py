import pytest

from reversi.cursormap import (
    CursorMap,
    MapCharacters,
    MapFileError,
    Owner,
    Value,
    load_map,
    load_sample,
    parse_map,
    sample_maps,
    sample_text,
)

from .helpers import BASE


def edit(old, new, text=BASE):
    assert old in text
    return text.replace(old, new, 1)


def test_the_base_map_parses():
    board = parse_map(BASE)
    assert board == CursorMap.from_strings(
        ["bgr", "brr"], ["1.0", "001"], MapCharacters(penguin=None)
    )


# Each case: the text, then the line and column the error must name, then words of the problem.
ERRORS = {
    "missing start": (BASE.split("start:")[0], 9, 1, "without a 'start:' line"),
    "empty file": ("", 1, 1, "without a 'start:' line"),
    "missing key": (edit("two=r;\n", ""), 8, 1, "missing definition of 'two'"),
    "two missing keys": (edit("on=1;\noff=0;\n", ""), 7, 1, "'on', 'off'"),
    "repeated key": (
        edit("height=2;\n", "height=2;\nheight=3;\n"),
        3,
        1,
        "'height' is defined twice, first on line 2",
    ),
    "key after start": (
        edit('"bgr"', 'penguin=p;\n"bgr"'),
        10,
        1,
        "'penguin' is defined after 'start:'",
    ),
    "key after the map": (BASE + "width=3;\n", 14, 1, "'width' is defined after 'start:'"),
    "key between map lines": (
        edit('"brr"', '  empty=.;\n"brr"'),
        12,
        3,
        "'empty' is defined after 'start:'",
    ),
    "width not a number": (
        edit("width=3;", "width=abc;"),
        1,
        7,
        "width must be a positive integer, got 'abc'",
    ),
    "width zero": (edit("width=3;", "width=0;"), 1, 7, "width must be a positive integer, got '0'"),
    "height negative": (
        edit("height=2;", "height = -2 ;"),
        2,
        10,
        "height must be a positive integer, got '-2'",
    ),
    "height too big": (
        edit("height=2;", "height=65;"),
        2,
        8,
        "height must be at most 64, got '65'",
    ),
    "width far too big": (edit("width=3;", "width=" + "9" * 5000 + ";"), 1, 7, "at most 64"),
    "width not ascii": (edit("width=3;", "width=٣;"), 1, 7, "positive integer"),
    "width fraction": (edit("width=3;", "width=3.0;"), 1, 7, "positive integer, got '3.0'"),
    "value of two characters": (edit("one=b;", "one=bb;"), 3, 5, "exactly one character, got 'bb'"),
    "value missing": (edit("one=b;", "one=;"), 3, 5, "the value of 'one' is missing"),
    "semicolon as a character": (edit("one=b;", "one=;;"), 3, 5, "is missing"),
    "space as a character": (edit("one=b;", "one=  ;"), 3, 7, "whitespace"),
    "quote as a character": (edit("one=b;", 'one=";'), 3, 5, "quotes the map lines"),
    "one character in two roles": (
        edit("none=g;", "none=b;"),
        5,
        6,
        "'b' is already the character for 'one' (line 3)",
    ),
    "owner and value share": (
        edit("empty=.;", "empty=r;"),
        8,
        7,
        "already the character for 'two'",
    ),
    "no equals sign": (edit("width=3;", "width 3;"), 1, 7, "expected '=' after 'width'"),
    "keyword in a comment line": (
        edit("start:", "one more comment\nstart:"),
        9,
        5,
        "expected '=' after 'one'",
    ),
    "no semicolon": (edit("width=3;", "width=3   "), 1, 8, "must end with ';'"),
    "two definitions on a line": (
        edit("width=3;", "width=3; height=2;"),
        1,
        10,
        "one definition per line",
    ),
    "start hidden in a comment": (
        edit("empty=.;", "empty=.; start:"),
        8,
        10,
        "'start:' must stand alone",
    ),
    "start without its colon": (
        edit("start:", "start here\nstart:"),
        9,
        1,
        "a line that starts with 'start' must be the line 'start:'",
    ),
    "start with text": (edit("start:", "start: here"), 9, 1, "'start:' must stand alone"),
    "capital key": (edit("width=3;", "Width=3;"), 1, 1, "lower case: 'width', not 'Width'"),
    "row too long": (edit('"brr"', '"brrb"'), 12, 5, "the owner line of row 2 has 4 characters"),
    "row too short": (edit('"001"', '"01"'), 13, 4, "the value line of row 2 has 2 characters"),
    "empty row": (edit('"001"', '""'), 13, 2, "has 0 characters"),
    "undefined character": (edit('"bgr"', '"bxr"'), 10, 3, "'x' is not a defined character"),
    "undefined value": (
        edit('"1.0"', ' "1.p"'),
        11,
        5,
        "'p' is not a defined character; the value line",
    ),
    "value in an owner line": (
        edit('"bgr"', '"b1r"'),
        10,
        3,
        "'1' is the value character for 'on'",
    ),
    "owner in a value line": (
        edit('"001"', '"0g1"'),
        13,
        3,
        "'g' is the owner character for 'none'",
    ),
    "space in a row": (edit('"bgr"', '"b r"'), 10, 3, "' ' is not a defined character"),
    "unclosed quote": (edit('"brr"', '"brr'), 12, 1, "unclosed quote"),
    "unclosed quote indented": (edit('"1.0"', '\t"1.0'), 11, 2, "unclosed quote"),
    "comment between map lines": (
        edit('"brr"', 'my map\n"brr"'),
        12,
        1,
        "comment cannot stand between map lines",
    ),
    "blank line between map lines": (
        edit('"brr"', '\n"brr"'),
        12,
        1,
        "blank line cannot stand between map lines",
    ),
    "comment before the map": (
        edit("start:", "start:\nhere it comes"),
        10,
        1,
        "only blank lines may stand between",
    ),
    "too few rows": (edit('"brr"\n"001"\n', ""), 12, 1, "the map ends after 2 of its 4 lines"),
    "too few rows, no newline": (
        edit('"brr"\n"001"\n', "").rstrip(),
        11,
        6,
        "ends after 2 of its 4 lines",
    ),
    "odd number of map lines": (edit('"001"\n', ""), 13, 1, "the value line of row 2 is missing"),
    "too few rows then a comment": (
        edit('"brr"\n"001"\n', "the end\n"),
        12,
        1,
        "the owner line of row 2 (height is 2)",
    ),
    "too many rows": (BASE + '"bgr"\n', 14, 1, "a map line too many: height is 2"),
    "too many rows after comments": (BASE + 'the end\n  "bgr"\n', 15, 3, "a map line too many"),
    "player two cannot switch": (
        edit('"bgr"', '"bgb"', edit('"brr"', '"bbb"')),
        10,
        1,
        "player two (red) owns no field that can be switched",
    ),
    "player one cannot switch": (
        edit("empty=.;", "empty=.;\npenguin=p;", edit('"1.0"', '"p.0"', edit('"001"', '".01"'))),
        11,
        1,
        "player one (blue) owns no field that can be switched: give 'b' at least one field",
    ),
}


@pytest.mark.parametrize(("text", "line", "column", "words"), ERRORS.values(), ids=ERRORS.keys())
def test_errors_name_line_column_and_problem(text, line, column, words):
    with pytest.raises(MapFileError) as caught:
        parse_map(text)
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert words in error.problem
    assert str(error) == f"line {line}, column {column}: {error.problem}"


def test_error_names_the_source():
    with pytest.raises(MapFileError, match=r"^lesson\.map: line 1, column 7: "):
        parse_map(edit("width=3;", "width=x;"), source="lesson.map")


# -- what the format allows -----------------------------------------------------------


def test_comments_and_spacing_that_are_allowed():
    text = """\
; A comment line may start with ';'
This line is a comment too: it does not start with a key.
   width = 3 ;   spaces around the key, the '=' and the value
height=2;;;; a comment may contain ';'
one=b; a key may start the comment after ';' when no '=' follows: one two
two=r;
none =g;
on= 1;
off=0;
empty=.;

start:

  "bgr"   indented map lines and comments after the closing quote
  "1.0"   "quotes in a comment" are fine
"brr"
"001"
A closing comment, then a blank line.

width is a word that may start a closing comment, as long as no '=' follows it.
"""
    assert parse_map(text) == parse_map(BASE)


def test_the_example_in_the_module_docstring_parses():
    import textwrap

    from reversi.cursormap import mapfile

    example = textwrap.dedent(mapfile.__doc__.split("::\n\n")[1].split("\n\n")[0])
    board = parse_map(example)
    assert str(board) == "    0  1  2\n 0  B1 G. R0\n 1  Bp R0 R1"


def test_crlf_line_ends_and_a_byte_order_mark_are_read():
    assert parse_map("\ufeff" + BASE.replace("\n", "\r\n")) == parse_map(BASE)


def test_definitions_in_any_order():
    lines = BASE.splitlines()
    shuffled = "\n".join(list(reversed(lines[:8])) + lines[8:])
    assert parse_map(shuffled) == parse_map(BASE)


def test_unusual_characters():
    text = (
        edit("one=b;", "one==;")
        .replace("two=r;", "two=█;")
        .replace('"bgr"', '"=g█"')
        .replace('"brr"', '"=██"')
    )
    board = parse_map(text)
    assert board.chars.one == "=" and board.chars.two == "█"
    assert board[1, 2].owner is Owner.TWO
    assert parse_map(board.to_text()) == board


def test_leading_zeros_are_read():
    assert parse_map(edit("width=3;", "width=003;")).width == 3


def test_penguins():
    text = edit("empty=.;", "empty=.;\npenguin=P;").replace('"1.0"', '"1P0"')
    board = parse_map(text)
    assert board[0, 1].value is Value.PENGUIN
    assert board.chars.penguin == "P"


def test_the_largest_map():
    owners, values = '"' + "b" * 63 + 'r"', '"' + "0" * 64 + '"'
    text = edit("width=3;", "width=64;").replace("height=2;", "height=64;")
    text = text.split("start:")[0] + "start:\n" + f"{owners}\n{values}\n" * 64
    board = parse_map(text)
    assert (board.width, board.height) == (64, 64)


# -- writing -----------------------------------------------------------------------------


def test_to_text_round_trips_and_keeps_the_characters():
    text = (
        edit("one=b;", "one=X;")
        .replace("empty=.;", "empty=~;\npenguin=@;")
        .replace('"bgr"', '"Xgr"')
        .replace('"brr"', '"Xrr"')
        .replace('"1.0"', '"1@0"')
        .replace('"001"', '"~01"')
    )
    board = parse_map(text)
    written = board.to_text()
    assert "one=X;" in written and "penguin=@;" in written and '"1@0"' in written
    assert parse_map(written) == board
    assert written == parse_map(written).to_text()


def test_to_text_leaves_out_an_undefined_penguin():
    assert "penguin" not in parse_map(BASE).to_text()


# -- files and samples ----------------------------------------------------------------


def test_load_map_reads_a_file(tmp_path):
    path = tmp_path / "mine.map"
    path.write_text(BASE, encoding="utf-8")
    assert load_map(path) == parse_map(BASE)
    assert load_map(str(path)) == parse_map(BASE)


def test_load_map_names_the_file_in_errors(tmp_path):
    path = tmp_path / "broken.map"
    path.write_text(edit("height=2;", "height=two;"), encoding="utf-8")
    with pytest.raises(MapFileError) as caught:
        load_map(path)
    assert (
        str(caught.value)
        == f"{path}: line 2, column 8: height must be a positive integer, got 'two'"
    )


def test_a_missing_file_is_a_map_file_error(tmp_path):
    path = tmp_path / "nowhere.map"
    with pytest.raises(MapFileError) as caught:
        load_map(path)
    assert (caught.value.line, caught.value.column) == (0, 0)
    assert str(caught.value).startswith(f"{path}: cannot read the file")


def test_a_directory_is_a_map_file_error(tmp_path):
    with pytest.raises(MapFileError, match="cannot read the file"):
        load_map(tmp_path)


def test_bytes_that_are_not_utf8_are_located(tmp_path):
    path = tmp_path / "latin1.map"
    path.write_bytes(BASE.replace("one=b;", "one=é;").encode("latin-1"))
    with pytest.raises(MapFileError) as caught:
        load_map(path)
    error = caught.value
    assert (error.line, error.column) == (3, 5)
    assert "not UTF-8" in error.problem and "0xe9" in error.problem
    assert str(path) in str(error)


def test_a_byte_order_mark_does_not_shift_columns(tmp_path):
    path = tmp_path / "bom.map"
    path.write_bytes(b"\xef\xbb\xbf" + b"width=\xff;")
    with pytest.raises(MapFileError) as caught:
        load_map(path)
    assert (caught.value.line, caught.value.column) == (1, 7)


def test_non_ascii_before_the_bad_byte_counts_as_characters(tmp_path):
    path = tmp_path / "mixed.map"
    path.write_bytes("; ééé\n; ██".encode() + b"\xff")
    with pytest.raises(MapFileError) as caught:
        load_map(path)
    assert (caught.value.line, caught.value.column) == (2, 5)


def test_there_are_at_least_five_samples_easiest_first():
    names = sample_maps()
    assert len(names) >= 5
    assert names == sorted(names)
    assert names[0] == "01_first_steps"
    sizes = [load_sample(name).width * load_sample(name).height for name in names]
    assert sizes == sorted(sizes)
    assert sizes[-1] >= 100
    first = load_sample(names[0])
    assert (first.width, first.height) == (5, 4)


@pytest.mark.parametrize("name", sample_maps())
def test_samples_parse_and_round_trip(name):
    board = load_sample(name)
    assert load_sample(name + ".map") == board
    assert parse_map(board.to_text()) == board
    text = sample_text(name)
    assert ";" in text.split("start:")[0]  # samples teach the format with comments
    assert parse_map(text) == board


@pytest.mark.parametrize("name", sample_maps())
def test_samples_are_winnable_in_principle(name):
    """Every switchable field lies under a cursor bit for some centre on the map, so an
    OR cursor can switch it on."""
    board = load_sample(name)
    for player in (Owner.ONE, Owner.TWO):
        assert board.switchable(player) > 0
        for row, col in board.positions():
            if board[row, col].owner is player and board[row, col].switchable:
                assert any(
                    board.contains((row + dr, col + dc))
                    for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1)
                    if (dr, dc) != (0, 0)
                )


def test_some_sample_has_penguins_and_some_has_its_own_characters():
    boards = [load_sample(name) for name in sample_maps()]
    assert any(f.value is Value.PENGUIN for board in boards for f in board)
    assert any(board.chars.one != "b" for board in boards)


def test_an_unknown_sample_is_refused():
    with pytest.raises(MapFileError, match="no sample map 'nope'; the samples are 01_first_steps"):
        load_sample("nope")
