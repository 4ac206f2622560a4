"""The game's own words in the reader's language: its log, its outcomes and its errors.

Standard library only (``reversi`` never imports the kit): gettext with a domain of its own,
``reversi``, whose catalogues ship in the package, ``locale/<code>/LC_MESSAGES/reversi.mo``
beside this file.  A message is English in the code, wrapped in :func:`gettext` (``_``) with
named placeholders so that a translation may move them, and stays English where a catalogue
lacks it::

    _("{color} has no legal move and must pass").format(color=colour(color))

The language is chosen as the kit chooses its own (:mod:`course.i18n`): the innermost
``with speaking("fr"):``, else ``KIT_LANG`` from the environment, else English.  This module
keeps its own :func:`speaking` so that the game needs nothing of the kit; the kit's
``course.i18n.speaking`` enters this one too, so a French feedback page shows the game's
errors in French as well.  A message is put into words when it is made: a game's log keeps
the language each line was written in.

>>> with speaking("fr"):
...     _("{color} has no legal move and must pass").format(color=colour("black"))
'Noir n’a aucun coup légal et doit passer son tour'
>>> with speaking("en"):
...     _("{color} has no legal move and must pass").format(color=colour("black"))
'Black has no legal move and must pass'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

#: The environment variable that chooses the language (the kit's, shared).
ENVIRONMENT = "KIT_LANG"
#: Where the catalogues are: ``LOCALE/<code>/LC_MESSAGES/reversi.po`` and its ``reversi.mo``.
LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "reversi"

_SPEAKING: contextvars.ContextVar[str | None] = contextvars.ContextVar("reversi_speaking", default=None)


def code(text: str) -> str:
    """The language code ``text`` names: ``fr`` for ``fr``, ``FR``, ``fr_FR`` or ``fr-FR``.

    A code with no catalogue is English when a message is looked up (a message must not fail).

    >>> code("fr-FR"), code(" EN ")
    ('fr', 'en')
    """
    return str(text).strip().replace("-", "_").split("_")[0].lower()


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language the game speaks now: the innermost :func:`speaking`, else ``KIT_LANG``,
    else ``'en'``."""
    chosen = _SPEAKING.get()
    if chosen is not None:
        return chosen
    return code((os.environ if environ is None else environ).get(ENVIRONMENT, "")) or "en"


@contextlib.contextmanager
def speaking(language_code: str) -> Iterator[str]:
    """The game's messages in language ``language_code`` inside the block, whatever
    ``KIT_LANG`` says (a language without a catalogue is English)."""
    token = _SPEAKING.set(code(language_code) or "en")
    try:
        yield _SPEAKING.get() or "en"
    finally:
        _SPEAKING.reset(token)


@functools.cache
def catalogue(language_code: str, locale: Path = LOCALE) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language_code`` (an empty one for English, or if missing)."""
    path = locale / language_code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if language_code == "en" or not path.is_file():
        return _gettext.NullTranslations()
    with path.open("rb") as file:
        return _gettext.GNUTranslations(file)


def gettext(message: str) -> str:
    """``message`` in the language of :func:`language` (English where no translation is)."""
    return catalogue(language()).gettext(message) or message


_ = gettext


def N_(message: str) -> str:
    """``message`` itself: marks a message kept in a table, translated where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language of :func:`language`."""
    return catalogue(language()).ngettext(singular, plural, n) or (singular if n == 1 else plural)


_COLOURS = {"black": N_("Black"), "white": N_("White")}


def colour(color: object) -> str:
    """A colour's name in the reader's language: ``'Black'``, ``'Noir'``.  ``color`` is a
    :class:`reversi.notation.Color` or its value (``'black'``); anything else is itself."""
    value = str(getattr(color, "value", color))
    return gettext(_COLOURS[value]) if value in _COLOURS else str(color)
