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
from importlib import util as import_util
from pathlib import Path
from types import ModuleType
from typing import Any

#: The kit's folder (the real one: Jupyter refuses a root folder reached through a symlink).
ROOT = Path(__file__).resolve().parent


def _load_messages(root: Path) -> ModuleType | None:
    """``course/i18n.py``, the kit's languages and catalogues, loaded as a file (the package
    ``course`` needs the environment; this file does not); None in a folder without it."""
    path = root / "course" / "i18n.py"
    spec = import_util.spec_from_file_location("kit_messages", path)
    if not path.is_file() or spec is None or spec.loader is None:
        return None
    module = import_util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MESSAGES = _load_messages(ROOT)
LANGUAGES: dict[str, str] = MESSAGES.LANGUAGES if MESSAGES else {"en": "English"}


def _(message: str) -> str:
    """``message`` in the language chosen (``KIT_LANG``), English where none is translated."""
    return str(MESSAGES.gettext(message)) if MESSAGES else message


def N_(message: str) -> str:
    """``message`` itself: gettext's mark for a message translated where it is shown."""
    return message


VENV = ROOT / ".venv"
#: The file in .venv recording what was installed: pyproject.toml's text and the extras.
STAMP_NAME = ".kit-installed"
#: Extras from the fewest to the most: each includes the ones before it (see pyproject.toml).
EXTRAS = ("", "lab", "test")
#: What the style gate lints: the kit's own code, never teacher outputs or hand-ins.
OWN_FILES = ("reversi", "course", "tests", "benchmarks", "kit.py", "scripts")
#: Where pytest looks when no file or folder is named.
TEST_TARGETS = ("reversi", "course", "tests", "notebooks")
#: The file in the kit's folder keeping the language chosen with ``--lang`` (git-ignored).
LANGUAGE_FILE = ".kit-lang"
#: Debian packages the tests need: (package, its command, what needs it).
DEBIAN_PACKAGES = (
    ("chromium", "chromium", N_("the real-browser tests")),
    ("bubblewrap", "bwrap", N_("the grader isolates students' code with it")),
    ("nodejs", "node", N_("a test of the browser classroom checks its patch in Node")),
)


@dataclass(frozen=True)
class Command:
    """One of the kit's commands: the extras it needs, where it runs, and one line of help."""

    extras: str
    at_root: bool
    summary: str


#: The teacher's tools, run as ``python -m course NAME`` (see course/__main__.py).
COURSE_COMMANDS = {
    "check": N_("grade one notebook with the teacher's grader"),
    "grade": N_("grade a class's hand-ins (default: class/grades.csv and beside it)"),
    "release": N_("write the student copies of the exercises into exercises/"),
    "worksheets": N_("printable worksheets, one per lesson (default: class/worksheets)"),
    "tournament": N_("the class tournament (default: class/tournament-results)"),
    "serve": N_("run the class server (default data: class/classroom-data)"),
    "site": N_("build the browser classroom (a JupyterLite site)"),
    "class": N_("the class list and its sign-in cards (default: class/roster.json)"),
    "translations": N_("the kit's messages in other languages (extract, add, compile, check)"),
}
COMMANDS: dict[str, Command] = {
    "lab": Command("lab", True, N_("open JupyterLab at the welcome lesson")),
    "test": Command(
        "test", True, N_("style and type checks, then every test (arguments go to pytest)")
    ),
    "play": Command("", False, N_("play Reversi in the terminal (python -m reversi ARGS)")),
    "python": Command("lab", False, N_("the kit's Python, e.g. kit.py python benchmarks/perft.py")),
    "run": Command(
        "lab", False, N_("any command in the kit's environment, e.g. kit.py run voila ...")
    ),
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
    languages = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    lines = [
        _(
            "usage: python3 kit.py [--lang CODE] COMMAND [ARGUMENTS...]   (on Windows: py kit.py ...)"
        ),
        "",
        _(
            "Makes the kit's virtual environment in .venv (once), installs the kit into it when\n"
            "pyproject.toml changed, then runs COMMAND inside it. lab and test run in the kit's\n"
            "folder; the others in the folder you are in."
        ),
        "",
        _("commands:"),
        *(f"  {name.ljust(width)}  {_(command.summary)}" for name, command in COMMANDS.items()),
        "",
        _(
            "--lang CODE: the language of the kit's messages, lessons and site, kept for the next\n"
            "commands: {languages}"
        ).format(languages=languages),
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
        (_("Checking style (ruff)..."), [python, "-m", "ruff", "check", *OWN_FILES]),
        (_("Checking types strictly (mypy)..."), [python, "-m", "mypy"]),
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
        raise KitError(_("unknown command {name!r}").format(name=args[0] if args else ""), 2)
    name, rest = args[0], list(args[1:])
    if name == "lab":
        allow = ["--allow-root"] if as_root else []
        return [python, "-m", "jupyterlab", *allow, f"--ServerApp.root_dir={root}",
                welcome_lesson(root, os.environ.get("KIT_LANG", "en")), *rest]  # fmt: skip
    if name == "test":
        targets = pytest_targets(rest, root)
        return [python, "-m", "pytest", "--doctest-modules", "--nbval-lax", *targets, *rest]
    if name == "play":
        return [python, "-m", "reversi", *rest]
    if name == "python":
        return [python, *rest]
    if name == "run":
        if not rest:
            raise KitError(
                _("run needs a command, e.g. kit.py run voila notebooks/01_play.ipynb"), 2
            )
        return rest
    return [python, "-m", "course", name, *rest]


def welcome_lesson(root: Path, language: str) -> str:
    """The lesson ``lab`` opens: the welcome lesson in ``language`` if the kit has it.

    >>> welcome_lesson(ROOT, "en")
    'notebooks/00_welcome.ipynb'
    """
    english, translated = "notebooks/00_welcome.ipynb", f"notebooks/{language}/00_welcome.ipynb"
    return translated if language != "en" and (root / translated).is_file() else english


def lab_environment(env: Mapping[str, str], root: Path, language: str) -> dict[str, str]:
    """``env`` for JupyterLab in ``language``: its interface in it too, through the language
    pack's setting kept in ``course/locale/CODE/jupyter/`` (a Jupyter config folder whose
    ``labconfig/default_setting_overrides.json`` sets JupyterLab's default locale; a language
    chosen in JupyterLab's own Settings menu still wins)."""
    config = root / "course" / "locale" / language / "jupyter"
    if language == "en" or not config.is_dir():
        return dict(env)
    paths = [str(config), *filter(None, env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep))]
    return {**env, "JUPYTER_CONFIG_PATH": os.pathsep.join(paths)}


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
        return _(
            "Python's venv module is not installed (Debian and Ubuntu ship it apart). "
            "Install it with\n    sudo apt install python3-venv\n"
            "(or python3.{minor}-venv), then run this again."
        ).format(minor=minor)
    return _("could not create {venv}: Python said\n{output}").format(
        venv=VENV, output=output.rstrip()
    )


def _make_venv() -> None:
    version = ".".join(map(str, sys.version_info[:3]))
    _say(_("Creating the kit's virtual environment in {venv} with Python {version}...").format(
        venv=VENV, version=version))  # fmt: skip
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
            _say(_("Using the kit's virtual environment in {venv} (up to date).").format(venv=VENV))
        return python
    extras = extras_to_install(have, extras)
    installing = _("Installing the kit with its {extras} extras into {venv} (a few minutes the "
                   "first time; again only when pyproject.toml changes)...") if extras else _(
        "Installing the kit into {venv} (a few minutes the first time; again only when "
        "pyproject.toml changes)...")  # fmt: skip
    _say(installing.format(extras=extras, venv=VENV))
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    env = environment(VENV)
    _quiet([*pip, "install", "--quiet", "--upgrade", "pip"], env)  # best effort
    status, output = _quiet([*pip, "install", "-e", f".[{extras}]" if extras else "."], env)
    if status != 0:
        _say(output.rstrip())
        raise KitError(_("could not install the kit into .venv (pip's message is above): "
                         "check the network, then run this again."))  # fmt: skip
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
        _say(_("Debian's {package} is missing ({why}).").format(package=package, why=_(why)))
    if not _as_root():
        _say(_("Install it with:  sudo apt-get install {names}\n"
               "Until then the tests that need it fail.").format(names=" ".join(names)))  # fmt: skip
        return
    _say(_("Installing {names} with apt-get...").format(names=" ".join(names)))
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *names]):
        status, output = _quiet(step, env)
        if status != 0:
            _say(output.rstrip())
            _say(_("Could not install {names} (apt-get's message is above); until it is "
                   "installed the tests that need it fail.").format(names=" ".join(names)))  # fmt: skip
            return


def _test(python: Path, args: Sequence[str]) -> int:
    env = {**environment(VENV), "KIT_LANG": "en"}  # the tests expect English unless they ask
    for message, command in gate_commands(str(python)):
        print(message, flush=True)
        status = _call(command, ROOT, env)
        if status != 0:
            return status
    print(_("Running the tests..."), flush=True)
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
            raise KitError(_("no command {name!r} in the kit's environment or on PATH").format(
                name=line[0]), 127)  # fmt: skip
        line = [found, *line[1:]]
    if name == "lab":
        env = lab_environment(env, ROOT, os.environ.get("KIT_LANG", "en"))
        print(_("Starting JupyterLab (Ctrl-C stops it)..."), flush=True)
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


def take_language(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang CODE`` (or ``--lang=CODE``) taken out of ``args``, and the arguments left: before
    the command, or after it unless it is ``python`` or ``run`` (another program's arguments).

    >>> take_language(["lab", "--lang", "fr"])
    ('fr', ['lab'])
    >>> take_language(["--lang=fr", "run", "voila", "--lang", "en"])
    ('fr', ['run', 'voila', '--lang', 'en'])
    """
    chosen, left, rest = None, [], list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang" and not rest:
                raise KitError(_("--lang needs a language code, e.g. --lang fr"), 2)
            chosen = arg.partition("=")[2] if "=" in arg else rest.pop(0)
            continue
        left.append(arg)
        if left == [arg] and arg in ("python", "run"):
            return chosen, left + rest
    return chosen, left


def checked_language(text: str) -> str:
    """The language code ``text`` names, or KitError listing the languages."""
    if MESSAGES is None:  # kit.py alone: English only
        if text.strip().lower()[:2] == "en":
            return "en"
        raise KitError(_("unknown language {text!r}: the kit speaks en (English)").format(
            text=text), 2)  # fmt: skip
    try:
        return str(MESSAGES.checked_language(text))
    except ValueError as error:
        raise KitError(str(error), 2) from None


def settle_language(chosen: str | None, root: Path = ROOT,
                    environ: Any = os.environ) -> str:  # fmt: skip
    """The language of this run, set as ``KIT_LANG`` in ``environ`` (every command run inherits
    it): ``chosen`` (then kept in ``LANGUAGE_FILE`` for the next runs), else ``KIT_LANG``, else
    the one kept, else English."""
    kept = root / LANGUAGE_FILE
    if chosen is not None:
        code = checked_language(chosen)
        try:
            kept.write_text(code + "\n", encoding="utf-8")
        except OSError as error:
            raise KitError(_("cannot keep the language in {path}: {reason}").format(
                path=kept, reason=error.strerror or error)) from None  # fmt: skip
    elif environ.get("KIT_LANG", "").strip():
        code = checked_language(environ["KIT_LANG"])
    elif kept.is_file():
        text = kept.read_text(encoding="utf-8", errors="replace").strip()
        try:
            code = checked_language(text)
        except KitError as error:
            raise KitError(f"{kept}: {error}", 2) from None
    else:
        code = "en"
    environ["KIT_LANG"] = code
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``kit.py --help``, or a command and its arguments."""
    try:
        chosen, args = take_language(sys.argv[1:] if argv is None else argv)
        code = settle_language(chosen)
    except KitError as error:
        print(f"kit.py: {error}", file=sys.stderr)
        return error.status
    if chosen is not None and not args:
        print(_("The kit speaks {name} from now on (kept in {file}).").format(
            name=LANGUAGES[code], file=LANGUAGE_FILE))  # fmt: skip
        return 0
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(usage())
        return 0
    if not args or args[0] not in COMMANDS:
        problem = (_("unknown command {name!r}").format(name=args[0]) if args
                   else _("no command given"))  # fmt: skip
        print(f"kit.py: {problem}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return run(args)
    except KitError as error:
        print(f"kit.py: {error}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        print("\n" + _("Stopped."), file=sys.stderr)
        return 130


if __name__ == "__main__":
    # The machine's own Python runs this file, and it may be older than the kit allows.
    if sys.version_info < (3, 10):  # noqa: UP036
        sys.exit("The kit needs Python 3.10 or newer; this is " + sys.version.split()[0])
    sys.exit(main())
