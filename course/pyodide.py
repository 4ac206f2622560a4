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

Its standard library (``python_stdlib.zip``) holds sources only, so every start of Pyodide
compiled the modules it imports again: 4.0-4.6 s of a start of 4.4-5.6 s here.  Once
fetched, the kit has Pyodide compile them once and adds the *unchecked-hash* pycs (PEP 552)
beside the sources in the zip, where ``zipimport`` takes them first (a start then takes
1.3-1.6 s); the sources stay for tracebacks.  Without Deno the zip stays as it came.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import subprocess
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
#: Written beside the core once its standard library has its bytecode (what it says: how much).
BYTECODE_STAMP = "python_stdlib.bytecode"
#: Beside the core: its memory just after start-up, which a sandboxed run loads instead of
#: starting Python again (Pyodide's ``_makeSnapshot``/``_loadSnapshot``; a third of a start).
SNAPSHOT = "pyodide.snapshot"
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
        if not (folder / BYTECODE_STAMP).exists() and os.access(folder, os.W_OK):
            (folder / SNAPSHOT).unlink(missing_ok=True)  # it holds the zip as it was
            _compile_stdlib(folder, say)  # a core fetched before the kit compiled it
        if not (folder / SNAPSHOT).exists() and os.access(folder, os.W_OK):
            _snapshot(folder, say)
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
        _compile_stdlib(staging, say)
        _snapshot(staging, say)
        for path in (staging, *staging.iterdir()):  # readable by every user of this computer
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder, ignore_errors=True)
        staging.replace(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"Pyodide {VERSION} is in {folder}")
    return folder


#: Deno runs the core's Pyodide, which compiles every module of its standard library's zip
#: and writes the zip again with each module's pyc after its source (same order, same times).
STDLIB_COMPILER = """
const [coreUrl, core, scratch] = Deno.args;
const { loadPyodide } = await import(coreUrl + "pyodide.mjs");
const py = await loadPyodide({ indexURL: core });
py.FS.writeFile("/tmp/source.zip", await Deno.readFile(core + "python_stdlib.zip"));
const count = py.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
inside = next(path for path in sys.path if path.endswith(".zip"))  # the name tracebacks show
count = 0
with zipfile.ZipFile("/tmp/source.zip") as source, \\
        zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_DEFLATED) as compiled:
    for info in source.infolist():
        if info.filename.endswith(".pyc"):  # compiled before: made again below
            continue
        data = source.read(info)
        compiled.writestr(info, data)
        if info.filename.endswith(".py"):
            try:
                code = compile(data, f"{inside}/{info.filename}", "exec", dont_inherit=True)
            except SyntaxError:  # a test file of bad syntax on purpose: stays source
                continue
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            compiled.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), bytes(pyc),
                              zipfile.ZIP_DEFLATED)
            count += 1
count
`);
await Deno.writeFile(scratch + "/python_stdlib.zip", py.FS.readFile("/tmp/compiled.zip"));
console.log(count);
"""


def run_in_deno(script: str, core: Path, work: Path) -> str:
    """Run the JavaScript ``script`` in Deno with ``core``'s Pyodide at hand; returns the last
    line it printed.  Its arguments are the core's URL, the core's path and ``work``; it may
    read ``core`` and ``work``, write ``work`` only, and reach nothing else (no network).
    Raises :class:`PyodideError` saying why it could not run or failed."""
    deno = deno_program()
    (work / "script.mjs").write_text(script, encoding="utf-8")
    try:
        done = subprocess.run(
            [deno, "run", "--quiet", "--no-prompt", "--no-remote", "--no-npm", "--no-config",
             "--no-lock", f"--allow-read={core},{work}", f"--allow-write={work}",
             str(work / "script.mjs"), core.as_uri() + "/", str(core) + os.sep, work.as_posix()],
            capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL,
            env={"DENO_DIR": str(work / "deno"), "NO_COLOR": "1", "DENO_NO_UPDATE_CHECK": "1"},
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PyodideError(f"Deno could not run Pyodide ({error})") from None
    finally:
        shutil.rmtree(work / "deno", ignore_errors=True)
    if done.returncode != 0:
        raise PyodideError(f"Pyodide under Deno failed: {(done.stderr or done.stdout).strip()[-600:]}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def _compile_stdlib(folder: Path, say: Callable[[str], None]) -> None:
    """Add Pyodide's bytecode to ``folder``'s standard library zip, or say why it stays source."""
    with tempfile.TemporaryDirectory(prefix=".bytecode-", dir=folder) as scratch:
        try:
            count = run_in_deno(STDLIB_COMPILER, folder, Path(scratch))
        except PyodideError as problem:
            say(f"Note: Pyodide's standard library stays source only (each start compiles it again): {problem}")
            return
        compiled = Path(scratch) / "python_stdlib.zip"
        compiled.chmod(0o644)
        compiled.replace(folder / "python_stdlib.zip")
    stamp = folder / BYTECODE_STAMP
    stamp.write_text(f"{count} modules compiled by Pyodide {VERSION}\n")
    stamp.chmod(0o644)


#: Deno starts the core's Pyodide as a sandboxed run does, makes a snapshot of its memory, then
#: checks that a start from it runs Python (a snapshot that cannot start is never kept).
SNAPSHOT_MAKER = """
const [coreUrl, core, scratch] = Deno.args;
const { loadPyodide } = await import(coreUrl + "pyodide.mjs");
const py = await loadPyodide({ indexURL: core, _makeSnapshot: true });
py.runPython("import runpy");  // what every run imports first
await Deno.writeFile(scratch + "/pyodide.snapshot", py.makeMemorySnapshot());
const again = await loadPyodide({ indexURL: core, _loadSnapshot: Deno.readFile(scratch + "/pyodide.snapshot") });
console.log(again.runPython("6 * 7"));
"""


def _snapshot(folder: Path, say: Callable[[str], None]) -> None:
    """Make ``folder``'s start-up snapshot, or say why each run starts Python itself."""
    with tempfile.TemporaryDirectory(prefix=".snapshot-", dir=folder) as scratch:
        try:
            answer = run_in_deno(SNAPSHOT_MAKER, folder, Path(scratch))
        except PyodideError as problem:
            answer = str(problem)
        made = Path(scratch) / SNAPSHOT
        if answer != "42" or not made.is_file():
            say(f"Note: no start-up snapshot of Pyodide (each run starts Python itself): {answer[-300:]}")
            return
        made.chmod(0o644)
        made.replace(folder / SNAPSHOT)


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
