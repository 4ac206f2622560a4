"""How long the gradebook's own bookkeeping takes for a large class, without the sandbox.

The grading step is replaced by the tests' stand-in (tests/course/gradebook/fakes.py:
each question's result is read from the notebook's metadata), so the figures are the
gradebook's share of a real run: reading the hand-ins, the journal line per hand-in
(flushed to disk), a row appended to three sheets and a page per student as each
finishes, then the sorted sheets, the pages and the summary page.  A second run of the
same class takes every hand-in from the journal, as a rerun after a crash does.

    python benchmarks/gradebook.py [--students 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from course.arguments import whole  # noqa: E402
from course.grading.gradebook import Choices, grade_folder  # noqa: E402
from tests.course.gradebook.fakes import FakeGrader, notebook, write  # noqa: E402

EXERCISES = ("01_squares", "02_counting", "03_lines")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=whole(1, 5000), default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "subs"
        for index in range(args.students):
            for exercise in EXERCISES:
                data = notebook(exercise, f"s{index}", to_notation=index % 24)
                write(data, folder / f"s{index:04d}" / f"{exercise}.ipynb")
        handins = args.students * len(EXERCISES)
        for label in ("first run", "rerun from the journal"):
            started = time.perf_counter()
            grade_folder(folder, Path(work) / "grades.csv", grader=FakeGrader(),
                         choices=Choices(), say=print)  # fmt: skip
            seconds = time.perf_counter() - started
            print(f"{label}: {args.students} students, {handins} hand-ins in {seconds:.2f} s "
                  f"({1000 * seconds / handins:.1f} ms a hand-in)")  # fmt: skip


if __name__ == "__main__":
    main()
