"""The cursor-map board's own words in French (``speaking("fr")``) and, by default, in
English exactly as before: the controller's messages and texts, the players named in the
reader's language, the directions, and the board's labels, tooltips and error display."""

from __future__ import annotations

import pytest

from course.cursormap import CursorMapController, play_cursormap
from course.cursormap.svg import preview_map
from course.i18n import speaking
from reversi.cursormap import CursorMap, sample_text

SEED = 2024
BAD = sample_text("01_first_steps").replace("height=4;", "height=four;")


def _played() -> list[str]:
    """What a controller says along a short game: moves, an edge, clicks, a turn, a bad
    map text, a new game on the player's own map, and a key after the game is over."""
    c = CursorMapController("01_first_steps", seed=SEED)
    said = [c.message, c.turn_text, c.position_text, c.remaining_text]
    c.move("up")
    said.append(c.message)
    c.move("up")
    said.append(c.message)
    c.key("ArrowLeft")
    said.append(c.message)
    c.click_field(9, 9)
    said.append(c.message)
    c.click_field(2, 1)
    said.append(c.message)
    c.apply()
    said += [c.turn_text, c.remaining_text]
    c.load_text(BAD)
    said.append(c.error.split("\n")[0].split(":")[0])
    said.append(c.error.split("\n")[1])
    c.load_text(sample_text("02_grey_river"))
    said.append(c.message)
    tiny = CursorMapController(CursorMap.from_strings(["bgr"], ["000"]), seed=1, max_turns=1)
    said.append(tiny.message)
    tiny.apply()
    tiny.move("down")
    said.append(tiny.message)
    return said


def test_the_controller_speaks_french() -> None:
    with speaking("fr"):
        said = _played()
    assert said == [
        "Carte « 01_first_steps » : joueur un (bleu) commence.",
        "Tour 1 : joueur un (bleu) joue",
        "Curseur XOR en (1, 2)",
        "joueur un (bleu) : 6 champs sur 8 encore éteints ; "
        "joueur deux (rouge) : 6 champs sur 8 encore éteints",
        "Curseur déplacé vers le haut.",
        "Le bord de la carte : impossible d’aller vers le haut.",
        "Curseur déplacé vers la gauche.",
        "Curseur non déplacé : (9, 9) est hors de la carte 5x4 : les lignes vont de 0 à 3, les colonnes de 0 à 4.",
        "Curseur placé en (2, 1).",
        "Tour 2 : joueur deux (rouge) joue",
        "joueur un (bleu) : 3 champs sur 8 encore éteints ; "
        "joueur deux (rouge) : 6 champs sur 8 encore éteints",
        "Carte non chargée ",
        "ligne 8 | height=four;    and 4 fields high",
        "Nouvelle partie sur la carte « ta carte » : joueur un (bleu) commence.",
        "Carte « ta carte » : joueur un (bleu) commence.",
        "La partie est terminée : appuie sur Nouvelle partie pour rejouer.",
    ]


def test_the_controller_is_english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    assert _played() == [
        "Map 01_first_steps: player one (blue) begins.",
        "Turn 1: player one (blue) to play",
        "Cursor XOR at (1, 2)",
        "player one (blue): 6 of 8 still off; player two (red): 6 of 8 still off",
        "Moved up.",
        "The edge of the map: cannot move up.",
        "Moved left.",
        "Not moved: (9, 9) is off the 5x4 map: rows go from 0 to 3, columns from 0 to 4.",
        "Cursor placed on (2, 1).",
        "Turn 2: player two (red) to play",
        "player one (blue): 3 of 8 still off; player two (red): 6 of 8 still off",
        "Map not loaded",
        "line 8 | height=four;    and 4 fields high",
        "New game on map your map: player one (blue) begins.",
        "Map your map: player one (blue) begins.",
        "The game is over: press New game to play again.",
    ]


def test_one_field_still_off_is_singular_in_french() -> None:
    controller = CursorMapController(CursorMap.from_strings(["br"], ["01"]), seed=1)
    with speaking("fr"):
        assert controller.remaining_text == (
            "joueur un (bleu) : 1 champ sur 1 encore éteint ; joueur deux (rouge) : 0 champ sur 1 encore éteint"
        )
    with speaking("en"):
        assert controller.remaining_text == "player one (blue): 1 of 1 still off; player two (red): 0 of 1 still off"


def _board_words() -> dict[str, str]:
    board = play_cursormap("01_first_steps", seed=SEED)
    words = {key: f"{button.description} | {button.tooltip}" for key, button in board.buttons.items()}
    words["samples"] = board.sample_picker.description
    words["load"] = f"{board.load_button.description} | {board.load_button.tooltip}"
    words["upload"] = board.upload.description
    words["picker"] = board.picker.titles[0]
    board.show_error(ValueError("boom"), "redraw")
    words["error"] = board.error.value.split("<pre>")[0]
    board._on_upload({"new": [{"name": "x.map", "content": b"\xff\xfe"}]})
    words["upload error"] = board.error.value
    return words


def test_the_board_speaks_french() -> None:
    with speaking("fr"):
        words = _board_words()
    assert words == {
        "up": "↑ | Déplacer le curseur vers le haut (flèche vers le haut)",
        "left": "← | Déplacer le curseur vers la gauche (flèche vers la gauche)",
        "right": "→ | Déplacer le curseur vers la droite (flèche vers la droite)",
        "down": "↓ | Déplacer le curseur vers le bas (flèche vers le bas)",
        "apply": "Appliquer | Appliquer le curseur ici (Entrée)",
        "new": "Nouvelle partie | Recommencer sur cette carte",
        "samples": "Carte d’exemple",
        "load": "Jouer sur cette carte | Lire le texte ci-dessus et jouer sur cette carte",
        "upload": "Envoyer une carte",
        "picker": "Choisir ou écrire une carte",
        "error": "<div style='color:#b00020'><b>Erreur dans redraw :</b> ValueError: boom</div>"
        "<details><summary>Pile des appels (traceback)</summary>",
        "upload error": "<pre style='color:#b00020'>x.map n’est pas un fichier texte (UTF-8).</pre>",
    }


def test_the_board_is_english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    assert _board_words() == {
        "up": "↑ | Move the cursor up (arrow up)",
        "left": "← | Move the cursor left (arrow left)",
        "right": "→ | Move the cursor right (arrow right)",
        "down": "↓ | Move the cursor down (arrow down)",
        "apply": "Apply | Apply the cursor here (Enter)",
        "new": "New game | Start again on this map",
        "samples": "Sample map",
        "load": "Play this map | Read the text above and play on it",
        "upload": "Upload map",
        "picker": "Choose or write a map",
        "error": "<div style='color:#b00020'><b>Error in redraw:</b> ValueError: boom</div>"
        "<details><summary>Traceback</summary>",
        "upload error": "<pre style='color:#b00020'>x.map is not a text file (UTF-8).</pre>",
    }


def test_a_map_error_report_in_both_languages() -> None:
    with speaking("fr"):
        assert str(preview_map(BAD)).startswith("Erreur dans la carte : ligne 8, colonne 8 : ")
    with speaking("en"):
        assert str(preview_map(BAD)).startswith("Map error: line 8, column 8: ")
