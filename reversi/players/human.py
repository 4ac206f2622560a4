"""A person at the keyboard, typing moves such as ``C 4`` or ``d3``, and ``0`` to pass."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import ClassVar

from reversi.board import Board
from reversi.callables import require_callable
from reversi.errors import InputEnded, NotationError, PlayerError, ReversiError, shown
from reversi.i18n import _
from reversi.notation import PASS, Color, Move, Pass, parse_move
from reversi.players.base import Player
from reversi.surface import student


class HumanPlayer(Player):
    """Asks for a move until a legal one is typed.

    ``input`` reads one line given a prompt and ``output`` shows a message; they
    default to the terminal and can be replaced (a notebook widget, a test
    script).  A square is typed as ``d3``, ``D3`` or ``C 4``; ``0`` or ``pass``
    passes, which is allowed only without a legal move.  At the end of input (Ctrl-D, a
    script's last line) the player can move no more: :class:`InputEnded`, and in a
    :class:`~reversi.game.Game` the player resigns.

    >>> from reversi.notation import BLACK
    >>> typed = iter(["z9", "a1", "pass", "d3"])
    >>> ann = HumanPlayer("Ann", input=lambda prompt: next(typed), output=print)
    >>> ann.choose_move(Board(), BLACK)
    'z9' is not a square of an 8x8 board: columns run from a to h
    'a1' is not a legal move for Black: no White disc is next to a1
    Black cannot pass while it has a legal move (d3, c4, f5, e6)
    d3
    """

    kind = "human"
    label = "Human"
    is_human: ClassVar[bool] = True

    def __init__(
        self,
        name: str | None = None,
        input: Callable[[str], str] = builtins.input,  # named after the builtin it stands for
        output: Callable[[str], object] = print,
    ) -> None:
        super().__init__(name)
        require_callable(input, "input", "reading a line given a prompt")
        require_callable(output, "output", "showing a message")
        self._input = input
        self._output = output

    def _read(self, prompt: str) -> str:
        """One line from ``input``; leaving (Ctrl-D, Ctrl-C) goes through, any other failure
        (no terminal to read, a line that is not text) is a :class:`PlayerError`."""
        try:
            text = self._input(prompt)
        except EOFError:
            raise InputEnded(_("{name}'s input ended, so {name} can make no more moves and resigns").format(name=self.name)) from None
        except (KeyboardInterrupt, ReversiError):
            raise
        except Exception as error:  # the input function is the caller's: it can raise anything
            raise PlayerError(_("cannot read {name}'s move: {kind}: {error}").format(
                name=self.name, kind=type(error).__name__, error=shown(str(error)))) from error
        if not isinstance(text, str):
            raise PlayerError(_("{name}'s input gave {text}, not a line of text").format(name=self.name, text=shown(text)))
        return text

    @student
    def choose_move(self, board: Board, color: Color) -> Move:
        """Prompt ``"Black (Ann), your move: "`` until the reply is a legal move or allowed pass."""
        prompt = f"{color} ({self.name}), your move: "
        while True:
            text = self._read(prompt)
            try:
                move = parse_move(text, board.size)
            except NotationError as error:
                self._output(str(error))
                continue
            legal = board.legal_moves(color)
            if isinstance(move, Pass):
                if not legal:
                    return PASS
                moves = ", ".join(square.name for square in legal)
                self._output(f"{color} cannot pass while it has a legal move ({moves})")
                continue
            reason = board.illegal_reason(move, color)
            if reason is None:
                return move
            hint = "" if legal else "; there is no legal move, so type 0 or pass"
            self._output(f"{move.name!r} is not a legal move for {color}: {reason}{hint}")
