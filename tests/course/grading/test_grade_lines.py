"""What ``python -m course grade`` prints for the teacher: French under KIT_LANG=fr (vous),
English otherwise, the sheet's own values (ids, points, exercise names) the same in both."""

from __future__ import annotations

from pathlib import Path

import pytest

import course.__main__ as cli
from course.grading import gradebook
from course.roster.model import Roster
from course.roster.store import ROSTER, RosterFile

ROW = {"student_id": "ada-lovelace", "name": "Ada Lovelace", "points": "1.5", "max_points": "4",
       "passed": "1", "total": "3", "missing": "03_lines", "late": "02_counting",
       "errors": "ada-lovelace 01_squares: not a notebook", "similar": "alan-turing"}  # fmt: skip


def _grade(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           language: str) -> str:  # fmt: skip
    """What ``grade subs`` prints with a roster, ``grade_folder`` replaced by one that says a
    hand-in's error and a warning and grades Ada."""

    def grade_folder(*args: object, say=print, **kwargs: object) -> gradebook.Graded:
        say(gradebook.error_line("ada-lovelace 01_squares: not a notebook"))
        return gradebook.Graded([ROW], ["ada__04_flips.txt is not a notebook"], [],
                                ["01_squares: to_notation 1/1"], {})  # fmt: skip

    monkeypatch.setattr(gradebook, "grade_folder", grade_folder)
    monkeypatch.setenv("KIT_LANG", language)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "subs").mkdir(exist_ok=True)
    RosterFile(ROSTER).save(Roster().add("Ada Lovelace").add("Alan Turing"))
    assert cli.main(["grade", "subs"]) == 0
    return capsys.readouterr().out


def test_the_grade_command_speaks_french_to_the_teacher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _grade(tmp_path, monkeypatch, capsys, "fr").splitlines()
    assert said == [
        "Liste de classe : class/roster.json, 2 élèves (--no-roster l’ignore)",
        "erreur : ada-lovelace 01_squares: not a notebook",
        "avertissement : ada__04_flips.txt is not a notebook",
        "Ada Lovelace (ada-lovelace) : 1.5/4 points, 1/3 réussies (manquants : 03_lines)"
        " (en retard : 02_counting)",
        "  erreurs : ada-lovelace 01_squares: not a notebook",
        "  copies proches : alan-turing",
        "01_squares: to_notation 1/1",
        "class/grades.csv est écrit (1 élève), avec ses copies pour Canvas et Moodle, la page de "
        "synthèse et les pages de retour dans class/grades-feedback",
    ]


def test_the_grade_command_s_english_is_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _grade(tmp_path, monkeypatch, capsys, "en").splitlines()
    assert said == [
        "Roster: class/roster.json, 2 students (--no-roster ignores it)",
        "error: ada-lovelace 01_squares: not a notebook",
        "warning: ada__04_flips.txt is not a notebook",
        "Ada Lovelace (ada-lovelace): 1.5/4 points, 1/3 passed (missing: 03_lines)"
        " (late: 02_counting)",
        "  errors: ada-lovelace 01_squares: not a notebook",
        "  similar: alan-turing",
        "01_squares: to_notation 1/1",
        "Wrote class/grades.csv (1 student), its Canvas and Moodle copies, the summary page and "
        "the feedback pages in class/grades-feedback",
    ]
