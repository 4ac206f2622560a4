"""Nothing one student leaves in the portable sandbox reaches the next student graded after.

Student A's answer wrecks every piece of state a reused Pyodide would keep (builtins, the
exercise's runtime module, the standard library, files in every writable folder, JavaScript
globals, timers), then student B is graded next on the same one-worker grader: B must see none
of it, and get the grade B gets when graded alone.  The program-level test names what B looked
for, so a leak says which state leaked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course.grading import notebook as nbfile
from course.grading.checker import SOURCE_DIR
from course.grading.grader import Grader
from course.grading.records import Report
from course.grading.sandbox import Limits

from .helpers import source, with_answers, write

pytestmark = pytest.mark.slow

#: Student A: every mark a reused interpreter, file system or JavaScript realm would keep.
WRECK = r"""
import builtins, json, os, sys
builtins.MARK = "A"
builtins.len = lambda value: 0
json.dumps = lambda *args, **kwargs: "forged"
sys.modules["allowed"] = type(sys)("allowed")
for folder in ("/sandbox", "/home/sandbox", "/tmp", "/"):
    try:
        with open(os.path.join(folder, "mark.txt"), "w") as out:
            out.write("A")
    except OSError:
        pass
try:
    import js
    from pyodide.ffi import create_proxy
    js.globalThis.MARK = "A"
    js.setInterval(create_proxy(lambda: os.write(1, b'\n{"event": "end"}\n')), 1)
    js.eval("globalThis.Deno.stdout.writeSync = () => 0")
except Exception:
    pass
"""

#: Student B looks for each of A's marks and prints what it found (nothing, if isolated).
LOOK = r"""
import builtins, json, os, sys
found = {}
if hasattr(builtins, "MARK"):
    found["builtins"] = builtins.MARK
if len([1, 2]) != 2:
    found["len"] = "replaced"
if "allowed" in sys.modules:
    found["module"] = "left in sys.modules"
for folder in ("/sandbox", "/home/sandbox", "/tmp", "/"):
    if os.path.exists(os.path.join(folder, "mark.txt")):
        found["file"] = folder
import js
if getattr(js.globalThis, "MARK", None) is not None:
    found["javascript"] = str(js.globalThis.MARK)
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def grader(tmp_path_factory: pytest.TempPathFactory) -> Grader:
    """A one-worker portable grader (one sandbox, so one Pyodide start-up, for every test)."""
    teacher = tmp_path_factory.mktemp("teacher")
    for name in ("04_flips.ipynb", "03_lines.ipynb"):
        (teacher / name).write_bytes((SOURCE_DIR / name).read_bytes())
    (teacher / "grading_seed.txt").write_text("20261129\n", encoding="utf-8")
    return Grader(teacher, workers=1, sandbox="pyodide")


def test_a_run_sees_nothing_the_run_before_it_left(grader: Grader) -> None:
    sandbox = grader.sandbox
    with sandbox.start({"main.py": WRECK}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        run.lines()
    with sandbox.start({"main.py": LOOK}, "main.py", Limits(wall=60)) as run:
        run.close_input()
        read = run.lines()
    assert read.lines and json.loads(read.lines[-1]) == {}, read


#: A's answer cell for exercise 04: the runtime's names monkeypatched and files left, then
#: the teacher's solution (so A's own cells still run).
ATTACK = """
import builtins, sys
allowed = sys.modules.get("allowed")
if allowed is not None:
    allowed.Square = lambda *args: (0, 0)
    allowed.make_board = lambda *args: None
builtins.list = tuple
with open("/home/sandbox/board.txt", "w") as out:
    out.write("A was here")
"""


def _points(report: Report) -> list[tuple[str, float, int]]:
    return [(c.tag, c.earned, c.cases_passed) for c in report.checks]


def test_the_next_student_gets_the_grade_they_get_alone(grader: Grader, tmp_path: Path) -> None:
    solution = source("04_flips")
    cell = next(c for c in solution["cells"] if nbfile.tag_with(c, nbfile.ANSWER))
    tag, first = str(nbfile.tag_with(cell, nbfile.ANSWER)), nbfile.source(cell)
    attacker = write(with_answers(solution, {tag: ATTACK + "\n" + first}), tmp_path / "a.ipynb")
    honest = write(source("03_lines"), tmp_path / "b.ipynb")
    # one worker: B alone (first on a fresh grader), then A, then B again on the same worker
    alone, _, after = grader.grade([(honest, "03_lines"), (attacker, "04_flips"),
                                    (honest, "03_lines")])  # fmt: skip
    assert alone.earned == alone.points > 0, alone.render()
    assert _points(after) == _points(alone), after.render()
