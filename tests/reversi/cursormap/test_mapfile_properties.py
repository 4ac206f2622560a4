"""Property tests: whatever text comes in, the parser answers with a map or a MapFileError
that points inside the text."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi.cursormap import MapFileError, parse_map, sample_maps, sample_text

from .helpers import BASE
from .strategies import cursor_maps

SAMPLES = [sample_text(name) for name in sample_maps()] + [BASE]

# Pieces of map files, so that random text often gets deep into the parser.
PIECES = [
    "width", "height", "one", "two", "none", "on", "off", "empty", "penguin", "start:",
    "=", ";", '"', "\n", "\r\n", " ", "\t", "b", "r", "g", "0", "1", ".", "p", "3", "64",
    "65", "x", "Width", "\ufeff", "é", "",
]  # fmt: skip


def parse_or_locate(text):
    """Parse ``text``; on a MapFileError check that it points inside the text."""
    try:
        return parse_map(text)
    except MapFileError as error:
        lines = text.removeprefix("\ufeff").split("\n")
        assert 1 <= error.line <= len(lines), error
        width = len(lines[error.line - 1].removesuffix("\r"))
        assert 1 <= error.column <= width + 1, error
        assert error.problem and str(error).endswith(error.problem)
        return None


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_any_text_gives_a_map_or_a_located_error(text):
    parse_or_locate(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60))
def test_any_sequence_of_format_pieces_gives_a_map_or_a_located_error(pieces):
    parse_or_locate("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(BASE.splitlines()),
            st.sampled_from(["", "start:", "penguin=p;", '"bgp"', "; comment", "one=b; two=r;"]),
            st.text(alphabet='bgr10.p" ;=', max_size=6),
        ),
        max_size=25,
    )
)
def test_any_sequence_of_lines_gives_a_map_or_a_located_error(lines):
    parse_or_locate("\n".join(lines))


MUTATIONS = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10_000)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(PIECES)),
    st.tuples(st.just("replace"), st.integers(0, 10_000), st.sampled_from(PIECES)),
    st.tuples(st.just("drop line"), st.integers(0, 10_000)),
    st.tuples(st.just("repeat line"), st.integers(0, 10_000)),
    st.tuples(st.just("swap lines"), st.integers(0, 10_000), st.integers(0, 10_000)),
)


def mutate(text, mutation):
    kind, where, *rest = mutation
    if kind in ("delete", "insert", "replace"):
        at = where % (len(text) + 1)
        cut = 1 if kind != "insert" else 0
        return text[:at] + (rest[0] if kind != "delete" else "") + text[at + cut :]
    lines = text.split("\n")
    at = where % len(lines)
    if kind == "drop line":
        del lines[at]
    elif kind == "repeat line":
        lines.insert(at, lines[at])
    else:
        other = rest[0] % len(lines)
        lines[at], lines[other] = lines[other], lines[at]
    return "\n".join(lines)


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(SAMPLES), st.lists(MUTATIONS, min_size=1, max_size=4))
def test_mutated_samples_give_a_map_or_a_located_error(text, mutations):
    for mutation in mutations:
        text = mutate(text, mutation)
    board = parse_or_locate(text)
    if board is not None:
        assert parse_map(board.to_text()) == board


@settings(max_examples=300, deadline=None)
@given(cursor_maps())
def test_written_maps_read_back_equal(board):
    text = board.to_text()
    assert parse_map(text) == board
    assert parse_map(text).to_text() == text


@st.composite
def decorated(draw, board):
    """``board`` as a map file with the freedoms the format allows: definitions in any
    order with spaces and comments, comment lines, blank lines, comments after quotes."""
    words = st.text(alphabet="abc xyz.,!'\"=;", max_size=12)
    written = board.to_text().split("\n")
    start = written.index("start:")
    definitions = draw(st.permutations(written[:start]))
    lines = []
    for definition in definitions:
        if draw(st.booleans()):
            lines.append("; " + draw(words))
        key, value = definition[:-1].split("=", 1)
        space = draw(st.sampled_from(["", " ", "\t", "  "]))
        comment = draw(words) if draw(st.booleans()) else ""
        lines.append(f"{space}{key}{space}={space}{value}{space};{comment}")
    lines.append("start:")
    lines += [""] * draw(st.integers(0, 2))
    for map_line in written[start + 1 : -1]:
        comment = draw(words) if draw(st.booleans()) else ""
        lines.append(draw(st.sampled_from(["", "  ", "\t"])) + map_line + comment)
    lines += [draw(words).lstrip(' "') + "!" for _ in range(draw(st.integers(0, 3)))]
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), cursor_maps(max_side=6))
def test_decorated_files_read_as_the_plain_one(data, board):
    text = data.draw(decorated(board))
    assert parse_map(text) == board
