"""course.schema: bounded JSON and typed records; hostile bytes give a SchemaError, never a crash."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course.schema import Field, Limits, Schema, SchemaError, read_json, text
from course.schema import structure as schema_structure

LIMITS = Limits(bytes=10_000, depth=8, items=100)


@dataclass(frozen=True)
class Hello:
    name: str
    age: int = 0
    watch: bool = False
    tags: list[str] | None = None


HELLO = Schema(
    "a 'hello' message",
    (
        Field("name", str, limit=9, what="the name"),
        Field("age", int, required=False, limit=150),
        Field("watch", bool, required=False),
        Field("tags", list, required=False, limit=3),
    ),
    Hello,
    ignored=frozenset({"type"}),
)


def test_a_record_is_built_from_clean_values():
    assert HELLO.load('{"type": "hello", "name": " Ada ", "age": 36}', LIMITS) == Hello("Ada", 36)
    assert HELLO.load(b'{"name": "Bo", "watch": true, "tags": ["a"]}', LIMITS) == Hello(
        "Bo", watch=True, tags=["a"]
    )


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"[" * 1000, "nests deeper than 8 levels"),
        (b"[" * 100_000, "is 100000 bytes; at most 10000"),
        (b"{" * 9, "nests deeper than 8 levels"),
        (b"[" + b"1," * 200 + b"1]", "more than 100 items"),
        (b"\xff\xfe", "is not UTF-8 text"),
        (b'{"name": NaN}', "NaN is not a number JSON allows"),
        (b'{"name": 1e999}', "too large"),
        (b'{"name": "x"', "is not valid JSON"),
        (b'{"name": ' + b"9" * 5000 + b"}", "is not valid JSON"),
        (b"[]", "must be a JSON object, not list"),
        (b'{"name": "x", "size": 1}', "has no field 'size'"),
        (b'{"age": 3}', "needs the field 'name'"),
        (b'{"name": 3}', "field 'name' of a 'hello' message must be str, not int"),
        (b'{"name": "x", "age": true}', "must be int, not bool"),
        (b'{"name": "x", "age": 151}', "must be from 0 to 150"),
        (b'{"name": "x", "tags": [1, 2, 3, 4]}', "holds 4 items; at most 3"),
        (b'{"name": "   "}', "the name is blank"),
        (b'{"name": "Maximilian"}', "the name 'Maximilian' has 10 characters; at most 9"),
        (b'{"name": "a\\u0000"}', "control character"),
        (b'{"name": "\\ud800"}', "control character"),
    ],
)
def test_a_refusal_names_the_input_and_the_reason(raw, reason):
    with pytest.raises(SchemaError) as refused:
        HELLO.load(raw, LIMITS)
    assert reason in str(refused.value)


def test_depth_is_measured_outside_strings_only():
    inside = json.dumps({"name": "[" * 50})
    with pytest.raises(SchemaError, match="at most 9"):
        HELLO.load(inside, LIMITS)  # read to the end: the brackets in the string are text
    assert read_json('["[[[[\\"[[["]', "x", Limits(bytes=100, depth=1)) == ['[[[["[[[']


def test_a_field_clean_step_can_refuse():
    def upper_only(value: str) -> str:
        if not value.isupper():
            raise SchemaError(f"{value!r} is not upper case")
        return value

    schema = Schema("a code", (Field("code", str, limit=4, clean=upper_only),), dict)
    assert schema.read({"code": "AB"}) == {"code": "AB"}
    with pytest.raises(SchemaError, match="'ab' is not upper case"):
        schema.read({"code": "ab"})


def test_text_keeps_spaces_when_asked():
    assert text(" a ", "x", 5, strip=False) == " a "


def test_describe():
    assert HELLO.fields[0].describe() == "name: str, 1-9 characters"
    assert HELLO.fields[1].describe() == "age (optional): int, 0 to 150"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_a_record_or_a_schema_error(raw):
    try:
        record = HELLO.load(raw, LIMITS)
    except SchemaError as refused:
        assert str(refused).startswith(("a 'hello' message", "field", "the name", "'name'"))
        return
    assert isinstance(record, Hello)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{},:"\\ 0a1tfnule.-', max_size=300))
def test_json_like_text_never_escapes(raw):
    try:
        value = read_json(raw, "x", Limits(bytes=1000, depth=4, items=50))
    except SchemaError as refused:
        assert str(refused).startswith("x ")
        return
    assert value == json.loads(raw)  # what is read is what JSON says


#: The structure as the first reading scanned it, token by token: the oracle of the faster scan.
TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{},]')


def structure_by_tokens(text: str) -> str:
    return "".join(t for t in (m.group() for m in TOKEN.finditer(text)) if t in "[]{},")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet='[]{},:"\\ a\u00e9', max_size=200))
def test_the_structure_is_what_a_token_by_token_reading_finds(raw):
    assert schema_structure(raw) == structure_by_tokens(raw)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_well_formed_json_within_limits_reads_back(value):
    raw = json.dumps(value)
    assert read_json(raw, "x", Limits(bytes=10**6, depth=40, items=10**4)) == value


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "age", "watch", "tags", "other"]), json_values, max_size=5))
def test_any_object_gives_a_record_or_a_schema_error(data):
    try:
        record = HELLO.read(data)
    except SchemaError:
        return
    assert isinstance(record, Hello) and 1 <= len(record.name) <= 9


def test_refusals_are_in_the_reader_s_language_naming_the_input_and_the_reason() -> None:
    from course.i18n import speaking

    with speaking("fr"):
        with pytest.raises(SchemaError, match=r"^a 'hello' message n’a pas de champ 'x'$"):
            HELLO.load('{"name": "Ada", "x": 1}', LIMITS)
        with pytest.raises(SchemaError, match=r"^a 'hello' message doit avoir le champ 'name'$"):
            HELLO.load("{}", LIMITS)
        with pytest.raises(SchemaError, match=r"^le champ 'age' doit aller de 0 à 150, pas 200$"):
            HELLO.load('{"name": "Ada", "age": 200}', LIMITS)
        with pytest.raises(SchemaError, match=r"^the name 'Ada Lovelace' a 12 caractères ; au plus 9 sont permis$"):
            HELLO.load('{"name": "Ada Lovelace"}', LIMITS)
        with pytest.raises(SchemaError, match=r"^the note s’imbrique sur plus de 8 niveaux$"):
            read_json("[" * 20, "the note", LIMITS)
    with pytest.raises(SchemaError, match=r"^a 'hello' message has no field 'x'$"):
        HELLO.load('{"name": "Ada", "x": 1}', LIMITS)
    with pytest.raises(SchemaError, match=r"^the name 'Ada Lovelace' has 12 characters; at most 9 are allowed$"):
        HELLO.load('{"name": "Ada Lovelace"}', LIMITS)


def test_a_name_given_with_N_is_said_in_the_reader_s_language_too() -> None:
    from course.i18n import N_, speaking

    named = Schema("the hand-in", (Field("exercise", str, limit=9, what=N_("the exercise name")),), dict)
    # course.site.store marks the name for the catalogue
    with speaking("fr"), pytest.raises(SchemaError, match=r"^le nom de l’exercice est vide$"):
        named.load('{"exercise": "  "}', LIMITS)
    with pytest.raises(SchemaError, match=r"^the exercise name is blank$"):
        named.load('{"exercise": "  "}', LIMITS)
