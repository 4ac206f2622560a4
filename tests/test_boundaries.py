"""Where trust ends, by construction: every command-line flag and every file the kit reads from
outside answers any bytes with a result or the kit's own error, never a traceback or a hang.

Flags: every ``type=`` of every argparse parser of ``python -m course`` and ``python -m reversi``
gets hostile text (argparse turns ArgumentTypeError, ValueError and TypeError into ``argument
--x: ...`` and exit status 2; anything else would be a traceback).  Files: save files, cursor
map files, notebooks (hand-ins) and grade overrides (CSV and JSON), as random bytes and as
mutations of real ones (a byte changed, cut short, nested deep, made huge).  Messages and HTTP
bodies are fuzzed at the class server (tests/course/classroom, tests/course/site) and by the
schema's own tests (tests/course/test_schema.py).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi import Game, ReversiError

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(tempfile.mkdtemp(prefix="reversi-boundaries-"))
SECONDS = 3.0
EXAMPLES = int(os.environ.get("REVERSI_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class Hang(BaseException):
    pass


def _bounded(call: Callable[[], Any]) -> Any:
    def alarm(signum: int, frame: object) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- flags

class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


def _parser_of(main: Callable[[list[str]], Any]) -> argparse.ArgumentParser:
    """The parser ``main`` builds, caught as it starts to parse."""
    original = argparse.ArgumentParser.parse_args

    def catch(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Captured(self)

    argparse.ArgumentParser.parse_args = catch  # type: ignore[method-assign,assignment]
    try:
        main([])
    except _Captured as captured:
        return captured.parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError(f"{main} parsed no arguments")


def _parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    from course.__main__ import main as course_main
    from reversi.terminal import main as reversi_main

    yield "python -m reversi", _parser_of(reversi_main)
    top = _parser_of(course_main)
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, parser in action.choices.items():
                yield f"python -m course {name}", parser


def _typed_flags() -> list[tuple[str, Callable[[str], Any]]]:
    found = []
    for command, parser in _parsers():
        for action in parser._actions:
            if callable(action.type):
                flag = action.option_strings[-1] if action.option_strings else action.dest
                found.append((f"{command}: {flag}", action.type))
    return found


FLAGS = _typed_flags()

FLAG_TEXT = st.one_of(
    st.sampled_from(["", " ", "-1", "0", "1e309", "nan", "inf", "-inf", "9" * 5000, "x" * 5000,
                     "/", "//", "/proc/self/mem", "/dev/null", "/nonexistent/x", "..", "~",
                     "\udcff", "a\udcffb", "\u202e", "🙂", "1_000", "0x10", "１２", "2026-13-45",
                     "2026-02-30T25:61", "::1", "[::1]", "256.1.1.1", "localhost:80",
                     os.fspath(WORK / ("y" * 300)), os.fspath(WORK / "loop")]),
    st.text(max_size=40).filter(lambda text: "\x00" not in text),
)


def test_every_typed_flag_is_fuzzed() -> None:
    commands = {name.split(": ")[0] for name, _ in FLAGS}
    assert "python -m reversi" in commands and "python -m course grade" in commands, commands


@pytest.mark.parametrize("name, read", FLAGS, ids=[name for name, _ in FLAGS])
@SETTINGS
@given(text=FLAG_TEXT)
def test_a_flag_takes_any_text_or_refuses_it_cleanly(name: str, read: Callable[[str], Any], text: str) -> None:
    loop = WORK / "loop"
    if not loop.is_symlink():
        loop.symlink_to(loop)
    before = sorted(path.name for path in WORK.iterdir())
    try:
        _bounded(lambda: read(text))
    except (argparse.ArgumentTypeError, ValueError, TypeError):
        pass  # argparse prints "argument FLAG: reason" and exits with status 2
    except Hang:
        pytest.fail(f"{name} {text[:40]!r} did not return within {SECONDS} s")
    assert sorted(path.name for path in WORK.iterdir()) == before, f"{name} {text[:40]!r} made files"


# ---------------------------------------------------------------- files

def _mutations(original: bytes) -> st.SearchStrategy[bytes]:
    def change(data: bytes, at: int, byte: int) -> bytes:
        if not data:
            return bytes([byte])
        at %= len(data)
        return data[:at] + bytes([byte]) + data[at + 1 :]

    return st.one_of(
        st.binary(max_size=300),
        st.builds(change, st.just(original), st.integers(0, 10**6), st.integers(0, 255)),
        st.builds(lambda cut: original[:cut], st.integers(0, len(original))),
        st.builds(lambda n: b"[" * n + original, st.sampled_from([1, 100, 1000, 100_000])),
        st.builds(lambda n: b'{"a":' * n + original, st.sampled_from([100, 100_000])),
        st.builds(lambda n: original * n, st.sampled_from([2, 1000])),
        st.just(original.replace(b"\n", b"\r\n")),
        st.just(b"\xef\xbb\xbf" + original),
        st.just(original.decode("utf-8", "replace").encode("utf-16")),
        st.just(b"\x00" * 1000),
    )


def _save() -> bytes:
    from reversi.saves import save_game

    game = Game()
    for move in ("d3", "c5", "f6"):
        game.play(move)
    return save_game(game, WORK / "sample.json").read_bytes()


def _readers() -> list[tuple[str, bytes, Callable[[Path], Any]]]:
    from course.grading import notebook, overrides
    from reversi.cursormap.mapfile import load_map
    from reversi.saves import load_game

    return [
        ("save file", _save(), load_game),
        ("map file", (ROOT / "reversi/cursormap/maps/04_own_characters.map").read_bytes(), load_map),
        ("notebook", (ROOT / "exercises/01_squares.ipynb").read_bytes(), notebook.read),
        ("overrides CSV", (ROOT / "docs/overrides-sample.csv").read_bytes(), overrides.load),
        ("overrides JSON", (ROOT / "docs/overrides-sample.json").read_bytes(), overrides.load),
    ]


READERS = _readers()
SUFFIXES = {"overrides CSV": ".csv", "overrides JSON": ".json", "notebook": ".ipynb",
            "map file": ".map", "save file": ".json"}  # fmt: skip


@pytest.mark.parametrize("name, original, read", READERS, ids=[name for name, _, _ in READERS])
def test_the_real_file_is_read(name: str, original: bytes, read: Callable[[Path], Any]) -> None:
    path = WORK / f"real{SUFFIXES[name]}"
    path.write_bytes(original)
    assert read(path) is not None


@pytest.mark.parametrize("name, original, read", READERS, ids=[name for name, _, _ in READERS])
@SETTINGS
@given(data=st.data())
def test_a_file_of_any_bytes_is_read_or_refused_with_the_kits_error(
    name: str, original: bytes, read: Callable[[Path], Any], data: st.DataObject
) -> None:
    content = data.draw(_mutations(original), label="bytes")
    path = WORK / f"fuzzed{SUFFIXES[name]}"
    path.write_bytes(content)
    try:
        _bounded(lambda: read(path))
    except ReversiError:
        pass
    except Hang:
        pytest.fail(f"reading a {name} of {len(content)} bytes did not end within {SECONDS} s")


def test_the_files_are_fuzzed() -> None:
    assert {name for name, _, _ in READERS} >= {"save file", "map file", "notebook"}
    assert json.loads(READERS[0][1])  # the save sample is a real save


@pytest.mark.parametrize("command", [["site", "build"], ["worksheets"], ["grade", "."]])
def test_an_output_folder_that_is_a_symbolic_link_loop_is_refused_before_any_work(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from course.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(SystemExit) as exited:
        main([*command, "--out", "loop"])
    assert exited.value.code == 2
    assert "argument --out: 'loop' cannot be used" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["loop"]
