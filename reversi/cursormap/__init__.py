"""Cursor-map: a two-player logic game played with AND, OR and XOR on a map of bits.

Player one owns the blue fields, player two the red ones; grey fields belong to nobody.
Each field is ON (1), OFF (0), EMPTY or PENGUIN; only ON and OFF fields ever change.
Each turn deals a 3x3 cursor: eight bits around a centre showing its operator (AND, OR,
XOR, or ``?`` for one kept secret until it is applied).  The player moves the centre
over the map and applies it: every bit is combined with the field below it.  Whoever
gets all of their own fields ON wins.

The modules form a chain, each using only the ones before it::

    errors -> model -> rules -> mapfile -> samples -> game

* :mod:`~reversi.cursormap.errors`: :class:`CursorMapError` (a
  :class:`reversi.errors.ReversiError`) and its subclasses :class:`MapError`,
  :class:`MapFileError` (with ``line``, ``column``, ``problem``, ``source``),
  :class:`CursorGameError` and :class:`CursorGameOverError` (also a
  :class:`reversi.errors.GameOverError`); a wrong argument anywhere in the package (a
  direction ``'sideways'``) is a :class:`CursorArgumentError`, both a
  :class:`CursorGameError` and a :class:`reversi.errors.ArgumentError`.
* :mod:`~reversi.cursormap.model`: :class:`Owner` (ONE, TWO, NONE; ``.color``,
  ``.opponent``), :class:`Value` (ON, OFF, EMPTY, PENGUIN; ``.bit``, ``.switchable``),
  :class:`Field` (owner, value), :class:`Position` (row, col), :class:`MapCharacters`
  (the characters of a map file) and the immutable :class:`CursorMap`
  (``width``, ``height``, ``fields[row][col]``, ``chars``, ``map[row, col]``,
  ``switchable(owner)``, ``remaining(owner)``, ``all_on(owner)``,
  ``with_values(...)``, ``from_strings(...)``, ``to_text()``, ``print(map)``).
* :mod:`~reversi.cursormap.rules`: :class:`Operator` (AND, OR, XOR; ``.apply(field_bit,
  cursor_bit)``, ``.symbol``), :func:`truth_table`, :class:`Cursor` (``bits`` clockwise
  from the top-left, ``operator``, ``hidden``, ``label``, ``rows()``, ``Cursor.deal(rng)``),
  :data:`OFFSETS`, :class:`Change`, :func:`covered` and :func:`apply_cursor`.
* :mod:`~reversi.cursormap.mapfile`: :func:`parse_map` and :func:`load_map` (its
  docstring spells out the file format).
* :mod:`~reversi.cursormap.samples`: :func:`sample_maps`, :func:`sample_text` and
  :func:`load_sample` for the maps in ``reversi/cursormap/maps/``.
* :mod:`~reversi.cursormap.game`: :class:`CursorGame` (``map``, ``start_map``, ``player``,
  ``cursor``, ``position``, ``turn``, ``move(direction)``, ``move_to(row, col)``,
  ``apply()``, ``history``, ``log``, ``outcome``, ``winner``, ``is_over``), and the
  records :class:`Direction`, :class:`Turn` and :class:`Outcome`.

Decisions this kit makes where the original game left room:

* Grey fields are ordinary ON/OFF fields that belong to nobody: the cursor changes them.
* The field under the centre never changes; nor do EMPTY and PENGUIN fields.  Bits
  over the edge of the map are ignored; the centre itself always sits on the map.
* A dealt cursor draws its eight bits (even odds each), then its face: AND, OR, XOR or
  ``?`` with probability 1/4 each, and for ``?`` the hidden operator among the three
  with 1/3 each, all from the game's ``random.Random(seed)``.  Same seed, same cursors.
* The cursor starts on the middle field and keeps its place between turns.
* A player whose fields are all ON wins, even if the opponent's move did it; a move
  that completes both players wins for the player who made it.

>>> game = CursorGame(load_sample("01_first_steps"), seed=2024)
>>> game.player, game.switchable(Owner.ONE)
(<Owner.ONE: 'one'>, 8)
"""

from reversi.cursormap.errors import (
    CursorArgumentError,
    CursorGameError,
    CursorGameOverError,
    CursorMapError,
    MapError,
    MapFileError,
)
from reversi.cursormap.game import CursorGame, Direction, Outcome, Turn
from reversi.cursormap.mapfile import load_map, parse_map
from reversi.cursormap.model import (
    MAX_SIDE,
    PLAYERS,
    CursorMap,
    Field,
    MapCharacters,
    Owner,
    Position,
    Value,
)
from reversi.cursormap.rules import (
    HIDDEN,
    OFFSETS,
    Change,
    Cursor,
    Operator,
    apply_cursor,
    covered,
    truth_table,
)
from reversi.cursormap.samples import load_sample, sample_maps, sample_text

__all__ = [
    "HIDDEN",
    "MAX_SIDE",
    "OFFSETS",
    "PLAYERS",
    "Change",
    "Cursor",
    "CursorArgumentError",
    "CursorGame",
    "CursorGameError",
    "CursorGameOverError",
    "CursorMap",
    "CursorMapError",
    "Direction",
    "Field",
    "MapCharacters",
    "MapError",
    "MapFileError",
    "Operator",
    "Outcome",
    "Owner",
    "Position",
    "Turn",
    "Value",
    "apply_cursor",
    "covered",
    "load_map",
    "load_sample",
    "parse_map",
    "sample_maps",
    "sample_text",
    "truth_table",
]
