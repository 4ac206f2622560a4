"""``python -m course site build``: the command line of the browser classroom's site."""

from __future__ import annotations

import argparse
import os
import sys

from course import arguments
from course.site import SiteError
from reversi.errors import ArgumentError, shown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``site build [--out DIR] [--pyodide-packages FOLDER]`` (in the language of ``KIT_LANG``:
    ``python3 kit.py site build --lang fr``)."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise ArgumentError(
            f"the site flags are added to an argparse.ArgumentParser, not {shown(parser)}"
        )
    if parser._subparsers is not None:  # argparse would print an error and exit
        raise ArgumentError("this parser already has sub-commands: the site flags need a parser of their own")
    try:
        _add_arguments(parser)
    except argparse.ArgumentError as clash:
        raise ArgumentError(f"cannot add the site flags to this parser: {clash}") from None


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="site_command", required=True)
    build = actions.add_parser("build", help="make the static JupyterLite site of the kit")
    build.add_argument(
        "--out", type=arguments.output_folder, default=None,
        help="where the site goes (default: build/site in the checkout); an old site there is replaced",
    )  # fmt: skip
    build.add_argument(
        "--pyodide-packages", type=arguments.existing_folder, default=None, metavar="FOLDER",
        help="a folder of Pyodide's own wheels (numpy, Pillow); without it the site has stand-ins",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Build the site; prints where it is and its size."""
    if not isinstance(args, argparse.Namespace):
        raise ArgumentError(f"run takes the parsed flags (an argparse.Namespace), not {shown(args)}")
    for name in ("out", "pyodide_packages"):
        value = getattr(args, name, None)
        if value is not None and not isinstance(value, str | os.PathLike):
            raise ArgumentError(f"--{name.replace('_', '-')} is a folder, not {shown(value)}")
    from course.i18n import language
    from course.site.build import OUT, SiteBuild

    try:
        SiteBuild(
            out=args.out or OUT, pyodide_packages=args.pyodide_packages, language=language()
        ).run()
    except SiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
