"""Saving a game to a small JSON file and loading it back, exactly as it was.

A save holds the game's settings, its players (kind, name, options and any inner
state such as a Randomizer's random numbers) and the list of actions that made
the game (moves, passes, lost turns, undos, resignation).  Loading builds a new
game and replays those actions through the rules, so a hand-edited file that
describes an impossible game is refused rather than trusted.  Nothing is ever
pickled or evaluated.

Files are written atomically: the save goes to a temporary file in the same
folder first and is then renamed over the old one, so a crash never leaves half
a save behind.  Reading is guarded before any parsing: a file larger than
:data:`MAX_SAVE_BYTES`, JSON nested deeper than :data:`MAX_DEPTH` or a number with
more than :data:`MAX_DIGITS` digits is refused with a :class:`SaveFileError`, as is
every other problem; a save is either loaded whole or not at all.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from pathlib import Path
from typing import Any, NoReturn

from reversi.board import Board
from reversi.clock import Clock
from reversi.errors import NotationError, ReversiError, SaveFileError, shown
from reversi.files import read_bounded
from reversi.game import Game
from reversi.i18n import N_, _
from reversi.notation import BLACK, WHITE, Color
from reversi.outcome import NoMovePolicy
from reversi.players import Player, make_player
from reversi.players.computer import MAX_SEED
from reversi.surface import student

FORMAT = "reversi-kit save"
VERSION = 1
SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}\Z", re.ASCII)
#: The largest save file read, in bytes; a whole 16x16 game with its players takes a few dozen kB.
MAX_SAVE_BYTES = 1_000_000
#: How deeply arrays and objects may nest in a save (a real one nests four or five levels).
MAX_DEPTH = 32
#: The most digits a whole number in a save may have: as many as the largest seed a player takes,
#: so every game the kit can make is a game it can load.
MAX_DIGITS = len(str(MAX_SEED))

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


@student
def game_to_dict(game: Game) -> dict[str, Any]:
    """The JSON-ready description of a game (what :func:`save_game` writes)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "size": game.board.size,
        "no_move_policy": game.no_move_policy.value,
        "time_per_move": game.time_per_move,
        "undo_limit": game.undo_limit,
        "players": {color.value: _player_to_dict(game.player(color)) for color in (BLACK, WHITE)},
        "actions": [action.to_dict() for action in game.actions],
        "elapsed": round(game.elapsed(), 3),
        "board": str(game.board),
    }


def game_from_dict(data: object, clock: Clock | None = None, source: str = "the save") -> Game:
    """Rebuild a game from :func:`game_to_dict`'s description, checking every part of it."""
    reader = _Reader(source)
    data = reader.mapping(data, "the file")
    if data.get("format") != FORMAT:
        reader.fail(f"it is not a reversi-kit save (format is {shown(data.get('format'))})")
    version = data.get("version")
    if version != VERSION:
        reader.fail(f"it has format version {shown(version)}; this kit reads version {VERSION}")
    settings: dict[str, Any] = {
        "size": reader.integer(data, "size"),
        "no_move_policy": reader.choice(data, "no_move_policy", [p.value for p in NoMovePolicy]),
        "time_per_move": reader.number_or_none(data, "time_per_move"),
        "undo_limit": reader.integer_or_none(data, "undo_limit"),
    }
    if clock is not None:
        settings["clock"] = clock
    players_data = reader.mapping(data.get("players"), "'players'")
    players = {color: _player_from_dict(reader, players_data, color) for color in (BLACK, WHITE)}
    try:
        game = Game(players[BLACK][0], players[WHITE][0], **settings)
    except (ReversiError, ValueError) as error:
        reader.fail(f"its settings are not valid: {error}")
    actions = data.get("actions")
    if not isinstance(actions, list):
        reader.fail("'actions' is missing or is not a list")
    for number, action in enumerate(actions, start=1):
        if not isinstance(action, dict):
            reader.fail(f"action {number} is not an object: {shown(action)}")
        try:
            game.apply(action)
        except ReversiError as error:
            reader.fail(f"action {number} ({_describe(action)}) cannot be replayed: {error}")
    _check_board(reader, data.get("board"), game)
    for color in (BLACK, WHITE):
        player, state = players[color]
        try:
            player.set_state(state)
        except (ReversiError, TypeError, ValueError) as error:
            reader.fail(f"the {color} player's saved state is not valid: {error}")
    elapsed = data.get("elapsed", 0.0)
    if not _is_number(elapsed) or elapsed < 0:
        reader.fail(f"'elapsed' must be a number of seconds >= 0, not {shown(elapsed)}")
    game.restart_clock(float(elapsed))
    game.log.append("Game loaded")
    return game


@student
def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write ``game`` to ``path`` as JSON, atomically; returns the path.

    A path that cannot hold a file (under a file, with a NUL byte, not a path at
    all) raises :class:`SaveFileError`, and any old save at ``path`` stays as it was.
    """
    path = _path(path, _SAVE_TO)
    text = json.dumps(game_to_dict(game), indent=1)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
        )
    except (OSError, ValueError) as error:
        raise SaveFileError(_(_SAVE_TO).format(path=repr(str(path)), reason=_reason(error))) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise SaveFileError(_(_SAVE_TO).format(path=repr(str(path)), reason=_reason(error))) from None
        raise
    return path


@student
def load_game(path: str | os.PathLike[str], clock: Clock | None = None) -> Game:
    """Read a game saved by :func:`save_game`; raises :class:`SaveFileError` naming any problem."""
    path = _path(path, _LOAD)
    name = repr(str(path))
    try:
        data = read_bounded(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveFileError(_(_LOAD).format(path=name, reason=_("there is no such file"))) from None
    except (OSError, ValueError) as error:
        raise SaveFileError(_(_LOAD).format(path=name, reason=_reason(error))) from None
    if len(data) > MAX_SAVE_BYTES:
        raise SaveFileError(
            _(_LOAD).format(path=name, reason=_("it is larger than {high:,} bytes, far more than a save").format(
                high=MAX_SAVE_BYTES))
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SaveFileError(_(_LOAD).format(
            path=name, reason=_("it is not a text file ({why})").format(why=error.reason))) from None
    return game_from_dict(parse_save_text(text, name), clock=clock, source=name)


@student
def parse_save_text(text: str, source: str = "the save") -> object:
    """The JSON value in ``text``, refusing deep nesting and huge numbers before they cost anything."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise SaveFileError(
            _(_LOAD).format(path=source, reason=_("its JSON nests {depth} levels deep (a save nests at most {high})").format(
                depth=deepest, high=MAX_DEPTH))
        )
    try:
        return json.loads(text, parse_int=_small_int, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise SaveFileError(
            _(_LOAD).format(path=source, reason=_(
                "it is not valid JSON (line {line}, column {column}: {why}); the file may be truncated or damaged"
            ).format(line=error.lineno, column=error.colno, why=error.msg))
        ) from None
    except (_HugeNumber, RecursionError) as error:
        raise SaveFileError(_(_LOAD).format(path=source, reason=error)) from None


class _HugeNumber(ValueError):
    pass


def _small_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _HugeNumber(_("it holds a {count}-digit number (at most {high} digits)").format(
            count=len(digits), high=MAX_DIGITS))
    return int(digits)


def _no_constant(word: str) -> float:
    raise _HugeNumber(_("it holds {word}, which is not a number a save can use").format(word=word))


# What could not be done with a path, as whole sentences ending in the reason.
_SAVE_TO = N_("cannot save to {path}: {reason}")
_LOAD = N_("cannot load {path}: {reason}")
_KEEP_SAVES_IN = N_("cannot keep saves in {path}: {reason}")


def _path(path: str | os.PathLike[str], cannot: str) -> Path:
    """``path`` as a Path; a SaveFileError saying ``cannot`` (one of the sentences above) if
    it cannot name a file."""
    try:
        result = Path(path)
        os.fspath(result).encode("utf-8")
    except (TypeError, UnicodeError) as error:
        raise SaveFileError(_(cannot).format(path=shown(path), reason=_reason(error))) from None
    if "\0" in str(result):
        raise SaveFileError(_(cannot).format(path=repr(str(result)), reason=_("a path cannot hold a NUL character")))
    if not str(result) or result.name in ("", ".", ".."):
        raise SaveFileError(_(cannot).format(path=repr(str(result)), reason=_("it does not name a file")))
    return result


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[0].lower() + error.strerror[1:]
    return str(error)


@student
class SaveFolder:
    """A folder of named saves, one small file each (the Save Game and Load Game of a front end).

    Names are 1 to 40 letters, digits, spaces, ``-`` or ``_``, starting with a
    letter or digit; the file is ``NAME.json``.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = _path(folder, _KEEP_SAVES_IN)

    @student
    def path(self, name: str) -> Path:
        """The file that holds the save called ``name``."""
        if not SAVE_NAME.match(name):
            raise SaveFileError(
                _("{name} is not a save name: use 1 to 40 letters, digits, spaces, '-' or '_', "
                  "starting with a letter or digit").format(name=shown(name))
            )
        return self.folder / f"{name}.json"

    @student
    def save(self, name: str, game: Game) -> Path:
        """Save ``game`` under ``name``, replacing an older save of that name."""
        return save_game(game, self.path(name))

    @student
    def load(self, name: str, clock: Clock | None = None) -> Game:
        """Load the save called ``name``."""
        path = self.path(name)
        try:
            found = path.is_file()
        except OSError as error:  # a folder name too long, a folder that cannot be read...
            raise SaveFileError(_("cannot load the save {name}: {reason}").format(name=shown(name), reason=_reason(error))) from None
        if not found:
            known = ", ".join(self.names()) or _("none yet")
            raise SaveFileError(_("there is no save called {name} (saves: {known})").format(name=shown(name), known=known))
        return load_game(path, clock=clock)

    def names(self) -> list[str]:
        """The names of the saves in the folder, sorted."""
        try:
            files = list(self.folder.glob("*.json")) if self.folder.is_dir() else []
        except OSError:
            return []
        return sorted(p.stem for p in files if SAVE_NAME.match(p.stem) and p.is_file())

    @student
    def delete(self, name: str) -> None:
        """Remove the save called ``name``."""
        path = self.path(name)
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise SaveFileError(_("cannot delete the save {name}: {reason}").format(name=shown(name), reason=_reason(error))) from None


# -- reading, with errors that say where --------------------------------------------------


class _Reader:
    """Checks the parts of a save and raises :class:`SaveFileError` naming the file and the part."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, problem: str) -> NoReturn:
        raise SaveFileError(_(_LOAD).format(path=self.source, reason=problem))

    def mapping(self, value: object, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(f"{what} must be a JSON object, not {type(value).__name__}")
        return value

    def integer(self, data: dict[str, Any], key: str) -> int:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"{shown(key)} must be a whole number, not {shown(value)}")
        return value

    def integer_or_none(self, data: dict[str, Any], key: str) -> int | None:
        return None if data.get(key) is None else self.integer(data, key)

    def number_or_none(self, data: dict[str, Any], key: str) -> float | None:
        value = data.get(key)
        if value is not None and not _is_number(value):
            self.fail(f"{shown(key)} must be a number or null, not {shown(value)}")
        return value

    def choice(self, data: dict[str, Any], key: str, allowed: list[str]) -> str:
        value = data.get(key)
        if value not in allowed:
            self.fail(f"{shown(key)} must be one of {', '.join(allowed)}, not {shown(value)}")
        return str(value)


def _player_to_dict(player: Player) -> dict[str, Any]:
    return {
        "kind": player.kind,
        "name": player.name,
        "options": player.options(),
        "state": player.get_state(),
    }


def _player_from_dict(reader: _Reader, players: dict[str, Any], color: Color) -> tuple[Player, Any]:
    data = reader.mapping(players.get(color.value), f"the {color} player")
    options = reader.mapping(data.get("options", {}), f"the {color} player's options")
    kind, name = data.get("kind"), data.get("name")
    if not isinstance(kind, str) or not isinstance(name, str):
        reader.fail(f"the {color} player needs a 'kind' and a 'name' as text")
    try:
        player = make_player(kind, name=name, **options)
    except (ReversiError, TypeError, ValueError) as error:
        reader.fail(f"the {color} player cannot be made: {error}")
    return player, data.get("state")


def _check_board(reader: _Reader, diagram: object, game: Game) -> None:
    if diagram is None:
        return
    try:
        saved = Board.from_text(diagram) if isinstance(diagram, str) else None
    except NotationError as error:
        reader.fail(f"its board diagram is not readable: {error}")
    if saved != game.board:
        reader.fail("its board diagram does not match the position its moves lead to")


def _describe(action: dict[str, Any]) -> str:
    parts = [action.get(key) for key in ("action", "square", "color") if key in action]
    return " ".join(str(part) for part in parts)


def _is_number(value: object) -> bool:
    """A finite JSON number (JSON files may also hold NaN and Infinity, which are refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # a whole number too large for any clock
        return False
