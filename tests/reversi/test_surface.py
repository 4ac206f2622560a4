"""The student surface: any value at a decorated function gives a result or ArgumentError."""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi.board import Board
from reversi.errors import ArgumentError, NotationError
from reversi.notation import BLACK, WHITE, Color
from reversi.surface import (
    MAX_ITEMS,
    SURFACE,
    Between,
    Choice,
    Length,
    signature_of,
    student,
    student_raising,
)


class Tone(Choice):
    NORMAL = "normal"
    LOUD_VOICE = "loud"


class Plain(enum.Enum):
    ONE = 1


class Later:
    """A class named before it is defined (a forward reference)."""


@student
def every_kind(
    a: int,
    b: float = 1.0,
    *,
    c: str | None = None,
    d: Literal["x", 2] = "x",
    e: Tone = Tone.NORMAL,
    f: list[list[int]] | None = None,
    g: tuple[int, ...] = (),
    h: tuple[int, str] = (1, "a"),
    i: Sequence[int] = (),
    j: Iterable[str] = (),
    k: dict[str, int] | None = None,
    m: Callable[[int], int] = abs,
    n: Path | str = "",
    o: Annotated[int, Between(1, 10)] = 1,
    p: Annotated[str, Length(1, 3)] = "a",
    q: Color = BLACK,
    r: Later | None = None,
    s: bool = False,
    t: Plain = Plain.ONE,
    u: Any = None,
) -> tuple[Any, ...]:
    return (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u)


class Counter:
    @student
    def __init__(self, start: int) -> None:
        self.value = start

    @student
    def add(self, step: Annotated[int, Between(-5, 5)]) -> int:
        self.value += step
        return self.value


GOOD: dict[str, Any] = dict(
    b=2, c=None, d=2, e="LOUD_voice", f=[[1], []], g=(1, 2), h=(3, "b"), i=[1, 2], j=iter([1]),
    k={"a": 1}, m=len, n=Path("x"), o=10, p="abc", q="White", r=Later(), s=True, t=Plain.ONE, u=object(),
)

BAD: list[tuple[dict[str, Any], str]] = [
    (dict(a=True), "every_kind(): a must be a whole number, not True"),
    (dict(a=1, b=float("nan")), "every_kind(): b must be a number, not nan"),
    (dict(a=1, b=float("inf")), "every_kind(): b must be a number, not inf"),
    (dict(a=1, c=3), "every_kind(): c must be a text or None, not 3"),
    (dict(a=1, d="y"), "every_kind(): d must be one of 'x', 2, not 'y'"),
    (dict(a=1, d=2.0), "every_kind(): d must be one of 'x', 2, not 2.0"),
    (dict(a=1, e="quiet"), "every_kind(): e must be NORMAL or LOUD_VOICE, not 'quiet'"),
    (dict(a=1, f=[[1], [2, "x"]]), "every_kind(): f[1][1] must be a whole number, not 'x'"),
    (dict(a=1, g=(1, None)), "every_kind(): g[1] must be a whole number, not None"),
    (dict(a=1, h=(1, 2)), "every_kind(): h[1] must be a text, not 2"),
    (dict(a=1, h=(1, "a", 3)), "every_kind(): h must be a pair, not (1, 'a', 3)"),
    (dict(a=1, i="abc"), "every_kind(): i must be a list or tuple, not 'abc'"),
    (dict(a=1, j=[1]), "every_kind(): j[0] must be a text, not 1"),
    (dict(a=1, k={1: 1}), "every_kind(): k key 1 must be a text, not 1"),
    (dict(a=1, k={"a": "b"}), "every_kind(): k['a'] must be a whole number, not 'b'"),
    (dict(a=1, m=3), "every_kind(): m must be a function, not 3"),
    (dict(a=1, n=3), "every_kind(): n must be a Path or a text, not 3"),
    (dict(a=1, o=11), "every_kind(): o must be a whole number from 1 to 10, not 11"),
    (dict(a=1, p=""), "every_kind(): p must be a text of 1 to 3 characters, not ''"),
    (dict(a=1, q="purple"), "every_kind(): q must be BLACK or WHITE, not 'purple'"),
    (dict(a=1, r=3), "every_kind(): r must be a Later or None, not 3"),
    (dict(a=1, s=1), "every_kind(): s must be True or False, not 1"),
    (dict(a=1, t=1), "every_kind(): t must be ONE, not 1"),
    (dict(), "every_kind(): a must be given"),
    (dict(a=1, zz=2), "every_kind(): has no parameter named 'zz'"),
]


def test_every_kind_accepts_what_its_annotations_say() -> None:
    result = every_kind(1, **GOOD)
    assert result[4] is Tone.LOUD_VOICE and result[15] is WHITE  # enums are read from their text
    assert result[5] == [[1], []] and result[1] == 2  # everything else passes through unchanged


@pytest.mark.parametrize(("arguments", "message"), BAD)
def test_every_kind_names_the_function_the_parameter_and_the_reason(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ArgumentError) as refused:
        every_kind(**arguments)
    assert str(refused.value) == message


def test_methods_and_constructors_are_named_by_their_class() -> None:
    with pytest.raises(ArgumentError, match=r"^Counter\(\): start must be a whole number, not 'x'$"):
        Counter("x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"^Counter.add\(\): step must be a whole number from -5 to 5, not 9$"):
        Counter(0).add(9)
    assert Counter(1).add(2) == 3


class LampError(ArgumentError):
    """A package's own kind of argument refusal."""


@student_raising(LampError)
class Lamp:
    def __init__(self, level: Annotated[int, Between(0, 3)]) -> None:
        self.level = level

    @student_raising(LampError)
    def dim(self, by: int) -> int:
        return self.level - by


def test_a_package_may_refuse_with_its_own_kind_and_the_same_message() -> None:
    with pytest.raises(LampError, match=r"^Lamp\(\): level must be a whole number from 0 to 3, not 9$"):
        Lamp(9)
    with pytest.raises(LampError, match=r"^Lamp.dim\(\): by must be a whole number, not 'a lot'$"):
        Lamp(2).dim("a lot")  # type: ignore[arg-type]
    assert Lamp(2).dim(1) == 1


def test_positional_arguments_too_many_or_twice() -> None:
    with pytest.raises(ArgumentError, match="takes at most 2 arguments, not 3"):
        every_kind(1, 2, 3)  # type: ignore[misc]
    with pytest.raises(ArgumentError, match="a was given twice"):
        every_kind(1, a=1)  # type: ignore[misc]


def test_a_deep_list_gets_a_clean_error_not_a_recursion_error() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ArgumentError, match=r"f\[0\]\[0\] must be a whole number"):
        every_kind(1, f=deep)
    assert every_kind(1, u=deep)[-1] is deep  # Any is not walked


def test_the_items_checked_in_one_call_are_bounded() -> None:
    with pytest.raises(ArgumentError, match=f"no more than {MAX_ITEMS:,} items"):
        every_kind(1, f=[[0] * 1000] * 1000)
    assert every_kind(1, f=[[0] * 100] * 100)[5][99][99] == 0


def test_enum_items_inside_containers_must_be_members() -> None:
    @student
    def colors(values: list[Color]) -> list[Color]:
        return values

    assert colors([BLACK, WHITE]) == [BLACK, WHITE]
    with pytest.raises(ArgumentError, match=r"values\[0\] must be BLACK or WHITE, not 'black'"):
        colors(["black"])  # type: ignore[list-item]


def test_an_unreadable_annotation_is_a_bug_found_at_the_first_call() -> None:
    @student
    def odd(value: NoSuchName) -> None:  # type: ignore[name-defined]  # noqa: F821
        pass

    with pytest.raises(NameError):
        odd(1)


def test_calls_from_inside_the_kit_are_trusted() -> None:
    namespace: dict[str, Any] = {"__name__": "reversi.somewhere", "every_kind": every_kind}
    exec("result = every_kind('not a number')", namespace)
    assert namespace["result"][0] == "not a number"


def test_choice_reads_names_and_values_in_any_case_and_lists_the_choices() -> None:
    assert Tone("loud") is Tone("LOUD_VOICE") is Tone(" Loud ") is Tone.LOUD_VOICE
    with pytest.raises(ArgumentError, match=r"^a tone is one of 'normal', 'loud', not 'quiet'$"):
        Tone("quiet")
    with pytest.raises(NotationError, match="a colour is 'black' or 'white', not 3"):
        Color(3)
    assert Color("Black") is BLACK


def test_every_function_on_the_surface_has_readable_annotations() -> None:
    import reversi  # noqa: F401  (decorates the kit's surface)

    for function in SURFACE:
        if function.__module__.startswith("reversi"):
            signature_of(function)


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5) | st.binary(max_size=5)
    | st.sampled_from([BLACK, WHITE, "d3", "black", Tone.NORMAL, Plain.ONE, Path("x"), len, (1, "a")]),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdefghijkmnopqrstu"), values, max_size=5))
def test_any_value_gives_a_result_or_an_argument_error(arguments: dict[str, Any]) -> None:
    try:
        result = every_kind(**arguments)
    except ArgumentError as refused:
        assert str(refused).startswith("every_kind(): ")
    else:
        assert result[0] == arguments["a"]


def test_a_100000_deep_list_into_truth_table_or_no_move_policy_is_an_argument_error():
    from reversi.cursormap import truth_table
    from reversi.outcome import NoMovePolicy

    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ArgumentError, match=r"^truth_table\(\): operator must be AND, OR or XOR, not \[\["):
        truth_table(deep)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"^a no move policy is one of 'change-turn', .*, not \[\["):
        NoMovePolicy(deep)


def test_an_exact_choice_refuses_another_case():
    from reversi.cursormap import Operator

    assert Operator("XOR") is Operator.XOR
    with pytest.raises(ArgumentError, match="an operator is one of 'AND', 'OR', 'XOR', not 'and'"):
        Operator("and")


# -- the kit's own surface: any value gives a result or the kit's error ---------------------

HOSTILE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(["d3", "black", "WHITE", "stalemate", "up", "AND", "c4", "pass", "", "\0", "x" * 300, 10**400]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=6,
)

#: Surface functions that write files wherever a path points: fuzzed on their own in test_hostile_input.
WRITES = {"save_game", "SaveFolder.save", "SaveFolder.delete"}


def kit_surface() -> list[Any]:
    import reversi  # noqa: F401  (decorates the surface)
    import reversi.cursormap  # noqa: F401
    from reversi import rules  # noqa: F401

    return sorted(
        (f for f in SURFACE if f.__module__.startswith("reversi") and f.__qualname__ not in WRITES),
        key=lambda f: f.__qualname__,
    )


def receiver(function: Any, folder: Any) -> Any:
    """An object to call a method on, or None for a plain function or a constructor."""
    from reversi import Game, RandomPlayer, SaveFolder
    from reversi.cursormap import CursorGame, load_sample

    qualname = function.__qualname__
    owner = qualname.split(".")[0] if "." in qualname and not qualname.endswith(".__init__") else None
    makers = {
        "Board": lambda: Board(),
        "Game": lambda: Game(RandomPlayer(seed=1), RandomPlayer(seed=2), size=6),
        "GameState": lambda: Game(RandomPlayer(seed=1), RandomPlayer(seed=2), size=6),
        "SaveFolder": lambda: SaveFolder(folder),
        "CursorGame": lambda: CursorGame(load_sample("01_first_steps"), seed=1),
    }
    if owner is None:
        return None
    if owner in makers:
        return makers[owner]()
    return vars(sys.modules[function.__module__])[owner]()  # a player, a scoreboard: default settings


@pytest.mark.parametrize("function", kit_surface(), ids=lambda f: f.__qualname__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_value_at_the_kits_surface_gives_a_result_or_the_kits_error(function, data, tmp_path_factory):
    from reversi.errors import ReversiError

    target = receiver(function, tmp_path_factory.mktemp("saves"))
    args = data.draw(st.lists(HOSTILE, max_size=4))
    try:
        if function.__qualname__.endswith(".__init__"):
            cls = vars(__import__(function.__module__, fromlist=["x"]))[function.__qualname__.split(".")[0]]
            cls(*args)
        elif target is not None:  # bound as a student reaches it (classmethods too)
            getattr(target, function.__name__)(*args)
        else:
            function(*args)
    except ReversiError:
        pass
