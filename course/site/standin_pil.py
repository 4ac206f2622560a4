"""A STAND-IN for Pillow's ``PIL.Image`` in the offline browser site: NOT the real Pillow.

ipycanvas imports ``PIL.Image`` when it loads but uses it only to turn images into
bytes and back, which the kit's boards never do.  Every function here says so.
"""

from __future__ import annotations

from typing import Any

try:  # in the site the kit is installed too: the refusal is then also the kit's own error
    from reversi.errors import ReversiError as _Base
except ImportError:  # pragma: no cover - the stand-in's wheel alone
    _Base = Exception  # type: ignore[misc,assignment]

IS_STANDIN = True


class StandInError(_Base, NotImplementedError):
    """What only the real Pillow can do; the message says so."""


def _refuse(*_args: Any, **_kwargs: Any) -> Any:
    raise StandInError("images need the real Pillow; this site has the offline stand-in")


open = _refuse  # noqa: A001 - Pillow's own name
fromarray = _refuse
new = _refuse


class Image:
    """Pillow's image class; the stand-in cannot make one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _refuse()
