"""Annotations compiled into checks: the engine under :func:`reversi.surface.student`.

:func:`compile_annotation` reads an annotation once (``int``, ``Color | None``,
``list[list[Disc]]``, ``Annotated[int, Between(1, 10)]``...) into a :class:`Rule`: a check
that passes a value on, or raises :class:`Refused` saying where in it, what was wanted and
what came. A check never recurses deeper than its annotation, walks only lists, tuples,
sets and dicts, and spends a budget of :data:`MAX_ITEMS` items per call.

What a rule wants is kept as :data:`Words`, put into the reader's words only when a value is
refused: a check that passes costs no translation, and a refusal is a whole sentence in the
language of that moment (:mod:`reversi.i18n`).
"""

from __future__ import annotations

import collections.abc as abc
import enum
import functools
import math
import os
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from reversi.errors import shown
from reversi.i18n import N_, _

#: The most items one call's arguments may hold in lists, tuples, sets and dicts together.
MAX_ITEMS = 100_000


@dataclass(frozen=True)
class Between:
    """``Annotated[int, Between(1, 10)]``: a number from ``low`` to ``high`` (inclusive)."""

    low: float
    high: float


@dataclass(frozen=True)
class Length:
    """``Annotated[str, Length(1, 80)]``: a text (or container) of ``low`` to ``high`` items."""

    low: int
    high: int


@dataclass(frozen=True)
class Satisfies:
    """``Annotated[T, Satisfies(test, N_("words"))]``: a ``T`` for which ``test`` is true, named by
    ``words`` (translated when a value is refused; or a function giving them, for words with a number)."""

    test: Callable[[Any], object]
    words: str | Callable[[], str]


Words = Callable[[], str]
"""What a rule wants, said when a value is refused: ``'a whole number'``, ``'un nombre entier'``."""


def words(message: str, **parts: object) -> Words:
    """``message`` translated and filled in with ``parts`` (words of other rules are said too),
    when a refusal needs it."""

    def say() -> str:
        return _(message).format(**{name: part() if callable(part) else part for name, part in parts.items()})

    return say


def said(text: str | Words) -> Words:
    """The words of an annotation's own mark: a text translated when said, or a function."""
    return text if callable(text) else words(text)


class Refused(Exception):
    """One argument, or a part of it, that does not fit: where in it, what was wanted, what came."""

    def __init__(self, where: str, wanted: Words, value: object) -> None:
        super().__init__(where, wanted)
        self.where, self.wanted, self.value = where, wanted, value


def spaced(name: str) -> str:
    """``'NoMovePolicy'`` as words: ``'no move policy'``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()


def article(noun: str) -> str:
    """``noun`` with ``a`` or ``an`` before it, in the reader's language (``'un objet Board'``)."""
    return (_("an {noun}") if noun[:1].lower() in "aeiou" else _("a {noun}")).format(noun=noun)


def alternatives(options: list[str]) -> str:
    """``'A, B or C'`` in the reader's language."""
    if len(options) == 1:
        return options[0]
    return _("{first} or {second}").format(first=", ".join(options[:-1]), second=options[-1])


Check = Callable[[Any, list[int]], Any]
"""A compiled annotation: takes a value and the call's item budget, returns the value to pass on
(the same one, or an enum member read from its text) or raises :class:`Refused`."""


@dataclass(frozen=True)
class Rule:
    """An annotation read once: its check and how a message names what it wants."""

    check: Check
    wanted: Words


ANYTHING = Rule(lambda value, budget: value, words(N_("anything")))


def compile_annotation(annotation: object) -> Rule:
    """The :class:`Rule` for ``annotation``; :class:`TypeError` for one this module cannot read."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is Any or annotation is object:
        return ANYTHING
    if annotation is None or annotation is type(None):
        return exact(lambda value: value is None, lambda: "None")
    if origin is Annotated:
        return annotated(compile_annotation(args[0]), args[1:])
    if origin is Literal:
        return literal(args)
    if origin in (typing.Union, types.UnionType):
        return union([compile_annotation(arg) for arg in args])
    if isinstance(annotation, TypeVar):
        return compile_annotation(annotation.__bound__ or Any)
    if isinstance(annotation, typing.NewType):
        return compile_annotation(annotation.__supertype__)
    if origin is not None:
        return generic(origin, args)
    if isinstance(annotation, type):
        return plain(annotation)
    raise TypeError(f"the student surface cannot read the annotation {annotation!r}")


def exact(test: Callable[[Any], object], wanted: Words) -> Rule:
    """A rule that passes a value on unchanged when ``test(value)`` is true."""

    def check(value: Any, budget: list[int]) -> Any:
        if test(value):
            return value
        raise Refused("", wanted, value)

    return Rule(check, wanted)


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return is_whole(value)


#: Classes checked by a test of their own, with the words a message uses for them.
SIMPLE: dict[Any, Rule] = {
    bool: exact(lambda v: v is True or v is False, words(N_("True or False"))),
    int: exact(is_whole, words(N_("a whole number"))),
    float: exact(is_number, words(N_("a number"))),
    str: exact(lambda v: isinstance(v, str), words(N_("a text"))),
    abc.Callable: exact(callable, words(N_("a function"))),
    os.PathLike: exact(lambda v: isinstance(v, os.PathLike), words(N_("a path"))),
}


def plain(cls: type) -> Rule:
    """A class with no parameters: a number, a text, an enum, a protocol, any other class."""
    if cls in SIMPLE:
        return SIMPLE[cls]
    if issubclass(cls, enum.Enum):
        return choice(cls)
    if getattr(cls, "_is_protocol", False) and not getattr(cls, "_is_runtime_protocol", False):
        return protocol(cls)
    if cls in CONTAINERS:
        return generic(cls, ())
    return exact(lambda v: isinstance(v, cls), lambda: article(cls.__name__))


def choice(cls: type[enum.Enum]) -> Rule:
    """An enum: a member, or (for a :class:`Choice`) its name or value as text."""
    names = [member.name for member in cls]

    def wanted() -> str:
        return alternatives(names)

    def check(value: Any, budget: list[int]) -> Any:
        if isinstance(value, cls):
            return value
        if hasattr(cls, "refusal") and isinstance(value, str):  # a reversi.surface.Choice
            try:
                return cls(value)
            except ValueError:  # the enum's own refusal (an ArgumentError, a NotationError...)
                pass
        raise Refused("", wanted, value)

    return Rule(check, wanted)


def protocol(cls: type) -> Rule:
    """A structural type: anything with the protocol's attributes."""
    names = {
        name
        for klass in cls.__mro__
        if getattr(klass, "_is_protocol", False) and klass is not typing.Protocol
        for name in [*vars(klass), *getattr(klass, "__annotations__", {})]
        if not name.startswith("_") or name in ("__getitem__", "__len__", "__iter__")
    }
    return exact(lambda v: all(hasattr(v, name) for name in names), lambda: article(spaced(cls.__name__)))


def literal(options: tuple[Any, ...]) -> Rule:
    """``Literal[...]``: one of the options, of the same type (``True`` is not ``1``)."""
    listed = ", ".join(repr(option) for option in options)
    pairs = {(type(option), option) for option in options}

    def test(value: Any) -> bool:
        try:
            return (type(value), value) in pairs
        except TypeError:  # an unhashable value is no literal
            return False

    return exact(test, (lambda: listed) if len(options) == 1 else words(N_("one of {options}"), options=listed))


def union(rules: list[Rule]) -> Rule:
    """``X | Y``: the first that fits; a part that did not fit is named if the shape was right."""
    def wanted() -> str:
        return functools.reduce(lambda first, second: _("{first} or {second}").format(first=first, second=second),
                                [rule.wanted() for rule in rules])  # fmt: skip

    def check(value: Any, budget: list[int]) -> Any:
        deepest: Refused | None = None
        for rule in rules:
            try:
                return rule.check(value, budget)
            except Refused as refused:
                deepest = deepest or (refused if refused.where else None)
        raise deepest or Refused("", wanted, value)

    return Rule(check, wanted)


def annotated(inner: Rule, marks: tuple[Any, ...]) -> Rule:
    """``Annotated[T, ...]``: ``T``, then each :class:`Between` or :class:`Length`; a text mark
    is the words a message uses for it."""
    wanted = inner.wanted
    limits: list[Between | Length | Satisfies] = []
    for mark in marks:
        if isinstance(mark, (Between, Length)):
            sentence = (
                N_("{wanted} from {low} to {high}") if isinstance(mark, Between)
                else N_("{wanted} of {low} to {high} characters") if inner is SIMPLE[str]
                else N_("{wanted} of {low} to {high} items")
            )  # fmt: skip
            wanted = words(sentence, wanted=wanted, low=mark.low, high=mark.high)
            limits.append(mark)
        elif isinstance(mark, Satisfies):
            wanted = said(mark.words)
            limits.append(mark)
        elif isinstance(mark, str):
            wanted = said(mark)
        else:
            raise TypeError(f"the student surface cannot read the annotation mark {mark!r}")

    def check(value: Any, budget: list[int]) -> Any:
        try:
            value = inner.check(value, budget)
        except Refused as refused:
            raise refused if refused.where else Refused("", wanted, value) from None
        if all(fits(limit, value) for limit in limits):
            return value
        raise Refused("", wanted, value)

    return Rule(check, wanted)


def fits(limit: Between | Length | Satisfies, value: Any) -> bool:
    """Whether ``value`` (already of the right type) is within ``limit``."""
    if isinstance(limit, Between):
        return bool(limit.low <= value <= limit.high)
    if isinstance(limit, Length):
        return limit.low <= len(value) <= limit.high
    try:
        return bool(limit.test(value))
    except Exception:  # a value the test cannot even look at does not satisfy it
        return False


#: The containers walked item by item (others are checked only for their kind).
WALKED = (list, tuple, set, frozenset, dict)

CONTAINERS: dict[Any, str] = {
    list: N_("a list"),
    tuple: N_("a tuple"),
    set: N_("a set"),
    frozenset: N_("a frozen set"),
    dict: N_("a dict"),
    abc.Sequence: N_("a list or tuple"),
    abc.MutableSequence: N_("a list"),
    abc.Iterable: N_("a list, tuple or other iterable"),
    abc.Collection: N_("a list, tuple or other collection"),
    abc.Iterator: N_("an iterator"),
    abc.Set: N_("a set"),
    abc.Mapping: N_("a dict"),
    abc.MutableMapping: N_("a dict"),
}


def generic(origin: Any, args: tuple[Any, ...]) -> Rule:
    """``list[X]``, ``tuple[X, ...]``, ``tuple[X, Y]``, ``Sequence[X]``, ``dict[K, V]``, ``type[X]``..."""
    if origin in SIMPLE:  # Callable[..., X], os.PathLike[str]
        return SIMPLE[origin]
    if origin is type:
        bound = args[0] if args and isinstance(args[0], type) else object
        return exact(lambda v: isinstance(v, type) and issubclass(v, bound), words(N_("a subclass of {name}"), name=bound.__name__))
    if origin not in CONTAINERS:
        raise TypeError(f"the student surface cannot read the annotation {origin!r}[{args!r}]")
    if origin is tuple and args and args[-1] is not Ellipsis:
        pair = words(N_("a pair")) if len(args) == 2 else words(N_("a tuple of {count} items"), count=len(args))
        return Rule(fixed_tuple([compile_annotation(arg) for arg in args], pair), pair)
    kind = words(CONTAINERS[origin])
    if origin in (dict, abc.Mapping, abc.MutableMapping):
        keys, values = (compile_annotation(arg) for arg in (args or (Any, Any)))
        return Rule(mapping(origin, kind, keys, values), kind)
    # a text is a sequence of texts, but never the list of numbers or squares it might look like
    textual = origin in (abc.Sequence, abc.Iterable, abc.Collection) and args not in ((str,), ())
    item = compile_annotation(args[0] if args else Any)
    return Rule(collection(origin, kind, item, textual), kind)


def spend(budget: list[int], count: int, value: object) -> None:
    budget[0] -= count
    if budget[0] < 0:
        raise Refused("", words(N_("no more than {limit:,} items in all"), limit=MAX_ITEMS), value)


def collection(kind: Any, wanted: Words, item: Rule, textual: bool) -> Check:
    walk = item is not ANYTHING

    def check(value: Any, budget: list[int]) -> Any:
        if not isinstance(value, kind) or (textual and isinstance(value, (str, bytes))):
            raise Refused("", wanted, value)
        if walk and isinstance(value, WALKED):
            spend(budget, len(value), value)
            for index, part in enumerate(value):
                within(item, part, budget, f"[{index}]")
        return value

    return check


def within(rule: Rule, part: object, budget: list[int], where: str) -> None:
    """Check a part of a container, which is passed on as it is (so an enum must be a member)."""
    try:
        if rule.check(part, budget) is part:
            return
    except Refused as refused:
        raise Refused(where + refused.where, refused.wanted, refused.value) from None
    raise Refused(where, rule.wanted, part)


def fixed_tuple(items: list[Rule], wanted: Words) -> Check:
    def check(value: Any, budget: list[int]) -> Any:
        if not isinstance(value, tuple) or len(value) != len(items):
            raise Refused("", wanted, value)
        for index, (rule, part) in enumerate(zip(items, value, strict=True)):
            within(rule, part, budget, f"[{index}]")
        return value

    return check


def mapping(kind: Any, wanted: Words, keys: Rule, values: Rule) -> Check:
    def check(value: Any, budget: list[int]) -> Any:
        if not isinstance(value, kind):
            raise Refused("", wanted, value)
        if isinstance(value, dict):
            spend(budget, len(value), value)
            for key, part in value.items():
                try:
                    within(keys, key, budget, "")
                except Refused as refused:  # where is said only now: " key 'x'", " clé 'x'"
                    where = " " + _("key {key}").format(key=shown(key))
                    raise Refused(where + refused.where, refused.wanted, refused.value) from None
                within(values, part, budget, f"[{shown(key)}]")
        return value

    return check
