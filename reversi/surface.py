"""The student surface: the functions lessons and exercises call, checked from their annotations.

:func:`student` wraps a function (or a method, or a class's ``__init__``) so that a call from
outside the kit checks every argument against the function's own annotations and refuses a
wrong one with :class:`ArgumentError`, naming the function, the parameter and the reason::

    legal_moves(): color must be BLACK or WHITE, not 'purple'

Calls from the kit's own modules (``reversi.*``) are trusted and pay only a frame lookup:
inside, the types are the check (``mypy --strict``). :data:`SURFACE` lists every decorated
callable, so a test can fuzz exactly what students reach. A package with errors of its own
(the cursor-map game) decorates with :func:`student_raising` instead, so that its refusals of
a wrong argument are also its own kind of error.

:class:`Choice` is the enum base of the kit: a member may be given by its name or value as
text in any case (``"black"``, ``"BLACK"``), and anything else is refused with the choices.
"""

from __future__ import annotations

import enum
import functools
import inspect
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from reversi.errors import ArgumentError, shown
from reversi.i18n import _
from reversi.typecheck import (
    ANYTHING,
    MAX_ITEMS,
    Refused,
    Rule,
    article,
    compile_annotation,
    spaced,
)
from reversi.typecheck import Between as Between  # the markers, for Annotated[...] on the surface
from reversi.typecheck import Length as Length
from reversi.typecheck import Satisfies as Satisfies

F = TypeVar("F", bound=Callable[..., Any])

#: Every callable wrapped by :func:`student`, in the order they were decorated.
SURFACE: list[Callable[..., Any]] = []


class ChoiceType(enum.EnumMeta):
    """Looks a member up by value, then by :meth:`Choice._missing_`, never by ``repr``: the
    standard lookup builds a message with ``repr(value)`` first, which a 100,000-deep list breaks."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API, Choice("Name", "A B")
            return super().__call__(value, *args, **kwargs)
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):  # not a value, or not even hashable
            return cls._missing_(value)  # type: ignore[attr-defined]


class Choice(enum.Enum, metaclass=ChoiceType):
    """An enum whose members may also be named as text: their name or value, in any case.

    >>> class Tone(Choice):
    ...     NORMAL = "normal"
    ...     ERROR = "error"
    >>> Tone("Error"), Tone("NORMAL")
    (<Tone.ERROR: 'error'>, <Tone.NORMAL: 'normal'>)
    >>> Tone("loud")
    Traceback (most recent call last):
    reversi.errors.ArgumentError: a tone is one of 'normal', 'error', not 'loud'
    """

    @classmethod
    def _missing_(cls, value: object) -> Any:
        if isinstance(value, str):
            fold = str if cls.case_sensitive() else str.casefold
            text = fold(value.strip())
            for member in cls:
                if text in (fold(member.name), fold(str(member.value))):
                    return member
        raise cls.refusal(value)

    @classmethod
    def case_sensitive(cls) -> bool:
        """Whether text must name a member in its own case (an exercise may ask for ``"AND"`` exactly)."""
        return False

    @classmethod
    def refusal(cls, value: object) -> Exception:
        """The error for a value that names no member (a subclass may give a more precise kind)."""
        name = spaced(cls.__name__)
        return ArgumentError(_("{kind} is one of {choices}, not {value}").format(
            kind=article(name), name=name, choices=cls.choices(), value=shown(value)))  # fmt: skip

    @classmethod
    def choices(cls) -> str:
        """The members as text names them: their values (``'normal', 'error'``), or their
        names in lower case when the values are not text."""
        if all(isinstance(member.value, str) for member in cls):
            return ", ".join(repr(member.value) for member in cls)
        return ", ".join(repr(member.name.lower()) for member in cls)


@dataclass(frozen=True)
class Signature:
    """A function's parameters read once: a rule for each, by position and by name."""

    title: str
    positional: tuple[tuple[str, Rule], ...]
    named: dict[str, Rule]
    rest: Rule | None  # the rule for each of ``*args``, None if there is no ``*args``
    extra: Rule | None  # the rule for each of ``**kwargs``, None if there is no ``**kwargs``
    required: frozenset[str]


def read_signature(function: Callable[..., Any], overrides: dict[str, object] | None = None) -> Signature:
    """``function``'s parameters and their annotations (or ``overrides``, by parameter name),
    compiled (:class:`TypeError` for one it cannot read)."""
    hints = typing.get_type_hints(function, include_extras=True)
    hints.update((name, hint) for name, hint in (overrides or {}).items() if name in hints)
    rules = {name: compile_annotation(hint) for name, hint in hints.items() if name != "return"}
    kinds: dict[Any, list[tuple[str, Rule]]] = {}
    P = inspect.Parameter
    parameters = inspect.signature(function).parameters.values()
    for p in parameters:
        kinds.setdefault(p.kind, []).append((p.name, rules.get(p.name, ANYTHING)))
    return Signature(
        title=f"{function.__qualname__.removesuffix('.__init__')}()",
        positional=tuple(kinds.get(P.POSITIONAL_ONLY, []) + kinds.get(P.POSITIONAL_OR_KEYWORD, [])),
        named=dict(kinds.get(P.POSITIONAL_OR_KEYWORD, []) + kinds.get(P.KEYWORD_ONLY, [])),
        rest=next((rule for _, rule in kinds.get(P.VAR_POSITIONAL, [])), None),
        extra=next((rule for _, rule in kinds.get(P.VAR_KEYWORD, [])), None),
        required=frozenset(p.name for p in parameters if p.default is P.empty and p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)),
    )


def checked_arguments(
    signature: Signature, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` and ``kwargs`` checked against ``signature`` (enum members read from text)."""
    budget, title, given = [MAX_ITEMS], signature.title, set(kwargs)
    out_args = list(args)
    name: str | int  # a parameter's name, or the index of one of *args
    for index, value in enumerate(args):
        if index < len(signature.positional):
            name, rule = signature.positional[index]
            if name in kwargs:
                raise ArgumentError(_("{title}: {name} was given twice").format(title=title, name=name))
            given.add(name)
        elif signature.rest is not None:
            name, rule = index, signature.rest
        else:
            raise ArgumentError(_("{title}: takes at most {most} arguments, not {count}").format(
                title=title, most=len(signature.positional), count=len(args)))  # fmt: skip
        out_args[index] = one(title, name, rule, value, budget)
    out_kwargs = dict(kwargs)
    for name, value in kwargs.items():
        found = signature.named.get(name, signature.extra)
        if found is None:
            raise ArgumentError(_("{title}: has no parameter named {name}").format(title=title, name=shown(name)))
        out_kwargs[name] = one(title, name, found, value, budget)
    missing = sorted(signature.required - given)
    if missing:
        raise ArgumentError(_("{title}: {names} must be given").format(title=title, names=", ".join(missing)))
    return tuple(out_args), out_kwargs


def one(title: str, name: str | int, rule: Rule, value: object, budget: list[int]) -> Any:
    """``value`` checked by ``rule`` for the parameter ``name`` (or the ``*args`` at index
    ``name``); the refusal is put into words only when it is made."""
    try:
        return rule.check(value, budget)
    except Refused as refused:
        said = _("argument {number}").format(number=name + 1) if isinstance(name, int) else name
        raise ArgumentError(_("{title}: {name}{where} must be {wanted}, not {value}").format(
            title=title, name=said, where=refused.where, wanted=refused.wanted(), value=shown(refused.value))) from None  # fmt: skip


def trusted(module: str) -> bool:
    """Whether a call made from ``module`` comes from inside the kit (and is not checked)."""
    return module == "reversi" or module.startswith("reversi.")


def student(function: F, **overrides: object) -> F:
    """``function`` with its arguments checked on calls from outside the kit.

    On a class, its ``__init__`` is checked and the class returned. ``overrides`` give a
    stricter annotation for some parameters (``depth=Annotated[int, Between(0, 6)]``)
    where the function's own should stay plain for its readers.
    """
    return checked(function, ArgumentError, overrides)


def student_raising(refusal: type[ArgumentError], **overrides: object) -> Callable[[F], F]:
    """:func:`student` for a package with errors of its own: a wrong argument raises ``refusal``,
    a subclass of :class:`ArgumentError` and of the package's error, so code that catches the
    package's errors catches a wrong argument as well (the message is the same)."""
    return lambda function: checked(function, refusal, overrides)


def checked(function: F, refusal: type[ArgumentError], overrides: dict[str, object]) -> F:
    """``function`` (or a class's ``__init__``) checked as :func:`student` does, refusing with ``refusal``."""
    if isinstance(function, type):
        cls = function
        cls.__init__ = checked(cls.__init__, refusal, overrides)  # type: ignore[misc]
        return function
    known: dict[str, bool] = {}
    signature: list[Signature] = []
    getframe = sys._getframe

    @functools.wraps(function)
    def check_then_call(*args: Any, **kwargs: Any) -> Any:
        module = getframe(1).f_globals.get("__name__", "")
        inside = known.get(module)
        if inside is None:
            inside = known[module] = trusted(module) if isinstance(module, str) else False
        if inside:
            return function(*args, **kwargs)
        if not signature:
            signature.append(read_signature(function, overrides))
        try:
            args, kwargs = checked_arguments(signature[0], args, kwargs)
        except ArgumentError as refused:  # the package's own kind, with the same message
            raise refusal(*refused.args) from None
        return function(*args, **kwargs)

    check_then_call.surface_overrides = overrides  # type: ignore[attr-defined]
    SURFACE.append(check_then_call)
    return check_then_call  # type: ignore[return-value]


def signature_of(function: Callable[..., Any]) -> Signature:
    """The signature :func:`student` reads for ``function`` (a function on :data:`SURFACE`)."""
    return read_signature(inspect.unwrap(function), getattr(function, "surface_overrides", None))


def student_module(name: str, functions: list[Callable[..., Any]], **overrides: object) -> None:
    """Put ``functions`` of the module ``name`` on the surface without touching the module's code.

    Reached from outside (``rules.play``, ``from reversi.rules import play``) each is the
    checked version; the module's own calls to each other (thousands in a perft) read its
    globals and stay plain, so they cost nothing. ``overrides`` as for :func:`student`.
    """
    module = sys.modules[name]
    checked = {function.__name__: student(function, **overrides) for function in functions}

    class StudentModule(types.ModuleType):
        def __getattribute__(self, attribute: str) -> Any:
            found = checked.get(attribute)
            return found if found is not None else super().__getattribute__(attribute)

    module.__class__ = StudentModule
