"""Command-line values checked where argparse reads them, so no tool starts work on a bad flag.

They live in ``reversi`` (which imports nothing from ``course``) so that ``python -m
reversi`` can use them too; :mod:`course.arguments` offers the same names to the
teacher's tools.  Each function here is an argparse ``type=``: it turns the text of one flag into a value
or raises :class:`FlagError` with the reason (an :class:`argparse.ArgumentTypeError` and the
kit's :class:`~reversi.errors.ArgumentError` at once).  argparse then prints
``argument --port: must be a whole number from 0 to 65535, not '70000'`` and exits
with status 2, naming the flag, before the command does anything.  Every tool of the
kit (``python -m course ...``, ``python -m reversi``) reads its numbers and paths
through these, so the same flag means the same thing everywhere.

>>> port("8765")
8765
>>> seconds(maximum=3600)("1.5")
1.5
>>> seconds()("nan")
Traceback (most recent call last):
reversi.arguments.FlagError: must be a finite number of seconds above 0, not 'nan'
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
from collections.abc import Callable
from pathlib import Path

from reversi.errors import ArgumentError, shown


class FlagError(ArgumentError, argparse.ArgumentTypeError):
    """A flag's value refused: argparse prints it after the flag's name, and a call from
    code gets the kit's own error."""


#: Longest flag value read at all (a 20-digit port or a 5000-character name is refused early).
MAX_TEXT = 4096


def _text(value: str) -> str:
    if not isinstance(value, str):
        raise FlagError(f"a flag's value is text, not {shown(value)}")
    if len(value) > MAX_TEXT:
        raise FlagError(f"is {len(value)} characters long (at most {MAX_TEXT})")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise FlagError(f"must not contain control characters: {value[:40]!r}")
    return value


def whole(minimum: int, maximum: int, what: str = "a whole number") -> Callable[[str], int]:
    """A type for whole numbers from ``minimum`` to ``maximum``."""

    def read(value: str) -> int:
        text = _text(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > len(
            str(max(abs(minimum), abs(maximum)))
        ):
            raise FlagError(
                f"must be {what} from {minimum} to {maximum}, not {value[:40]!r}"
            )
        number = int(text)
        if not minimum <= number <= maximum:
            raise FlagError(
                f"must be {what} from {minimum} to {maximum}, not {value[:40]!r}"
            )
        return number

    read.__name__ = "whole number"
    return read


#: A TCP port; 0 lets the system pick a free one.
port = whole(0, 65535)


def seconds(minimum: float = 0.0, maximum: float = 86400.0) -> Callable[[str], float]:
    """A type for a time in seconds, finite, above ``minimum`` and at most ``maximum``."""

    def read(value: str) -> float:
        text = _text(value).strip()
        try:
            number = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and minimum < number <= maximum):
            raise FlagError(
                f"must be a finite number of seconds above {minimum:g}"
                + (f" and at most {maximum:g}" if maximum < 86400.0 else "")
                + f", not {value[:40]!r}"
            )
        return number

    read.__name__ = "seconds"
    return read


def host(value: str) -> str:
    """A host name or address to listen on (never empty: an empty host means every address)."""
    text = _text(value).strip()
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]%_")
    if not text or len(text) > 253 or not set(text) <= allowed:
        raise FlagError(
            f"must be a host name or address such as 127.0.0.1 or 0.0.0.0, not {value[:40]!r}"
        )
    return text


def _path_type(read: Callable[[str], Path]) -> Callable[[str], Path]:
    """``read``, with any error of the file system (a name too long, a folder that cannot
    be searched) refused as a bad value naming the path, never a traceback."""

    def checked(value: str) -> Path:
        try:
            path = read(value)
            path.resolve()  # a symbolic link loop is refused here, before the tool writes anything
            return path
        except (OSError, ValueError, RuntimeError) as error:  # RuntimeError: a loop, before Python 3.13
            if isinstance(error, argparse.ArgumentTypeError):
                raise
            reason = getattr(error, "strerror", None) or str(error)
            raise FlagError(f"{value[:80]!r} cannot be used: {reason}") from None

    checked.__name__ = read.__name__
    checked.__doc__ = read.__doc__
    return checked


def board_size(value: str) -> int:
    """A board size: an even whole number from 4 to 16.

    >>> board_size("6")
    6
    >>> board_size("7")
    Traceback (most recent call last):
    reversi.arguments.FlagError: must be an even whole number from 4 to 16, not '7'
    """
    size = whole(4, 16, "an even whole number")(value)
    if size % 2:
        raise FlagError(
            f"must be an even whole number from 4 to 16, not {value!r}"
        )
    return size


@_path_type
def existing_folder(value: str) -> Path:
    """A folder that must already exist and be readable."""
    path = Path(_text(value))
    if not path.is_dir():
        raise FlagError(f"{value!r} is not a folder")
    if not os.access(path, os.R_OK | os.X_OK):
        raise FlagError(f"{value!r} cannot be read")
    return path


@_path_type
def existing_file(value: str) -> Path:
    """A regular file that must already exist and be readable (never a FIFO or a device)."""
    path = Path(_text(value))
    if not path.is_file():
        raise FlagError(f"{value!r} is not a file")
    if not os.access(path, os.R_OK):
        raise FlagError(f"{value!r} cannot be read")
    return path


#: Folders of the system, never a place for the kit's files.
_SYSTEM = ("/proc", "/sys", "/dev")


def _nearest_existing(path: Path) -> Path:
    probe = path.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe


def _check_place(value: str, folder: Path) -> None:
    """Refuse to write into ``folder`` when it is part of the system, missing or read-only.

    The system folders come first, so that everyone gets the same answer for them (root
    may write in /proc, where a normal user may not).
    """
    if any(str(folder) == top or str(folder).startswith(top + "/") for top in _SYSTEM):
        raise FlagError(
            f"{value!r} is inside {str(folder)!r}, not a place for files"
        )
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise FlagError(
            f"{value!r} cannot be written ({str(folder)!r} is not a writable folder)"
        )


@_path_type
def output_file(value: str) -> Path:
    """A file the tool will write: a new name, or a regular file it may replace."""
    path = Path(_text(value))
    if path.exists() and not path.is_file():
        raise FlagError(f"{value!r} exists and is not a regular file")
    parent = path.absolute().parent
    if not parent.is_dir():
        raise FlagError(f"{value!r}: its folder {str(parent)!r} does not exist")
    _check_place(value, parent)
    if path.exists() and not os.access(path, os.W_OK):
        raise FlagError(f"{value!r} cannot be written")
    return path


@_path_type
def output_folder(value: str) -> Path:
    """A folder the tool will write into: an existing folder, or one it may create."""
    path = Path(_text(value))
    if path.exists() and not path.is_dir():
        raise FlagError(f"{value!r} exists and is not a folder")
    _check_place(value, _nearest_existing(path))
    return path


def moment(value: str) -> datetime.datetime:
    """A date and time in ISO 8601, in UTC unless it names its offset (a deadline).

    >>> moment("2026-11-30T17:00")
    datetime.datetime(2026, 11, 30, 17, 0, tzinfo=datetime.timezone.utc)
    >>> moment("2026-11-30 18:00+01:00").isoformat()
    '2026-11-30T17:00:00+00:00'
    """
    text = _text(value).strip()
    try:
        when = datetime.datetime.fromisoformat(text) if len(text) <= 40 else None
    except ValueError:
        when = None
    if when is None:
        raise FlagError(
            f"must be a date and time such as 2026-11-30T17:00 (UTC) or "
            f"2026-11-30T18:00+01:00, not {value[:40]!r}"
        )
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.astimezone(datetime.timezone.utc)


def deadline(value: str) -> tuple[str, datetime.datetime]:
    """A deadline for every exercise (``WHEN``) or for one (``EXERCISE=WHEN``); ``''`` means every.

    >>> deadline("04_flips=2026-11-30T17:00")[0]
    '04_flips'
    >>> deadline("2026-11-30T17:00")[0]
    ''
    """
    text = _text(value).strip()
    name, _, when = text.rpartition("=")
    if name and not (name.isascii() and all(c.isalnum() or c in "_-" for c in name)):
        raise FlagError(f"{name[:40]!r} is not an exercise name")
    return name, moment(when)


def names(allowed: tuple[str, ...] | list[str]) -> Callable[[str], list[str]]:
    """A type for a comma-separated list of names, each one of ``allowed`` (no repeats).

    >>> names(["easy", "hard"])("easy, hard")
    ['easy', 'hard']
    >>> names(["easy", "hard"])("easy,expert")
    Traceback (most recent call last):
    reversi.arguments.FlagError: 'expert' is not one of easy, hard
    """

    def read(value: str) -> list[str]:
        chosen = [part.strip().lower() for part in _text(value).split(",") if part.strip()]
        for name in chosen:
            if name not in allowed:
                raise FlagError(
                    f"{name[:40]!r} is not one of {', '.join(allowed)}"
                )
        if len(set(chosen)) != len(chosen):
            raise FlagError(f"names a choice twice: {value[:80]!r}")
        return chosen

    read.__name__ = "list of names"
    return read
