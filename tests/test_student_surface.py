"""The student surface, by construction: any value either works or is refused with the kit's
own error, and a refusal changes nothing.

The surface is what lessons and exercises call: every function, method and class that
:func:`reversi.surface.student` decorates (:data:`reversi.surface.SURFACE`), in ``reversi``
and in ``course``; a new one is covered the day it is decorated, with no list to update.
The rest of the kit is typed (``mypy --strict``) and trusts its types; what comes from
outside as bytes is fuzzed at its boundary (``tests/test_boundaries.py``, the schema's,
the class server's and the save and map files' tests).  A self-check of
``course.grading.checks`` may fail the way a test fails, with an AssertionError that starts
with its own name.  Each parameter gets any value: the kit's own (a board, a colour, a game,
a square), or hostile ones (None, NaN, infinities, huge and negative integers, wrong types,
text in every Unicode category, functions that raise or return nonsense, iterators that
never end, deep nesting).  An escaping exception that is not a
:class:`~reversi.errors.ReversiError` fails the test, and so does a call that does not return
within :data:`CALL_SECONDS` (a hang) or a refused call that changed the object it was called on.
"""

from __future__ import annotations

import asyncio
import enum
import importlib
import inspect
import itertools
import json
import math
import os
import pkgutil
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import course
import reversi
from reversi import BLACK, PASS, WHITE, Board, Game, ReversiError, Square
from reversi.saves import game_to_dict
from reversi.surface import SURFACE

#: Examples per public name (``REVERSI_FUZZ_EXAMPLES=500`` for a deeper run by hand).
EXAMPLES = int(os.environ.get("REVERSI_FUZZ_EXAMPLES", "25"))

#: A call that takes longer than this counts as a hang.
CALL_SECONDS = 3.0

#: Names whose call starts what only a person can end: a network connection to a class server.
#: They are still called, with every argument but the address drawn as for any other name.
NETWORK = {"join"}

WORK = Path(tempfile.mkdtemp(prefix="reversi-api-fuzz-"))


class Hang(BaseException):
    """Raised by the alarm when a call runs past :data:`CALL_SECONDS`."""


def _raise_hang(signum: int, frame: object) -> None:
    raise Hang


def _boom() -> None:
    raise RuntimeError("a function handed in that raises")


def _backwards_clock() -> Callable[[], float]:
    readings = itertools.count(1000, -1)
    return lambda: float(next(readings))


def _forever() -> Any:
    return itertools.count()


def _deep(kind: type, depth: int = 100_000) -> Any:
    value: Any = kind()
    for _ in range(depth):
        value = kind([value])
    return value


DEEP_LIST = _deep(list)
DEEP_TUPLE = _deep(tuple)

HOSTILE = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 1, 2, 3, 7, 8, 16, 17, 99, -(10**9), 10**9, 10**31, 10**400,
         math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-300, 1e300, 0.5, "", " ", "d3", "D3",
         "pass", "a1", "z9", "black", "white", "\n", "game\n", "x" * 5000, "\x00", b"d3",
         (), [], {}, (3, 2), (99, 99), DEEP_LIST, DEEP_TUPLE, ("a", "b"), [(2, 3)], {"d3"}, object(), BLACK, WHITE, PASS,
         Square(2, 3)]
    ),
    st.integers(),
    st.floats(),
    st.text(max_size=20).filter(lambda text: "/" not in text and not text.startswith("~")),
    st.lists(st.one_of(st.none(), st.integers(-2, 20), st.text(max_size=3)), max_size=4),
    st.builds(lambda: (lambda *args, **kwargs: None)),
    st.builds(lambda: (lambda *args, **kwargs: math.nan)),
    st.builds(lambda: (lambda *args, **kwargs: "nonsense")),
    st.builds(lambda: (lambda *args, **kwargs: _boom())),
    st.builds(_backwards_clock),
    st.builds(_forever),
)


#: Names that start a server: their host is never one this machine can listen on (a server the
#: fuzz started would listen until the alarm, on any port).
SERVING = {"start", "run"}
UNBINDABLE = st.one_of(
    HOSTILE.filter(lambda value: not isinstance(value, str)),
    st.sampled_from(["203.0.113.9", "no-such-host.invalid", "", " ", "\x00", "x" * 300]),
)


def _kit_values() -> st.SearchStrategy[Any]:
    """The kit's own values, so calls also get far enough to do their work."""
    return st.one_of(
        st.builds(Board),
        st.builds(Board, st.sampled_from([4, 6, 10])),
        st.builds(Game),
        st.builds(lambda: Game(size=4)),
        st.sampled_from([BLACK, WHITE]),
        st.builds(Square, st.integers(0, 7), st.integers(0, 7)),
        st.sampled_from(["d3", "c4", "f5", "e6", "random", "greedy", "easy", "human", "beginner"]),
        st.sampled_from([1, 2, 4, 0.05]),
    )


KIT_VALUES = _kit_values()
VALUES = st.one_of(KIT_VALUES, HOSTILE)


def _modules() -> None:
    """Import every module of both packages, so every decorated name is on the surface."""
    for package in (reversi, course):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".runtime" not in info.name and not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def _concrete(cls: type) -> type:
    """The class students make for a method defined on ``cls``: ``cls`` itself, or the subclass
    their package exports (a method of a base such as ``GameState`` is called on a ``Game``)."""
    found, stack = [], [cls]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(current.__subclasses__())
    for candidate in found:
        package = sys.modules[candidate.__module__.split(".")[0]]
        if getattr(package, candidate.__name__, None) is candidate:
            return candidate
    return cls


def _targets() -> list[tuple[str, Any]]:
    """Every callable on the student surface: functions and classes as they are, methods on an
    object built from the kit's own values."""
    _modules()
    found: list[tuple[str, Any]] = []
    for thing in SURFACE:
        module = sys.modules[thing.__module__]
        path = thing.__qualname__.split(".")
        name = f"{thing.__module__}.{thing.__qualname__}"
        if len(path) == 1:
            found.append((name, thing))
            continue
        cls = _concrete(getattr(module, path[0]))
        if path[1] == "__init__":
            found.append((f"{thing.__module__}.{path[0]}", cls))
        elif isinstance(inspect.getattr_static(cls, path[1]), staticmethod | classmethod):
            found.append((name, getattr(cls, path[1])))
        else:
            found.append((f"{thing.__module__}.{path[0]}().{path[1]}", (cls, path[1])))
    return sorted(found, key=lambda pair: pair[0])


TARGETS = _targets()


def _parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters.values() if p.name != "self"]


def _arguments(
    data: st.DataObject, function: Callable[..., Any], values: st.SearchStrategy[Any] = VALUES
) -> tuple[list[Any], dict[str, Any]]:
    """Values for ``function``'s parameters: required ones always, optional ones often left out."""
    if inspect.isclass(function) and issubclass(function, enum.Enum):
        return [data.draw(values, label="value")], {}  # an enum looked up by its value
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for parameter in _parameters(function):
        if parameter.kind is parameter.VAR_POSITIONAL:
            args.extend(data.draw(st.lists(values, max_size=2), label=parameter.name))
            continue
        if parameter.kind is parameter.VAR_KEYWORD:
            extra = data.draw(st.dictionaries(st.sampled_from(["depth", "seed", "bogus", "time_limit"]),
                                              values, max_size=2), label=parameter.name)
            kwargs.update({k: v for k, v in extra.items() if k not in kwargs})
            continue
        optional = parameter.default is not parameter.empty
        if optional and data.draw(st.booleans(), label=f"omit {parameter.name}"):
            continue
        value = data.draw(values, label=parameter.name)
        if parameter.kind is parameter.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[parameter.name] = value
    return args, kwargs


def state_of(thing: Any) -> object:
    """What a refused call must leave unchanged, as a comparable value."""
    if isinstance(thing, Game):
        saved = game_to_dict(thing)
        saved.pop("elapsed", None)
        return json.dumps(saved, sort_keys=True, default=str), tuple(thing.log)
    if isinstance(thing, Board):
        return str(thing), thing.size
    try:
        return repr(sorted((key, repr(value)) for key, value in vars(thing).items()))
    except TypeError:
        return repr(thing)


def _instance(data: st.DataObject, cls: type) -> Any:
    """An object of ``cls`` built from the kit's own values (a few tries), or None.

    Whatever its constructor does with other values is the constructor's own test.
    """
    for _ in range(4):
        args, kwargs = _arguments(data, cls, KIT_VALUES)
        try:
            return _call(cls, args, kwargs)
        except Exception:
            continue
    return None


def _call(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
    previous = signal.signal(signal.SIGALRM, _raise_hang)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        result = function(*args, **kwargs)
        if inspect.iscoroutine(result):  # an async function: run it, or nothing was checked
            return asyncio.run(result)
        return result
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True, scope="module")
def _in_a_scratch_folder() -> Any:
    """Run where a relative path a call writes (a save, a folder) lands in a scratch folder."""
    before = Path.cwd()
    os.chdir(WORK)
    yield
    os.chdir(before)


def _is_a_check_verdict(name: str, error: AssertionError) -> bool:
    """A self-check of ``course.grading.checks`` fails the way a test does, with an
    AssertionError (what Jupyter and the exercises show), whose message starts with the
    check's name; any other AssertionError is an escape like the rest."""
    check = name.removeprefix("course.grading.checks.")
    return check != name and str(error).startswith(f"{check}: ")


def _check(name: str, call: Callable[[], Any], owner: Any = None) -> None:
    before = state_of(owner) if owner is not None else None
    try:
        call()
    except ReversiError:
        if owner is not None and state_of(owner) != before:
            pytest.fail(f"{name} was refused but changed its object", pytrace=False)
    except Hang:
        pytest.fail(f"{name} did not return within {CALL_SECONDS} s")
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt | SystemExit):
            raise
        if isinstance(error, AssertionError) and _is_a_check_verdict(name, error):
            return
        where = traceback.extract_tb(error.__traceback__)[-1]
        pytest.fail(f"{name} let out {type(error).__name__}: {str(error)[:300]} "
                    f"(at {where.filename}:{where.lineno})", pytrace=False)


@pytest.mark.parametrize("name, target", TARGETS, ids=[name for name, _ in TARGETS])
@settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_is_taken_or_refused_with_the_kits_own_error(name: str, target: Any,
                                                                data: st.DataObject) -> None:
    if isinstance(target, tuple):  # a method: on an object built from the kit's own values
        cls, attribute = target
        owner = _instance(data, cls)
        if owner is None:
            return
        if isinstance(inspect.getattr_static(owner, attribute), property):
            _check(name, lambda: _call(getattr, [owner, attribute], {}), owner)
            return
        method = getattr(owner, attribute)
        args, kwargs = _arguments(data, method)
        if attribute in SERVING and "host" in inspect.signature(method).parameters:
            kwargs["host"] = data.draw(UNBINDABLE, label="host")  # never a server that listens
        _check(name, lambda: _call(method, args, kwargs), owner)
    else:
        args, kwargs = _arguments(data, target)
        if name.rsplit(".", 1)[-1] in NETWORK:
            kwargs["url"] = data.draw(HOSTILE, label="url")  # never an address that answers
        if name.rsplit(".", 1)[-1] in SERVING and "host" in inspect.signature(target).parameters:
            kwargs["host"] = data.draw(UNBINDABLE, label="host")  # never a server that listens
        _check(name, lambda: _call(target, args, kwargs))


def test_the_surface_is_what_students_call() -> None:
    """The decorated names include the lessons' and exercises' own (a check that the list is
    not empty, and that the decorator reached both packages)."""
    names = {name for name, _ in TARGETS}
    assert any(name.startswith("reversi.") and "Board" in name for name in names), sorted(names)
    assert any(name.startswith("course.") for name in names), sorted(names)
