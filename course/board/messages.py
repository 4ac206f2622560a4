"""Every sentence the notebook board says, written once, as a person would say it.

This module owns the wording of the status line, the turn line and the countdown;
it reads games and players but never changes them, and it imports no widget.  The
controller decides *when* to say something, this module *how*.

>>> from reversi.game import Game
>>> game = Game()
>>> to_move(game)
'Black to move.'
>>> score(8, 4)
'Black 8 – White 4'
>>> from reversi.outcome import EndReason, Outcome
>>> from reversi.notation import BLACK
>>> result(Outcome(BLACK, EndReason.NO_MOVES, 40, 24))
'Black wins, Black 40 – White 24: neither side can move.'
"""

from __future__ import annotations

import math

from reversi.game import Game
from reversi.notation import Color, Square
from reversi.outcome import EndReason, Outcome
from reversi.players import Player
from reversi.surface import Choice


class Tone(Choice):
    """How the status line should look: a normal message, a refusal, or an unexpected error."""

    NORMAL = "normal"
    REFUSAL = "refusal"
    ERROR = "error"


def sentences(*sentences: str) -> str:
    """Sentences for the status line, skipping empty ones."""
    return " ".join(s.strip() for s in sentences if s.strip())


def score(black: int, white: int) -> str:
    """``'Black 8 – White 4'``."""
    return f"Black {black} – White {white}"


def who(game: Game, color: Color) -> str:
    """``'White (Greedy)'``, or just ``'White'`` when the player is named after the colour."""
    name = game.player(color).name
    return str(color) if name == str(color) else f"{color} ({name})"


# -- the turn line --------------------------------------------------------------------


def to_move(game: Game) -> str:
    """Who is to do what now (empty once the game is over)."""
    if game.is_over:
        return ""
    asker = game.pending_undo
    if asker is not None:
        return f"{asker.opponent} must answer {asker}'s undo request."
    if game.must_pass:
        return f"{who(game, game.turn)} has no legal move and must pass."
    return f"{who(game, game.turn)} to move."


def turn_line(game: Game, thinking: Color | None = None) -> str:
    """The line above the board: the result, a computer thinking, or who is to move."""
    outcome = game.outcome
    if outcome is not None:
        return f"Game over: {result(outcome)}"
    if thinking is not None and thinking is game.turn:
        return f"{who(game, thinking)} is thinking…"
    return to_move(game)


def countdown(game: Game) -> str:
    """``'Black (Ann): 12 s left'`` in a timed game, else an empty string."""
    left = game.time_left()
    if left is None or game.is_over:
        return ""
    return f"{who(game, game.turn)}: {math.ceil(left)} s left"


_WHY = {
    EndReason.NO_MOVES: "neither side can move",
    EndReason.STALEMATE: "the side to move had no move, and these rules call that a stalemate",
    EndReason.OPPONENT_WINS: "the side to move had no move, so the other side wins",
    EndReason.MORE_DISCS: "a side had no move, so the side with more discs wins",
    EndReason.TIMEOUTS: "both sides kept running out of time",
}


def result(outcome: Outcome) -> str:
    """How a game ended, in one sentence."""
    counts = score(outcome.black, outcome.white)
    if outcome.reason is EndReason.RESIGNATION and outcome.winner is not None:
        return f"{outcome.winner} wins, {counts}: {outcome.winner.opponent} resigned."
    if outcome.is_stalemate:
        verdict = "stalemate"
    elif outcome.winner is None:
        verdict = "a draw"
    else:
        verdict = f"{outcome.winner} wins"
    return f"{verdict[0].upper()}{verdict[1:]}, {counts}: {_WHY[outcome.reason]}."


def spoken_position(game: Game) -> str:
    """What a screen reader says after every change: the last move, then the disc counts.

    >>> game = Game()
    >>> _ = game.play("d3")
    >>> spoken_position(game)
    'Last move: Black d3, turning 1 disc. Discs: Black 4, White 1. White to move.'
    """
    counts = game.counts()
    said = []
    if game.plies:
        ply = game.plies[-1]
        if ply.timeout:
            said.append(f"Last move: {ply.color} ran out of time.")
        elif isinstance(ply.move, Square):
            turned = len(ply.flipped)
            said.append(f"Last move: {ply.color} {ply.move}, turning {turned} "
                        f"{'disc' if turned == 1 else 'discs'}.")  # fmt: skip
        else:
            said.append(f"Last move: {ply.color} passed.")
    else:
        said.append("No move yet.")
    said.append(f"Discs: Black {counts.black}, White {counts.white}.")
    said.append(f"Game over: {result(game.outcome)}" if game.outcome else to_move(game))
    return sentences(*said)


# -- what happened ----------------------------------------------------------------------


def new_game(game: Game) -> str:
    """``'New game.'`` and who is to move."""
    return sentences("New game.", to_move(game))


def moved(game: Game, color: Color, at: Square, turned: int) -> str:
    """A move just played by ``color`` at ``at``, turning ``turned`` discs."""
    discs = "disc" if turned == 1 else "discs"
    return sentences(f"{color} played {at} and turned {turned} {discs}.", to_move(game))


def passed(game: Game, color: Color, by_computer: bool) -> str:
    """``color`` just passed (by itself when ``by_computer``)."""
    if by_computer:
        return sentences(f"{who(game, color)} has no legal move and passes.", to_move(game))
    return sentences(f"{color} passed.", to_move(game))


def out_of_time(game: Game, color: Color, limit: float | None) -> str:
    """``color`` just lost its turn to the clock (``limit`` seconds per move, if known)."""
    per_move = f" ({limit:g} s per move)" if limit is not None else ""
    return sentences(f"{color} ran out of time{per_move} and lost the turn.", to_move(game))


def game_over(game: Game, before: str) -> str:
    """``before`` followed by the result, once a game has just ended."""
    outcome = game.outcome
    assert outcome is not None, "game_over is said only once a game has ended"
    return sentences(before, f"Game over: {result(outcome)}")


def undo_asked(game: Game, asker: Color) -> str:
    """``asker`` just asked to undo; the other side is asked to answer."""
    return f"{asker} asks to take back their last move. {who(game, asker.opponent)}: accept or decline?"


def undo_question(game: Game, answerer: Color) -> str:
    """The question beside the Accept and Decline buttons."""
    return f"{who(game, answerer)}: {answerer.opponent} asks to take back their last move."


def undo_answered(game: Game, asker: Color, accepted: bool) -> str:
    """``asker``'s undo request was just accepted or declined."""
    verdict = "accepted" if accepted else "declined"
    return sentences(f"{who(game, asker.opponent)} {verdict} {asker}'s undo request.", to_move(game))


def resigned(game: Game, color: Color) -> str:
    """``color`` just resigned."""
    return f"{who(game, color)} resigned."


def player_changed(color: Color, player: Player) -> str:
    """``'White is now played by Greedy.'``, naming the kind only when the name hides it."""
    if player.is_human:
        return f"{color} is now played by {player.name}, a person"
    if player.name == player.label:
        return f"{color} is now played by {player.label}, a computer player"
    return f"{color} is now played by {player.name} ({player.label}, a computer player)"


def takes_effect_later(what: str) -> str:
    """A setting of the next game, changed now."""
    return f"{what}: this takes effect when you press New game."


def loaded(game: Game, name: str) -> str:
    """The save ``name`` was just loaded into ``game``."""
    state = f"Game over: {result(game.outcome)}" if game.outcome else to_move(game)
    return sentences(f"Loaded {name!r}.", state)


def saved(name: str, path: object) -> str:
    """The game was just saved as ``name`` at ``path``."""
    return f"Saved as {name!r} ({path})."


STOPPED = "Stopped: press Continue to let the computer play on."
SETTINGS_CHANGED = "Settings changed"


# -- refusals ---------------------------------------------------------------------------

CLICK_A_SQUARE = "Click on a square of the board (the coordinates are not squares)."
GAME_IS_OVER = "The game is over: press New game to play again."
NO_UNDO_YET = "There is no move by a person to take back yet."
NO_UNDO_WAITING = "There is no undo request waiting for a person's answer."


def please_wait(game: Game, thinking: bool, stopped: bool) -> str:
    """A person clicked while a computer player is to move."""
    doing = "is thinking" if thinking else "moves next"
    extra = " (stopped: press Continue)" if stopped else ""
    return f"Please wait: {who(game, game.turn)}, the computer, {doing}{extra}."


def must_pass_first(color: Color) -> str:
    """A person clicked a square but ``color`` has no legal move."""
    return f"{color} has no legal move: press Pass to hand the turn over."


def computer_never_asks(color: Color) -> str:
    """Undo asked for a computer player."""
    return f"{color} is played by the computer, which never asks to undo."


def error(exception: BaseException) -> str:
    """An unexpected error, for the status line."""
    return f"Error: {type(exception).__name__}: {exception}"
