"""``python -m course translations``: the kit's message catalogues, kept with Babel.

    python -m course translations extract       the messages of the code into every catalogue
    python -m course translations add CODE      a catalogue for a new language (e.g. de)
    python -m course translations compile       each kit.po into the kit.mo the kit reads
    python -m course translations check         every message translated, every kit.mo fresh

The code's messages are the ones wrapped in ``_()``, ``gettext``, ``ngettext`` or ``N_``.
There are two domains, each with its catalogues and its ``babel.cfg`` saying where Babel
looks: ``kit``, the messages of ``kit.py`` and ``course/``
(``course/locale/<code>/LC_MESSAGES/kit.po``, read by :mod:`course.i18n`), and ``reversi``,
the game's own log, outcomes and errors (``reversi/locale/<code>/LC_MESSAGES/reversi.po``,
shipped in the package and read by :mod:`reversi.i18n`, since the game never imports the
kit).  Every action does both; a PO file opens in any PO editor (Poedit, Lokalize, a text
editor) and its compiled ``.mo`` is beside it.  A message with no translation, an empty one or one marked fuzzy (a message changed
since it was translated) is English in the kit and is reported by ``check``.  Babel is in
the test extra, and JupyterLab brings it too.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from course.i18n import DOMAIN, LOCALE
from reversi import i18n as game_i18n

ROOT = LOCALE.parents[1]
CONFIG = LOCALE / "babel.cfg"
PROJECT = "reversi-kit"


@dataclass(frozen=True)
class Domain:
    """One gettext domain: its name (the PO file's stem), its ``locale`` folder and the
    ``babel.cfg`` that says which files hold its messages."""

    name: str
    locale: Path
    config: Path


#: The kit's messages (``kit.py`` and ``course/``).
KIT = Domain(DOMAIN, LOCALE, CONFIG)
#: The game's own words (the ``reversi`` package), in catalogues shipped with the package.
GAME = Domain(game_i18n.DOMAIN, game_i18n.LOCALE, game_i18n.LOCALE / "babel.cfg")
DOMAINS = (KIT, GAME)


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


def po_path(code: str, locale: Path | None = None, domain: Domain = KIT) -> Path:
    """Where language ``code``'s catalogue of ``domain`` is (its ``.mo`` is beside it)."""
    return (locale or domain.locale) / code / "LC_MESSAGES" / f"{domain.name}.po"


def languages(locale: Path | None = None, domain: Domain = KIT) -> list[str]:
    """The languages that have a catalogue of ``domain``, by code."""
    found = (locale or domain.locale).glob(f"*/LC_MESSAGES/{domain.name}.po")
    return sorted(path.parents[1].name for path in found)


def extract(root: Path = ROOT, config: Path | None = None, domain: Domain = KIT) -> Any:
    """The messages of the code, as a Babel catalogue (the template of every language)."""
    catalog, extract_module, frontend, _, _ = _babel()
    config = config or domain.config
    with config.open(encoding="utf-8") as file:
        method_map, options_map = frontend.parse_mapping_cfg(file, str(config))
    template = catalog.Catalog(project=PROJECT, domain=domain.name, fuzzy=False)
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
            return pofile.read_po(file, domain=path.stem)
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


def update(template: Any, code: str, locale: Path | None = None, domain: Domain = KIT) -> Path:
    """Bring language ``code``'s catalogue up to the template (new messages empty, changed ones
    fuzzy with their old translation, gone ones dropped); a new catalogue if it has none."""
    path = po_path(code, locale, domain)
    translated = read(path) if path.is_file() else _new(code, domain)
    translated.update(template, update_header_comment=False)
    write(path, translated)
    return path


def _new(code: str, domain: Domain) -> Any:
    catalog = _babel()[0]
    try:
        return catalog.Catalog(locale=code, domain=domain.name, project=PROJECT, fuzzy=False)
    except Exception as error:  # babel.UnknownLocaleError: a code no language has
        raise TranslationError(f"{code!r} is not a language code Babel knows ({error})") from None


def compile_all(locale: Path | None = None, domain: Domain = KIT) -> list[tuple[Path, int]]:
    """Compile every catalogue of ``domain``; each ``.mo`` written, with how many messages it
    still lacks."""
    template = extract(domain=domain)
    written = []
    for code in languages(locale, domain):
        translated = read(po_path(code, locale, domain))
        mo = po_path(code, locale, domain).with_suffix(".mo")
        mo.write_bytes(compiled(translated))
        written.append((mo, len(missing(template, translated))))
    return written


def problems(locale: Path | None = None, template: Any = None, domain: Domain = KIT) -> list[str]:
    """What ``check`` reports for ``domain``: for every language, each message it lacks, and a
    ``.mo`` that is missing or older than its ``.po``; [] when every catalogue is whole and
    compiled."""
    template = extract(domain=domain) if template is None else template
    found = []
    for code in languages(locale, domain):
        path = po_path(code, locale, domain)
        translated = read(path)
        found += [f"{path}: no translation of {message!r}" for message in missing(template, translated)]
        mo = path.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != compiled(translated):
            found.append(f"{mo}: not compiled from {path.name} (run: python3 kit.py translations compile)")
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``translations`` command's actions."""
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("extract", help="the code's messages into every language's kit.po and reversi.po")
    add = actions.add_parser("add", help="a kit.po and a reversi.po for a new language")
    add.add_argument("code", help="the language's code, e.g. de or es")
    actions.add_parser("compile", help="every kit.po and reversi.po into its .mo")
    actions.add_parser("check", help="every message translated and compiled (exit 1 if not)")


def run(args: argparse.Namespace) -> int:
    """Do the action; exit status 1 when ``check`` finds a problem or Babel is missing."""
    try:
        return _run(args)
    except TranslationError as error:
        print(f"error: {error}")
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.action == "add" and (not args.code.isascii() or not args.code.replace("_", "").isalpha()):
        raise TranslationError(f"{args.code!r} is not a language code such as de or pt_BR")
    if args.action in ("extract", "add"):
        for domain in DOMAINS:
            template = extract(domain=domain)
            # a new language gets both catalogues; extract updates each domain's languages
            codes: Iterable[str] = [args.code] if args.action == "add" else languages(domain=domain)
            for code in codes:
                path = update(template, code, domain=domain)
                print(f"wrote {path.relative_to(ROOT)}: {len(missing(template, read(path)))} "
                      f"of {len(template) } messages to translate")  # fmt: skip
        return 0
    if args.action == "compile":
        for path, holes in [written for domain in DOMAINS for written in compile_all(domain=domain)]:
            lacking = f" ({holes} messages still in English)" if holes else ""
            print(f"wrote {path.relative_to(ROOT)}{lacking}")
        return 0
    found = [problem for domain in DOMAINS for problem in problems(domain=domain)]
    for problem in found:
        print(problem)
    print(f"{len(found)} problems" if found else "Every message is translated and compiled.")
    return 1 if found else 0
