"""Pyodide's core from the npm registry with the standard library: checked, kept, refused clearly."""

from __future__ import annotations

import io
import tarfile
import tempfile
from pathlib import Path

import pytest

from course import pyodide


def tarball(files: dict[str, bytes]) -> bytes:
    """An npm-style tarball (everything under ``package/``)."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        for name, content in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return data.getvalue()


def test_the_real_core_is_kept_whole_and_readable_by_everyone() -> None:
    folder = pyodide.core(say=lambda line: None)
    assert folder.stat().st_mode & 0o555 == 0o555
    for name in pyodide.FILES:
        assert (folder / name).is_file()
        assert (folder / name).stat().st_mode & 0o444 == 0o444
    assert f'"version": "{pyodide.VERSION}"' in (folder / "package.json").read_text()


def test_a_changed_tarball_is_refused_and_nothing_is_kept(monkeypatch, tmp_path: Path) -> None:
    forged = tarball({name: b"evil" for name in pyodide.FILES})
    monkeypatch.setattr(pyodide, "_download", lambda url: forged)
    with pytest.raises(pyodide.PyodideError, match="does not have the published SHA-512"):
        pyodide.core(tmp_path / "core", say=lambda line: None)
    assert not (tmp_path / "core").exists()
    assert list(tmp_path.iterdir()) == []


def test_a_tarball_without_the_core_is_refused(monkeypatch, tmp_path: Path) -> None:
    partial = tarball({"package.json": b"{}", "../escape.py": b"x"})
    monkeypatch.setattr(pyodide, "_download", lambda url: partial)
    monkeypatch.setattr(pyodide, "INTEGRITY", pyodide._integrity(partial))
    with pytest.raises(pyodide.PyodideError, match="lacks pyodide.mjs"):
        pyodide.core(tmp_path / "core", say=lambda line: None)
    assert not (tmp_path / "core").exists() and not (tmp_path / "escape.py").exists()


def test_no_network_says_what_to_do(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(pyodide, "TARBALL", "http://127.0.0.1:9/pyodide.tgz")
    said: list[str] = []
    with pytest.raises(pyodide.PyodideError, match="could not download Pyodide.*check the network"):
        pyodide.core(tmp_path / "core", say=said.append)
    assert said and "Downloading Pyodide" in said[0]


def test_the_standard_library_has_pyodides_bytecode_and_keeps_its_sources() -> None:
    """Each module of the zip has an unchecked-hash pyc beside it, which Pyodide imports, and
    a traceback through the standard library still shows its source lines."""
    import zipfile

    from course.grading.sandbox import Sandbox

    folder = pyodide.core(say=lambda line: None)
    with zipfile.ZipFile(folder / "python_stdlib.zip") as stdlib:
        names = set(stdlib.namelist())
        pyc = stdlib.read("json/decoder.pyc")
    sources = {name for name in names if name.endswith(".py")}
    assert len({name + "c" for name in sources} & names) >= 0.95 * len(sources)
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, not checked (PEP 552)
    assert (folder / pyodide.BYTECODE_STAMP).read_text().startswith(f"{len(names & {n + 'c' for n in sources})} ")
    program = (
        "import json, traceback\n"
        "print(json.decoder.__file__)\n"
        "try:\n    json.loads('x')\nexcept ValueError:\n    print(traceback.format_exc())\n"
    )
    with Sandbox("pyodide").start({"p.py": program}, "p.py") as run:
        text = "\n".join(line.decode() for line in iter(run.next_line, None))
    assert text.splitlines()[0].endswith("json/decoder.pyc"), text
    assert "raise JSONDecodeError(" in text, text  # the source line, read from the zip


def test_runs_start_from_the_cores_snapshot_each_with_a_fresh_python() -> None:
    """The core has a start-up snapshot that starts Python; a run changes nothing the next sees."""
    from course.grading.sandbox import Sandbox

    folder = pyodide.core(say=lambda line: None)
    assert (folder / pyodide.SNAPSHOT).stat().st_size > 1 << 20
    assert pyodide.run_in_deno(
        "const [u, core] = Deno.args; const { loadPyodide } = await import(u + 'pyodide.mjs');"
        "const py = await loadPyodide({ indexURL: core, _loadSnapshot: Deno.readFile(core + 'pyodide.snapshot') });"
        "console.log(py.runPython('import sys; sys.version_info[:2]').toJs().join('.'))",
        folder, Path(tempfile.mkdtemp()),
    ) == "3.14"  # fmt: skip
    sandbox = Sandbox("pyodide")
    marks = (
        "import os, runpy, sys\n"
        "print(hasattr(runpy, 'kit_mark'), os.path.exists('/tmp/kit_mark'), 'kit_mark' in sys.modules)\n"
        "runpy.kit_mark = 1\nopen('/tmp/kit_mark', 'w').write('1')\nsys.modules['kit_mark'] = runpy\n"
        "print(sys.stdin.readline().strip())\n"
        "import random\nprint(random.random())\n"
    )
    draws = []
    for word in (b"first", b"second"):
        with sandbox.start({"p.py": marks}, "p.py") as run:
            run.send(word + b"\n")
            run.close_input()
            *said, draw = run.lines().lines
            assert said == [b"False False False", word]
            draws.append(draw)
    assert draws[0] != draws[1]  # each run its own random sequence, not the snapshot's
