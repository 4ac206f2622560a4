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

from course.i18n import N_, ngettext
from course.i18n import gettext as _
from reversi.game import Game
from reversi.notation import BLACK, Color, Square
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
    return _("Black {black} – White {white}").format(black=black, white=white)


def colour(color: Color) -> str:
    """``'Black'`` or ``'White'``, in the reader's language."""
    return _("Black") if color is BLACK else _("White")


def who(game: Game, color: Color) -> str:
    """``'White (Greedy)'``, or just ``'White'`` when the player is named after the colour."""
    name = game.player(color).name
    return colour(color) if name == str(color) else f"{colour(color)} ({name})"


# -- the turn line --------------------------------------------------------------------


def to_move(game: Game) -> str:
    """Who is to do what now (empty once the game is over)."""
    if game.is_over:
        return ""
    asker = game.pending_undo
    if asker is not None:
        return _("{answerer} must answer {asker}'s undo request.").format(
            answerer=colour(asker.opponent), asker=colour(asker))  # fmt: skip
    if game.must_pass:
        return _("{player} has no legal move and must pass.").format(player=who(game, game.turn))
    return _("{player} to move.").format(player=who(game, game.turn))


def turn_line(game: Game, thinking: Color | None = None) -> str:
    """The line above the board: the result, a computer thinking, or who is to move."""
    outcome = game.outcome
    if outcome is not None:
        return _over(outcome)
    if thinking is not None and thinking is game.turn:
        return _("{player} is thinking…").format(player=who(game, thinking))
    return to_move(game)


def countdown(game: Game) -> str:
    """``'Black (Ann): 12 s left'`` in a timed game, else an empty string."""
    left = game.time_left()
    if left is None or game.is_over:
        return ""
    return _("{player}: {seconds} s left").format(player=who(game, game.turn), seconds=math.ceil(left))


_WHY = {
    EndReason.NO_MOVES: N_("neither side can move"),
    EndReason.STALEMATE: N_("the side to move had no move, and these rules call that a stalemate"),
    EndReason.OPPONENT_WINS: N_("the side to move had no move, so the other side wins"),
    EndReason.MORE_DISCS: N_("a side had no move, so the side with more discs wins"),
    EndReason.TIMEOUTS: N_("both sides kept running out of time"),
}


def _over(outcome: Outcome) -> str:
    return _("Game over: {result}").format(result=result(outcome))


def result(outcome: Outcome) -> str:
    """How a game ended, in one sentence."""
    counts = score(outcome.black, outcome.white)
    if outcome.reason is EndReason.RESIGNATION and outcome.winner is not None:
        return _("{winner} wins, {score}: {loser} resigned.").format(
            winner=colour(outcome.winner), score=counts, loser=colour(outcome.winner.opponent))  # fmt: skip
    if outcome.is_stalemate:
        verdict = _("stalemate")
    elif outcome.winner is None:
        verdict = _("a draw")
    else:
        verdict = _("{winner} wins").format(winner=colour(outcome.winner))
    said = _("{verdict}, {score}: {why}.").format(verdict=verdict, score=counts, why=_(_WHY[outcome.reason]))
    return said[0].upper() + said[1:]


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
        player = colour(ply.color)
        if ply.timeout:
            said.append(_("Last move: {player} ran out of time.").format(player=player))
        elif isinstance(ply.move, Square):
            turned = len(ply.flipped)
            said.append(ngettext("Last move: {player} {square}, turning {count} disc.",
                                 "Last move: {player} {square}, turning {count} discs.", turned)
                        .format(player=player, square=ply.move, count=turned))  # fmt: skip
        else:
            said.append(_("Last move: {player} passed.").format(player=player))
    else:
        said.append(_("No move yet."))
    said.append(_("Discs: Black {black}, White {white}.").format(black=counts.black, white=counts.white))
    said.append(_over(game.outcome) if game.outcome else to_move(game))
    return sentences(*said)


# -- what happened ----------------------------------------------------------------------


def new_game(game: Game) -> str:
    """``'New game.'`` and who is to move."""
    return sentences(_("New game."), to_move(game))


def moved(game: Game, color: Color, at: Square, turned: int) -> str:
    """A move just played by ``color`` at ``at``, turning ``turned`` discs."""
    said = ngettext("{player} played {square} and turned {count} disc.",
                    "{player} played {square} and turned {count} discs.", turned)  # fmt: skip
    return sentences(said.format(player=colour(color), square=at, count=turned), to_move(game))


def passed(game: Game, color: Color, by_computer: bool) -> str:
    """``color`` just passed (by itself when ``by_computer``)."""
    if by_computer:
        said = _("{player} has no legal move and passes.").format(player=who(game, color))
        return sentences(said, to_move(game))
    return sentences(_("{player} passed.").format(player=colour(color)), to_move(game))


def out_of_time(game: Game, color: Color, limit: float | None) -> str:
    """``color`` just lost its turn to the clock (``limit`` seconds per move, if known)."""
    said = (_("{player} ran out of time ({seconds:g} s per move) and lost the turn.") if limit
            is not None else _("{player} ran out of time and lost the turn."))  # fmt: skip
    return sentences(said.format(player=colour(color), seconds=limit), to_move(game))


def game_over(game: Game, before: str) -> str:
    """``before`` followed by the result, once a game has just ended."""
    outcome = game.outcome
    assert outcome is not None, "game_over is said only once a game has ended"
    return sentences(before, _over(outcome))


def undo_asked(game: Game, asker: Color) -> str:
    """``asker`` just asked to undo; the other side is asked to answer."""
    return _("{asker} asks to take back their last move. {answerer}: accept or decline?").format(
        asker=colour(asker), answerer=who(game, asker.opponent))  # fmt: skip


def undo_question(game: Game, answerer: Color) -> str:
    """The question beside the Accept and Decline buttons."""
    return _("{answerer}: {asker} asks to take back their last move.").format(
        answerer=who(game, answerer), asker=colour(answerer.opponent))  # fmt: skip


def undo_answered(game: Game, asker: Color, accepted: bool) -> str:
    """``asker``'s undo request was just accepted or declined."""
    said = (_("{answerer} accepted {asker}'s undo request.") if accepted
            else _("{answerer} declined {asker}'s undo request."))  # fmt: skip
    return sentences(said.format(answerer=who(game, asker.opponent), asker=colour(asker)), to_move(game))


def resigned(game: Game, color: Color) -> str:
    """``color`` just resigned."""
    return _("{player} resigned.").format(player=who(game, color))


def player_changed(color: Color, player: Player) -> str:
    """``'White is now played by Greedy.'``, naming the kind only when the name hides it."""
    if player.is_human:
        said = _("{color} is now played by {name}, a person")
    elif player.name == player.label:
        said = _("{color} is now played by {name}, a computer player")
    else:
        said = _("{color} is now played by {name} ({label}, a computer player)")
    return said.format(color=colour(color), name=player.name, label=player.label)


def takes_effect_later(what: str) -> str:
    """A setting of the next game, changed now."""
    return _("{what}: this takes effect when you press New game.").format(what=what)


def loaded(game: Game, name: str) -> str:
    """The save ``name`` was just loaded into ``game``."""
    state = _over(game.outcome) if game.outcome else to_move(game)
    return sentences(_("Loaded {name!r}.").format(name=name), state)


def saved(name: str, path: object) -> str:
    """The game was just saved as ``name`` at ``path``."""
    return _("Saved as {name!r} ({path}).").format(name=name, path=path)


# The sentences below are English; say them with ``_(STOPPED)`` (the reader's language).
STOPPED = N_("Stopped: press Continue to let the computer play on.")
SETTINGS_CHANGED = N_("Settings changed")


# -- refusals ---------------------------------------------------------------------------

CLICK_A_SQUARE = N_("Click on a square of the board (the coordinates are not squares).")
GAME_IS_OVER = N_("The game is over: press New game to play again.")
NO_UNDO_YET = N_("There is no move by a person to take back yet.")
NO_UNDO_WAITING = N_("There is no undo request waiting for a person's answer.")


def click_a_square() -> str:
    """A click beside the squares (on the coordinates), in the reader's language."""
    return _(CLICK_A_SQUARE)


def please_wait(game: Game, thinking: bool, stopped: bool) -> str:
    """A person clicked while a computer player is to move."""
    if thinking:
        said = (_("Please wait: {player}, the computer, is thinking (stopped: press Continue).")
                if stopped else _("Please wait: {player}, the computer, is thinking."))  # fmt: skip
    else:
        said = (_("Please wait: {player}, the computer, moves next (stopped: press Continue).")
                if stopped else _("Please wait: {player}, the computer, moves next."))  # fmt: skip
    return said.format(player=who(game, game.turn))


def must_pass_first(color: Color) -> str:
    """A person clicked a square but ``color`` has no legal move."""
    return _("{player} has no legal move: press Pass to hand the turn over.").format(player=colour(color))


def computer_never_asks(color: Color) -> str:
    """Undo asked for a computer player."""
    return _("{player} is played by the computer, which never asks to undo.").format(player=colour(color))


def error(exception: BaseException) -> str:
    """An unexpected error, for the status line."""
    return _("Error: {error}: {message}").format(error=type(exception).__name__, message=exception)
