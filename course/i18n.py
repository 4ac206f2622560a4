"""The kit's messages in the reader's language, through gettext catalogues.

Standard library only, and importable without Jupyter: ``kit.py`` loads this file before
the kit's environment exists.  A message is written in English in the code and wrapped in
:func:`gettext` (``_``); the catalogue ``locale/<code>/LC_MESSAGES/kit.mo`` beside this file
gives its translation, and a message it lacks stays English.  A template keeps its named
placeholders so that a translation may move them::

    _("{name} handed in").format(name=name)

The language is :func:`language`: ``KIT_LANG`` from the environment (``kit.py --lang fr``
sets it for every command it runs, the French site's kernel too), else English.  Inside
``with speaking("fr"):`` it is French whatever the environment says: the grader writes a
French student's feedback so.  A third language is a new catalogue (see "Translating the
kit" in docs/developer-guide.md) and a line in :data:`LANGUAGES`.

>>> with speaking("fr"):
...     _("not written yet: the function raises NotImplementedError")
'pas encore écrite : la fonction lève NotImplementedError'
>>> with speaking("en"):
...     _("not written yet: the function raises NotImplementedError")
'not written yet: the function raises NotImplementedError'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

#: The environment variable that chooses the language.
ENVIRONMENT = "KIT_LANG"
#: Where the catalogues are: ``LOCALE/<code>/LC_MESSAGES/kit.po`` and its compiled ``kit.mo``.
LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "kit"
#: The notebook metadata that says a notebook's language: ``metadata["course"]["language"]``
#: (a notebook without it is English).
NOTEBOOK_KEY = "course"

_SPEAKING: contextvars.ContextVar[str | None] = contextvars.ContextVar("speaking", default=None)


def checked_language(text: str) -> str:
    """The language code ``text`` names (``fr``, ``FR``, ``fr_FR`` and ``fr-FR`` are French),
    or ValueError naming it and listing the languages.

    >>> checked_language("fr-FR")
    'fr'
    >>> checked_language("de")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'de': the kit speaks en (English), fr (français)
    """
    code = _code(text)
    if code is not None:
        return code
    choices = ", ".join(f"{known} ({name})" for known, name in LANGUAGES.items())
    raise ValueError(gettext("unknown language {text!r}: the kit speaks {choices}").format(
        text=text, choices=choices))  # fmt: skip


def _code(text: str) -> str | None:
    """The known language code ``text`` names, or None."""
    code = str(text).strip().replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language messages are in now: the innermost :func:`speaking`, else ``KIT_LANG``
    (a code :func:`checked_language` takes), else ``'en'``.

    An unknown ``KIT_LANG`` is English here (a message must not fail); ``python -m course``
    and ``kit.py`` refuse it with the list of languages.
    """
    chosen = _SPEAKING.get()
    if chosen is not None:
        return chosen
    value = (os.environ if environ is None else environ).get(ENVIRONMENT, "")
    return _code(value) or "en"


@contextlib.contextmanager
def speaking(code: str) -> Iterator[str]:
    """Messages in language ``code`` inside the block (checked first), whatever ``KIT_LANG`` is,
    the ``reversi`` package's too (:func:`reversi.i18n.speaking`)."""
    # The game's own words (its log, outcomes and errors) follow: reversi keeps its own
    # choice, since it never imports the kit; imported here, as kit.py loads this file alone.
    from reversi.i18n import speaking as game_speaking

    token = _SPEAKING.set(checked_language(code))
    try:
        with game_speaking(_SPEAKING.get() or "en"):
            yield _SPEAKING.get() or "en"
    finally:
        _SPEAKING.reset(token)


@functools.cache
def catalogue(code: str, locale: Path = LOCALE) -> _gettext.NullTranslations:
    """The compiled catalogue of language ``code`` (an empty one for English, or if missing)."""
    path = locale / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if code == "en" or not path.is_file():
        return _gettext.NullTranslations()
    with path.open("rb") as file:
        return _gettext.GNUTranslations(file)


def _languages(locale: Path = LOCALE) -> dict[str, str]:
    """English, and every language with a compiled catalogue, each named in its own words
    (its translation of the message ``English``)."""
    found = {"en": "English"}
    for path in sorted(locale.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")):
        code = path.parents[1].name
        # TRANSLATORS: the name of your language in your language (français, Deutsch, ...)
        found[code] = catalogue(code).gettext("English")
    return found


#: The languages the kit speaks, by code, each in its own words: English and one per catalogue
#: (``{"en": "English", "fr": "français"}``).
LANGUAGES = _languages()


def gettext(message: str) -> str:
    """``message`` in the language of :func:`language` (English where no translation is)."""
    return catalogue(language()).gettext(message) or message


_ = gettext


def N_(message: str) -> str:
    """``message`` itself: marks a message kept in a table for Babel, translated where it is
    shown with :func:`gettext` (``_(MISTAKE)``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language of :func:`language`.

    >>> ngettext("{n} case", "{n} cases", 2).format(n=2)  # no catalogue has it: English
    '2 cases'
    """
    return catalogue(language()).ngettext(singular, plural, n) or (singular if n == 1 else plural)


def notebook_language(notebook: object) -> str:
    """The language a notebook says it is in (``metadata.course.language``), else ``'en'``;
    an unknown code is English too (the notebook came from outside: it is not trusted).

    >>> notebook_language({"metadata": {"course": {"exercise": "01_squares", "language": "fr"}}})
    'fr'
    >>> notebook_language({"metadata": {"course": {"language": "xx"}}}), notebook_language([])
    ('en', 'en')
    """
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    course = metadata.get(NOTEBOOK_KEY) if isinstance(metadata, dict) else None
    code = course.get("language") if isinstance(course, dict) else None
    return (_code(code) if isinstance(code, str) and len(code) <= 20 else None) or "en"
