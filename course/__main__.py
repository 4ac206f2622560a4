"""``python -m course``: the teacher's command line.

python -m course check NOTEBOOK [--timeout S] [--seed N] [--no-isolation]
    grade one notebook with the teacher's grader (in a student's copy too: then only the
    notebook's own cases); prints each question and "Score: n/m questions, p/q points",
    exits 0 only when every question passed
python -m course grade SUBMISSIONS [--out class/grades.csv] [--feedback DIR] [--jobs N] [--timeout S]
        [--pick last|best] [--deadline [EXERCISE=]WHEN] [--overrides FILE] [--regrade]
        [--roster FILE | --no-roster]
    grade a class's hand-ins (a folder per student, STUDENT__NAME.ipynb files, nbgrader's
    submitted/, or the class server's DATA/handins): a CSV sheet with Canvas and Moodle
    copies, a summary page, one HTML feedback page per student, a line per exercise; with
    the class list (class/roster.json), a row per student on it, with the gradebook's ids
python -m course release [NAME ...] [--check]
    run the teacher sources and write the student copies into exercises/;
    with --check, only say whether the committed copies are up to date
python -m course worksheets [--out DIR] [--notebooks DIR] [--no-pdf]
    write a printable worksheet per lesson (HTML, and PDF when Chromium is installed);
    default: class/worksheets
python -m course tournament HANDIN-FOLDER [--levels easy,medium,hard] [--move-time S]
        [--games-per-pair N] [--out DIR] [--seed N]
    the class tournament: every student's player (run in the sandbox) and the kit's levels,
    each against each; a leaderboard page with every game replayable, and CSVs
python -m course serve [--host H] [--port P] [--data DIR] [--grace S] [--move-time S]
    run the class server for network play until Ctrl-C (see course.classroom)
python -m course class import FILE | list | add | rename | remove | cards [NAME ...] | new-code NAME
                        | sign-out NAME | free NAME | export NAME | erase NAME --yes
    the class roster (Canvas, Moodle or CSV), sign-in cards with QR codes, a student's data
python -m course site build [--out DIR] [--pyodide-packages FOLDER]
    make the browser classroom: a static JupyterLite site of the lessons, the released
    exercises and the kit (see course.site)

What the teacher's commands write goes by default into one folder, ``class/`` in the folder
they run in (ignored by git): the grades and their feedback pages and journal, the
worksheets, the tournament's results and the class server's data.  ``release`` writes the
student copies into the kit's own ``exercises/`` (committed, so they are kept up to date).

Each subcommand is a pair of functions in :data:`COMMANDS` (its arguments, and what it
does), so a new one is one more entry.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from course import arguments as checked
from course.grading import checker
from course.grading.notebook import NotebookError
from course.grading.sandbox import sandbox_options
from reversi.errors import ReversiError

#: The longest time an answer may take to grade, in seconds.
MAX_TIMEOUT = 3600.0


def exercise_name(value: str) -> str:
    """An exercise's name as in exercises/ (``04_flips``): letters, digits, ``_`` and ``-``."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", value):
        raise checked.FlagError(f"must be an exercise name such as 04_flips, not {value[:40]!r}")
    return value


def _grading_options(
    parser: argparse.ArgumentParser, source: Callable[[str], Path] = Path
) -> None:
    """The options of every grading command; ``source`` reads ``--source`` (a folder grade needs)."""
    parser.add_argument(
        "--timeout", type=checked.seconds(0.1, MAX_TIMEOUT), default=checker.DEFAULT_TIMEOUT,
        help="seconds for the answer cells, and for each question (one clock per notebook)",
    )  # fmt: skip
    parser.add_argument(
        "--source", type=source, default=checker.SOURCE_DIR,
        help="the teacher's folder (its seed gives the grade-time cases; optional for check)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=checked.whole(0, 2**63 - 1), default=None,
        help="seed of the grade-time cases (default: the one kept in the teacher folder)",
    )  # fmt: skip
    sandbox_options(parser, "students' code")


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("notebook", type=checked.existing_file)
    parser.add_argument(
        "--exercise", type=exercise_name, help="the exercise name (default: from the notebook)"
    )
    _grading_options(parser)


def _check(args: argparse.Namespace) -> int:
    report = checker.check(
        args.notebook, args.exercise, args.source, args.timeout, args.seed, args.sandbox
    )
    print(report.render())
    return 0 if report.passed == report.total else 1


def _grade_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder", type=checked.existing_folder,
        help="the hand-ins: a folder per student, STUDENT__NAME.ipynb files, nbgrader's "
        "submitted/ or the class server's DATA/handins",
    )  # fmt: skip
    parser.add_argument(
        "--out", type=checked.output_file, default=Path("class/grades.csv"),
        help="the grade sheet (default: class/grades.csv; beside it: OUT-canvas.csv, "
        "OUT-moodle.csv, OUT-summary.html, OUT-journal.jsonl)",
    )  # fmt: skip
    parser.add_argument(
        "--feedback", type=checked.output_folder, default=None,
        help="folder for the feedback pages (default: OUT's name + '-feedback')",
    )  # fmt: skip
    parser.add_argument(
        "--jobs", type=checked.whole(1, 64), default=os.cpu_count() or 1,
        help="notebooks graded at once",
    )  # fmt: skip
    parser.add_argument(
        "--pick", choices=("last", "best"), default="last",
        help="which of a student's hand-ins of an exercise counts (default: the last)",
    )  # fmt: skip
    parser.add_argument(
        "--deadline", type=checked.deadline, action="append", default=[],
        metavar="[EXERCISE=]WHEN",
        help="hand-ins after WHEN (ISO 8601, UTC unless an offset is given) are marked late; "
        "once for every exercise, or once per exercise",
    )  # fmt: skip
    parser.add_argument(
        "--overrides", type=checked.existing_file, default=None,
        help="the teacher's points and comments per student and question (.csv or .json)",
    )  # fmt: skip
    parser.add_argument(
        "--regrade", action="store_true",
        help="grade everything again (default: continue from the journal of the last run)",
    )  # fmt: skip

    def roster_file(value: str) -> Path:
        from course.roster.model import RosterError
        from course.roster.store import RosterFile

        path = checked.existing_file(value)
        try:
            RosterFile(path).load()
        except RosterError as error:
            raise checked.FlagError(str(error)) from None
        except OSError as error:
            raise checked.FlagError(f"cannot read {value!r}: {error.strerror or error}") from None
        return path

    roster = parser.add_mutually_exclusive_group()
    roster.add_argument(
        "--roster", type=roster_file, default=None,
        help="the class list: a row per student on it, hand-ins matched to its students, its "
        "gradebook ids in the Canvas and Moodle files (default: class/roster.json if it exists)",
    )  # fmt: skip
    roster.add_argument(
        "--no-roster", action="store_true",
        help="ignore class/roster.json: a row per hand-in folder, as named",
    )  # fmt: skip
    _grading_options(parser, checked.existing_folder)


def _grade(args: argparse.Namespace) -> int:
    from course.grading import grade_lines, overrides
    from course.grading.gradebook import Choices, grade_folder, progress_bar
    from course.roster.store import ROSTER, RosterFile

    feedback = args.feedback or args.out.with_name(args.out.stem + "-feedback")
    args.out.parent.mkdir(parents=True, exist_ok=True)  # class/ the first time
    try:
        checked.output_folder(str(feedback))
    except argparse.ArgumentTypeError as error:
        raise NotebookError(f"the feedback folder {error}") from None
    choices = Choices(
        pick=args.pick,
        deadlines=dict(args.deadline),
        overrides=overrides.load(args.overrides) if args.overrides else overrides.Overrides(),
        regrade=args.regrade,
    )
    roster_path = None if args.no_roster else args.roster or (ROSTER if ROSTER.is_file() else None)
    roster = RosterFile(roster_path).load() if roster_path else None
    if roster is not None:
        print(grade_lines.roster_line(roster_path, len(roster)))
    try:
        graded = grade_folder(
            args.folder, args.out, args.source, args.timeout, args.jobs, args.seed,
            feedback, progress_bar(sys.stderr), sandbox=args.sandbox, choices=choices,
            say=lambda line: print(_printable(line), flush=True), roster=roster,
        )  # fmt: skip
    except KeyboardInterrupt:
        print("\n" + grade_lines.stopped(args.out), file=sys.stderr)
        return 130
    except OSError as error:
        print(grade_lines.unwritable(error.filename or args.out, str(error.strerror), args.out),
              file=sys.stderr)  # fmt: skip
        return 1
    for warning in graded.warnings:
        print(_printable(grade_lines.warning(warning)))
    for row in graded.rows:
        row = {key: _printable(value) for key, value in row.items()}
        print("\n".join(grade_lines.student_lines(row, named=bool(roster))))
    for line in graded.summary:
        print(line)
    print(grade_lines.written(args.out, len(graded.rows), feedback))
    return 0


def _printable(text: str) -> str:
    r"""``text`` with control characters shown as escapes (a name cannot drive the terminal).

    >>> _printable("ann\x1b[2J")
    'ann\\x1b[2J'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _release_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names", nargs="*", type=exercise_name, help="exercises to release (default: all)"
    )
    parser.add_argument("--source", type=checked.existing_folder, default=checker.SOURCE_DIR)
    parser.add_argument(
        "--out", type=checked.output_folder, default=None, help="default: the folder above the sources"
    )
    parser.add_argument(
        "--check", action="store_true", help="only report whether they are up to date"
    )


def _release(args: argparse.Namespace) -> int:
    from course.grading import teacher

    out = args.out or args.source.parent
    unknown = [name for name in args.names if not (args.source / f"{name}.ipynb").is_file()]
    if unknown:
        raise NotebookError(
            f"no teacher source for {', '.join(unknown)} in {args.source} "
            "(argument names: give exercise names such as 04_flips)"
        )
    if not args.check and not any(args.source.glob("*.ipynb")):
        raise NotebookError(f"argument --source: {args.source} holds no teacher notebooks")
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
    from course.classroom.cli import add_arguments

    add_arguments(serve)
    serve.add_argument("--site", type=checked.output_folder, default=None, metavar="FOLDER",
                       help="the browser classroom to serve (default: build/site; built if missing)")  # fmt: skip
    serve.add_argument("--no-site", action="store_true", help="serve the rooms only")
    serve.add_argument("--roster", type=checked.output_file, default=Path("class/roster.json"),
                       help="the class list students sign in from (default: class/roster.json; "
                            "none there: each browser claims a name)")  # fmt: skip


def _serve(args: argparse.Namespace) -> int:
    from course.classroom.cli import serve
    from course.classroom.people import Limits

    limits = Limits(args.max_connections_per_address, args.max_rooms_per_address)
    classroom = None
    if args.export is None and not args.no_site:
        from course.roster import RosterError
        from course.site import SiteError
        from course.site.build import OUT
        from course.site.serving import prepare

        try:
            classroom = prepare(
                args.site or OUT, args.data, lambda line: print(line, flush=True), args.roster
            )
        except (SiteError, RosterError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    return serve(
        args.host, args.port, args.data, args.grace, args.move_time, args.export, limits,
        extra_routes=classroom.routes if classroom else (),
        sections=classroom.sections if classroom else (),
        identify=classroom.identify if classroom else None,
    )  # fmt: skip


def _worksheets_arguments(parser: argparse.ArgumentParser) -> None:
    from course import arguments
    from course.worksheets import NOTEBOOKS

    parser.add_argument(
        "--out", type=arguments.output_folder, default=Path("class/worksheets"),
        help="folder to write (default: class/worksheets)",
    )
    parser.add_argument(
        "--notebooks", type=arguments.existing_folder, default=NOTEBOOKS, help="the lessons"
    )
    parser.add_argument("--no-pdf", action="store_true", help="HTML only, even with Chromium")


def _worksheets(args: argparse.Namespace) -> int:
    from course.worksheets import WorksheetError, write

    try:
        written = write(args.out, args.notebooks, pdf=not args.no_pdf)
    except WorksheetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def _elsewhere(module: str) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]:
    """A command whose ``add_arguments`` and ``run`` live in ``module`` (imported only when used)."""
    import importlib

    def arguments(parser: argparse.ArgumentParser) -> None:
        importlib.import_module(module).add_arguments(parser)

    def run(args: argparse.Namespace) -> int:
        return int(importlib.import_module(module).run(args))

    return arguments, run


Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

#: name: (help, add its arguments, run it)
COMMANDS: dict[str, Command] = {
    "check": ("grade one notebook with the teacher's grader", _check_arguments, _check),
    "grade": ("grade a folder of submissions: CSV, feedback pages", _grade_arguments, _grade),
    "release": ("make the student copies from the teacher sources", _release_arguments, _release),
    "worksheets": (
        "write printable worksheets, one per lesson",
        _worksheets_arguments,
        _worksheets,
    ),
    "serve": ("run the class server for network play", _serve_arguments, _serve),
    "tournament": (
        "the class tournament of students' players and the levels", *_elsewhere("course.contest.cli")
    ),
    "site": ("build the browser classroom (a JupyterLite site)", *_elsewhere("course.site.cli")),
    "class": ("the class roster, sign-in cards and a student's data", *_elsewhere("course.roster.cli")),
    "translations": ("the kit's messages in other languages", *_elsewhere("course.translations")),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from course import i18n

    try:  # a language set by hand that the kit does not speak: say so before anything runs
        i18n.checked_language(os.environ.get(i18n.ENVIRONMENT, "").strip() or "en")
    except ValueError as error:
        print(f"error: {i18n.ENVIRONMENT}: {error}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, arguments, _) in COMMANDS.items():
        arguments(commands.add_parser(name, help=help_text))
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command][2](args)
    except (NotebookError, ReversiError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a file that vanished or cannot be written after the checks
        print(f"error: {error.strerror or error}: {error.filename or ''}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
