"""The exercise notebooks follow their conventions, and the grader's pieces do what they say."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from course.grading import checker, checks, gradebook
from course.grading import notebook as nbfile
from course.grading.cases import FIGURE_2
from course.grading.checker import SOURCE_DIR
from course.grading.exercise import load
from course.grading.table import ENTRIES

from .helpers import EXERCISE_DIR, NAMES, source, student, with_answers, write

#: Every exercise of the table, in its order (a new exercise is a row there and its notebook).
EXPECTED_ORDER = list(ENTRIES)


def test_the_tables_exercises_have_their_notebooks_in_order() -> None:
    assert sorted(EXPECTED_ORDER) == EXPECTED_ORDER and len(EXPECTED_ORDER) >= 12
    assert NAMES == EXPECTED_ORDER
    assert sorted(p.stem for p in EXERCISE_DIR.glob("[0-9][0-9]_*.ipynb")) == EXPECTED_ORDER


@pytest.mark.parametrize("name", EXPECTED_ORDER)
def test_student_copy_conventions(name: str) -> None:
    notebook = student(name)
    assert notebook["metadata"]["course"] == {"exercise": name}
    ids = [cell["id"] for cell in notebook["cells"]]
    assert len(ids) == len(set(ids))
    answers, checked = nbfile.answer_tags(notebook), nbfile.check_tags(notebook)
    assert answers and checked
    for cell in notebook["cells"]:
        text = nbfile.source(cell)
        assert not nbfile.has_solution(text)
        if tag := nbfile.tag_with(cell, nbfile.ANSWER):
            assert cell["id"] == tag.replace(":", "-")
            assert 'raise NotImplementedError("write this part")' in text
            assert cell["outputs"] == [] and cell["execution_count"] is None
        if tag := nbfile.tag_with(cell, nbfile.CHECK):
            assert cell["id"] == tag.replace(":", "-")
            assert text.splitlines()[0] == nbfile.CHECK_MARKER
            assert cell["metadata"]["editable"] is False and cell["metadata"]["deletable"] is False
            assert cell["execution_count"] is not None
            (output,) = cell["outputs"]
            line = r"\w+: (\d+)/\1 cases passed \(self-check; the grade is computed separately\)\n"
            assert re.fullmatch(line, "".join(output["text"]))


@pytest.mark.parametrize("name", EXPECTED_ORDER)
def test_check_cells_are_short_and_call_the_checks_module(name: str) -> None:
    for cell in source(name)["cells"]:
        if nbfile.tag_with(cell, nbfile.CHECK):
            lines = nbfile.source(cell).splitlines()
            assert len(lines) <= 4
            assert re.fullmatch(r"checks\.(\w+)\(\w+\)", lines[-1])
            assert hasattr(checks, lines[-1].split(".")[1].split("(")[0])


def test_no_memory_addresses_or_timings_in_outputs() -> None:
    for path in EXERCISE_DIR.glob("**/[0-9][0-9]_*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"0x[0-9a-f]{6,}", text), path
        assert '"execution"' not in text, path


def test_figure_2_in_the_notebook_is_the_checked_position() -> None:
    from reversi import Board

    demo = next(c for c in source("04_flips")["cells"] if c.get("id") == "demo-1")
    diagram = nbfile.source(demo).split('"""')[1]
    assert Board.from_text(diagram) == FIGURE_2


# -- notebook conventions ------------------------------------------------------------------------


def test_strip_solutions_keeps_the_indentation_of_each_block() -> None:
    text = "def f():\n    x = 1\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n\n### BEGIN SOLUTION\ny = 2\n### END SOLUTION"
    assert nbfile.strip_solutions(text) == (
        'def f():\n    x = 1\n    # YOUR CODE HERE\n    raise NotImplementedError("write this part")\n\n'
        '# YOUR CODE HERE\nraise NotImplementedError("write this part")'
    )


@pytest.mark.parametrize(
    "text, problem",
    [("### BEGIN SOLUTION\nx", "never closed"), ("x\n### END SOLUTION", "without"),
     ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION", "inside a solution block")],
)  # fmt: skip
def test_strip_solutions_refuses_unbalanced_markers(text: str, problem: str) -> None:
    with pytest.raises(nbfile.NotebookError, match=problem):
        nbfile.strip_solutions(text)


def test_exercise_name_prefers_metadata_then_file_name() -> None:
    assert (
        nbfile.exercise_name({"metadata": {"course": {"exercise": "04_flips"}}}, "x.ipynb", NAMES)
        == "04_flips"
    )
    assert nbfile.exercise_name({"metadata": {}}, "ann__05_play (2).ipynb", NAMES) == "05_play"
    assert (
        nbfile.exercise_name({"metadata": {"course": {"exercise": "99_x"}}}, "y.ipynb", NAMES)
        is None
    )


def test_answers_are_taken_by_tag_and_nothing_else_from_the_student() -> None:
    theirs = with_answers(
        student("01_squares"), {"answer:to_notation": "def to_notation(r, c):\n    return 'a1'"}
    )
    helper = {"cell_type": "code", "id": "x", "metadata": {"tags": ["answer:to_notation", "raises-exception"]},
              "source": "print('second cell')", "outputs": [], "execution_count": None}  # fmt: skip
    theirs["cells"].append(helper)
    theirs["cells"].append({"cell_type": "code", "id": "y", "metadata": {}, "source": "x = 1",
                            "outputs": [], "execution_count": None})  # fmt: skip
    theirs["cells"] = [
        c for c in theirs["cells"] if nbfile.tag_with(c, nbfile.ANSWER) != "answer:from_notation"
    ]
    exercise = load(SOURCE_DIR / "01_squares.ipynb", seed=1)
    answers, notes = checker.answer_cells(exercise, theirs)
    assert answers == {
        "answer:to_notation": "def to_notation(r, c):\n    return 'a1'\n\nprint('second cell')",
        "answer:from_notation": "",
    }
    assert notes == ["no cell tagged answer:from_notation was found: its questions score 0"]


def test_collect_reads_both_layouts_and_warns_about_the_rest(tmp_path: Path) -> None:
    write(student("01_squares"), tmp_path / "ann" / "01_squares.ipynb")
    write(student("04_flips"), tmp_path / "ann" / "sub" / "anything.ipynb")
    write(student("05_play"), tmp_path / "bob__05_play.ipynb")
    copy = write(student("05_play"), tmp_path / "bob__05_play (copy).ipynb")
    os.utime(copy, (2e9, 2e9))  # handed in after the first
    write(student("02_counting"), tmp_path / "loose.ipynb")
    write(
        student("02_counting"),
        tmp_path / "ann" / ".ipynb_checkpoints" / "02_counting-checkpoint.ipynb",
    )
    (tmp_path / "cid__broken_03_lines.ipynb").write_text("{not json", encoding="utf-8")
    found, warnings = gradebook.collect(tmp_path)
    assert [(s.student, s.exercise) for s in found] == [
        ("ann", "01_squares"), ("ann", "04_flips"), ("bob", "05_play"), ("cid", "03_lines")
    ]  # fmt: skip
    assert warnings == [
        "skipped loose.ipynb: put it in a folder named after the student or name it STUDENT__...",
        "bob handed in 05_play 2 times: the last is bob__05_play (copy).ipynb",
    ]


def test_a_value_that_claims_to_equal_everything_does_not_pass(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Liar(list):
        def __eq__(self, other: object) -> bool:
            return True

        def __ne__(self, other: object) -> bool:
            return False

    with pytest.raises(AssertionError):
        checks.figure2(lambda board, square, color: Liar())
    assert "figure2: 3/7 cases passed" in capsys.readouterr().out


def test_grade_time_cases_differ_from_the_shown_ones_and_follow_the_teachers_seed() -> None:
    shown = load(SOURCE_DIR / "04_flips.ipynb", seed=1).questions
    again, other = (load(SOURCE_DIR / "04_flips.ipynb", seed=s).questions for s in (1, 2))
    for question, same, different in zip(shown, again, other, strict=True):
        visible, unseen = question.parts
        assert not visible.unseen and unseen.unseen
        assert unseen.arguments == same.parts[1].arguments
        assert unseen.arguments != different.parts[1].arguments
        assert all(args not in visible.arguments for args in unseen.arguments[:50]) or (
            question.check == "is_legal"  # its two hand-made positions are in both sets
        )
    figure2 = next(q for q in shown if q.check == "figure2")
    assert len(figure2.parts[1].spec.cases) > 7 * 7  # the position turned and mirrored
