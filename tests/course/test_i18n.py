"""The kit in French: every message of the code has a French translation, the compiled
catalogues are the ones Babel makes from the PO files, and kit.py, serve and the self-check
talk French when asked and English by default.

The check of the catalogues (:func:`course.translations.problems`) is itself tested on a
catalogue with a hole, so it is known to fail when a translation is missing.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from course import i18n, translations
from course.grading import checks
from course.grading.runner import CheckFailed

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def template() -> object:
    """The messages of the code, extracted by Babel once for the module."""
    return translations.extract()


def test_every_message_has_a_french_translation_and_every_mo_is_compiled_from_its_po(
    template: object,
) -> None:
    assert translations.languages() == ["fr"]
    assert len(template) > 150  # type: ignore[arg-type]
    assert translations.problems(template=template) == []


def test_the_check_finds_a_missing_a_fuzzy_translation_and_a_stale_mo(
    template: object, tmp_path: Path
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE, locale)
    path = translations.po_path("fr", locale)
    catalogue = translations.read(path)
    hole, doubtful = "Press Ctrl-C to stop.", "Teacher key: {key}"
    catalogue[hole].string = ""
    catalogue[doubtful].flags.add("fuzzy")
    translations.write(path, catalogue)
    holes = sorted(f"{path}: no translation of {message!r}" for message in (hole, doubtful))
    stale = f"{path.with_suffix('.mo')}: not compiled from kit.po (run: python3 kit.py translations compile)"
    assert sorted(translations.problems(locale, template)) == sorted([*holes, stale])
    # compiled, the kit reads the two as English and the rest as French; the check still fails
    path.with_suffix(".mo").write_bytes(translations.compiled(catalogue))
    assert sorted(translations.problems(locale, template)) == holes
    french = i18n.catalogue("fr", locale)
    assert french.gettext(hole) == hole and french.gettext(doubtful) == doubtful
    assert french.gettext("Students join with:") == "Les élèves rejoignent avec :"


def test_a_language_is_chosen_by_kit_lang_or_inside_speaking(monkeypatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    assert i18n.language() == "en" and i18n._("Stopped.") == "Stopped."
    monkeypatch.setenv("KIT_LANG", "fr_FR")
    assert i18n.language() == "fr" and i18n._("Stopped.") == "Arrêté."
    with i18n.speaking("en"):
        assert i18n._("Stopped.") == "Stopped."
    monkeypatch.setenv("KIT_LANG", "xx")  # unknown: English (kit.py and python -m course refuse it)
    assert i18n.language() == "en"
    assert i18n.LANGUAGES == {"en": "English", "fr": "français"}
    with pytest.raises(ValueError, match=r"^unknown language 'xx': the kit speaks en \(English\), fr \(français\)$"):
        i18n.checked_language("xx")


def _self_check(function: object) -> tuple[str, str]:
    """What a check cell of exercise 01 prints for ``function``, and the error it ends with."""
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(CheckFailed) as failed:
        checks.to_notation(function)
    return printed.getvalue(), str(failed.value)


def swapped(row: int, col: int) -> str:
    return "abcdefghijklmnop"[row] + str(col + 1)


def test_a_failing_self_check_of_exercise_01_says_in_french_what_failed_and_why(monkeypatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    with i18n.speaking("fr"):
        printed, error = _self_check(swapped)
    lines = printed.splitlines()
    assert lines[0] == "to_notation : 4/11 cas réussis (auto-vérification ; la note est calculée à part)"
    assert lines[1:5] == [
        "Premier cas en échec : ligne 2, colonne 3",
        "  appel :   to_notation(2, 3)",
        "  attendu : 'd3'",
        "  obtenu :  'c4'",
    ]
    assert lines[5] == (
        "  cause probable : ligne et colonne inversées : une case est (row, col) ; "
        "la lettre désigne la colonne, le chiffre la ligne"
    )
    assert error.startswith("to_notation : 7 cas sur 11 en échec ; le premier : ligne 2, colonne 3")
    with i18n.speaking("fr"):
        _, unwritten = _self_check(lambda row, col: (_ for _ in ()).throw(NotImplementedError()))
    assert unwritten == "to_notation: pas encore écrite : la fonction lève NotImplementedError"


def test_english_stays_the_default(monkeypatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    printed, error = _self_check(swapped)
    assert printed.splitlines()[0] == (
        "to_notation: 4/11 cases passed (self-check; the grade is computed separately)"
    )
    assert "  likely cause: row and column swapped: a square is (row, col); " in printed
    assert error.startswith("to_notation: 7 of 11 cases failed; first: row 2, column 3")


@pytest.fixture
def kit_copy(tmp_path: Path) -> Path:
    """kit.py with the catalogues in a folder of its own (its --lang choice is kept there)."""
    folder = tmp_path / "kit"
    (folder / "course").mkdir(parents=True)
    shutil.copy(ROOT / "kit.py", folder)
    shutil.copy(ROOT / "course" / "i18n.py", folder / "course")
    shutil.copytree(i18n.LOCALE, folder / "course" / "locale")
    return folder


def _kit(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key != "KIT_LANG"}
    return subprocess.run([sys.executable, str(folder / "kit.py"), *args], cwd=folder, text=True,
                          capture_output=True, timeout=60, env={**environ, **env})  # fmt: skip


def test_kit_py_talks_french_once_asked_and_keeps_the_choice(kit_copy: Path) -> None:
    shown = _kit(kit_copy, "--lang", "fr", "--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage : python3 kit.py [--lang CODE] COMMANDE [ARGUMENTS...]")
    assert ["lab", "ouvrir JupyterLab à la leçon d’accueil"] in [
        line.split(None, 1) for line in shown.stdout.splitlines()
    ]
    assert "commandes :" in shown.stdout
    assert (kit_copy / ".kit-lang").read_text(encoding="utf-8") == "fr\n"
    refused = _kit(kit_copy, "bogus")  # the choice is kept: French with no --lang
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[0] == "kit.py: commande inconnue 'bogus'"
    english = _kit(kit_copy, "bogus", KIT_LANG="en")  # the environment wins over the kept choice
    assert english.stderr.splitlines()[0] == "kit.py: unknown command 'bogus'"
    back = _kit(kit_copy, "--lang", "en")
    assert back.stdout == "The kit speaks English from now on (kept in .kit-lang).\n"


def test_an_unknown_language_is_refused_with_the_list_and_nothing_is_made(kit_copy: Path) -> None:
    refused = _kit(kit_copy, "lab", "--lang", "klingon")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        "kit.py: unknown language 'klingon': the kit speaks en (English), fr (français)\n"
    )
    assert not (kit_copy / ".kit-lang").exists() and not (kit_copy / ".venv").exists()
    course = subprocess.run([sys.executable, "-m", "course", "check", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "KIT_LANG": "de"})  # fmt: skip
    assert course.returncode == 2
    assert course.stderr == (
        "error: KIT_LANG: unknown language 'de': the kit speaks en (English), fr (français)\n"
    )


def test_serve_s_first_lines_are_french(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "course", "serve", "--no-site", "--port", "0",
         "--data", str(tmp_path / "data")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "KIT_LANG": "fr"},
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert server.stdout is not None
        for line in server.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Appuyez sur Ctrl-C"):
                break
    finally:
        server.send_signal(signal.SIGTERM)
        rest = server.communicate(timeout=60)[0]
    assert lines[0].startswith("Serveur de classe à l’écoute sur ws://127.0.0.1:")
    assert lines[0].endswith("(pas de pendule par coup ; places gardées 60 s)")
    assert lines[1].startswith("Les élèves rejoignent avec :  from course import join; join(")
    assert lines[2] == "  (cet ordinateur seulement : --host 0.0.0.0 laisse entrer les machines des élèves)"
    assert lines[3].startswith("Clé de l’enseignant : ")
    assert lines[4].startswith("Page de l’enseignant : http://127.0.0.1:")
    assert lines[5] == f"Les parties sont gardées dans {tmp_path / 'data'} (pas de rendus sans la classe dans le navigateur)"
    assert lines[-1] == "Appuyez sur Ctrl-C pour arrêter."
    assert "Serveur de classe arrêté ; tout est enregistré." in rest


def test_the_board_says_in_french_what_happened_and_its_live_region_reads_it() -> None:
    from course.board import messages
    from reversi.game import Game
    from reversi.notation import BLACK
    from reversi.outcome import EndReason, Outcome

    game = Game()
    game.play("d3")
    with i18n.speaking("fr"):
        assert messages.spoken_position(game) == (
            "Dernier coup : Noir en d3, 1 pion retourné. Pions : Noir 4, Blanc 1. Au tour de Blanc."
        )
        assert messages.result(Outcome(BLACK, EndReason.NO_MOVES, 40, 24)) == (
            "Noir gagne, Noir 40 – Blanc 24 : aucun des deux camps ne peut jouer."
        )
        assert messages.click_a_square() == (
            "Clique sur une case du plateau (les coordonnées ne sont pas des cases)."
        )
    assert messages.spoken_position(game).startswith("Last move: Black d3, turning 1 disc.")


def test_the_board_s_panels_write_french_rows() -> None:
    from course.board.panels import pawns_html
    from reversi.board import PawnCounts

    with i18n.speaking("fr"):
        french = pawns_html(PawnCounts(4, 1, 5, 59))
    assert '<div class="reversi-row" style="line-height: 1.6"><b>Noir</b> : 4</div>' in french
    assert "<b>Vides</b> : 59</div>" in french
    assert "<b>Empty</b>: 59</div>" in pawns_html(PawnCounts(4, 1, 5, 59))


@pytest.mark.slow
def test_a_french_notebook_is_graded_as_an_english_one_and_its_feedback_is_french(
    tmp_path: Path,
) -> None:
    """Grading does not depend on the language; the reasons and the page follow the notebook."""
    from course.grading import checker, feedback
    from tests.course.grading.helpers import source, with_answers, write

    swapped_answer = 'def to_notation(row, col):\n    return "abcdefghijklmnop"[row] + str(col + 1)\n'
    english = with_answers(source("01_squares"), {"answer:to_notation": swapped_answer})
    french = {**english, "metadata": {**english["metadata"], "course": {"exercise": "01_squares",
                                                                        "language": "fr"}}}  # fmt: skip
    reports = {
        code: checker.check(write(notebook, tmp_path / f"{code}.ipynb"), seed=7)
        for code, notebook in (("en", english), ("fr", french))
    }
    assert [(r.passed, r.earned) for r in reports["fr"].checks] == [
        (r.passed, r.earned) for r in reports["en"].checks
    ]
    assert reports["fr"].language == "fr" and reports["en"].language == "en"
    failed = next(r for r in reports["fr"].checks if not r.passed)
    wrong = failed.cases_total - failed.cases_passed
    assert failed.message.startswith(
        f"{wrong} cas sur {failed.cases_total} en échec ; le premier : ligne 2, colonne 3 ; "
        "cause probable : ligne et colonne inversées"
    )
    with i18n.speaking(reports["fr"].language):
        page = feedback.page("Zoé", [feedback.section(reports["fr"])], total="1 point sur 2")
    assert feedback.language_of([feedback.section(reports["fr"])]) == "fr"
    assert '<html lang="fr">' in page and "<h1>Retour pour Zoé</h1>" in page
    assert "Cause probable : ligne et colonne inversées" in page
    english_page = feedback.page("Zoe", [feedback.section(reports["en"])])
    assert '<html lang="en">' in english_page and "Likely cause: row and column swapped" in english_page


def test_the_teacher_s_page_is_french_once_asked_and_its_script_words_are_data() -> None:
    import json
    import re

    from course.classroom.overview import page

    with i18n.speaking("fr"):
        french = page()
    assert '<html lang="fr">' in french and "<h1>Vue de la classe</h1>" in french
    assert "<label>Clé de l’enseignant <input" in french
    words = json.loads(re.search(r"const WORDS = (.*);\n", french).group(1))  # type: ignore[union-attr]
    assert words["kickName"] == "Exclure {name}" and words["white"] == "blanc"
    english = page()
    assert '<html lang="en">' in english and "<h1>Class overview</h1>" in english
    assert json.loads(re.search(r"const WORDS = (.*);\n", english).group(1))["kick"] == "Kick"  # type: ignore[union-attr]
    assert "@@" not in french + english


def test_near_copies_are_named_in_the_teachers_language() -> None:
    """``grade``'s "similar" flags: English by default, French when the kit speaks it."""
    from types import SimpleNamespace

    from course.grading.similarity import flag

    answer = "def flips(board, square, color):\n" + "    total = square + color + board\n" * 8
    exercise = SimpleNamespace(answers=["answer:flips"], starters={}, solutions={"answer:flips": answer})
    by_student = {"ann": {"04_flips": SimpleNamespace(answers={"answer:flips": answer})}}
    assert flag(by_student, {"04_flips": exercise}) == {  # type: ignore[arg-type]
        "ann": ["04_flips answer:flips 1.00 like the teacher's solution"]}
    with i18n.speaking("fr"):
        flags = flag(by_student, {"04_flips": exercise})  # type: ignore[arg-type]
    assert flags == {"ann": ["04_flips answer:flips 1.00 proche de la solution de l’enseignant"]}
