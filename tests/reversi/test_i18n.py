"""The game's own words in French (``KIT_LANG=fr`` or ``speaking("fr")``) and in English by
default: the log of a short game, its outcome, the errors it refuses with; and the check of
the ``reversi`` catalogue, which fails when a French message is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from course import i18n as kit_i18n
from course import translations
from reversi import BLACK, WHITE, Board, Game, square
from reversi.cursormap import MapFileError
from reversi.errors import GameOverError, IllegalMoveError, NotationError, UndoError
from reversi.i18n import speaking
from reversi.outcome import NoMovePolicy, hand_over


def _short_game() -> tuple[Game, list[str]]:
    """Black plays f5, White tries a1, asks to undo with nothing to take back, then resigns;
    the game's log and the errors it raised, in the language of the moment."""
    game = Game()
    game.play("f5")
    refused = []
    with pytest.raises(IllegalMoveError) as illegal:
        game.play("a1")
    refused.append(str(illegal.value))
    with pytest.raises(UndoError) as undo:
        game.request_undo(WHITE)
    refused.append(str(undo.value))
    game.resign()
    with pytest.raises(GameOverError) as over:
        game.play("d6")
    refused.append(str(over.value))
    return game, refused


def test_a_short_game_in_french_through_kit_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_LANG", "fr_FR")
    game, refused = _short_game()
    assert game.log == [
        "Nouvelle partie : Noir contre Blanc",
        "1. Noir f5 retourne e5",
        "Blanc abandonne",
        "Partie terminée : Noir gagne, Noir 4 – Blanc 1 (abandon)",
    ]
    assert refused == [
        "'a1' n’est pas un coup légal pour Blanc : aucun pion noir n’est à côté de a1",
        "Blanc n’a encore aucun coup à reprendre",
        "impossible de jouer : la partie est terminée (Noir gagne, Noir 4 – Blanc 1 (abandon))",
    ]


def test_the_same_game_stays_english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    game, refused = _short_game()
    assert game.log == [
        "New game: Black against White",
        "1. Black f5 flips e5",
        "White resigns",
        "Game over: Black wins, Black 4 – White 1 (resignation)",
    ]
    assert refused == [
        "'a1' is not a legal move for White: no Black disc is next to a1",
        "White has no move to take back yet",
        "cannot play: the game is over (Black wins, Black 4 – White 1 (resignation))",
    ]


def test_the_kits_speaking_reaches_the_game_and_english_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    board = Board.from_text("W W W .\nW B . .\n. . . .\n. . . .")
    with kit_i18n.speaking("fr"):
        assert hand_over(board, WHITE, NoMovePolicy.CHANGE_TURN).note == (
            "Noir n’a aucun coup légal et doit passer son tour"
        )
        with pytest.raises(NotationError) as refused:
            square("i1", size=8)
        assert str(refused.value) == "'i1' n’est pas une case d’un plateau 8x8 : les colonnes vont de a à h"
        assert str(MapFileError("width", line=3, column=7)) == "ligne 3, colonne 7 : width"
        with speaking("en"):  # the game's own choice, innermost, wins
            assert str(Board().illegal_reason("a1", BLACK)) == "no White disc is next to a1"
    assert hand_over(board, WHITE, NoMovePolicy.CHANGE_TURN).note == "Black has no legal move and must pass"


def test_a_player_called_by_its_colour_is_titled_in_the_readers_words() -> None:
    game = Game()
    with speaking("fr"):
        assert (game.title(BLACK), Game(white=None).title(WHITE)) == ("Noir", "Blanc")
    with speaking("de"):  # a language without a reversi catalogue: English
        assert game.title(BLACK) == "Black"


def test_every_game_message_is_french_and_the_check_finds_one_missing(tmp_path: Path) -> None:
    template = translations.extract(domain=translations.GAME)
    assert len(template) > 60
    assert translations.problems(template=template, domain=translations.GAME) == []
    locale = tmp_path / "locale"
    shutil.copytree(translations.GAME.locale, locale)
    path = translations.po_path("fr", locale, translations.GAME)
    catalogue = translations.read(path)
    catalogue["{player} resigns"].string = ""
    translations.write(path, catalogue)
    path.with_suffix(".mo").write_bytes(translations.compiled(catalogue))
    assert translations.problems(locale, template, translations.GAME) == [
        f"{path}: no translation of '{{player}} resigns'"
    ]
