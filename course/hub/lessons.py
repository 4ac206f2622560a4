"""Each hub user's own copy of the lessons and exercises, in their home folder.

``python -m course.hub.lessons [--to FOLDER]`` copies the lessons and the student copies
of the exercises that came with the installed kit (the packages ``course.lessons`` and
``course.exercises``; in a checkout, ``notebooks/`` and ``exercises/``) into
``FOLDER/lessons`` and ``FOLDER/exercises`` (default ``~/reversi``).  It never overwrites
a notebook the student changed: a file is replaced only while it is still exactly the copy
this command wrote (its hash is kept in ``FOLDER/.reversi-copies.json``), so a newer kit
brings new and updated lessons and leaves edited ones alone.

In another language (``KIT_LANG=fr`` in the hub's or the single-user server's environment,
:func:`course.i18n.language`) each notebook is its translation where the kit has one
(``notebooks/fr/``, ``exercises/fr/``; the English notebook where it has none), under the
same name: the notebooks are chosen as ``site build --lang fr`` chooses them.

A hub starts it before each user's server (``course.hub.singleuser``), so a student
finds the lessons on first login.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from course.i18n import gettext as _
from course.i18n import language
from course.site.languages import translated_notebooks

#: What each student gets: (the folder in their copy, the kit's package holding it).
PARTS = (("lessons", "course.lessons", "notebooks"), ("exercises", "course.exercises", "exercises"))
RECORD = ".reversi-copies.json"


def bundled(package: str, checkout_folder: str) -> Path:
    """The installed kit's folder of notebooks (a wheel's package data, or a checkout's folder)."""
    import importlib

    try:
        module = importlib.import_module(package)
        return Path(next(iter(module.__path__)))
    except ModuleNotFoundError:  # an editable install of a checkout
        import course

        return Path(course.__file__).resolve().parent.parent / checkout_folder


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copy_lessons(target: Path, chosen: str | None = None) -> list[str]:
    """Copy what is new or still untouched into ``target``; lines saying what happened.

    The notebooks are in language ``chosen`` (default: :func:`course.i18n.language`).
    """
    spoken = chosen or language()
    record_path = target / RECORD
    try:
        record: dict[str, str] = json.loads(record_path.read_text(encoding="utf-8"))
        if not isinstance(record, dict):
            record = {}
    except (OSError, ValueError):
        record = {}
    said = []
    for folder, package, checkout in PARTS:
        english = sorted(bundled(package, checkout).glob("*.ipynb"))
        for source in translated_notebooks(english, spoken):
            name = f"{folder}/{source.name}"
            copy = target / name
            data = source.read_bytes()
            if copy.exists():
                if _digest(copy) == hashlib.sha256(data).hexdigest():
                    continue
                if record.get(name) != _digest(copy):
                    said.append(_("kept {name} (you changed it)").format(name=name))
                    continue
            existed = copy.exists()
            copy.parent.mkdir(parents=True, exist_ok=True)
            temporary = copy.with_name(f".{copy.name}.part")
            temporary.write_bytes(data)
            os.replace(temporary, copy)
            record[name] = hashlib.sha256(data).hexdigest()
            said.append((_("updated {name}") if existed else _("copied {name}")).format(name=name))
    target.mkdir(parents=True, exist_ok=True)
    record_path.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    return said


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course.hub.lessons", description=__doc__.splitlines()[0])
    parser.add_argument("--to", type=Path, default=Path.home() / "reversi", help="default: ~/reversi")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        lines = copy_lessons(args.to)
    except OSError as error:
        print(_("error: cannot copy the lessons into {folder}: {reason}").format(
            folder=args.to, reason=error.strerror or error), file=sys.stderr)  # fmt: skip
        return 1
    if not args.quiet:
        for line in lines:
            print(line)
        print(_("The lessons are in {folder}.").format(folder=args.to))
    return 0


if __name__ == "__main__":
    sys.exit(main())
