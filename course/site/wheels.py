"""Wheels for the site: the stand-ins for numpy and Pillow, and the lock entries of a wheel.

A wheel is a zip file with the package and a ``*.dist-info`` folder (METADATA, WHEEL,
RECORD); writing one takes a few lines, so the stand-ins need no build tool.
"""

from __future__ import annotations

import base64
import email.parser
import hashlib
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

#: The wheel writer and reader are the site build's inside.

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class _StandIn:
    """A minimal module packaged under the name and version of a Pyodide package."""

    lock_key: str  # the key in pyodide-lock.json
    name: str  # the distribution name
    version: str
    source: Path  # the module file
    target: str  # where it goes in the wheel

    @property
    def file_name(self) -> str:
        return f"{self.name.replace('-', '_')}-{self.version}-py3-none-any.whl"


STANDINS = (
    _StandIn("numpy", "numpy", "2.4.6", HERE / "standin_numpy.py", "numpy/__init__.py"),
    _StandIn("pillow", "Pillow", "12.2.0", HERE / "standin_pil.py", "PIL/Image.py"),
)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def _write_wheel(
    folder: Path, name: str, version: str, files: dict[str, bytes], summary: str
) -> Path:
    """A pure-Python wheel holding ``files`` (path in the wheel -> bytes), written into ``folder``."""
    dist = f"{name.replace('-', '_')}-{version}.dist-info"
    contents = dict(files)
    contents[f"{dist}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
    ).encode()
    contents[f"{dist}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: course.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(
        f"{path},{_record_hash(data)},{len(data)}\n" for path, data in contents.items()
    )
    contents[f"{dist}/RECORD"] = (record + f"{dist}/RECORD,,\n").encode()
    target = Path(folder) / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in sorted(contents.items()):
            wheel.writestr(zipfile.ZipInfo(path, (2020, 1, 1, 0, 0, 0)), data)
    return target


def build_standin(standin: _StandIn, folder: Path) -> Path:
    """The stand-in's wheel; its summary and its module both say it is a stand-in."""
    files = {standin.target: standin.source.read_bytes()}
    if standin.target.startswith("PIL/"):
        files["PIL/__init__.py"] = (
            b'"""A STAND-IN for Pillow: NOT the real Pillow."""\nIS_STANDIN = True\n'
        )
    summary = f"offline stand-in, NOT the real {standin.name}: only what ipycanvas needs to load"
    return _write_wheel(folder, standin.name, standin.version, files, summary)


def file_sha256(path: Path) -> str:
    """The hex SHA-256 of a file, as pyodide-lock.json records it."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def canonical_name(name: str) -> str:
    """A package name normalised as PEP 503 says (``prompt_toolkit`` -> ``prompt-toolkit``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class _WheelInfo:
    """What a lock entry needs from a wheel: its name, version, imports and dependencies."""

    name: str
    version: str
    imports: list[str]
    depends: list[str]


def read_wheel(path: Path) -> _WheelInfo:
    """The name, version, top-level imports and plain (no extra, no marker) dependencies of a wheel."""
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        meta_name = next(
            n for n in names if n.endswith(".dist-info/METADATA") and n.count("/") == 1
        )
        meta = email.parser.Parser().parsestr(wheel.read(meta_name).decode())
        tops = sorted(
            {n.split("/")[0].removesuffix(".py") for n in names if "/" in n or n.endswith(".py")}
            - {meta_name.split("/")[0]}
        )
    depends = []
    for requirement in meta.get_all("Requires-Dist") or []:
        if ";" in requirement and "extra" in requirement.split(";", 1)[1]:
            continue
        match = re.match(r"\s*([A-Za-z0-9_.\-]+)", requirement)
        if match:
            depends.append(match.group(1))
    imports = [top for top in tops if top.isidentifier() and not top.endswith(".data")]
    return _WheelInfo(str(meta["Name"]), str(meta["Version"]), imports, depends)
