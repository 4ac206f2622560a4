"""``python -m course``: the teacher's command line for exercises.

python -m course check NOTEBOOK [--timeout S]
    grade one notebook with the teacher's checks; prints each check and "Score: n/m",
    exits 0 only when every check passed
python -m course grade SUBMISSIONS --out grades.csv [--jobs N] [--timeout S]
    grade a folder of notebooks (one folder per student, or STUDENT__NAME.ipynb files)
python -m course release [NAME ...] [--check]
    run the teacher sources and write the student copies into exercises/;
    with --check, only say whether the committed copies are up to date
python -m course serve [--host H] [--port P] [--data DIR] [--grace S] [--move-time S]
    run the class server for network play until Ctrl-C (see course.classroom)
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from course.grading import checker
from course.grading.notebook import NotebookError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="grade one notebook with the teacher's checks")
    check.add_argument("notebook", type=Path)
    check.add_argument("--exercise", help="the exercise name (default: from the notebook)")

    grade = commands.add_parser("grade", help="grade a folder of submissions into a CSV sheet")
    grade.add_argument("folder", type=Path)
    grade.add_argument("--out", type=Path, default=Path("grades.csv"))
    grade.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="pytest processes at once"
    )

    for sub in (check, grade):
        sub.add_argument(
            "--timeout", type=float, default=checker.DEFAULT_TIMEOUT, help="seconds per cell"
        )
        sub.add_argument("--source", type=Path, default=checker.SOURCE_DIR, help="teacher sources")

    release = commands.add_parser(
        "release", help="make the student copies from the teacher sources"
    )
    release.add_argument("names", nargs="*", help="exercises to release (default: all)")
    release.add_argument("--source", type=Path, default=checker.SOURCE_DIR)
    release.add_argument(
        "--out", type=Path, default=None, help="default: the folder above the sources"
    )
    release.add_argument(
        "--check", action="store_true", help="only report whether they are up to date"
    )

    _add_serve(commands)
    args = parser.parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    try:
        if args.command == "check":
            report = checker.check(args.notebook, args.exercise, args.source, args.timeout)
            print(report.render())
            return 0 if report.passed == report.total else 1
        if args.command == "grade":
            return _grade(args)
        return _release(args)
    except NotebookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _grade(args: argparse.Namespace) -> int:
    from course.grading.gradebook import grade_folder

    if not args.folder.is_dir():
        raise NotebookError(f"{args.folder} is not a folder")
    rows, warnings = grade_folder(
        args.folder, args.out, args.source, args.timeout, max(1, args.jobs)
    )
    for warning in warnings:
        print(f"warning: {warning}")
    for row in rows:
        missing = f" (missing: {row['missing']})" if row["missing"] else ""
        print(f"{row['student']}: {row['passed']}/{row['total']}{missing}")
    print(f"Wrote {args.out}: {len(rows)} students")
    return 0


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


def _add_serve(commands: Any) -> None:
    serve = commands.add_parser("serve", help="run the class server for network play")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to accept other machines")
    serve.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    serve.add_argument("--data", type=Path, default=Path("classroom-data"), help="database folder")
    serve.add_argument("--grace", type=float, default=60.0, help="seconds a seat is held")
    serve.add_argument("--move-time", type=float, default=None, help="seconds per move")
    serve.add_argument("--export", type=Path, default=None, metavar="FOLDER",
                       help="write the finished games as save files and exit")  # fmt: skip


def _serve(args: argparse.Namespace) -> int:
    from course.classroom.cli import serve

    return serve(args.host, args.port, args.data, args.grace, args.move_time, args.export)


if __name__ == "__main__":
    sys.exit(main())
