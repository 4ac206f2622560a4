"""The site's gzip copies and its size: what the class server sends, and what the build prints."""

from __future__ import annotations

import gzip
from pathlib import Path

#: The compressed copies are the site build's inside (:mod:`course.site.build` writes them).

#: Suffixes worth compressing: the build writes a ``.gz`` beside each such file that shrinks.
COMPRESSIBLE = {
    ".js",
    ".mjs",
    ".wasm",
    ".json",
    ".css",
    ".html",
    ".svg",
    ".ipynb",
    ".txt",
    ".map",
    ".zip",
    ".snapshot",
    ".files",
}
MIN_COMPRESSED = 1024


def compress_site(site: Path) -> int:
    """Write ``name.gz`` beside every compressible file of the site that shrinks; returns how many.

    The class server sends these to browsers that accept gzip, so thirty students
    downloading the site cost no compression work; other web hosts ignore them.
    """
    written = 0
    for path in Path(site).rglob("*"):
        if (
            path.is_file()
            and path.suffix.lower() in COMPRESSIBLE
            and path.stat().st_size >= MIN_COMPRESSED
        ):
            data = path.read_bytes()
            packed = gzip.compress(data, compresslevel=6, mtime=0)
            if len(packed) < 0.9 * len(data):
                Path(f"{path}.gz").write_bytes(packed)
                written += 1
    return written


def _site_size(folder: Path) -> tuple[int, int]:
    """The site's size in bytes: all files, and all files gzip-compressed one by one.

    The ``.gz`` copies the build writes for the server are not counted.
    """
    total = compressed = 0
    for path in Path(folder).rglob("*"):
        if path.is_file() and path.suffix != ".gz":
            data = path.read_bytes()
            total += len(data)
            compressed += len(gzip.compress(data, compresslevel=6))
    return total, compressed


def size_report(folder: Path) -> str:
    """One line: where the site is and its size, total and compressed."""
    total, compressed = _site_size(folder)
    return (
        f"Built the site in {folder}: {total / 1e6:.1f} MB ({compressed / 1e6:.1f} MB compressed)"
    )
