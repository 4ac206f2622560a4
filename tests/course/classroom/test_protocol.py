"""The trust boundary: what the server reads, and what it refuses (with a reason)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course.classroom.connection import RateLimit
from course.classroom.protocol import (
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    MESSAGES,
    ClassroomError,
    MessageError,
    parse,
)
from reversi.errors import ReversiError


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type": "fly"}', "unknown message type 'fly'"),
        ('{"square": "d3"}', "unknown message type None"),
        ('{"type": "move"}', "needs the field 'square'"),
        ('{"type": "move", "square": 33}', "field 'square' of a 'move' message must be str, not int"),
        ('{"type": "move", "square": "d3", "x": 1}', "has no field 'x'"),
        ('{"type": "move", "square": "d33"}', "is not a square like 'd3'"),
        ('{"type": "answer", "accept": 1}', "must be bool, not int"),
        ('{"type": "chat", "text": "   "}', "'text' is blank"),
        ('{"type": "chat", "text": "a\\u0000b"}', "control character"),
        ('{"type": "chat", "text": "rtl\\u202e"}', "control character"),
        ('{"type": "hello", "room": "table 3", "name": "Ada"}', "the room name 'table 3' is not valid"),
        ('{"type": "hello", "room": "t", "name": "Ada\\nBob"}', "control character"),
        ('{"type": "hello", "room": "t", "name": "room"}', "kept for the room's own messages"),
        ('{"type": "hello", "room": "t", "name": "Ada", "token": 5}', "must be str, not int"),
        (b"\xff\xfe", "not UTF-8"),
        ('{"type": "hello", "room": "d3\\n", "name": "Ada"}', "the room name 'd3\\n' is not valid"),
        ('{"type": "hello", "room": "t", "name": "Ada", "key": "\\ud800"}', "control character"),
        ("[" * 100_000, "bytes; at most"),
        ("[" * 2000, "the message nests deeper than 2 levels"),
        ('{"type": "chat", "text": ' + "[" * 3 + '"x"' + "]" * 3 + "}", "nests deeper than 2 levels"),
        ('{"type": "unsay", "line": 1e999}', "too large"),
        ('{"type": "unsay", "line": NaN}', "NaN is not a number JSON allows"),
    ],
)
def test_bad_messages_are_refused_with_a_reason(raw: str | bytes, reason: str) -> None:
    with pytest.raises(MessageError, match=None) as caught:
        parse(raw)
    assert reason in str(caught.value)
    assert isinstance(caught.value, ClassroomError) and isinstance(caught.value, ValueError)
    assert isinstance(caught.value, ReversiError)


def test_limits() -> None:
    assert parse(json.dumps({"type": "hello", "room": "t", "name": "N" * MAX_NAME}))["name"] == "N" * 9
    with pytest.raises(MessageError, match="has 10 characters; at most 9"):
        parse(json.dumps({"type": "hello", "room": "t", "name": "N" * (MAX_NAME + 1)}))
    assert len(parse(json.dumps({"type": "chat", "text": "é" * MAX_CHAT}))["text"]) == MAX_CHAT
    with pytest.raises(MessageError, match="201 characters"):
        parse(json.dumps({"type": "chat", "text": "x" * (MAX_CHAT + 1)}))
    big = json.dumps({"type": "chat", "text": "x" * 100, "pad": "y" * MAX_MESSAGE_BYTES})
    with pytest.raises(MessageError, match=f"at most {MAX_MESSAGE_BYTES}"):
        parse(big)


def test_good_messages_come_out_clean() -> None:
    assert parse('{"type": "hello", "room": "table-3", "name": " Ada "}') == {
        "type": "hello", "room": "table-3", "name": "Ada"}
    assert parse('{"type": "answer", "accept": false}') == {"type": "answer", "accept": False}
    assert parse(b'{"type": "move", "square": " C4"}') == {"type": "move", "square": "c4"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
messages = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(sorted(MESSAGES))},
        optional={k: json_values for k in ("room", "name", "square", "text", "accept", "token", "key")},
    ).map(json.dumps),
)


@settings(max_examples=200, deadline=None)
@given(messages)
def test_anything_is_either_a_clean_message_or_a_message_error(raw: str | bytes) -> None:
    try:
        message = parse(raw)
    except MessageError:
        return
    assert message["type"] in MESSAGES
    assert set(message) <= {f.name for f in MESSAGES[message["type"]].fields} | {"type"}


def test_the_rate_limit_lets_bursts_through_and_then_refills() -> None:
    bucket = RateLimit(rate=10, burst=5, now=0.0)
    assert [bucket.allow(0.0) for _ in range(7)] == [True] * 5 + [False] * 2
    assert bucket.dropped == 2
    assert bucket.allow(0.1) and not bucket.allow(0.1)
