"""How long grading a class takes in each sandbox, and whether both give the same grades.

Grades ``--notebooks`` hand-ins (the teacher's solutions and the released stubs of every
exercise, in turn) with the same seed once per sandbox, ``--jobs`` at a time, and prints
the wall time of each, the time per notebook (in all, and each notebook's own: min, median,
max), the ratio, and whether every notebook got the same points in both.  A class of 30
handing in all twelve exercises is ``--notebooks 360``; ``--sandbox pyodide`` times one kind.

    python3 kit.py python benchmarks/grading.py [--notebooks 30] [--jobs 2] [--sandbox both]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from course.arguments import whole
from course.grading.checker import SOURCE_DIR
from course.grading.grader import Grader
from course.grading.records import Report
from course.grading.sandbox import IsolationError

RELEASED = SOURCE_DIR.parent


def hand_ins(count: int) -> list[tuple[Path, str]]:
    """``count`` notebooks: each exercise's solution, then its stub, round the exercises."""
    names = sorted(path.stem for path in RELEASED.glob("[0-9][0-9]_*.ipynb"))
    pairs = [
        (folder / f"{name}.ipynb", name) for name in names for folder in (SOURCE_DIR, RELEASED)
    ]
    return [pairs[n % len(pairs)] for n in range(count)]


def graded(kind: str, items: list[tuple[Path, str]], jobs: int
           ) -> tuple[float, list[Report], list[float]]:  # fmt: skip
    """The wall time of grading ``items``, their reports, and each notebook's own time."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "grading_seed.txt").write_text("20261126\n")
        for notebook in SOURCE_DIR.glob("*.ipynb"):
            (Path(folder) / notebook.name).write_bytes(notebook.read_bytes())
        grader = Grader(Path(folder), workers=jobs, sandbox=kind)
        each: list[float] = []
        grade_one = grader.grade_one

        def timed(path: Path, name: str) -> Report:
            began = time.perf_counter()
            report = grade_one(path, name)
            each.append(time.perf_counter() - began)
            return report

        grader.grade_one = timed  # type: ignore[method-assign]
        started = time.perf_counter()
        reports = grader.grade(items)
        return time.perf_counter() - started, reports, each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=whole(1, 1000), default=30)
    parser.add_argument("--jobs", type=whole(1, 64), default=2)
    parser.add_argument("--sandbox", choices=("both", "bubblewrap", "pyodide"), default="both")
    args = parser.parse_args()
    items = hand_ins(args.notebooks)
    print(f"{len(items)} notebooks, {args.jobs} at a time")
    results: dict[str, tuple[float, list[Report], list[float]]] = {}
    kinds = ("bubblewrap", "pyodide") if args.sandbox == "both" else (args.sandbox,)
    for kind in kinds:
        try:
            results[kind] = graded(kind, items, args.jobs)
        except IsolationError as error:
            print(f"{kind:>10}: not here ({error})")
            continue
        took, _, each = results[kind]
        print(f"{kind:>10}: {took:6.1f} s in all, {took / len(items):5.2f} s a notebook; "
              f"each notebook's own time {min(each):.2f} / {statistics.median(each):.2f} / "
              f"{max(each):.2f} s (min / median / max)")  # fmt: skip
    if len(results) == 2:
        fast, portable = results["bubblewrap"], results["pyodide"]
        print(f"pyodide / bubblewrap: {portable[0] / fast[0]:.1f}x the time")
        same = [a.earned == b.earned and a.passed == b.passed
                for a, b in zip(fast[1], portable[1], strict=True)]  # fmt: skip
        print(f"same points and passes in both: {sum(same)} of {len(same)} notebooks")
        for (path, name), alike, a, b in zip(items, same, fast[1], portable[1], strict=True):
            if not alike:  # each question where they differ, as each sandbox saw it
                print(f"  differs: {name} ({path.parent.name}/{path.name})")
                for one, other in zip(a.checks, b.checks, strict=True):
                    if (one.earned, one.passed) != (other.earned, other.passed):
                        print(f"    {one.tag}: bubblewrap {one.earned} {one.message!r}; "
                              f"pyodide {other.earned} {other.message!r}")  # fmt: skip
                for kind, report in (("bubblewrap", a), ("pyodide", b)):
                    if report.notes:
                        print(f"    notes ({kind}): {'; '.join(report.notes)}")


if __name__ == "__main__":
    main()
