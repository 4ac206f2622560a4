"""``kit.py``, the teacher's one command: its help, its refusals, its stamp and its command lines.

Nothing here installs anything: the command lines are checked as the pure function
:func:`kit.command_for` builds them, and the runs use a copy of ``kit.py`` alone (which
stops before making an environment) or the current interpreter.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kit
from course.__main__ import COMMANDS as COURSE_COMMANDS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = "[project]\nname = 'reversi-kit'\n"


@pytest.fixture
def lone_kit(tmp_path: Path) -> Path:
    """``kit.py`` alone in a folder whose name has a space and a non-ASCII letter."""
    folder = tmp_path / "Zoë Martín kit"
    folder.mkdir()
    shutil.copy(ROOT / "kit.py", folder)
    return folder


def _kit(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(folder / "kit.py"), *args], cwd=folder,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_help_lists_every_command_with_one_line(lone_kit: Path) -> None:
    shown = _kit(lone_kit, "--help")
    assert shown.returncode == 0 and shown.stderr == ""
    lines = shown.stdout.splitlines()
    for name, command in kit.COMMANDS.items():
        assert sum(line.split()[:1] == [name] for line in lines) == 1, name
        assert any(line.split()[:1] == [name] and command.summary in line for line in lines)
    assert not (lone_kit / ".venv").exists()


@pytest.mark.parametrize("args", [["bogus"], ["Lab"], []], ids=["bogus", "Lab", "nothing"])
def test_an_unknown_command_exits_2_with_one_line_and_the_list(lone_kit: Path, args) -> None:
    refused = _kit(lone_kit, *args)
    assert refused.returncode == 2 and refused.stdout == ""
    first, *rest = refused.stderr.splitlines()
    assert first == (f"kit.py: unknown command {args[0]!r}" if args else "kit.py: no command given")
    assert all(f"  {name} " in refused.stderr for name in kit.COMMANDS)
    assert "Traceback" not in refused.stderr
    assert not (lone_kit / ".venv").exists(), "nothing is made before the command is known"


def test_run_without_a_command_is_refused_before_any_install(lone_kit: Path) -> None:
    refused = _kit(lone_kit, "run")
    assert refused.returncode == 2
    assert refused.stderr.startswith("kit.py: run needs a command")
    assert not (lone_kit / ".venv").exists()


def test_the_course_commands_are_the_course_tools() -> None:
    assert set(kit.COURSE_COMMANDS) == set(COURSE_COMMANDS)
    for name in COURSE_COMMANDS:
        assert kit.command_for([name, "--help"], "py") == ["py", "-m", "course", name, "--help"]
        assert kit.COMMANDS[name].extras == "lab" and not kit.COMMANDS[name].at_root


def test_the_command_lines() -> None:
    root = Path("/kit folder")
    assert kit.command_for(["play"], "py") == ["py", "-m", "reversi"]
    assert kit.command_for(["python", "benchmarks/perft.py", "-x"], "py") == [
        "py", "benchmarks/perft.py", "-x",
    ]  # fmt: skip
    assert kit.command_for(["run", "voila", "notebooks/01_play.ipynb"], "py") == [
        "voila", "notebooks/01_play.ipynb",
    ]  # fmt: skip
    lab = ["py", "-m", "jupyterlab", f"--ServerApp.root_dir={root}", "notebooks/00_welcome.ipynb"]
    assert kit.command_for(["lab"], "py", root) == lab
    assert kit.command_for(["lab", "--port", "9"], "py", root, as_root=True) == [
        *lab[:3], "--allow-root", *lab[3:], "--port", "9",
    ]  # fmt: skip
    assert kit.command_for(["test", "-m", "not browser"], "py") == [
        "py", "-m", "pytest", "--doctest-modules", "--nbval-lax",
        "reversi", "course", "tests", "notebooks", "-m", "not browser",
    ]  # fmt: skip
    assert kit.command_for(["test", "tests/reversi", "-x"], "py") == [
        "py", "-m", "pytest", "--doctest-modules", "--nbval-lax", "tests/reversi", "-x",
    ]  # fmt: skip
    for refused in (["run"], ["bogus"], []):
        with pytest.raises(kit.KitError) as error:
            kit.command_for(refused)
        assert error.value.status == 2


def test_pytest_runs_everything_unless_a_path_is_named() -> None:
    every = ["reversi", "course", "tests", "notebooks"]
    assert kit.pytest_targets([], ROOT) == every
    assert kit.pytest_targets(["-k", "saves", "-x"], ROOT) == every
    assert kit.pytest_targets(["tests/test_kit.py::test_the_command_lines"], ROOT) == []
    assert kit.pytest_targets(["--lf", "no/such/file.py"], ROOT) == every


def test_the_gates_check_only_the_kits_own_files() -> None:
    gates = [command for _, command in kit.gate_commands("py")]
    assert gates[0] == ["py", "-m", "ruff", "check", *kit.OWN_FILES]
    assert gates[1:] == [["py", "-m", "mypy"]]
    assert all((ROOT / name).exists() for name in kit.OWN_FILES)
    assert not {"class", "exercises", "notebooks", "build", "."} & set(kit.OWN_FILES)


@pytest.mark.parametrize(
    ("have", "want", "covered"),
    [
        ("test", "test", True), ("test", "lab", True), ("test", "", True), ("lab", "", True),
        ("lab", "test", False), ("", "lab", False), ("", "test", False), ("plots", "", False),
    ],
)  # fmt: skip
def test_an_install_covers_the_same_extras_or_fewer(have: str, want: str, covered: bool) -> None:
    assert (
        kit.stamp_covers(kit.stamp_text(PYPROJECT, have), kit.stamp_text(PYPROJECT, want))
        is covered
    )


def test_a_changed_pyproject_is_never_covered() -> None:
    changed = PYPROJECT + "dependencies = ['x']\n"
    assert not kit.stamp_covers(kit.stamp_text(PYPROJECT, "test"), kit.stamp_text(changed, ""))
    assert not kit.stamp_covers("garbage", kit.stamp_text(PYPROJECT, ""))


def test_the_stamp_is_the_one_the_bash_scripts_wrote() -> None:
    """scripts/venv.sh wrote "$(cat pyproject.toml)" (trailing newlines cut), a newline, extras=."""
    assert kit.stamp_text("a\nb\n\n", "test") == "a\nb\nextras=test"
    assert kit.stamp_text("a\nb", "") == "a\nb\nextras="


def test_a_reinstall_keeps_the_extras_there_were() -> None:
    assert kit.extras_to_install(kit.stamp_text("old", "test"), "") == "test"
    assert kit.extras_to_install(kit.stamp_text("old", ""), "lab") == "lab"
    assert kit.extras_to_install(kit.stamp_text("old", "bogus"), "lab") == "lab"
    assert kit.extras_to_install(None, "") == ""


def test_the_environments_interpreter_and_path() -> None:
    venv = Path("/k/.venv")
    assert kit.venv_python(venv, windows=True) == venv / "Scripts" / "python.exe"
    assert kit.venv_python(venv, windows=False) == venv / "bin" / "python"
    env = kit.environment(venv, {"PATH": "/usr/bin", "PYTHONHOME": "/x", "LANG": "C"})
    assert env["PATH"] == os.pathsep.join([str(kit.venv_python(venv).parent), "/usr/bin"])
    assert env["VIRTUAL_ENV"] == str(venv) and env["LANG"] == "C" and "PYTHONHOME" not in env
    assert kit.environment(venv, {})["PATH"] == str(kit.venv_python(venv).parent)


def test_only_missing_debian_packages_are_named() -> None:
    present = {"bwrap": "/usr/bin/bwrap"}
    missing = kit.missing_debian_packages(present.get)
    assert [package for package, _ in missing] == ["chromium", "nodejs"]


def test_exit_statuses_pass_through(tmp_path: Path) -> None:
    assert kit._call([sys.executable, "-c", "raise SystemExit(3)"]) == 3
    if os.name == "posix":  # a program ended by a signal: 128 + its number, as a shell says
        killed = kit._call([sys.executable, "-c", "import os; os.kill(os.getpid(), 15)"])
        assert killed == 128 + 15


def test_ctrl_c_in_kit_py_itself_ends_without_a_traceback(monkeypatch, capsys) -> None:
    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(kit, "run", interrupted)
    assert kit.main(["play"]) == 130
    assert capsys.readouterr().err == "\nStopped.\n"


def test_kit_py_needs_no_posix_only_module_and_nothing_outside_the_standard_library() -> None:
    tree = ast.parse((ROOT / "kit.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}  # fmt: skip
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= set(sys.stdlib_module_names) | {"__future__", "collections.abc"}
    assert not imported & {"resource", "fcntl", "signal", "pty", "termios", "pwd", "grp"}
    calls = {f"{node.value.id}.{node.attr}" for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}  # fmt: skip
    assert not {name for name in calls if name.startswith(("os.fork", "os.kill"))}
    # A process becomes its command only where it can (POSIX); elsewhere kit.py waits for it.
    execs = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
             and any(c.startswith("os.exec") for c in map(ast.unparse, ast.walk(node)))]  # fmt: skip
    assert [node.name for node in execs] == ["_become"]
    assert 'if os.name != "posix":\n        return _call(' in ast.get_source_segment(
        (ROOT / "kit.py").read_text(encoding="utf-8"), execs[0]
    )


def test_the_examples_in_kit_py() -> None:
    import doctest

    examples = doctest.testmod(kit)
    assert examples.attempted >= 8 and examples.failed == 0


#: What Debian's python3 says when python3-venv is not installed (Debian 12, Python 3.11).
DEBIAN_NO_VENV = """The virtual environment was not created successfully because ensurepip is not
available.  On Debian/Ubuntu systems, you need to install the python3-venv
package using the following command.

    apt install python3.11-venv

You may need to use sudo with that command.  After installing the python3-venv
package, recreate your virtual environment.
"""


def test_without_python3_venv_the_teacher_is_told_what_to_install(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """A stand-in for Debian's python3 makes half a .venv and fails as Debian's does."""
    debian_python = tmp_path / "python3"
    debian_python.write_text(
        f"#!/bin/sh\nmkdir -p \"$3/bin\"\ncat <<'END'\n{DEBIAN_NO_VENV}END\nexit 1\n"
    )
    debian_python.chmod(0o755)
    monkeypatch.setattr(kit, "VENV", tmp_path / "kit" / ".venv")
    monkeypatch.setattr(kit.sys, "executable", str(debian_python))
    assert kit.main(["play"]) == 1
    told = capsys.readouterr().err
    assert told.splitlines()[-3:] == [
        "kit.py: Python's venv module is not installed (Debian and Ubuntu ship it apart). "
        "Install it with",
        "    sudo apt install python3-venv",
        f"(or python3.{sys.version_info[1]}-venv), then run this again.",
    ]
    assert not kit.VENV.exists(), "the half-made environment is removed"


def test_another_venv_failure_shows_what_python_said() -> None:
    told = kit.venv_failure("Error: [Errno 13] Permission denied: '/k/.venv'\n", 12)
    assert told.endswith("Python said\nError: [Errno 13] Permission denied: '/k/.venv'")
    assert "apt" not in told


def _only_chromium_missing(monkeypatch) -> None:
    real = shutil.which
    monkeypatch.setattr(kit.sys, "platform", "linux")
    monkeypatch.setattr(
        kit.shutil, "which", lambda name, **kw: None if name == "chromium" else real("sh")
    )


def test_a_normal_user_is_told_the_exact_apt_command_and_the_tests_go_on(
    monkeypatch, capsys
) -> None:
    _only_chromium_missing(monkeypatch)
    monkeypatch.setattr(kit, "_as_root", lambda: False)
    monkeypatch.setattr(kit, "_quiet", lambda *a, **k: pytest.fail("apt-get run without root"))
    kit._debian_packages()
    told = capsys.readouterr().err
    assert "Install it with:  sudo apt-get install chromium\n" in told


def test_root_installs_the_missing_package_with_apt_get(monkeypatch) -> None:
    _only_chromium_missing(monkeypatch)
    monkeypatch.setattr(kit, "_as_root", lambda: True)
    ran: list[list[str]] = []
    monkeypatch.setattr(kit, "_quiet", lambda command, env: (ran.append(command), (0, ""))[1])
    kit._debian_packages()
    assert ran == [["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]]
