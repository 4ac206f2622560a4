"""The site build's guards and pieces that need no network: sources, stand-ins, lock entries, sizes."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import numpy as real_numpy
import pytest

from course.site import SiteError, standin_numpy
from course.site.build import (
    EXERCISES,
    LESSONS,
    SiteBuild,
    _released_notebooks,
)
from course.site.compression import _site_size, compress_site
from course.site.wheels import STANDINS, build_standin, canonical_name, read_wheel
from reversi.errors import ArgumentError, ReversiError


def test_the_released_exercises_and_the_lessons_hold_no_solution() -> None:
    assert [p.stem for p in _released_notebooks(EXERCISES)] == sorted(
        p.stem for p in EXERCISES.glob("*.ipynb")
    )
    assert _released_notebooks(LESSONS)


def test_the_teacher_folder_and_a_notebook_with_a_solution_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="teacher folder"):
        _released_notebooks(EXERCISES / "source")
    (tmp_path / "seeded").mkdir()
    (tmp_path / "seeded" / "grading_seed.txt").write_text("1")
    with pytest.raises(SiteError, match="teacher folder"):
        _released_notebooks(tmp_path / "seeded")
    (tmp_path / "leaky").mkdir()
    (tmp_path / "leaky" / "04_flips.ipynb").write_text(
        '{"cells": [{"source": "### BEGIN SOLUTION"}]}'
    )
    with pytest.raises(SiteError, match="contains a solution"):
        _released_notebooks(tmp_path / "leaky")


def test_a_build_refuses_a_solution_and_a_non_site_output_before_any_work(tmp_path: Path) -> None:
    said: list[str] = []
    (tmp_path / "leaky").mkdir()
    (tmp_path / "leaky" / "x.ipynb").write_text("### BEGIN SOLUTION")
    with pytest.raises(SiteError, match="contains a solution"):
        SiteBuild(
            out=tmp_path / "out",
            cache=tmp_path / "cache",
            exercises=tmp_path / "leaky",
            say=said.append,
        ).run()
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thesis.txt").write_text("precious")
    with pytest.raises(SiteError, match="holds no site"):
        SiteBuild(out=tmp_path / "home", cache=tmp_path / "cache", say=said.append).run()
    assert (tmp_path / "home" / "thesis.txt").read_text() == "precious"
    assert not (tmp_path / "cache").exists() and said == []


@pytest.mark.parametrize("standin", STANDINS, ids=lambda s: s.name)
def test_the_stand_in_wheels_say_what_they_are(tmp_path: Path, standin) -> None:
    wheel = build_standin(standin, tmp_path)
    assert wheel.name == standin.file_name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta = archive.read(next(n for n in names if n.endswith("METADATA"))).decode()
        module = archive.read(standin.target).decode()
        record = archive.read(next(n for n in names if n.endswith("RECORD"))).decode()
    assert "Summary: offline stand-in, NOT the real" in meta
    assert "IS_STANDIN = True" in module and "STAND-IN" in module
    assert all(name in record for name in names)
    info = read_wheel(wheel)
    assert (canonical_name(info.name), info.version, info.depends) == (
        canonical_name(standin.name),
        standin.version,
        [],
    )


def test_the_numpy_stand_in_packs_bytes_as_numpy_does() -> None:
    """What ipycanvas calls, checked against the real numpy (the oracle)."""
    data = bytes(range(40))
    for dtype in ("uint8", "int32", "float32", "float64"):
        ours = standin_numpy.frombuffer(data, dtype=getattr(standin_numpy, dtype))
        theirs = real_numpy.frombuffer(data, dtype=getattr(real_numpy, dtype))
        assert ours.tolist() == pytest.approx(theirs.tolist(), nan_ok=True)
        assert ours.tobytes() == theirs.tobytes() and str(ours.dtype) == str(theirs.dtype)
    values = [[1, 2, 3], [4, 5, 6]]
    ours, theirs = standin_numpy.asarray(values), real_numpy.asarray(values)
    assert ours.shape == theirs.shape and ours.dtype == standin_numpy.int64
    assert ours.astype(standin_numpy.int32).tobytes() == theirs.astype(real_numpy.int32).tobytes()
    assert bytes(ours.__buffer__(0)) == theirs.tobytes()
    both = standin_numpy.concatenate([standin_numpy.asarray([1.5, 2]), standin_numpy.asarray([3])])
    assert both.tolist() == real_numpy.concatenate([[1.5, 2], [3]]).tolist()
    assert standin_numpy.zeros((2, 3)).shape == (2, 3) and standin_numpy.sum([1, 2, 3]) == 6
    assert isinstance(standin_numpy.asarray([1]), standin_numpy.ndarray)
    with pytest.raises(NotImplementedError, match="stand-in"):
        standin_numpy.zeros(2, dtype="complex128")


def test_compressed_copies_and_the_size_report(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("x = 1;\n" * 1000)
    (tmp_path / "b.whl").write_bytes(b"PK" * 1000)
    (tmp_path / "tiny.json").write_text("{}")
    assert compress_site(tmp_path) == 1
    assert gzip.decompress((tmp_path / "a.js.gz").read_bytes()) == (tmp_path / "a.js").read_bytes()
    total, compressed = _site_size(tmp_path)
    assert total == 7000 + 2000 + 2 and compressed < total


def test_lock_closure_takes_the_pure_python_packages_the_kernel_preloads() -> None:
    lock = {"packages": {
        "ipython": {"name": "ipython", "file_name": "ipython-1-py3-none-any.whl", "depends": ["prompt_toolkit"]},
        "prompt-toolkit": {"name": "prompt_toolkit", "file_name": "p-1-py3-none-any.whl", "depends": []},
        "micropip": {"name": "micropip", "file_name": "m-1-py3-none-any.whl", "depends": []},
        "comm": {"name": "comm", "file_name": "c-1-py3-none-any.whl", "depends": ["numpy"]},
        "numpy": {"name": "numpy", "file_name": "numpy-1-cp314-wasm32.whl", "depends": []},
    }}  # fmt: skip
    assert SiteBuild()._lock_closure(lock) == ["comm", "ipython", "micropip", "prompt-toolkit"]
    lock["packages"]["comm"]["depends"] = ["scipy"]
    lock["packages"]["scipy"] = {
        "name": "scipy",
        "file_name": "scipy-1-cp314-wasm32.whl",
        "depends": [],
    }
    with pytest.raises(SiteError, match="scipy .* not pure Python"):
        SiteBuild()._lock_closure(lock)
    json.dumps(lock)


def test_the_command_checks_its_flags_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from course.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main(["site", "build", "--pyodide-packages", str(tmp_path / "missing")])
    assert stopped.value.code == 2 and "--pyodide-packages" in capsys.readouterr().err
    (tmp_path / "notes.txt").write_text("keep")
    assert main(["site", "build", "--out", str(tmp_path)]) == 1
    assert (
        "holds no site" in capsys.readouterr().err
        and (tmp_path / "notes.txt").read_text() == "keep"
    )
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--site", str(tmp_path / "notes.txt")])
    assert stopped.value.code == 2 and "--site" in capsys.readouterr().err


@pytest.mark.parametrize(
    "call",
    [
        lambda: standin_numpy.asarray(["1", "2"]),  # text: the stand-in holds numbers
        lambda: standin_numpy.asarray(lambda: None),  # not a list at all
        lambda: standin_numpy.asarray([10**31]),  # too large for int64
        lambda: standin_numpy.asarray([float("nan")], dtype="int64"),
        lambda: standin_numpy.asarray([[1, 2], [3]]),  # ragged rows
        lambda: standin_numpy.zeros(-1),
        lambda: standin_numpy.zeros(1.5),
        lambda: standin_numpy.frombuffer(10**9),  # type: ignore[arg-type]  # bytes(n): a gigabyte
        lambda: standin_numpy.frombuffer(b"abc", dtype="int32"),  # not whole elements
        lambda: standin_numpy.concatenate([]),
        lambda: standin_numpy.asarray([1, 2]).reshape(3),
        lambda: standin_numpy.ndarray([1, 2], standin_numpy.int64),  # type: ignore[arg-type]
    ],
)
def test_the_numpy_stand_in_refuses_what_is_not_an_array_with_the_kits_error(call) -> None:
    with pytest.raises(standin_numpy.ArrayValueError) as refused:
        call()
    assert isinstance(refused.value, ReversiError) and isinstance(refused.value, ValueError)


def test_the_stand_ins_say_what_needs_the_real_package() -> None:
    import itertools

    from course.site import standin_pil

    with pytest.raises(standin_numpy.StandInError, match="real numpy"):
        standin_numpy.zeros(10**9)  # more than a stand-in array holds
    with pytest.raises(standin_numpy.StandInError, match="real numpy"):
        standin_numpy.asarray(itertools.count())  # an iterator that never ends
    with pytest.raises(NotImplementedError, match="real Pillow"):
        standin_pil.open("pawn.png")
    assert issubclass(standin_pil.StandInError, ReversiError)


def test_the_site_command_refuses_what_is_not_its_parser_or_its_flags() -> None:
    import argparse

    from course.site import cli

    with pytest.raises(ArgumentError, match="ArgumentParser"):
        cli.add_arguments(None)  # type: ignore[arg-type]
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    with pytest.raises(ArgumentError, match="sub-commands"):
        cli.add_arguments(parser)  # argparse itself would print and exit
    with pytest.raises(ArgumentError, match="Namespace"):
        cli.run({"out": "site"})  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="--out"):
        cli.run(argparse.Namespace(out=3, pyodide_packages=None))
