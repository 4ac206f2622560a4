"""The tests whose outcome depends on who runs them, run as a normal user too.

CI runs the suite as root; teachers are normal users, who may not write in /proc and who
are allowed ``--no-isolation``.  Run as root on Linux (or another POSIX system), the test
below runs :data:`USER_DEPENDENT` again as a normal user (``cloudsdk`` or ``nobody``) in a
subprocess: on a copy of the kit that user owns, with a home of its own, through an
interpreter that user can run.  Run as a normal user, the plain run already is that run,
and the test checks that it is not root's.

The list was found by running the fast tests as ``cloudsdk``; a test that behaves
differently for root says so in its docstring ("as a normal user by tests/test_normal_user.py").
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent

#: The tests whose outcome depends on the user, by node id.
USER_DEPENDENT = (
    # --saves /proc/x, the flags, the saves folder: the terminal game as a teacher runs it
    "tests/reversi/test_terminal.py",
    "tests/course/contest/test_cli.py::test_without_isolation_the_page_says_so_and_root_is_refused",
    "tests/course/grading/test_sandbox.py::test_no_isolation_is_refused_as_root_and_said_everywhere_otherwise",
    # the portable sandbox as a teacher runs it: its own download of Pyodide, its own Deno cache
    "tests/course/grading/test_sandbox.py::test_pyodide_reaches_nothing_of_the_host",
    "tests/course/grading/test_sandbox.py::test_limits_hold_inside",
)
#: The users to run them as: the first one this system has.
NORMAL_USERS = ("cloudsdk", "nobody")
#: What the copy of the kit leaves out: environments, caches, outputs.
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "class", "node_modules", "__pycache__", "*.egg-info",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis",
)  # fmt: skip


def _as_root() -> bool:
    return os.name == "posix" and os.geteuid() == 0


def _elevated() -> bool:
    """Whether this run has root's or an elevated Administrator's rights."""
    if os.name == "posix":
        return os.geteuid() == 0
    import ctypes

    return bool(ctypes.windll.shell32.IsUserAnAdmin())  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("who", ["root" if _as_root() else "a normal user"])
def test_the_user_dependent_tests_pass_as_a_normal_user(who: str) -> None:
    if who == "a normal user":  # the plain run is a normal user's: it ran them as one
        assert not _elevated()
        assert os.name != "posix" or not os.access("/", os.W_OK)
        return
    user = _normal_user()
    work = Path(tempfile.mkdtemp(prefix="normal-user-", dir="/tmp"))  # not under /root
    try:
        work.chmod(0o755)
        kit, home = work / "kit", work / "home"
        shutil.copytree(REPOSITORY, kit, ignore=LEFT_OUT, symlinks=True)
        home.mkdir()
        for path in (kit, home, *kit.rglob("*"), *home.rglob("*")):
            os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
               "PYTHONPATH": str(kit), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        python, extra = _python_for(user, work, env)
        done = _run_as(user, [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", *USER_DEPENDENT],
                       {**env, **extra}, kit, timeout=900)  # fmt: skip
        assert "passed" in done.stdout and done.returncode == 0, (
            f"as {user.pw_name}:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
        )
        ran = _run_as(user, [python, "-c", "import os; print(os.geteuid())"], {**env, **extra}, kit)
        assert ran.stdout.strip() == str(user.pw_uid) != "0"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _normal_user() -> Any:
    import pwd

    for name in NORMAL_USERS:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise AssertionError(f"no normal user ({' or '.join(NORMAL_USERS)}) to run the tests as")


def _run_as(
    user: Any, command: list[str], env: dict[str, str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``command`` run as ``user`` (no supplementary groups), with exactly ``env``."""
    if shutil.which("setpriv"):
        switch = [
            "setpriv",
            f"--reuid={user.pw_uid}",
            f"--regid={user.pw_gid}",
            "--clear-groups",
            "--",
        ]
        full = [*switch, *command]
    else:  # a POSIX system without util-linux
        line = shlex.join(["env", "-i", *(f"{k}={v}" for k, v in env.items()), *command])
        full = ["su", user.pw_name, "-s", "/bin/sh", "-c", f"cd {shlex.quote(str(cwd))} && {line}"]
    return subprocess.run(full, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)  # fmt: skip


def _python_for(user: Any, work: Path, env: dict[str, str]) -> tuple[str, dict[str, str]]:
    """An interpreter ``user`` can run with this one's packages, and what its environment adds.

    This interpreter when the user may run it; else (root's own Python, under /root) a copy
    of it in ``work``: the base installation linked file by file (copied across file
    systems), beside this environment's packages, which the user must be able to read.
    """
    # The tests start the interpreter again (python -m reversi): the probe does too.
    again = "import subprocess, sys; subprocess.run([sys.executable, '-c', 'import reversi'], check=True)"
    probe = [sys.executable, "-c", f"import pytest; {again}"]
    if _run_as(user, probe, env, work).returncode == 0:
        return sys.executable, {}
    real, base = Path(sys.executable).resolve(), Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    in_venv = sys.prefix != sys.base_prefix
    copy = work / "python"
    (copy / "bin").mkdir(parents=True)
    _link(real, copy / "bin" / real.name)
    (copy / "lib").mkdir()
    for library in (base / "lib").glob("libpython*"):
        _link(library, copy / "lib" / library.name)
    left_out = shutil.ignore_patterns("site-packages", "test", "__pycache__") if in_venv else None
    shutil.copytree(base / "lib" / version, copy / "lib" / version, symlinks=True,
                    ignore=left_out, copy_function=_link)  # fmt: skip
    extra = {"LD_LIBRARY_PATH": str(copy / "lib")}  # its run path may point under /root
    if not in_venv:
        return str(copy / "bin" / real.name), extra
    venv = work / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(
        f"home = {copy / 'bin'}\ninclude-system-site-packages = false\n"
    )
    (venv / "bin" / "python").symlink_to(copy / "bin" / real.name)
    for entry in Path(sys.prefix).iterdir():
        if entry.name not in ("bin", "pyvenv.cfg"):
            (venv / entry.name).symlink_to(entry)
    for entry in (Path(sys.prefix) / "bin").iterdir():  # deno and the other programs
        if not entry.name.startswith("python"):
            (venv / "bin" / entry.name).symlink_to(entry)
    return str(venv / "bin" / "python"), extra


def _link(source: Any, target: Any) -> None:
    """``target`` as a hard link to ``source`` (readable however its folders are), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
