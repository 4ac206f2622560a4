"""Pictures for the pawns: 64x64 PNG files, one for Black and one for White.

This module owns reading and checking those files (and the sample pair shipped in
``assets/``); it draws nothing itself and never touches a game.
A picture that is missing or unreadable is not drawn: the board falls back to
solid discs and says why.  Every file is decoded here first, because a broken
image sent to the browser would stall the canvas for good.

>>> sorted(path.name for path in SAMPLE_PAWNS.values())
['black.png', 'white.png']
>>> check_pawn_image(SAMPLE_PAWNS[BLACK])[1]
(64, 64)
>>> check_pawn_image("no-such-pawn.png")
Traceback (most recent call last):
...
course.pictures.pawns.PawnImageError: cannot use pawn image 'no-such-pawn.png': there is no such file
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import ipywidgets

from course.i18n import gettext as _
from reversi.errors import ReversiError
from reversi.errors import shown as short
from reversi.files import read_bounded
from reversi.notation import BLACK, WHITE

#: The kit's own pawn pictures.
SAMPLE_PAWNS = {
    BLACK: Path(__file__).with_name("assets") / "black.png",
    WHITE: Path(__file__).with_name("assets") / "white.png",
}
PAWN_SIZE = (64, 64)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The largest pawn picture read (a 64x64 PNG takes a few kB).
MAX_PAWN_BYTES = 5_000_000


class PawnImageError(ReversiError, ValueError):
    """A pawn picture that cannot be used (missing, not a PNG, damaged)."""


def check_pawn_image(path: str | os.PathLike[str]) -> tuple[bytes, tuple[int, int]]:
    """Read and decode a PNG; returns its bytes and (width, height), or raises PawnImageError."""
    if not isinstance(path, str | os.PathLike):
        raise PawnImageError(_("a pawn image is named by its file path, not {given}").format(given=short(path)))
    shown = short(str(path))
    try:
        data = read_bounded(path, MAX_PAWN_BYTES)
    except FileNotFoundError:
        raise PawnImageError(_("cannot use pawn image {path}: there is no such file").format(path=shown)) from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise PawnImageError(_("cannot use pawn image {path}: {reason}").format(path=shown, reason=reason)) from None
    if len(data) > MAX_PAWN_BYTES:
        raise PawnImageError(_("cannot use pawn image {path}: it is larger than {most:,} bytes").format(
            path=shown, most=MAX_PAWN_BYTES))  # fmt: skip
    if not data.startswith(PNG_SIGNATURE):
        raise PawnImageError(_("cannot use pawn image {path}: it is not a PNG file").format(path=shown))
    header_size = (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    try:
        from PIL import Image  # Pillow comes with ipycanvas
    except ImportError:  # pragma: no cover - without Pillow only the header is checked
        return data, header_size
    if getattr(Image, "IS_STANDIN", False):  # the browser site's stand-in cannot decode either
        return data, header_size
    try:
        with Image.open(io.BytesIO(data)) as picture:
            picture.load()
            return data, picture.size
    except Exception as error:  # Pillow raises many kinds for damaged files
        raise PawnImageError(_("cannot use pawn image {path}: it is damaged ({error})").format(
            path=shown, error=error)) from None  # fmt: skip


def load_pawn_image(path: str | os.PathLike[str] | None) -> tuple[ipywidgets.Image | None, str]:
    """An Image widget for the pawn picture at ``path`` and a note for the status line.

    ``(None, "")`` for no path; ``(None, why)`` when the file cannot be used.  A
    picture of another size than 64x64 is used, scaled, with a note.
    """
    if path is None or str(path) == "":
        return None, ""
    try:
        data, size = check_pawn_image(path)
    except PawnImageError as error:
        why = str(error)
        return None, _("{reason}: drawing solid discs instead.").format(reason=why[:1].upper() + why[1:])
    note = ""
    if size != PAWN_SIZE:
        note = _("Pawn image {path!r} is {width}x{height}, not 64x64: it is drawn scaled.").format(
            path=str(path), width=size[0], height=size[1])  # fmt: skip
    return ipywidgets.Image(value=data, format="png"), note
