"""Pyodide's core files and Deno, fetched with Python alone (no Node, npm or shell needed).

Two parts of the kit run Pyodide, the CPython (3.14, WebAssembly) of the students'
browsers: the browser classroom (:mod:`course.site`) serves its files, and the portable
grading sandbox (:mod:`course.grading.sandbox`) runs students' code in it inside Deno.
Both take the same files from here::

    folder = core(say=print)     # build/pyodide-314.0.7/, downloaded and checked once
    deno = deno_program()        # the `deno` of the kit's environment (from PyPI)

The tarball comes from the npm registry over HTTPS with the standard library, and its
SHA-512 must equal :data:`INTEGRITY`, the hash the registry published for this version
(pinned here, so a changed file on the way is refused, not used).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import sys
import sysconfig
import tarfile
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from reversi.errors import ReversiError

VERSION = "314.0.7"
#: The npm registry's ``dist.integrity`` of pyodide@VERSION (SHA-512 of the tarball).
INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
#: The files of the core that the kit uses (the rest of the package is left out).
FILES = (
    "package.json",
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
MAX_TARBALL = 64 << 20  # bytes: the real one is 6.5 MB
ROOT = Path(__file__).resolve().parents[1]
INSTALL_DENO = "install the kit's environment again (python3 kit.py lab, or pip install deno)"


class PyodideError(ReversiError, RuntimeError):
    """Pyodide's files or Deno cannot be had here (the message says what to do)."""


def cache_folder() -> Path:
    """Where downloads are kept: ``build/`` of the kit's checkout, else the user's cache."""
    if (ROOT / "pyproject.toml").is_file() and os.access(ROOT, os.W_OK):
        return ROOT / "build"
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "reversi-kit"


def core(folder: Path | None = None, say: Callable[[str], None] = print) -> Path:
    """The folder of Pyodide's core files, downloading and checking them the first time."""
    folder = folder or cache_folder() / f"pyodide-{VERSION}"
    if all((folder / name).is_file() for name in FILES):
        return folder
    say(f"Downloading Pyodide {VERSION} (6.5 MB) from {TARBALL}")
    data = _download(TARBALL)
    if _integrity(data) != INTEGRITY:
        raise PyodideError(
            f"the Pyodide tarball from {TARBALL} does not have the published SHA-512 "
            "(a proxy or a broken download changed it): try again, or on another network"
        )
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=_made(folder.parent)))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                name = PurePosixPath(member.name)
                if member.isfile() and name.parts[:1] == ("package",) and name.name in FILES:
                    source = archive.extractfile(member)
                    if source is not None:
                        (staging / name.name).write_bytes(source.read())
        missing = [name for name in FILES if not (staging / name).is_file()]
        if missing:
            raise PyodideError(f"the Pyodide tarball from {TARBALL} lacks {', '.join(missing)}")
        for path in (staging, *staging.iterdir()):  # readable by every user of this computer
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder, ignore_errors=True)
        staging.replace(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"Pyodide {VERSION} is in {folder}")
    return folder


def deno_program() -> str:
    """The Deno program of the kit's environment (the ``deno`` package from PyPI)."""
    name = "deno" + (sysconfig.get_config_var("EXE") or "")
    beside = Path(sysconfig.get_path("scripts")) / name
    if beside.is_file():
        return str(beside)
    found = shutil.which("deno")
    if found is None:
        raise PyodideError(f"Deno is not installed in the kit's environment: {INSTALL_DENO}")
    return found


def _download(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            data: bytes = response.read(MAX_TARBALL + 1)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise PyodideError(
            f"could not download Pyodide from {url} ({reason}): check the network "
            "(the npm registry must be reachable once; later runs use the copy kept)"
        ) from None
    if len(data) > MAX_TARBALL:
        raise PyodideError(f"{url} is larger than {MAX_TARBALL >> 20} MB: not Pyodide's core")
    return data


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder
