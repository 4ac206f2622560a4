"""Play Reversi in a terminal: ``python -m reversi``.

Each side is a human or a computer player.  A human types a square (``c4`` or
``C 4``), ``0`` or ``pass`` when they have no move, ``undo``, ``resign``,
``save NAME``, ``load NAME``, ``help`` or ``quit``.  After each move the board is
printed with its labels and the disc counts; at the end the winner and the
counts, the scores so far, and an offer to play again.

Input and output are functions (``input`` and ``print`` by default), so tests
drive a whole session through them.  Ctrl-C or Ctrl-D, at a prompt or while a
computer player thinks, ends the session with "Goodbye." on a line of its own.
The command-line settings are checked before any question is asked, and a bad one
is refused naming its flag.  Players are named by one rule (see
:mod:`reversi.players.naming`), so two Greedy players read as "Greedy (Black)" and
"Greedy (White)".
"""

from __future__ import annotations

import argparse
import builtins
from collections.abc import Callable, Sequence
from pathlib import Path

from reversi.arguments import board_size, output_folder, seconds, whole
from reversi.clock import MAX_TIME_PER_MOVE
from reversi.errors import ReversiError, TimeExpiredError
from reversi.game import MAX_UNDO_LIMIT, Game
from reversi.notation import BLACK, WHITE, Color
from reversi.outcome import NoMovePolicy
from reversi.players import PLAYER_KINDS, Player, make_player
from reversi.saves import SaveFolder
from reversi.scores import Scoreboard

#: The shortest time per move the terminal takes: a person needs time to type a move.
MIN_TIME = 0.5

HELP = (
    "Type a square such as c4 (or C 4) to move, 0 or pass when you have no move, "
    "undo, resign, save NAME, load NAME, or quit."
)


class _Quit(Exception):
    """The user asked to leave: typed quit (``at_prompt`` false), or pressed Ctrl-C or Ctrl-D."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__()
        self.interrupted = interrupted


class TerminalGame:
    """A session of games in a terminal, with scores kept across them."""

    def __init__(
        self,
        input: Callable[[str], str] = builtins.input,
        output: Callable[[str], None] = print,
        saves: SaveFolder | None = None,
    ) -> None:
        self._input = input
        self.output = output
        self.saves = saves or SaveFolder("reversi-saves")
        self.scores = Scoreboard()

    def ask(self, prompt: str) -> str:
        """One line of input; the end of input (Ctrl-D) counts as quitting."""
        try:
            return self._input(prompt)
        except (EOFError, KeyboardInterrupt):
            raise _Quit(interrupted=True) from None

    # -- setting up --------------------------------------------------------------------

    def choose_player(self, color: Color, kind: str | None = None) -> Player:
        """Ask which kind of player takes ``color`` and its name, until the answers are valid.

        A kind given on the command line is taken as it is, with the default name.
        """
        kinds = ", ".join([*PLAYER_KINDS, "computer"])
        while True:
            if kind:
                chosen, given = kind, ""
            else:
                chosen = (
                    self.ask(f"Who plays {color}? ({kinds}) [human]: ").strip().lower() or "human"
                )
                given = self.ask(f"Name for {color} [{color}]: ").strip()
            if chosen == "human":
                given = given or str(color)
            try:
                return make_player(chosen, name=given or None)
            except ReversiError as error:
                self.output(f"Sorry: {error}")
                kind = None

    # -- playing -------------------------------------------------------------------------

    def run(self, game: Game) -> None:
        """Play ``game`` and then, as long as the users want, new games with the same players."""
        try:
            while True:
                game = self.play(game)
                if game.is_over:
                    self.report(game)
                answer = self.ask("Play again? [y/N]: ").strip().lower()
                if answer not in ("y", "yes"):
                    break
                game = game.new_game()
        except _Quit as quit:
            self.goodbye(quit.interrupted)
            return
        except KeyboardInterrupt:  # Ctrl-C while a computer player was thinking
            self.goodbye(interrupted=True)
            return
        self.goodbye()

    def goodbye(self, interrupted: bool = False) -> None:
        """Say goodbye on a line of its own (after Ctrl-C or Ctrl-D the cursor is still on
        the line of the prompt or of the ``^C``)."""
        if interrupted:
            self.output("")
        self.output("Goodbye.")

    def play(self, game: Game) -> Game:
        """Play turns until the game ends; returns the game (a loaded one may replace it)."""
        self.show(game)
        while not game.is_over:
            if game.check_time():
                self.output(game.log[-1])
                continue  # the turn was lost (or, after many, the game ended): look again
            if game.current_player.is_human:
                game = self.human_turn(game)
            else:
                color = game.turn
                try:
                    move = game.step()
                except TimeExpiredError as error:  # it thought past the time per move
                    self.output(str(error))
                    continue
                except ReversiError as error:  # a computer player that misbehaved
                    self.output(f"Sorry: {error}; this game stops here.")
                    return game
                self.output(f"{game.title(color)} plays {move}")
                self.show(game)
        return game

    def human_turn(self, game: Game) -> Game:
        """Read one command from the human to move and carry it out; returns the game to go on with."""
        color = game.turn
        prompt = f"{game.title(color)}, your move: "
        text = self.ask(prompt).strip()
        word, _, rest = text.partition(" ")
        command = word.lower()
        try:
            if command == "quit":
                raise _Quit
            if command == "help" or not text:
                self.output(HELP)
            elif command == "undo":
                self.undo(game, color)
            elif command == "resign":
                game.resign(color)
            elif command == "save":
                path = self.saves.save(rest.strip(), game)
                self.output(f"Saved as {rest.strip()!r} ({path})")
            elif command == "load":
                loaded = self.saves.load(rest.strip())
                self.output(f"Loaded {rest.strip()!r}")
                self.show(loaded)
                return loaded
            elif command in ("0", "pass"):
                game.pass_turn()
                self.output(game.log[-1])
            else:
                game.play(text)
                self.show(game)
        except ReversiError as error:
            self.output(f"Sorry: {error}")
        return game

    def undo(self, game: Game, asker: Color) -> None:
        """Ask the opponent (a human answers y/n; a computer always accepts) and carry out the answer."""
        game.request_undo(asker)
        opponent = game.player(asker.opponent)
        if opponent.is_human:
            answer = self.ask(f"{game.title(asker.opponent)}, accept the undo? [y/N]: ")
            accept = answer.strip().lower() in ("y", "yes")
        else:
            accept = True
        game.answer_undo(accept)
        self.output(game.log[-1])
        if accept:
            self.show(game)

    # -- showing -------------------------------------------------------------------------

    def show(self, game: Game) -> None:
        """Print the board with its labels and the counts, and whose turn it is."""
        black, white, _, _ = game.counts()
        self.output(str(game.board))
        status = "" if game.is_over else f"; {game.title(game.turn)} to move"
        self.output(f"Black {black}, White {white}{status}")

    def report(self, game: Game) -> None:
        """Announce the result and the scores so far."""
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is None:
            self.output(str(outcome))
        else:
            self.output(f"Congratulations {game.label(outcome.winner)}! {outcome}")
        self.scores.record(game)
        scores = ", ".join(f"{label} {count}" for label, count in self.scores.rows())
        self.output(f"Scores: {scores}")


def main(
    argv: Sequence[str] | None = None,
    input: Callable[[str], str] = builtins.input,
    output: Callable[[str], None] = print,
) -> int:
    """Run a terminal session; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m reversi", description="Play Reversi in a terminal."
    )
    parser.add_argument(
        "--black", choices=[*PLAYER_KINDS, "computer"], help="who plays Black (asked if left out)"
    )
    parser.add_argument(
        "--white", choices=[*PLAYER_KINDS, "computer"], help="who plays White (asked if left out)"
    )
    parser.add_argument(
        "--size", type=board_size, default=8, help="board size, even, 4 to 16 (default 8)"
    )
    parser.add_argument(
        "--policy",
        choices=[p.value for p in NoMovePolicy],
        default=NoMovePolicy.CHANGE_TURN.value,
        help="what happens when a player has no legal move",
    )
    parser.add_argument(
        "--time",
        type=seconds(minimum=MIN_TIME, maximum=MAX_TIME_PER_MOVE),
        default=None,
        help=f"seconds per move, more than {MIN_TIME:g} (default: no limit)",
    )
    parser.add_argument(
        "--undo-limit",
        type=whole(0, MAX_UNDO_LIMIT),
        default=1,
        help="undos per player per game (default 1)",
    )
    parser.add_argument(
        "--saves",
        type=output_folder,
        default=Path("reversi-saves"),
        help="folder of named saves (default: reversi-saves in the current folder)",
    )
    parser.add_argument("--load", metavar="NAME", help="continue a saved game")
    args = parser.parse_args(argv)
    # Every setting is checked before the first question, naming its flag.
    try:
        saves = SaveFolder(args.saves)
    except ReversiError as error:
        parser.error(f"argument --saves: {error}")
    if args.load is not None:
        try:
            saves.path(args.load)
        except ReversiError as error:
            parser.error(f"argument --load: {error}")

    session = TerminalGame(input=input, output=output, saves=saves)
    output("Reversi. " + HELP)
    try:
        if args.load:
            game = session.saves.load(args.load)
        else:
            black = session.choose_player(BLACK, args.black)
            white = session.choose_player(WHITE, args.white)
            game = Game(
                black,
                white,
                size=args.size,
                no_move_policy=args.policy,
                time_per_move=args.time,
                undo_limit=args.undo_limit,
            )
    except _Quit as quit:
        session.goodbye(quit.interrupted)
        return 0
    except KeyboardInterrupt:  # Ctrl-C while a save was being read
        session.goodbye(interrupted=True)
        return 0
    except ReversiError as error:
        output(f"Sorry: {error}")
        return 2
    session.run(game)
    return 0
