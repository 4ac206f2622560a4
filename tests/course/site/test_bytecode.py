"""The site's wheels get Pyodide's own bytecode beside their sources."""

from __future__ import annotations

import zipfile
from pathlib import Path

from course import pyodide
from course.site.bytecode import _with_bytecode, compile_wheels
from course.site.wheels import _write_wheel

SOURCE = b'"""A module."""\n\ndef answer():\n    return 6 * 7\n'


def test_pyodides_bytecode_is_added_to_a_wheel_and_recorded(tmp_path: Path) -> None:
    wheel = _write_wheel(tmp_path, "tiny", "1.0", {"tiny/__init__.py": SOURCE}, "a test wheel")
    said: list[str] = []
    assert compile_wheels([wheel], pyodide.core(say=said.append), said.append) == 1, said
    with zipfile.ZipFile(wheel) as packed:
        names = packed.namelist()
        pyc = packed.read("tiny/__pycache__/__init__.cpython-314.pyc")
        record = packed.read("tiny-1.0.dist-info/RECORD").decode()
        assert packed.read("tiny/__init__.py") == SOURCE  # the source stays, for tracebacks
    assert "tiny/__pycache__/__init__.cpython-314.pyc,sha256=" in record
    assert len(names) == 5
    # Python 3.14's magic number, then flags 1: a hash-based pyc that is not checked (PEP 552)
    assert pyc[:4] == b"\x2b\x0e\x0d\x0a" and pyc[4:8] == b"\x01\x00\x00\x00"


def test_a_wheel_with_nothing_compiled_is_left_as_it_was(tmp_path: Path) -> None:
    wheel = _write_wheel(tmp_path, "tiny", "1.0", {"tiny/__init__.py": SOURCE}, "a test wheel")
    before = wheel.read_bytes()
    (tmp_path / "empty").mkdir()
    _with_bytecode(wheel, tmp_path / "empty")
    assert wheel.read_bytes() == before
