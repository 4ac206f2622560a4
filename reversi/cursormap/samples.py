"""The maps that ship with the package, in ``reversi/cursormap/maps/NAME.map``.

Their names start with a number, so listing them in order goes from the easiest map to
the hardest; their comments teach the map-file format.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from reversi.cursormap.errors import MapFileError, student
from reversi.cursormap.mapfile import parse_map
from reversi.cursormap.model import CursorMap
from reversi.errors import shown
from reversi.i18n import _

if TYPE_CHECKING:
    from importlib.abc import Traversable


def _samples_folder() -> Traversable:
    return resources.files("reversi.cursormap").joinpath("maps")


def sample_maps() -> list[str]:
    """The names of the maps that ship with the package, easiest first.

    >>> sample_maps()[0]
    '01_first_steps'
    """
    names = (f.name for f in _samples_folder().iterdir())
    return sorted(name.removesuffix(".map") for name in names if name.endswith(".map"))


@student
def sample_text(name: str) -> str:
    """The text of the sample map ``name`` (with or without ``.map``), comments and all."""
    stem = name.removesuffix(".map")
    if stem not in sample_maps():
        raise MapFileError(
            _("there is no sample map {name}; the samples are {samples}").format(
                name=shown(name), samples=", ".join(sample_maps()))
        )
    return _samples_folder().joinpath(stem + ".map").read_text(encoding="utf-8")


@student
def load_sample(name: str) -> CursorMap:
    """The sample map ``name``, one of :func:`sample_maps`.

    >>> load_sample("01_first_steps").width
    5
    """
    text = sample_text(name)
    return parse_map(text, source=name.removesuffix(".map") + ".map")
