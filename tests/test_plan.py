"""The plan a teacher reads is the plan the notebooks need, and the words a question uses are taught first.

- The teacher guide's estimate of every lesson and exercise is recomputed from the notebooks
  by one rule (``tests/timing.py``, with the minutes a reviewer measured as a floor); no
  planned row is below its estimate.
- The term plan's periods hold at most 45 minutes each, add up, per lesson and exercise,
  to the planned minutes, and keep two periods free to catch up; no notebook starts in
  the last minutes of a period and no part of one is a leftover of a few minutes.  The
  guide's headings, the lessons' own "about N minutes" and the README give the same
  numbers, and lesson 04 ends its part 1 where the plan does.
- Every term of the glossary (``docs/glossary.md``) is defined in its lesson, and every
  question uses only terms defined before it.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.test_lessons import CHECK, LESSONS, PREDICT
from tests.timing import exercise_minutes, lesson_minutes

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
PERIOD = 45
#: Where one answer of the guide ends: the next answer, or the next paragraph or heading.
ANSWER_END = re.compile(r"\n- \*\*\[|\n\n(?=\*\*|#)")
NUMBERS = {"twelve": 12, "twenty-four": 24, "twenty-five": 25, "twenty-six": 26}
#: Free periods of the term plan, kept to catch up.
CATCH_UP = 2
#: The fewest minutes of a notebook a period may start with, and of any part of one.
FIRST_PART, SMALLEST_PART = 15, 10

#: How the plan names each lesson and exercise, and where its notebook is.
LESSON_NAMES = {
    "00 Welcome": "00_welcome",
    "01 Play": "01_play",
    "02 Rules": "02_rules",
    "03 Rules": "03_rules_passing_and_end",
    "04 Computer players": "04_computer_players",
    "04b Recursion": "04b_game_trees",
    "05 Cursor-map": "05_cursormap",
    "06 Class play": "06_class_play",
}
EXERCISE_NAMES = {
    f"{path.stem[:2]} {path.stem[3:].replace('_', ' ').replace('alphabeta', 'alpha-beta')}": path
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
}
EXTENSION = {"10 alpha-beta"}


def table(heading: str) -> list[list[str]]:
    """The rows of the first markdown table after ``heading`` in the guide (header left out)."""
    text = GUIDE[GUIDE.index(heading) :]
    rows = []
    for line in text.splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def estimates() -> dict[str, tuple[int, str]]:
    """The guide's table: name -> (estimate, planned) as written."""
    found = {}
    for name, estimate, planned in table("## How long things take"):
        key = next(k for k in [*LESSON_NAMES, *EXERCISE_NAMES] if k.lower() in name.lower())
        found[key] = (int(estimate), planned)
    return found


def periods(heading: str) -> list[list[tuple[str, int]]]:
    """Each period of a plan as (item text, minutes) pairs, the minutes written '(N)' or '(N; ...)'.

    A catch-up period has no items.
    """
    plan = []
    for number, (period, cell) in enumerate(table(heading), start=1):
        assert int(period) == number, f"period {period} is out of order"
        cell = re.sub(r"\]\([^)]*\)", "", cell).replace("[", "")
        items = [(text, int(m)) for text, m in re.findall(r"([^()]*?)\((\d+)[;)]", cell)]
        assert items or cell.startswith("catch-up"), f"period {period} plans nothing: {cell!r}"
        plan.append(items)
    return plan


def badly_cut(plan: list[list[tuple[str, int]]]) -> list[str]:
    """Parts of a notebook too short to be worth it: a start of under FIRST_PART minutes at
    the end of a period, or any part of under SMALLEST_PART minutes of a longer piece of work."""
    total: dict[str, int] = {}
    for items in plan:
        for item, minutes in items:
            total[name_of(item)] = total.get(name_of(item), 0) + minutes
    seen: set[str] = set()
    bad = []
    for number, items in enumerate(plan, start=1):
        for item, minutes in items:
            name = name_of(item)
            whole = minutes == total[name]
            if not whole and name not in seen and minutes < FIRST_PART:
                bad.append(f"period {number} starts {name} with {minutes} minutes")
            elif not whole and minutes < SMALLEST_PART:
                bad.append(f"period {number} has {minutes} minutes of {name}")
            seen.add(name)
    return bad


def name_of(item: str) -> str:
    plain = re.sub(r"\]\([^)]*\)", "", item).replace("[", "")
    found = [key for key in [*LESSON_NAMES, *EXERCISE_NAMES] if key in plain]
    assert len(found) == 1, f"cannot tell which lesson or exercise {item!r} is: {found}"
    return found[0]


def test_the_estimates_are_recomputed_from_the_notebooks():
    written = estimates()
    assert set(written) == set(LESSON_NAMES) | set(EXERCISE_NAMES)
    for name, (estimate, planned) in written.items():
        if name in LESSON_NAMES:
            actual = lesson_minutes(ROOT / "notebooks" / f"{LESSON_NAMES[name]}.ipynb")
        else:
            actual = exercise_minutes(EXERCISE_NAMES[name])
        assert abs(actual - estimate) <= 2, f"{name}: the guide says {estimate}, now {actual:.0f}"
        if name in EXTENSION:
            assert planned == "-"
        else:
            assert actual <= int(planned) <= actual + 10, f"{name}: {planned} vs {actual:.0f}"


def test_each_period_fits_and_the_plan_adds_up():
    plan = periods("## The term at a glance")
    assert sum(1 for items in plan if not items) == CATCH_UP
    totals: dict[str, int] = {}
    for number, items in enumerate(plan, start=1):
        assert not items or 25 <= sum(m for _, m in items) <= PERIOD, f"period {number}: {items}"
        for item, minutes in items:
            totals[name_of(item)] = totals.get(name_of(item), 0) + minutes
    planned = {name: int(p) for name, (_, p) in estimates().items() if p != "-"}
    assert totals == planned
    assert not badly_cut(plan)
    worked = sum(planned.values())
    assert len(plan) - CATCH_UP < worked / PERIOD + 2, "the plan wastes more than two periods"


def test_a_badly_cut_plan_is_found():
    plan = [[("00 Welcome", 40), ("01 squares", 5)], [("01 squares", 20), ("01 Play", 25)]]
    assert badly_cut(plan) == ["period 1 starts 01 squares with 5 minutes"]
    plan = [[("01 Play", 40)], [("01 Play", 5), ("02 Rules", 40)]]
    assert badly_cut(plan) == ["period 2 has 5 minutes of 01 Play"]


def test_the_short_route_fits_in_twelve_periods():
    plan = periods("## The short route")
    assert len(plan) == 12
    assert all(sum(m for _, m in items) <= PERIOD for items in plan)
    lessons: dict[str, int] = {}
    for items in plan:
        for item, minutes in items:
            if name_of(item) in LESSON_NAMES:
                lessons[name_of(item)] = lessons.get(name_of(item), 0) + minutes
    planned = {name: int(estimates()[name][1]) for name in LESSON_NAMES}
    assert lessons == planned  # every lesson whole, at its planned length
    assert not badly_cut(plan)


@pytest.mark.parametrize("text", [GUIDE, README], ids=["guide", "readme"])
def test_the_number_of_periods_is_said_the_same_everywhere(text):
    said = re.search(r"(\w+(?:-\w+)?) 45-minute class periods", text)
    assert said and NUMBERS[said.group(1).lower()] == len(periods("## The term at a glance"))


@pytest.mark.parametrize("name", LESSON_NAMES)
def test_lesson_and_guide_headings_say_the_planned_minutes(name):
    planned = int(estimates()[name][1])
    first = nbformat.read(ROOT / "notebooks" / f"{LESSON_NAMES[name]}.ipynb", as_version=4)
    said = [int(m) for m in re.findall(r"about (\d+) minutes", first.cells[0].source)]
    assert said and (sum(said) == planned or said[0] == planned), f"{name} says {said}"
    heading = re.search(rf"^### {re.escape(name)}[^\n]*\((\d+) minutes", GUIDE, re.MULTILINE)
    assert heading and int(heading.group(1)) == planned


def test_lesson_04_ends_part_1_where_the_plan_does():
    cells = nbformat.read(ROOT / "notebooks" / "04_computer_players.ipynb", as_version=4).cells
    end = next(i for i, cell in enumerate(cells) if "*End of part 1." in cell.source)
    heading = [c.source for c in cells[:end] if c.source.startswith("## ")][-1].splitlines()[0]
    last = heading.removeprefix("## ")
    intro = " ".join(cells[0].source.split())
    assert re.search(rf"Part 1 [^.]*ends after \*{re.escape(last)}\*", intro), intro
    (part1,) = [
        cell for _, cell in table("## The term at a glance") if "part 1:" in cell and "04" in cell
    ]
    assert f"*{last}*" in part1


# -- the glossary ----------------------------------------------------------------------------


def glossary() -> dict[str, str]:
    rows = [line.strip("|").split("|") for line in GLOSSARY.splitlines() if line.startswith("|")]
    return {term.strip(): lesson.strip() for term, _meaning, lesson in rows[2:]}


def lesson_text(stem: str) -> str:
    cells = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4).cells
    return "\n\n".join(cell.source for cell in cells if cell.cell_type == "markdown")


def mention(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?:s|es)?(?![\w-])", re.IGNORECASE)


def definition(term: str) -> re.Pattern[str]:
    return re.compile(rf"\*{{1,2}}{re.escape(term)}(?:s|es)?\*{{1,2}}", re.IGNORECASE)


@pytest.mark.parametrize("term", list(glossary()))
def test_each_term_is_defined_in_its_lesson(term):
    lesson = glossary()[term]
    assert lesson in LESSONS
    assert definition(term).search(lesson_text(lesson)), f"{lesson} does not define {term!r}"


def questions() -> list[tuple[str, str, int, str]]:
    """(lesson, label, where the question stands in the lesson, its text and the guide's answer)."""
    found = []
    for stem in LESSONS:
        text = lesson_text(stem)
        for match in [*PREDICT.finditer(text), *CHECK.finditer(text)]:
            question = text[match.start() :].split("\n\n")[0]
            answer = ANSWER_END.split(GUIDE[GUIDE.index(f"**[{match.group(1)}]**") :])[0]
            found.append((stem, match.group(1), match.start(), question + "\n" + answer))
    return found


def test_every_question_uses_only_terms_taught_before_it():
    order = {stem: number for number, stem in enumerate(LESSONS)}
    early = []
    for stem, label, where, text in questions():
        for term, lesson in glossary().items():
            if not mention(term).search(text):
                continue
            defined = definition(term).search(lesson_text(lesson))
            before = order[lesson] < order[stem] or (
                lesson == stem and defined is not None and defined.start() < where
            )
            if not before:
                early.append(f"[{label}] uses {term!r}, defined in {lesson}")
    assert not early, early


def test_the_glossary_check_can_fail():
    assert mention("ply").search("one ply deeper") and not mention("ply").search("reply")
    assert definition("ply").search("a **ply** is") and not definition("ply").search("a ply is")
