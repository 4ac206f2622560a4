"""``python -m course.languages``: the lessons' and exercises' catalogues and translations.

    python -m course.languages update [--lang CODE] [STEM ...]   catalogues afresh from the English
    python -m course.languages build [--lang CODE] [STEM ...]    notebooks/CODE/ and exercises/CODE/
    python -m course.languages check                             every cell translated, in every language

``update`` keeps every translation (a cell whose English changed keeps its translation,
marked fuzzy); ``build`` writes the translated lessons, and the translated released exercises
from the released ones (``release`` writes them too); ``check`` lists each markdown cell of a lesson or an exercise that has no usable
translation in some language and exits with 1 if there is one.  ``--lang`` defaults to every
language the kit has.  After ``build``, store the lessons' outputs in their language:
``KIT_LANG=fr .venv/bin/python scripts/store_outputs.py notebooks/fr/*.ipynb``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from course.i18n import checked_language
from course.languages.build import build_exercises, build_lessons, problems, update_catalogues
from course.languages.catalogues import CatalogueError, languages


def _language(text: str) -> str:
    try:
        return checked_language(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parser() -> argparse.ArgumentParser:
    """The command line's flags."""
    line = argparse.ArgumentParser(
        prog="python -m course.languages", description=__doc__.splitlines()[0]
    )
    actions = line.add_subparsers(dest="action", required=True)
    for name, summary in (("update", "write the catalogues afresh from the English notebooks"),
                          ("build", "write the translated lessons and exercises (notebooks/CODE/, exercises/CODE/)")):  # fmt: skip
        action = actions.add_parser(name, help=summary)
        action.add_argument("--lang", type=_language, default=None, help="a language code, e.g. fr")
        action.add_argument(
            "stems", nargs="*", help="notebooks by name, e.g. 00_welcome (default: all)"
        )
    actions.add_parser("check", help="list the cells not translated in some language")
    return line


def main(argv: Sequence[str] | None = None) -> int:
    """Run one action; 1 if ``check`` finds a cell not translated or a catalogue is unreadable."""
    args = parser().parse_args(argv)
    try:
        if args.action == "check":
            found = problems(languages())
            print("\n".join(found) if found else "Every cell is translated in every language.")
            return 1 if found else 0
        codes = [args.lang] if args.lang else languages()
        for code in codes:
            if args.action == "update":
                written = update_catalogues(code, args.stems)
            else:
                written = build_lessons(code, args.stems) + build_exercises(code, args.stems)
            for path in written:
                print(path)
    except CatalogueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
