"""A game of cursor-map: two players take turns applying dealt cursors to one map.

Player one (blue) moves first.  Each turn deals a new cursor from the game's own
``random.Random(seed)``; the player moves its centre over the map and applies it.  The
cursor keeps its place from one turn to the next (it starts on the middle field), so the
next player begins where the last one applied.

A player wins as soon as every ON/OFF field they own is ON, whoever's move made it so;
when one move switches on every field of both players, the player who made it wins.
With ``max_turns`` set, a game still undecided after that many turns is a draw.

>>> from reversi.cursormap.model import CursorMap
>>> game = CursorGame(CursorMap.from_strings(["bbr"], ["000"]), seed=1)
>>> print(game.cursor, game.position)
OR 001/1.0/111 Position(row=0, col=1)
>>> turn = game.apply()
>>> print(game.log[-1])
Turn 1: player one (blue) applied OR 001/1.0/111 at (0, 1): 1 field changed.
>>> print(game.map)
    0  1  2
 0  B1 B0 R0
>>> game.player
<Owner.TWO: 'two'>
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from reversi.cursormap.errors import CursorChoice, CursorGameError, CursorGameOverError, student
from reversi.cursormap.model import CursorMap, Owner, Position
from reversi.cursormap.rules import Change, Cursor, apply_cursor
from reversi.errors import shown
from reversi.i18n import N_, _, ngettext
from reversi.surface import Between

# Why an action is refused once the game is over, a whole sentence by action.
_REFUSED_OVER = {
    "move the cursor": N_("cannot move the cursor: the game is over ({reason})"),
    "apply the cursor": N_("cannot apply the cursor: the game is over ({reason})"),
}


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


class Direction(CursorChoice):
    """A step of the cursor's centre, as ``(drow, dcol)``."""

    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)

    @classmethod
    def parse(cls, direction: Direction | str) -> Direction:
        """A Direction, or its name in any case (``'up'``, ``'Left'``)."""
        return cls(direction)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (None for a draw), why, and after how many turns."""

    winner: Owner | None
    reason: str
    turns: int

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Turn:
    """One applied cursor: who applied it, where, what it changed, and the outcome if
    this turn ended the game."""

    number: int
    player: Owner
    cursor: Cursor
    position: Position
    changes: tuple[Change, ...]
    outcome: Outcome | None = None

    def describe(self) -> str:
        """The turn as a log line; a hidden operator is revealed."""
        count = len(self.changes)
        row, col = self.position
        if self.cursor.hidden:
            line = ngettext(
                "Turn {number}: {player} applied {cursor} at ({row}, {col}) (the hidden operator was {operator}): {count} field changed.",
                "Turn {number}: {player} applied {cursor} at ({row}, {col}) (the hidden operator was {operator}): {count} fields changed.",
                count,
            )  # fmt: skip
        else:
            line = ngettext(
                "Turn {number}: {player} applied {cursor} at ({row}, {col}): {count} field changed.",
                "Turn {number}: {player} applied {cursor} at ({row}, {col}): {count} fields changed.",
                count,
            )  # fmt: skip
        return line.format(number=self.number, player=self.player.said(), cursor=self.cursor,
                           row=row, col=col, operator=self.cursor.operator, count=count)  # fmt: skip


@student
class CursorGame:
    """A cursor-map game on ``cursor_map``, dealt from ``random.Random(seed)``.

    The same map and seed deal the same cursors, so moves played again replay the game
    exactly; without a seed one is drawn and kept in :attr:`seed`.  ``dealer`` makes each
    turn's cursor from the game's random generator: :meth:`Cursor.deal` by default, and
    a lesson may pass its own (only OR cursors, say, or a scripted list).  Every refused
    action (a move off the map, anything after the game is over) leaves the game as it was.
    """

    def __init__(
        self,
        cursor_map: CursorMap,
        *,
        seed: int | None = None,
        max_turns: Annotated[int, Between(1, 10**9)] | None = None,
        dealer: Callable[[random.Random], Cursor] = Cursor.deal,
    ) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.start_map = cursor_map
        self.seed = seed
        self.max_turns = max_turns
        self._rng = random.Random(seed)
        self._map = cursor_map
        self._player = Owner.ONE
        self._position = Position((cursor_map.height - 1) // 2, (cursor_map.width - 1) // 2)
        self._dealer = dealer
        self._cursor = dealer(self._rng)
        self._history: list[Turn] = []
        self._outcome: Outcome | None = None
        start = (
            _("New game on a {width}x{height} map, seed {seed}, at most {turns} turns; {player} begins.")
            if max_turns
            else _("New game on a {width}x{height} map, seed {seed}; {player} begins.")
        )
        self._log = [start.format(width=cursor_map.width, height=cursor_map.height, seed=seed,
                                  turns=max_turns, player=Owner.ONE.said())]  # fmt: skip

    # -- the state ---------------------------------------------------------------------

    @property
    def map(self) -> CursorMap:
        """The map as it stands now (:attr:`start_map` is the map the game began on)."""
        return self._map

    @property
    def player(self) -> Owner:
        """Whose turn it is; after the game, who played the last turn."""
        return self._player

    @property
    def cursor(self) -> Cursor:
        """The cursor dealt for this turn; after the game, the last one applied."""
        return self._cursor

    @property
    def position(self) -> Position:
        """Where the centre of the cursor is."""
        return self._position

    @property
    def turn(self) -> int:
        """The number of the turn being played, from 1; after the game, the last turn's."""
        return len(self._history) + (0 if self.is_over else 1)

    @property
    def history(self) -> tuple[Turn, ...]:
        """Every applied turn, first to last."""
        return tuple(self._history)

    @property
    def log(self) -> list[str]:
        """The game in words: the start, each turn, the outcome (a copy)."""
        return list(self._log)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome

    @property
    def winner(self) -> Owner | None:
        """The winning player, or None (game on, or a draw)."""
        return self._outcome.winner if self._outcome else None

    @property
    def is_over(self) -> bool:
        """True once a player has won or the turn limit made a draw."""
        return self._outcome is not None

    @student
    def switchable(self, owner: Owner) -> int:
        """How many fields of ``owner`` are ON or OFF."""
        return self._map.switchable(owner)

    def remaining(self, owner: Owner) -> int:
        """How many fields of ``owner`` are still OFF."""
        return self._map.remaining(owner)

    # -- actions -----------------------------------------------------------------------

    def _check_not_over(self, action: str) -> None:
        if self._outcome is not None:
            raise CursorGameOverError(_(_REFUSED_OVER[action]).format(reason=self._outcome.reason))

    @student
    def move(self, direction: Direction | str) -> bool:
        """Step the cursor's centre one field; at the edge of the map it stays put.

        Returns True if the cursor moved.
        """
        self._check_not_over("move the cursor")
        drow, dcol = Direction.parse(direction).value
        target = Position(self._position.row + drow, self._position.col + dcol)
        if not self._map.contains(target):
            return False
        self._position = target
        return True

    @student
    def move_to(self, row: int, col: int) -> None:
        """Put the cursor's centre on the field ``(row, col)``."""
        self._check_not_over("move the cursor")
        if not self._map.contains((row, col)):
            raise CursorGameError(
                _("{position} is off the {width}x{height} map: rows go from 0 to {last_row}, "
                  "columns from 0 to {last_column}").format(
                    position=shown((row, col)), width=self._map.width, height=self._map.height,
                    last_row=self._map.height - 1, last_column=self._map.width - 1)
            )
        self._position = Position(row, col)

    def apply(self) -> Turn:
        """Apply the cursor where it stands, judge the game, and pass the turn."""
        self._check_not_over("apply the cursor")
        new_map, changes = apply_cursor(self._map, self._cursor, self._position)
        number = len(self._history) + 1
        outcome = self._judge(new_map, number)
        turn = Turn(number, self._player, self._cursor, self._position, changes, outcome)
        self._map = new_map
        self._history.append(turn)
        self._log.append(turn.describe())
        if outcome is None:
            self._player = self._player.opponent
            self._cursor = self._dealer(self._rng)
        else:
            self._outcome = outcome
            self._log.append(outcome.reason)
        return turn

    def _judge(self, new_map: CursorMap, number: int) -> Outcome | None:
        done = [player for player in (Owner.ONE, Owner.TWO) if new_map.all_on(player)]
        if len(done) == 2:
            reason = _("{player} wins: turn {number} switched on every field of both players,"
                       " and the player who made that move wins.").format(player=self._player.said(), number=number)
            return Outcome(self._player, _capital(reason), number)
        if done:
            winner = done[0]
            reason = _("{player} wins on turn {number}: all {count} of their fields are on.").format(
                player=winner.said(), number=number, count=new_map.switchable(winner))
            return Outcome(winner, _capital(reason), number)
        if self.max_turns is not None and number >= self.max_turns:
            reason = _("Draw: the limit of {turns} turns was reached with no winner.").format(turns=self.max_turns)
            return Outcome(None, reason, number)
        return None

    def __str__(self) -> str:
        if self._outcome is not None:
            status = self._outcome.reason
        else:
            row, col = self._position
            status = _("Turn {number}: {player} applies {cursor} at ({row}, {col})").format(
                number=self.turn, player=self._player.said(), cursor=self._cursor, row=row, col=col)
        return f"{status}\n{self._map}"

    def __repr__(self) -> str:
        return (
            f"<CursorGame {self._map.width}x{self._map.height} seed={self.seed} turn={self.turn}>"
        )
