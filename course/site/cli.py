"""``python -m course site build``: the command line of the browser classroom's site."""

from __future__ import annotations

import argparse
import sys

from course import arguments
from course.site import SiteError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``site build [--out DIR] [--pyodide-packages FOLDER]``."""
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
    from course.site.build import OUT, SiteBuild

    try:
        SiteBuild(out=args.out or OUT, pyodide_packages=args.pyodide_packages).run()
    except SiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
