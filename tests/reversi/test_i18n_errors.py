"""The game's last refusals in French (``speaking("fr")``) and in English as before: the
players' errors, the move clock's ``time_per_move``, the save files' errors and a stopped
search, each a whole sentence naming the input and the reason."""

from __future__ import annotations

import pytest

from reversi.clock import MAX_TIME_PER_MOVE, MoveClock
from reversi.errors import ArgumentError, PlayerError, SaveFileError, SearchStopped
from reversi.i18n import speaking
from reversi.players import make_player
from reversi.players.naming import seat_labels
from reversi.saves import SaveFolder, load_game, parse_save_text


def _refusal(action) -> str:
    with pytest.raises((PlayerError, ArgumentError, SaveFileError)) as caught:
        action()
    return str(caught.value)


def _refusals(tmp_path) -> list[str]:
    folder = SaveFolder(tmp_path)
    return [
        _refusal(lambda: make_player("human", name="  ")),
        _refusal(lambda: make_player("wizard", name="Ann")),
        _refusal(lambda: make_player("random", name="Ann", depth=3)),
        _refusal(lambda: seat_labels(3, "Bob")),
        _refusal(lambda: MoveClock(time_per_move=-1)),
        _refusal(lambda: load_game(tmp_path / "missing.json")),
        _refusal(lambda: parse_save_text("[1,", "'x.json'")),
        _refusal(lambda: folder.load("ghost")),
        _refusal(lambda: folder.path("../up")),
        str(SearchStopped()),
    ]


def test_the_refusals_in_french(tmp_path) -> None:
    with speaking("fr"):
        said = _refusals(tmp_path)
    missing = repr(str(tmp_path / "missing.json"))
    assert said == [
        "le nom de joueur '  ' est vide : un joueur a besoin d’un nom",
        "type de joueur 'wizard' inconnu : choisis parmi " + said[1].split("parmi ")[1],
        said[2].split(" n’a pas")[0] + " n’a pas de réglage 'depth' (ses réglages : " + said[2].split("réglages : ")[1],
        "le nom de Noir doit être du texte, pas 3",
        f"time_per_move doit être un nombre positif de secondes (au plus {MAX_TIME_PER_MOVE:g}) ou None, pas -1",
        f"impossible de charger {missing} : ce fichier n’existe pas",
        "impossible de charger 'x.json' : ce n’est pas du JSON valide (ligne 1, colonne 4 : Expecting value) ;"
        " le fichier est peut-être tronqué ou abîmé",
        "il n’y a pas de sauvegarde appelée 'ghost' (sauvegardes : aucune pour l’instant)",
        "'../up' n’est pas un nom de sauvegarde : utilise de 1 à 40 lettres, chiffres, espaces, '-' ou '_',"
        " en commençant par une lettre ou un chiffre",
        "la recherche s’est arrêtée avant d’avoir une réponse : temps écoulé, ou arrêt demandé",
    ]


def test_the_refusals_stay_english_by_default(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    said = _refusals(tmp_path)
    missing = repr(str(tmp_path / "missing.json"))
    assert said == [
        "player name '  ' is blank: a player needs a name",
        "unknown player kind 'wizard': choose one of " + said[1].split("one of ")[1],
        said[2].split(" has no")[0] + " has no setting 'depth' (its settings: " + said[2].split("settings: ")[1],
        "Black's name must be text, not 3",
        f"time_per_move must be a positive number of seconds (at most {MAX_TIME_PER_MOVE:g}) or None, not -1",
        f"cannot load {missing}: there is no such file",
        "cannot load 'x.json': it is not valid JSON (line 1, column 4: Expecting value);"
        " the file may be truncated or damaged",
        "there is no save called 'ghost' (saves: none yet)",
        "'../up' is not a save name: use 1 to 40 letters, digits, spaces, '-' or '_',"
        " starting with a letter or digit",
        "the search stopped before it had an answer: out of time, or asked to stop",
    ]
