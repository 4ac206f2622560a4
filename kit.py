#!/usr/bin/env python3
"""The kit's one command, the same on Windows, macOS and Linux.

    python3 kit.py lab                 (on Windows: py kit.py lab)
    python3 kit.py test -m "not browser"
    python3 kit.py grade class/handins

The first run makes the kit's virtual environment in ``.venv`` beside this file and installs
the kit into it (editable, with the extras the command needs); later runs install again only
when ``pyproject.toml`` changed or a command needs more extras (``test`` includes ``lab``,
which includes the plain kit).  Then the command runs inside that environment: its scripts
folder first on ``PATH`` and ``VIRTUAL_ENV`` set, so ``python``, ``jupyter``, ``voila`` and
``deno`` are the environment's.  Nothing is ever installed into the Python that runs this
file, so Debian's "externally managed" python3 is fine.

Standard library only (Python 3.10 or newer), no shell: every program is started with
:mod:`subprocess`, and a Ctrl-C reaches the running program, which decides how to stop.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The kit's folder (the real one: Jupyter refuses a root folder reached through a symlink).
ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
#: The file in .venv recording what was installed: pyproject.toml's text and the extras.
STAMP_NAME = ".kit-installed"
#: Extras from the fewest to the most: each includes the ones before it (see pyproject.toml).
EXTRAS = ("", "lab", "test")
#: What the style gate lints: the kit's own code, never teacher outputs or hand-ins.
OWN_FILES = ("reversi", "course", "tests", "benchmarks", "kit.py", "scripts")
#: Where pytest looks when no file or folder is named.
TEST_TARGETS = ("reversi", "course", "tests", "notebooks")
#: Debian packages the tests need: (package, its command, what needs it).
DEBIAN_PACKAGES = (
    ("chromium", "chromium", "the real-browser tests"),
    ("bubblewrap", "bwrap", "the grader isolates students' code with it"),
    ("nodejs", "node", "a test of the browser classroom checks its patch in Node"),
)


@dataclass(frozen=True)
class Command:
    """One of the kit's commands: the extras it needs, where it runs, and one line of help."""

    extras: str
    at_root: bool
    summary: str


#: The teacher's tools, run as ``python -m course NAME`` (see course/__main__.py).
COURSE_COMMANDS = {
    "check": "grade one notebook with the teacher's grader",
    "grade": "grade a class's hand-ins (default: class/grades.csv and beside it)",
    "release": "write the student copies of the exercises into exercises/",
    "worksheets": "printable worksheets, one per lesson (default: class/worksheets)",
    "tournament": "the class tournament (default: class/tournament-results)",
    "serve": "run the class server (default data: class/classroom-data)",
    "site": "build the browser classroom (a JupyterLite site)",
    "class": "the class list and its sign-in cards (default: class/roster.json)",
}
COMMANDS: dict[str, Command] = {
    "lab": Command("lab", True, "open JupyterLab at the welcome lesson"),
    "test": Command(
        "test", True, "style and type checks, then every test (arguments go to pytest)"
    ),
    "play": Command("", False, "play Reversi in the terminal (python -m reversi ARGS)"),
    "python": Command("lab", False, "the kit's Python, e.g. kit.py python benchmarks/perft.py"),
    "run": Command("lab", False, "any command in the kit's environment, e.g. kit.py run voila ..."),
    **{name: Command("lab", False, summary) for name, summary in COURSE_COMMANDS.items()},
}


class KitError(Exception):
    """A step that failed, with what to do about it; ``status`` is the exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def usage() -> str:
    """The help: every command with one line."""
    width = max(map(len, COMMANDS))
    lines = [
        "usage: python3 kit.py COMMAND [ARGUMENTS...]   (on Windows: py kit.py COMMAND ...)",
        "",
        "Makes the kit's virtual environment in .venv (once), installs the kit into it when",
        "pyproject.toml changed, then runs COMMAND inside it. lab and test run in the kit's",
        "folder; the others in the folder you are in.",
        "",
        "commands:",
        *(f"  {name.ljust(width)}  {command.summary}" for name, command in COMMANDS.items()),
    ]
    return "\n".join(lines)


def venv_python(venv: Path, windows: bool = os.name == "nt") -> Path:
    """The environment's interpreter: ``Scripts\\python.exe`` on Windows, ``bin/python`` elsewhere."""
    return venv / "Scripts" / "python.exe" if windows else venv / "bin" / "python"


def stamp_text(pyproject: str, extras: str) -> str:
    """What the stamp records: ``pyproject.toml``'s text and the extras.

    The format the older ``scripts/venv.sh`` wrote, so a ``.venv`` it made is reused.

    >>> stamp_text("[project]\\n", "lab")
    '[project]\\nextras=lab'
    """
    return pyproject.rstrip("\n") + "\nextras=" + extras


def stamp_covers(have: str, want: str) -> bool:
    """Whether an install recorded as ``have`` gives what ``want`` asks for.

    The same ``pyproject.toml``, and the same extras or more (``test`` includes ``lab``,
    which includes the plain kit).

    >>> stamp_covers(stamp_text("a", "test"), stamp_text("a", "lab"))
    True
    >>> stamp_covers(stamp_text("a", "lab"), stamp_text("a", "test"))
    False
    """
    if have == want:
        return True
    have_project, _, have_extras = have.rpartition("\nextras=")
    want_project, _, want_extras = want.rpartition("\nextras=")
    if have_project != want_project or have_extras not in EXTRAS or want_extras not in EXTRAS:
        return False
    return EXTRAS.index(have_extras) >= EXTRAS.index(want_extras)


def extras_to_install(have: str | None, extras: str) -> str:
    """The extras to install for a command needing ``extras`` over an install stamped ``have``.

    The larger of the two, so a new pyproject.toml never takes extras away (an environment
    made for the tests stays one after ``kit.py lab``).

    >>> extras_to_install(stamp_text("old", "test"), "lab")
    'test'
    >>> extras_to_install(None, "lab")
    'lab'
    """
    before = have.rpartition("\nextras=")[2] if have is not None else ""
    if before not in EXTRAS:
        return extras
    return max(before, extras, key=EXTRAS.index)


def pytest_targets(args: Sequence[str], root: Path = ROOT) -> list[str]:
    """The folders pytest runs: all of the kit's, unless the arguments name a file or folder.

    An option (``-k``) is never taken for a path; ``tests/x.py::test_y`` names ``tests/x.py``.
    """
    named = any(not arg.startswith("-") and (root / arg.split("::")[0]).exists() for arg in args)
    return [] if named else list(TEST_TARGETS)


def gate_commands(python: str) -> list[tuple[str, list[str]]]:
    """The checks before the tests, each with what it says: ruff, then mypy (strict, as
    pyproject.toml sets it, on reversi, course and kit.py)."""
    return [
        ("Checking style (ruff)...", [python, "-m", "ruff", "check", *OWN_FILES]),
        ("Checking types strictly (mypy)...", [python, "-m", "mypy"]),
    ]


def command_for(
    args: Sequence[str], python: str = "python", root: Path = ROOT, as_root: bool = False
) -> list[str]:
    """The command line that ``kit.py ARGS`` runs inside the environment.

    ``python`` is the environment's interpreter; ``run`` gives its command as typed (it is
    looked up on the environment's PATH when it runs).

    >>> command_for(["play", "--black", "human"])
    ['python', '-m', 'reversi', '--black', 'human']
    >>> command_for(["grade", "class/handins"])
    ['python', '-m', 'course', 'grade', 'class/handins']
    """
    if not args or args[0] not in COMMANDS:
        raise KitError(f"unknown command {args[0] if args else ''!r}", status=2)
    name, rest = args[0], list(args[1:])
    if name == "lab":
        allow = ["--allow-root"] if as_root else []
        return [python, "-m", "jupyterlab", *allow, f"--ServerApp.root_dir={root}",
                "notebooks/00_welcome.ipynb", *rest]  # fmt: skip
    if name == "test":
        targets = pytest_targets(rest, root)
        return [python, "-m", "pytest", "--doctest-modules", "--nbval-lax", *targets, *rest]
    if name == "play":
        return [python, "-m", "reversi", *rest]
    if name == "python":
        return [python, *rest]
    if name == "run":
        if not rest:
            raise KitError("run needs a command, e.g. kit.py run voila notebooks/01_play.ipynb", 2)
        return rest
    return [python, "-m", "course", name, *rest]


def environment(venv: Path, base: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``base`` as inside the environment: its scripts folder first on PATH, VIRTUAL_ENV set."""
    env = dict(base)
    env.pop("PYTHONHOME", None)
    env["VIRTUAL_ENV"] = str(venv)
    scripts = str(venv_python(venv).parent)
    env["PATH"] = os.pathsep.join([scripts, env["PATH"]]) if env.get("PATH") else scripts
    return env


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _as_root() -> bool:
    return sys.platform != "win32" and os.geteuid() == 0


def _call(
    command: Sequence[str], cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> int:
    """Run ``command`` to its end and return its exit status (128 + N when signal N ended it).

    A Ctrl-C reaches the program too (the terminal sends it to both); waiting on lets the
    program decide how to stop (JupyterLab asks first).
    """
    process = subprocess.Popen(list(command), cwd=cwd, env=env)
    while True:
        try:
            status = process.wait()
            break
        except KeyboardInterrupt:
            continue
    return status if status >= 0 else 128 - status


def _quiet(command: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Run ``command`` in the kit's folder with its output kept (to show only if it fails)."""
    done = subprocess.run(list(command), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    return done.returncode, done.stdout.decode(errors="replace")


def venv_failure(output: str, minor: int) -> str:
    """What to tell when ``python -m venv`` failed with ``output`` (on Python 3.``minor``).

    Debian and Ubuntu ship venv's pip installer (ensurepip) apart, in python3-venv:

    >>> print(venv_failure("... because ensurepip is not available ...", 11))
    Python's venv module is not installed (Debian and Ubuntu ship it apart). Install it with
        sudo apt install python3-venv
    (or python3.11-venv), then run this again.
    """
    if "ensurepip" in output or "No module named venv" in output:
        return (
            "Python's venv module is not installed (Debian and Ubuntu ship it apart). "
            "Install it with\n    sudo apt install python3-venv\n"
            f"(or python3.{minor}-venv), then run this again."
        )
    return f"could not create {VENV}: Python said\n{output.rstrip()}"


def _make_venv() -> None:
    version = ".".join(map(str, sys.version_info[:3]))
    _say(f"Creating the kit's virtual environment in {VENV} with Python {version}...")
    clear = ["--clear"] if VENV.exists() else []  # a broken one (its Python was removed)
    status, output = _quiet([sys.executable, "-m", "venv", *clear, str(VENV)])
    if status == 0 and venv_python(VENV).is_file():
        return
    shutil.rmtree(VENV, ignore_errors=True)
    raise KitError(venv_failure(output, sys.version_info[1]))


def _prepare(extras: str, tell_up_to_date: bool) -> Path:
    """The environment's interpreter, made and given the kit with ``extras`` if needed."""
    python = venv_python(VENV)
    if not python.is_file():
        _make_venv()
    stamp = VENV / STAMP_NAME
    have = stamp.read_text(encoding="utf-8").rstrip("\n") if stamp.is_file() else None
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if have is not None and stamp_covers(have, stamp_text(pyproject, extras)):
        if tell_up_to_date:
            _say(f"Using the kit's virtual environment in {VENV} (up to date).")
        return python
    extras = extras_to_install(have, extras)
    with_extras = f" with its {extras} extras" if extras else ""
    _say(f"Installing the kit{with_extras} into {VENV} (a few minutes the first time; "
         "again only when pyproject.toml changes)...")  # fmt: skip
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    env = environment(VENV)
    _quiet([*pip, "install", "--quiet", "--upgrade", "pip"], env)  # best effort
    status, output = _quiet([*pip, "install", "-e", f".[{extras}]" if extras else "."], env)
    if status != 0:
        _say(output.rstrip())
        raise KitError("could not install the kit into .venv (pip's message is above): "
                       "check the network, then run this again.")  # fmt: skip
    stamp.write_text(stamp_text(pyproject, extras), encoding="utf-8")
    return python


def missing_debian_packages(which: Callable[[str], str | None]) -> list[tuple[str, str]]:
    """The Debian packages of :data:`DEBIAN_PACKAGES` whose command ``which`` does not find."""
    return [(package, why) for package, command, why in DEBIAN_PACKAGES if which(command) is None]


def _debian_packages() -> None:
    """Install the missing Debian packages the tests need (as root), or say how to."""
    if not sys.platform.startswith("linux") or shutil.which("apt-get") is None:
        return
    missing = missing_debian_packages(shutil.which)
    if not missing:
        return
    names = [package for package, _ in missing]
    for package, why in missing:
        _say(f"Debian's {package} is missing ({why}).")
    if not _as_root():
        _say(f"Install it with:  sudo apt-get install {' '.join(names)}\n"
             "Until then the tests that need it fail.")  # fmt: skip
        return
    _say(f"Installing {' '.join(names)} with apt-get...")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *names]):
        status, output = _quiet(step, env)
        if status != 0:
            _say(output.rstrip())
            _say(f"Could not install {' '.join(names)} (apt-get's message is above); "
                 "until it is installed the tests that need it fail.")  # fmt: skip
            return


def _test(python: Path, args: Sequence[str]) -> int:
    env = environment(VENV)
    for message, command in gate_commands(str(python)):
        print(message, flush=True)
        status = _call(command, ROOT, env)
        if status != 0:
            return status
    print("Running the tests...", flush=True)
    return _call(command_for(["test", *args], str(python)), ROOT, env)


def run(args: Sequence[str]) -> int:
    """Do what ``kit.py ARGS`` asks; returns the exit status."""
    command_for(args)  # an unknown command, or run without one, stops here: nothing installed
    name = args[0]
    if name == "test":
        _debian_packages()
    settings = COMMANDS[name]
    python = _prepare(settings.extras, tell_up_to_date=settings.at_root)
    if name == "test":
        return _test(python, args[1:])
    env = environment(VENV)
    line = command_for(args, str(python), ROOT, _as_root())
    if name == "run":
        found = shutil.which(line[0], path=env["PATH"])
        if found is None:
            raise KitError(f"no command {line[0]!r} in the kit's environment or on PATH", 127)
        line = [found, *line[1:]]
    if name == "lab":
        print("Starting JupyterLab (Ctrl-C stops it)...", flush=True)
    return _become(line, ROOT if settings.at_root else None, env)


def _become(command: Sequence[str], cwd: Path | None, env: Mapping[str, str]) -> int:
    """Run the command as the last thing kit.py does.  Where a process can become another
    (not Windows), it does: the command then gets every signal meant for kit.py (a
    server stopped by its PID stops), and its exit status is kit.py's."""
    if os.name != "posix":
        return _call(command, cwd, env)
    sys.stdout.flush()
    sys.stderr.flush()
    if cwd is not None:
        os.chdir(cwd)
    os.execve(command[0], list(command), dict(env))


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``kit.py --help``, or a command and its arguments."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(usage())
        return 0
    if not args or args[0] not in COMMANDS:
        problem = f"unknown command {args[0]!r}" if args else "no command given"
        print(f"kit.py: {problem}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return run(args)
    except KitError as error:
        print(f"kit.py: {error}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    # The machine's own Python runs this file, and it may be older than the kit allows.
    if sys.version_info < (3, 10):  # noqa: UP036
        sys.exit("The kit needs Python 3.10 or newer; this is " + sys.version.split()[0])
    sys.exit(main())
