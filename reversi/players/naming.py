"""One naming rule for the two seats of a game, shared by every front end.

A player's name is what people typed (``"Ada"``) or the kind's label
(``"Alpha-beta"``).  On a screen it must say who is who, so:

* :func:`seat_labels` gives each seat a name that tells it from the other: a name
  stays as it is unless both players have it or it is the *other* colour's name;
  then the seat's colour is added.  A player called by its own colour ("Black"
  playing Black) keeps that name alone.
* :func:`seat_titles` gives each seat its name with the colour said exactly once,
  for prompts and announcements: ``"Ada (Black)"``, but ``"Black"`` for a player
  simply called Black, never ``"Black (Black)"``.  A title is in the reader's language
  (see :mod:`reversi.i18n`): ``"Ada (Noir)"``, and ``"Noir"`` for the player called Black.

Names are compared without regard to case, so ``"ada"`` and ``"Ada"`` count as the same.

>>> seat_labels("Ada", "Greedy")
{<Color.BLACK: 'black'>: 'Ada', <Color.WHITE: 'white'>: 'Greedy'}
>>> list(seat_labels("Alpha-beta", "Alpha-beta").values())
['Alpha-beta (Black)', 'Alpha-beta (White)']
>>> list(seat_titles("Black", "White").values())
['Black', 'White']
>>> list(seat_titles("Ada", "Alpha-beta").values())
['Ada (Black)', 'Alpha-beta (White)']
>>> list(seat_titles("Alpha-beta", "Alpha-beta").values())
['Alpha-beta (Black)', 'Alpha-beta (White)']
"""

from __future__ import annotations

from reversi.errors import ArgumentError, shown
from reversi.i18n import _, colour
from reversi.notation import BLACK, WHITE, Color


def seat_labels(black_name: str, white_name: str) -> dict[Color, str]:
    """A distinct, readable name for each seat (for scores and congratulations)."""
    for seat, name in ((BLACK, black_name), (WHITE, white_name)):
        if not isinstance(name, str):
            raise ArgumentError(_("{seat}'s name must be text, not {name}").format(seat=colour(seat), name=shown(name)))
    names = {BLACK: black_name, WHITE: white_name}
    return {color: _label(color, name, names[color.opponent]) for color, name in names.items()}


def _label(color: Color, name: str, other: str) -> str:
    if _key(name) == _key(str(color)):
        return name  # a player called Black, playing Black, needs nothing more
    if _key(name) in (_key(other), _key(str(color.opponent))):
        return f"{name} ({color})"
    return name


def seat_titles(black_name: str, white_name: str) -> dict[Color, str]:
    """Each seat's name with its colour said once (for prompts: ``"Ada (Black), your move"``)."""
    seat_labels(black_name, white_name)  # the same names are refused
    return {BLACK: _title(BLACK, black_name), WHITE: _title(WHITE, white_name)}


def _title(color: Color, name: str) -> str:
    if name == str(color):
        return colour(color)  # the seat's own name ("Black"), in the reader's words
    if _key(name) == _key(str(color)):
        return name
    return _("{name} ({color})").format(name=name, color=colour(color))


def _key(name: str) -> str:
    return name.strip().casefold()
