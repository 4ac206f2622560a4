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
        raise PawnImageError(f"a pawn image is named by its file path, not {short(path)}")
    shown = short(str(path))
    try:
        data = read_bounded(path, MAX_PAWN_BYTES)
    except FileNotFoundError:
        raise PawnImageError(f"cannot use pawn image {shown}: there is no such file") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise PawnImageError(f"cannot use pawn image {shown}: {reason}") from None
    if len(data) > MAX_PAWN_BYTES:
        raise PawnImageError(f"cannot use pawn image {shown}: it is larger than {MAX_PAWN_BYTES:,} bytes")
    if not data.startswith(PNG_SIGNATURE):
        raise PawnImageError(f"cannot use pawn image {shown}: it is not a PNG file")
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
        raise PawnImageError(f"cannot use pawn image {shown}: it is damaged ({error})") from None


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
        return None, f"{str(error)[0].upper()}{str(error)[1:]}: drawing solid discs instead."
    note = ""
    if size != PAWN_SIZE:
        note = f"Pawn image {str(path)!r} is {size[0]}x{size[1]}, not 64x64: it is drawn scaled."
    return ipywidgets.Image(value=data, format="png"), note
