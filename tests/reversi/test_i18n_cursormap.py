"""The cursor-map game's words in French (``speaking("fr")``) and in English by default: a
game's log and outcome, the map-file parser's problems, and the refusal of a wrong argument
as one whole sentence (the words of what was wanted are said when the refusal is made)."""

from __future__ import annotations

import pytest

from reversi import Game
from reversi.cursormap import CursorArgumentError, CursorMap, MapFileError, parse_map
from reversi.cursormap.game import CursorGame
from reversi.cursormap.rules import Cursor, Operator
from reversi.errors import ArgumentError
from reversi.i18n import speaking

UNDEFINED = 'width=1;\nheight=1;\none=b;\ntwo=r;\nnone=g;\non=1;\noff=0;\nempty=.;\nstart:\n"x"\n"1"'


def _games() -> tuple[list[str], list[str], str]:
    """Two turns to a win on a turn limit, one hidden cursor that changes nothing: both logs,
    and the refusal of a move once the game is over."""
    game = CursorGame(CursorMap.from_strings(["bbr"], ["000"]), seed=1, max_turns=2)
    game.apply()
    game.apply()
    hidden = CursorGame(
        CursorMap.from_strings(["br"], ["01"]), seed=1, dealer=lambda rng: Cursor((1,) * 8, Operator.OR, hidden=True)
    )
    hidden.apply()
    try:
        game.move("up")
    except Exception as error:
        return game.log, hidden.log, str(error)
    raise AssertionError("a game over moved its cursor")


def test_a_cursor_map_game_in_french() -> None:
    with speaking("fr"):
        log, hidden, refused = _games()
        draw = CursorGame(CursorMap.from_strings(["bgr"], ["000"]), seed=3, max_turns=1,
                          dealer=lambda rng: Cursor((0,) * 8, Operator.AND))  # fmt: skip
        draw.apply()
    assert log == [
        "Nouvelle partie sur une carte 3x1, graine 1, 2 tours au plus ; joueur un (bleu) commence.",
        "Tour 1 : joueur un (bleu) a appliqué OR 001/1.0/111 en (0, 1) : 1 champ modifié.",
        "Tour 2 : joueur deux (rouge) a appliqué OR 010/1.1/101 en (0, 1) : 1 champ modifié.",
        "Joueur deux (rouge) gagne au tour 2 : tous ses champs (1) sont allumés.",
    ]
    assert hidden[1] == (
        "Tour 1 : joueur un (bleu) a appliqué ? 111/1.1/111 en (0, 0) (l’opérateur caché était OR) : 0 champ modifié."
    )
    assert refused.startswith("impossible de déplacer le curseur : la partie est terminée (Joueur deux (rouge)")
    assert draw.log[-1] == "Match nul : la limite de tours (1) est atteinte sans gagnant."


def test_the_same_games_stay_english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    log, hidden, refused = _games()
    assert log == [
        "New game on a 3x1 map, seed 1, at most 2 turns; player one (blue) begins.",
        "Turn 1: player one (blue) applied OR 001/1.0/111 at (0, 1): 1 field changed.",
        "Turn 2: player two (red) applied OR 010/1.1/101 at (0, 1): 1 field changed.",
        "Player two (red) wins on turn 2: all 1 of their fields are on.",
    ]
    assert hidden[1] == "Turn 1: player one (blue) applied ? 111/1.1/111 at (0, 0) (the hidden operator was OR): 0 fields changed."
    assert refused.startswith("cannot move the cursor: the game is over (Player two (red)")


@pytest.mark.parametrize(
    ("text", "french", "english"),
    [
        ("width=4;\nheight=x;\n", "ligne 2, colonne 8 : height doit être un nombre entier positif, pas 'x'",
         "line 2, column 8: height must be a positive integer, got 'x'"),
        (UNDEFINED, "ligne 10, colonne 2 : 'x' n’est pas un caractère défini ; la ligne des propriétaires de la "
         "ligne 1 de la carte prend 'b' (one), 'r' (two) ou 'g' (none)",
         "line 10, column 2: 'x' is not a defined character; the owner line of row 1 takes 'b' (one), 'r' (two) or 'g' (none)"),
        ("width=1;\n", "ligne 2, colonne 1 : le fichier se termine sans ligne 'start:' avant la carte",
         "line 2, column 1: the file ends without a 'start:' line before the map"),
    ],
)  # fmt: skip
def test_the_map_files_problems_in_french_and_english(text: str, french: str, english: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    with speaking("fr"), pytest.raises(MapFileError) as refused:
        parse_map(text)
    assert str(refused.value) == french
    with pytest.raises(MapFileError) as refused:
        parse_map(text)
    assert str(refused.value) == english


def test_a_wrong_argument_is_refused_in_one_french_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIT_LANG", raising=False)
    board = CursorMap.from_strings(["br"], ["01"])
    with speaking("fr"):
        with pytest.raises(CursorArgumentError) as cursor:
            CursorGame(board, max_turns=0)
        with pytest.raises(ArgumentError) as square:
            Game().play(3.5)
        with pytest.raises(ArgumentError) as listed:
            Game().play(["d3"])
    assert str(cursor.value) == "CursorGame() : max_turns doit être un nombre entier de 1 à 1000000000 ou None, pas 0"
    assert str(square.value) == "Game.play() : square doit être une case comme 'd3' ou un Square, pas 3.5"
    assert str(listed.value).startswith("Game.play() : square doit être ")
    # the same rules, compiled once at import, say it in English outside the block
    with pytest.raises(CursorArgumentError) as cursor:
        CursorGame(board, max_turns=0)
    assert str(cursor.value) == "CursorGame(): max_turns must be a whole number from 1 to 1000000000 or None, not 0"
