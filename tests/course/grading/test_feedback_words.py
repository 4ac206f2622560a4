"""The words of the feedback a student reads: every case label of every check (the notebook's
and the grade-time ones) and the cursor picture of exercise 12; in French, the labels of
exercises 07-12 with the same expected answers.

- "ply" is defined in lesson 04b; a label says "moves" instead, everywhere.
- "a 6x6 game", "an 8x8 game": the article is right for every size, judged by the size's
  English name (an independent table here, not the kit's rule).
- The cursor's centre is drawn as ``*``, never a letter among the bits (``0O0`` for OR).
"""

from __future__ import annotations

import re

import pytest

from course.grading import exercise
from course.grading.cases import a_game
from course.grading.checks_cursor import _cursor_cases, _cursor_picture
from course.i18n import speaking

from .conftest import SEED

SPOKEN = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
          11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen",
          16: "sixteen", 18: "eighteen", 20: "twenty", 80: "eighty"}  # fmt: skip
SIZED = re.compile(r"\b(a|an) (\d+)x\2\b", re.IGNORECASE)
PLY = re.compile(r"\bpl(y|ies)\b", re.IGNORECASE)


def _article(size: int) -> str:
    return "an" if SPOKEN[size][0] in "aeiou" else "a"


def labels(built) -> list[str]:
    return [case.name for ex in built.values() for question in ex.questions
            for part in question.parts for case in part.spec.cases]  # fmt: skip


@pytest.mark.parametrize("size", sorted(SPOKEN))
def test_a_game_has_the_article_of_its_spoken_size(size: int) -> None:
    assert a_game(size) == f"{_article(size)} {size}x{size} game"


def test_the_briefs_sizes() -> None:
    assert [a_game(n).split()[0] for n in (8, 6, 10, 11, 18)] == ["an", "a", "a", "an", "an"]


def test_no_case_label_says_ply_and_every_article_fits_its_size(built) -> None:
    found = labels(built)
    assert len(found) > 10_000
    assert [label for label in found if PLY.search(label)] == []
    sized = [
        (m.group(1).lower(), int(m.group(2))) for label in found for m in SIZED.finditer(label)
    ]
    assert {size for _, size in sized} >= {6, 8}  # the labels do name sizes
    assert [(a, n) for a, n in sized if a != _article(n)] == []
    assert any("after 20 moves" in label for label in found)


@pytest.mark.parametrize("operator", ["AND", "OR", "XOR"])
def test_the_cursor_picture_marks_its_centre_with_a_star(operator: str) -> None:
    for _, rows, bits, _, row, col in _cursor_cases():
        picture = _cursor_picture(rows, bits, operator, row, col)
        cursor = picture.split("\ncursor")[1].splitlines()
        assert f"(operator {operator};" in cursor[0]
        grid = [line.split() for line in cursor[1:]]
        assert len(grid) == 3 and all(len(cells) == 3 for cells in grid)
        assert grid[1][1] == "*"
        bits_drawn = [
            cell for r, line in enumerate(grid) for c, cell in enumerate(line) if (r, c) != (1, 1)
        ]
        assert set(bits_drawn) <= {"0", "1"}
        assert not re.search(r"[01][A-Z][01]", picture)


#: English words no French case label of exercises 07-12 keeps.
ENGLISH = re.compile(r"\b(game|seed|after|moves|depth|window|start(?!:)|case|against|random|corners?|"
                     r"sample map|middle|edge|missing|line|width|height|rearranged|must pass)\b")  # fmt: skip


@pytest.mark.slow
def test_exercises_07_to_12_name_their_cases_in_french_and_expect_the_same_answers() -> None:
    """A case's name follows the reader's language; its expected answer and the mistakes it
    knows do not (an answer judged in words compares its English template), so a French
    notebook is graded against the very same answers as an English one."""
    later = ("07_greedy", "08_positional", "09_minimax", "10_alphabeta", "11_map_files", "12_cursor")
    found = {}
    for code in ("en", "fr"):
        with speaking(code):
            found[code] = {name: exercise.build(name, SEED) for name in later}
    for name in later:
        english, french = ([case for question in found[code][name].questions
                            for part in question.parts for case in part.spec.cases]
                           for code in ("en", "fr"))  # fmt: skip
        assert [(c.expected, c.mistaken) for c in french] == [(c.expected, c.mistaken) for c in english]
        worded = [(e.name, f.name) for e, f in zip(english, french, strict=True) if ENGLISH.search(e.name)]
        assert worded, name
        assert [f for _, f in worded if ENGLISH.search(f)] == [], name
    names = {name: " / ".join(case.name for question in built.questions for part in question.parts
                              for case in part.spec.cases) for name, built in found["fr"].items()}  # fmt: skip
    assert "partie 8x8 (graine 0), après 55 coups, Blanc (coins : en haut à gauche a1)" in names["07_greedy"]
    assert "contre des coups au hasard, après" in names["08_positional"]
    assert "la position de départ, profondeur 3" in names["09_minimax"]
    assert "la position de départ, profondeur 1, fenêtre (2, 4)" in names["10_alphabeta"]
    assert "pas de guillemet fermant (01_first_steps, largeur 5, hauteur 4)" in names["11_map_files"]
    assert "OR au milieu" in names["12_cursor"]
    with speaking("fr"):
        window = [str(case.expected) for question in found["fr"]["10_alphabeta"].questions
                  for part in question.parts for case in part.spec.cases]  # fmt: skip
    assert "la valeur exacte" in window and "the exact value" not in window


def test_why_a_run_stopped_is_said_in_french_whatever_sent_it() -> None:
    """The harness's reasons (its STOPPED pattern) and a run's (runs.exit_reason) are sent in
    English; the reader gets each in French, figures kept, and an unknown text as it came."""
    import signal

    from course.grading.checker import STOPPED, spoken_reason
    from course.grading.runs import exit_reason

    harness = ["timed out after 5 s", "it used up its CPU time (an endless loop?)",
               "Python was killed (out of memory?)", "Python was stopped by signal 15",
               "Python stopped before the end (os._exit or exit?)",
               "Python stopped with exit code 3 (os._exit, memory?)"]  # fmt: skip
    assert all(STOPPED.fullmatch(reason) for reason in harness)
    runs = [exit_reason(code) for code in (None, -signal.SIGXCPU, -signal.SIGKILL, -signal.SIGTERM, 0, 3)]
    sent = harness + runs + ["it stopped Python"]
    assert [spoken_reason(reason) for reason in sent] == sent  # English: as sent
    with speaking("fr"):
        said = [spoken_reason(reason) for reason in sent]
        assert spoken_reason("a text of its own") == "a text of its own"
    assert said[0] == "temps dépassé au bout de 5 s"
    assert said[3] == "Python a été arrêté par le signal 15"
    assert said[5] == "Python s’est arrêté avec le code de sortie 3 (os._exit, mémoire ?)"
    assert said[6:] == ["elle n’a pas fini", "elle a épuisé son temps de calcul (une boucle sans fin ?)",
                        "Python a été tué (plus de mémoire ou de temps ?)", "Python a été arrêté par SIGTERM",
                        "Python s’est arrêté avant la fin (os._exit ou exit ?)",
                        "Python s’est arrêté avec le code de sortie 3 (plus de mémoire, os._exit ou un plantage ?)",
                        "elle a arrêté Python"]  # fmt: skip
    assert not any(english == french for english, french in zip(sent, said, strict=True))
