"""``python -m course translations``: the kit's message catalogues, kept with Babel.

    python -m course translations extract       the messages of the code into every catalogue
    python -m course translations add CODE      a catalogue for a new language (e.g. de)
    python -m course translations compile       each kit.po into the kit.mo the kit reads
    python -m course translations check         every message translated, every kit.mo fresh

The code's messages are the ones wrapped in ``_()``, ``gettext``, ``ngettext`` or ``N_``
in ``kit.py`` and ``course/`` (``course/locale/babel.cfg`` says where Babel looks).  Each
language has ``course/locale/<code>/LC_MESSAGES/kit.po``, which any PO editor opens
(Poedit, Lokalize, a text editor), and its compiled ``kit.mo``, which :mod:`course.i18n`
reads.  A message with no translation, an empty one or one marked fuzzy (a message changed
since it was translated) is English in the kit and is reported by ``check``.  Babel is in
the test extra, and JupyterLab brings it too.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from course.i18n import DOMAIN, LOCALE

ROOT = LOCALE.parents[1]
CONFIG = LOCALE / "babel.cfg"
PROJECT = "reversi-kit"


class TranslationError(Exception):
    """A catalogue that cannot be read or written, or Babel missing, with the reason."""


def _babel() -> Any:
    try:
        import babel.messages  # noqa: F401  (the package: its modules are imported below)
    except ImportError:
        raise TranslationError(
            "Babel is not installed: run python3 kit.py test --version once (the test extra has it)"
        ) from None
    from babel.messages import catalog, extract, frontend, mofile, pofile

    return catalog, extract, frontend, mofile, pofile


def po_path(code: str, locale: Path = LOCALE) -> Path:
    """Where language ``code``'s catalogue is (its ``kit.mo`` is beside it)."""
    return locale / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(locale: Path = LOCALE) -> list[str]:
    """The languages that have a catalogue, by code."""
    return sorted(path.parents[1].name for path in locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract(root: Path = ROOT, config: Path = CONFIG) -> Any:
    """The messages of the code, as a Babel catalogue (the template of every language)."""
    catalog, extract_module, frontend, _, _ = _babel()
    with config.open(encoding="utf-8") as file:
        method_map, options_map = frontend.parse_mapping_cfg(file, str(config))
    template = catalog.Catalog(project=PROJECT, domain=DOMAIN, fuzzy=False)
    found = extract_module.extract_from_dir(
        str(root), method_map, options_map, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def read(path: Path) -> Any:
    """The catalogue in the PO file ``path``; TranslationError naming it if it is not one."""
    pofile = _babel()[4]
    try:
        with path.open("rb") as file:
            return pofile.read_po(file, domain=DOMAIN)
    except OSError as error:
        raise TranslationError(f"{path}: cannot read it ({error.strerror or error})") from None
    except Exception as error:  # Babel's parser refuses a broken file with its own errors
        raise TranslationError(f"{path}: not a PO file Babel can read ({error})") from None


def write(path: Path, translated: Any) -> None:
    """Write a catalogue as a PO file: sorted, with the files (not the lines) of each message."""
    pofile = _babel()[4]
    buffer = io.BytesIO()
    pofile.write_po(buffer, translated, sort_output=True, ignore_obsolete=True, include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def compiled(translated: Any) -> bytes:
    """The ``.mo`` bytes of a catalogue (what :mod:`course.i18n` reads): no fuzzy message."""
    buffer = io.BytesIO()
    _babel()[3].write_mo(buffer, translated, use_fuzzy=False)
    return buffer.getvalue()


def _ids(message: Any) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def missing(template: Any, translated: Any) -> list[str]:
    """The template's messages that ``translated`` lacks, leaves empty or marks fuzzy.

    A plural message needs every one of its forms.
    """
    holes = []
    for message in template:
        if not message.id:
            continue  # the header
        found = translated.get(message.id, context=message.context)
        forms = () if found is None else found.string
        forms = (forms,) if isinstance(forms, str) else tuple(forms)
        if found is None or found.fuzzy or not forms or not all(forms):
            holes.append(_ids(message))
    return holes


def update(template: Any, code: str, locale: Path = LOCALE) -> Path:
    """Bring language ``code``'s catalogue up to the template (new messages empty, changed ones
    fuzzy with their old translation, gone ones dropped); a new catalogue if it has none."""
    path = po_path(code, locale)
    translated = read(path) if path.is_file() else _new(code)
    translated.update(template, update_header_comment=False)
    write(path, translated)
    return path


def _new(code: str) -> Any:
    catalog = _babel()[0]
    try:
        return catalog.Catalog(locale=code, domain=DOMAIN, project=PROJECT, fuzzy=False)
    except Exception as error:  # babel.UnknownLocaleError: a code no language has
        raise TranslationError(f"{code!r} is not a language code Babel knows ({error})") from None


def compile_all(locale: Path = LOCALE) -> list[tuple[Path, int]]:
    """Compile every catalogue; each ``.mo`` written, with how many messages it still lacks."""
    template = extract()
    written = []
    for code in languages(locale):
        translated = read(po_path(code, locale))
        mo = po_path(code, locale).with_suffix(".mo")
        mo.write_bytes(compiled(translated))
        written.append((mo, len(missing(template, translated))))
    return written


def problems(locale: Path = LOCALE, template: Any = None) -> list[str]:
    """What ``check`` reports: for every language, each message it lacks, and a ``.mo`` that is
    missing or older than its ``.po``; [] when every catalogue is whole and compiled."""
    template = extract() if template is None else template
    found = []
    for code in languages(locale):
        path = po_path(code, locale)
        translated = read(path)
        found += [f"{path}: no translation of {message!r}" for message in missing(template, translated)]
        mo = path.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != compiled(translated):
            found.append(f"{mo}: not compiled from {path.name} (run: python3 kit.py translations compile)")
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``translations`` command's actions."""
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("extract", help="the code's messages into every language's kit.po")
    add = actions.add_parser("add", help="a kit.po for a new language")
    add.add_argument("code", help="the language's code, e.g. de or es")
    actions.add_parser("compile", help="every kit.po into its kit.mo")
    actions.add_parser("check", help="every message translated and compiled (exit 1 if not)")


def run(args: argparse.Namespace) -> int:
    """Do the action; exit status 1 when ``check`` finds a problem or Babel is missing."""
    try:
        return _run(args)
    except TranslationError as error:
        print(f"error: {error}")
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.action in ("extract", "add"):
        template = extract()
        codes: Iterable[str] = languages()
        if args.action == "add":
            if not args.code.isascii() or not args.code.replace("_", "").isalpha():
                raise TranslationError(f"{args.code!r} is not a language code such as de or pt_BR")
            codes = [args.code]
        for code in codes:
            path = update(template, code)
            print(f"wrote {path.relative_to(ROOT)}: {len(missing(template, read(path)))} "
                  f"of {len(template) } messages to translate")  # fmt: skip
        return 0
    if args.action == "compile":
        for path, holes in compile_all():
            lacking = f" ({holes} messages still in English)" if holes else ""
            print(f"wrote {path.relative_to(ROOT)}{lacking}")
        return 0
    found = problems()
    for problem in found:
        print(problem)
    print(f"{len(found)} problems" if found else "Every message is translated and compiled.")
    return 1 if found else 0
