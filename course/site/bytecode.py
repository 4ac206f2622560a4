"""Bytecode for the site's wheels, compiled at build time by the site's own Pyodide.

A wheel from PyPI holds source only, so every page's kernel compiled IPython, the widget
libraries and the kit again before the first cell ran (IPython's import took 4.0 s from
source and 2.1 s from bytecode in Pyodide under load).  The build compiles each wheel's
modules once, with the Pyodide the site ships (run by the kit's Deno, as the grading
sandbox is), and adds the ``__pycache__`` files beside the sources.  They are
*unchecked-hash* pycs (PEP 552): Python uses them without reading the source's time,
which a wheel does not keep, and the source stays for tracebacks and ``inspect``.

Without Deno the site is built without them (slower to start, the same otherwise).
"""

from __future__ import annotations

import base64
import hashlib
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from course import pyodide

#: The compiler is the site build's inside.

#: Deno runs Pyodide, copies ``FOLDER`` into it, compiles it there and writes the pycs back.
COMPILER = """
const [coreUrl, core, folder] = Deno.args;
const { loadPyodide } = await import(coreUrl + "pyodide.mjs");
const py = await loadPyodide({ indexURL: core });
const copy = async (host, inner) => {
  for await (const entry of Deno.readDir(host)) {
    const from = host + "/" + entry.name, to = inner + "/" + entry.name;
    if (entry.isDirectory) { py.FS.mkdirTree(to); await copy(from, to); }
    else py.FS.writeFile(to, await Deno.readFile(from));
  }
};
py.FS.mkdirTree("/src");
await copy(folder, "/src");
const made = py.runPython(`
import compileall, pathlib, py_compile, site
installed = site.getsitepackages()[0]  # where the kernel unpacks the wheels: tracebacks name it
for wheel in pathlib.Path("/src").iterdir():
    compileall.compile_dir(str(wheel), ddir=installed, quiet=2,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
[str(path) for path in pathlib.Path("/src").rglob("*.pyc")]
`).toJs();
for (const inner of made) {
  const host = folder + inner.slice("/src".length);
  await Deno.mkdir(host.slice(0, host.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(host, py.FS.readFile(inner));
}
console.log(made.length);
"""


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}\n"


def _with_bytecode(wheel: Path, compiled: Path) -> None:
    """Rewrite ``wheel`` in place with the pycs found under ``compiled`` (its unpacked copy)."""
    pycs = {
        path.relative_to(compiled).as_posix(): path.read_bytes()
        for path in sorted(compiled.rglob("*.pyc"))
    }
    if not pycs:
        return
    with zipfile.ZipFile(wheel) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    record = next(
        info.filename for info, _ in entries if info.filename.endswith(".dist-info/RECORD")
    )
    stamp = (2020, 1, 1, 0, 0, 0)
    packed = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            if info.filename == record:
                data = data + "".join(_record_line(p, d) for p, d in pycs.items()).encode()
            target.writestr(info, data)
        for path, data in pycs.items():
            target.writestr(zipfile.ZipInfo(path, stamp), data)
    packed.replace(wheel)


def compile_wheels(wheels: list[Path], core: Path, say: Callable[[str], None]) -> int:
    """Add Pyodide's bytecode to each wheel in place; returns how many modules were compiled.

    Without Deno (or if Pyodide cannot run), says why and leaves the wheels as they are.
    """
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as source:
                for name in source.namelist():
                    if name.endswith(".py") and ".dist-info/" not in name:
                        source.extract(name, root / wheel.stem)
        try:
            count = pyodide.run_in_deno(COMPILER, core, root)
        except pyodide.PyodideError as problem:
            say(f"Note: the site's wheels get no bytecode (kernels start slower): {problem}")
            return 0
        for wheel in wheels:
            _with_bytecode(wheel, root / wheel.stem)
        return int(count)
