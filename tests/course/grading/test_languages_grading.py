"""Grading does not depend on the language: a French exercise notebook grades as the English.

The French notebooks are the English ones with their markdown cells translated by
course.languages (the same code cells, ids and grading metadata, ``metadata.course.language``
set); ``python -m course grade`` runs in the bubblewrap sandbox as a teacher runs it.
"""

from __future__ import annotations

import csv
from html import unescape
from pathlib import Path

import pytest

from course.grading.table import ENTRIES
from course.languages.build import translated_exercise
from course.languages.notebooks import cell_text

from .helpers import course, source, with_answers, write

pytestmark = pytest.mark.slow
CHOSEN = ("01_squares",)  # three notebooks: grading one takes seconds in the sandbox
WRONG = {"answer:from_notation": "def from_notation(text):\n    return (0, 0)"}


def test_a_french_notebook_grades_the_same_points_as_the_english_one(tmp_path: Path) -> None:
    folder = tmp_path / "hand-ins"
    for name in CHOSEN:
        english = source(name)
        french = translated_exercise(english, name, "fr")
        changed = [c["id"] for c, e in zip(french["cells"], english["cells"], strict=True)
                   if cell_text(c) != cell_text(e)]  # fmt: skip
        assert changed, f"{name}: no cell of the French notebook is in French"
        assert all(c["cell_type"] == "markdown" for c in french["cells"] if c["id"] in changed)
        write(french, folder / "fr_full" / f"{name}.ipynb")
        for who, notebook in (("en", english), ("fr", french)):
            write(with_answers(notebook, WRONG), folder / f"{who}_partial" / f"{name}.ipynb")
    out = tmp_path / "grades.csv"
    result = course("grade", str(folder), "--out", str(out), "--jobs", "2", "--timeout", "60",
                    "--seed", "7")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with out.open(newline="", encoding="utf-8") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    full = {f"{name}:{q.check}": str(q.points) for name in CHOSEN for q in ENTRIES[name].questions}
    points = {who: {column: rows[who][column] for column in full} for who in rows}
    assert points["fr_full"] == full  # the teacher's solution, in French: full marks
    assert points["fr_partial"] == points["en_partial"] != full


#: A wrong answer for each of exercises 07-12, each failing in its own words.
_NO_CUT = (
    "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n"
    "    if depth == 0:\n        return evaluate(board, color)\n"
    "    moves = board.legal_moves(color)\n"
    "    if not moves:\n        if not board.legal_moves(color.opponent):\n"
    "            return evaluate(board, color)\n"
    "        return -alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter)\n"
    "    best = -math.inf\n    for move in moves:\n        child = board.copy()\n"
    "        child.play(move, color)\n"
    "        best = max(best, -alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter))\n"
    "    return best"
)


def _later_wrong() -> dict[str, dict[str, str]]:
    from .test_mistakes import KINDS, NO_MINUS

    def kind(exercise: str, name: str) -> dict[str, str]:
        found = next(k for k in KINDS if k.exercise == exercise and k.kind == name)
        return {found.tag: found.code}

    return {
        "07_greedy": kind("07_greedy", "tie rule"),
        "08_positional": kind("08_positional", "tie rule"),
        "09_minimax": {"answer:minimax": NO_MINUS},
        "10_alphabeta": {"answer:alphabeta": _NO_CUT},
        "11_map_files": {"answer:parse_definitions": "def parse_definitions(text):\n    return {}"},
        "12_cursor": kind("12_cursor", "bit order"),
    }


#: Words of each exercise's French feedback (case names, reasons, likely causes, expected and
#: actual answers), and the English words they stand for.
_WORDS = {
    "07_greedy": (["partie 8x8 (graine", "coups, Noir (", "cause probable : la règle d’égalité"],
                  ["8x8 game", "moves, Black (", "likely cause: the tie rule"]),
    "08_positional": (["contre des coups au hasard, après", "cause probable : la règle d’égalité"],
                      ["against random moves, after", "likely cause: the tie rule"]),
    "09_minimax": (["la position de départ, profondeur 1", "cause probable : la valeur a le mauvais signe"],
                   ["the start, depth 1", "likely cause: the value has the wrong sign"]),
    "10_alphabeta": (["le premier : la position de départ, profondeur 3",
                      "autant que minimax : ici, alpha-beta doit couper"],
                     ["first: the start, depth 3", "as many as minimax: here alpha-beta must cut"]),
    "11_map_files": (["le premier : la carte d’exemple 01_first_steps", "le premier : un ';' manquant",
                      "MapFileError à la ligne 7"],
                     ["first: the sample map 01_first_steps", "first: a missing ';'",
                      "MapFileError on line 7"]),
    "12_cursor": (["le premier : OR au milieu", "cause probable : les bits du curseur sont dans le mauvais ordre"],
                  ["first: OR in the middle", "likely cause: the cursor's bits are in the wrong order"]),
}  # fmt: skip


def test_exercises_07_to_12_grade_the_same_in_french_and_say_so_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under KIT_LANG=fr a French notebook's reasons are French, an English notebook's English,
    and both earn the same points case for case; the notebook's self-check speaks French too."""
    from course.grading import checker, feedback
    from course.i18n import speaking

    from .helpers import check_calls, namespace, run_check

    monkeypatch.setenv("KIT_LANG", "fr")
    for name, answers in _later_wrong().items():
        english = with_answers(source(name), answers)
        french = with_answers(translated_exercise(source(name), name, "fr"), answers)
        reports = {code: checker.check(write(notebook, tmp_path / code / f"{name}.ipynb"), seed=7)
                   for code, notebook in (("en", english), ("fr", french))}  # fmt: skip
        scores = {code: [(r.tag, r.passed, r.cases_passed, r.cases_total, r.earned) for r in report.checks]
                  for code, report in reports.items()}  # fmt: skip
        assert scores["fr"] == scores["en"], name
        assert not all(passed for _, passed, *_rest in scores["fr"]), name
        said = {}
        for code, report in reports.items():
            with speaking(code):  # as the gradebook writes a student's page
                page = feedback.section(report)
            assert f'<section lang="{code}">' in page, name
            said[code] = "\n".join([r.message for r in report.checks] + [unescape(page)])
        french_words, english_words = _WORDS[name]
        for word in french_words:
            assert word in said["fr"], (name, word, said["fr"][:3000])
        for word in english_words:
            assert word in said["en"], (name, word, said["en"][:3000])
            assert word not in said["fr"], (name, word)
        names = namespace(name, answers)
        failed = []
        for _tag, check, function in check_calls(name):
            try:
                run_check(name, check, function, names)
            except AssertionError as error:
                failed.append(str(error))
        assert failed and all(" en échec ; le premier : " in message or "Vérifie d’abord" in message
                              for message in failed), (name, failed)  # fmt: skip
        assert any(word in message for word in french_words for message in failed), (name, failed)
