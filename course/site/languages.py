"""The browser classroom in another language: its notebooks, and JupyterLite's menus.

``python3 kit.py site build --lang fr`` builds the site from the French lessons and released
exercises (``notebooks/fr/``, ``exercises/fr/``; an English notebook where a translation is
missing), sets ``KIT_LANG`` in the Pyodide kernel, and shows JupyterLite's own menus in
French through JupyterLab's language pack (JupyterLite takes language packs as JupyterLab
does: installed in the build environment with ``jupyterlab_server``, chosen by the
``overrides.json`` of the site's settings).  Which pack a language takes is written once, in
``course/locale/CODE/jupyter/labconfig/default_setting_overrides.json``, which
``python3 kit.py lab`` uses too: a third language needs that file, not code.
"""

from __future__ import annotations

import json
from pathlib import Path

from course.grading.notebook import BEGIN_SOLUTION
from course.i18n import LOCALE
from course.site import SiteError

#: Where a language's JupyterLab interface is set: its language pack's locale (``fr_FR``).
INTERFACE = "jupyter/labconfig/default_setting_overrides.json"
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"


def interface_locale(code: str, locale: Path = LOCALE) -> str | None:
    """The JupyterLab locale (``fr_FR``) of language ``code``, None for English or if the kit
    sets none (``course/locale/CODE/jupyter/``: the language pack ``lab --lang`` uses)."""
    path = locale / code / INTERFACE
    if code == "en" or not path.is_file():
        return None
    setting = json.loads(path.read_text(encoding="utf-8")).get(TRANSLATION_PLUGIN, {})
    chosen = setting.get("locale") if isinstance(setting, dict) else None
    return chosen if isinstance(chosen, str) else None


def language_packs(locale: Path = LOCALE) -> tuple[str, ...]:
    """The language pack of every language the kit sets one for
    (``jupyterlab-language-pack-fr-FR``): the build environment installs them all."""
    codes = sorted(path.name for path in locale.iterdir() if path.is_dir())
    found = [interface_locale(code, locale) for code in codes]
    packs = [f"jupyterlab-language-pack-{name.replace('_', '-')}" for name in found if name]
    return tuple(packs)


def translated_notebooks(english: list[Path], language: str) -> list[Path]:
    """``english`` in ``language``: each notebook's translation (``FOLDER/CODE/NAME``) where
    the kit has one, else the English notebook; a translation holding a solution is refused."""
    if language == "en":
        return english
    chosen = []
    for path in english:
        translated = path.parent / language / path.name
        if translated.is_file() and BEGIN_SOLUTION in translated.read_text(encoding="utf-8"):
            raise SiteError(f"{translated} contains a solution ({BEGIN_SOLUTION!r}): the site takes released copies only")
        chosen.append(translated if translated.is_file() else path)
    return chosen
