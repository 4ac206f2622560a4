"""``python -m course``: the teacher's command line.

python -m course check NOTEBOOK [--timeout S] [--seed N]
    grade one notebook with the teacher's grader; prints each question and "Score: n/m",
    exits 0 only when every question passed
python -m course grade SUBMISSIONS [--out grades.csv] [--feedback DIR] [--jobs N] [--timeout S]
    grade a folder of notebooks (one folder per student, or STUDENT__NAME.ipynb files):
    a CSV sheet, one HTML feedback page per student, a summary line per exercise
python -m course release [NAME ...] [--check]
    run the teacher sources and write the student copies into exercises/;
    with --check, only say whether the committed copies are up to date
python -m course serve [--host H] [--port P] [--data DIR] [--grace S] [--move-time S]
    run the class server for network play until Ctrl-C (see course.classroom)
python -m course site build [--out DIR] [--pyodide-packages FOLDER]
    make the browser classroom: a static JupyterLite site of the lessons, the released
    exercises and the kit (see course.site)

Each subcommand is a pair of functions in :data:`COMMANDS` (its arguments, and what it
does), so a new one is one more entry.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from course.grading import checker
from course.grading.notebook import NotebookError


def _grading_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=float, default=checker.DEFAULT_TIMEOUT,
        help="wall-clock seconds per answer cell and per question",
    )  # fmt: skip
    parser.add_argument("--source", type=Path, default=checker.SOURCE_DIR, help="teacher sources")
    parser.add_argument(
        "--seed", type=int, default=None,
        help="seed of the grade-time cases (default: the one kept in the teacher folder)",
    )  # fmt: skip


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--exercise", help="the exercise name (default: from the notebook)")
    _grading_options(parser)


def _check(args: argparse.Namespace) -> int:
    report = checker.check(args.notebook, args.exercise, args.source, args.timeout, args.seed)
    print(report.render())
    return 0 if report.passed == report.total else 1


def _grade_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path)
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument(
        "--feedback", type=Path, default=None,
        help="folder for the feedback pages (default: OUT's name + '-feedback')",
    )  # fmt: skip
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks graded at once"
    )
    _grading_options(parser)


def _grade(args: argparse.Namespace) -> int:
    from course.grading.gradebook import grade_folder, progress_bar

    if not args.folder.is_dir():
        raise NotebookError(f"{args.folder} is not a folder")
    feedback = args.feedback or args.out.with_name(args.out.stem + "-feedback")
    graded = grade_folder(
        args.folder, args.out, args.source, args.timeout, max(1, args.jobs), args.seed,
        feedback, progress_bar(sys.stderr),
    )  # fmt: skip
    for warning in graded.warnings:
        print(f"warning: {warning}")
    for row in graded.rows:
        missing = f" (missing: {row['missing']})" if row["missing"] else ""
        print(f"{row['student']}: {row['passed']}/{row['total']}{missing}")
        if row["similar"]:
            print(f"  similar: {row['similar']}")
    for line in graded.summary:
        print(line)
    print(f"Wrote {args.out} ({len(graded.rows)} students) and the feedback pages in {feedback}")
    return 0


def _release_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", help="exercises to release (default: all)")
    parser.add_argument("--source", type=Path, default=checker.SOURCE_DIR)
    parser.add_argument(
        "--out", type=Path, default=None, help="default: the folder above the sources"
    )
    parser.add_argument(
        "--check", action="store_true", help="only report whether they are up to date"
    )


def _release(args: argparse.Namespace) -> int:
    from course.grading import teacher

    out = args.out or args.source.parent
    if args.check:
        problems = teacher.outdated(args.source, out, args.names)
        for problem in problems:
            print(problem)
        print(
            "The student copies are up to date."
            if not problems
            else "Run: python -m course release"
        )
        return 1 if problems else 0
    for path in teacher.release(args.source, out, args.names):
        print(f"wrote {path}")
    return 0


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    from course.arguments import output_folder

    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to accept other machines")
    serve.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    serve.add_argument("--data", type=Path, default=Path("classroom-data"), help="database folder")
    serve.add_argument("--grace", type=float, default=60.0, help="seconds a seat is held")
    serve.add_argument("--move-time", type=float, default=None, help="seconds per move")
    serve.add_argument("--export", type=Path, default=None, metavar="FOLDER",
                       help="write the finished games as save files and exit")  # fmt: skip
    serve.add_argument("--site", type=output_folder, default=None, metavar="FOLDER",
                       help="the browser classroom to serve (default: build/site; built if missing)")  # fmt: skip
    serve.add_argument("--no-site", action="store_true", help="serve the rooms only")


def _serve(args: argparse.Namespace) -> int:
    from course.classroom.cli import serve

    routes: list[Any] = []
    if args.export is None and not args.no_site:
        from course.site import SiteError
        from course.site.build import OUT
        from course.site.serving import prepare

        try:
            routes = prepare(args.site or OUT, args.data, lambda line: print(line, flush=True))
        except SiteError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    return serve(
        args.host,
        args.port,
        args.data,
        args.grace,
        args.move_time,
        args.export,
        extra_routes=routes,
    )


def _site_arguments(parser: argparse.ArgumentParser) -> None:
    from course.site import cli

    cli.add_arguments(parser)


def _site(args: argparse.Namespace) -> int:
    from course.site import cli

    return cli.run(args)


Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

#: name: (help, add its arguments, run it)
COMMANDS: dict[str, Command] = {
    "check": ("grade one notebook with the teacher's grader", _check_arguments, _check),
    "grade": ("grade a folder of submissions: CSV, feedback pages", _grade_arguments, _grade),
    "release": ("make the student copies from the teacher sources", _release_arguments, _release),
    "serve": ("run the class server for network play", _serve_arguments, _serve),
    "site": ("build the browser classroom (a JupyterLite site)", _site_arguments, _site),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, arguments, _) in COMMANDS.items():
        arguments(commands.add_parser(name, help=help_text))
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command][2](args)
    except NotebookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
