"""What README.md and docs/*.md show is true: every command runs as typed, every link leads somewhere.

The commands are read from the documents themselves: each line of a code block (a Python or
pycon block excepted) and each inline code span that starts with ``python3 kit.py`` or
``py kit.py``.  Each is run from the kit's folder through ``kit.py``, with the machine's own
``python3`` as a reader types it, with ``--help`` in place of its own arguments (a server or a
grading run would not end by itself), and must exit 0 without a traceback.  ``kit.py test`` is
run as ``kit.py test --version`` (the style and type checks, then pytest's version): running
the tests from inside a test would recurse.

No page shows a command a reader cannot type on a fresh machine: no bare ``python`` (Debian
and macOS have none, and outside the kit's environment the kit is not installed), no
``bash scripts/...``.  A page that shows commands says once how Windows spells them
(``py kit.py``).  The README stays short (at most 170 lines), and every relative link of
every page points to a file that exists, and to a heading of it when it names one.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]  # docs/fr/ too
README_MAX_LINES = 170

#: A fenced code block, possibly indented (inside a list item): its indent, language, body.
CODE_BLOCK = re.compile(r"^([ \t]*)```([\w+-]*)[^\n]*\n(.*?)^[ \t]*```[ \t]*$", re.DOTALL | re.MULTILINE)
#: Code blocks in these languages hold Python, not commands.
PYTHON_BLOCKS = {"python", "pycon", "py", "ipython"}
INLINE = re.compile(r"(?<!`)`([^`]+)`(?!`)")
KIT = re.compile(r"^(python3|py) kit\.py(?=\s|$)")
#: What a command line must not start with: a reader's machine may have no such program, or
#: it would run outside the kit's environment.
FORBIDDEN = re.compile(r"^(python|python3 -m|bash|sh|\.venv|\.?/?scripts/|pip|pytest|jupyter|voila)\s")
#: Words that stand for a command in prose (``python3 kit.py COMMAND``, ``py kit.py ...``).
PLACEHOLDER = re.compile(r"^(\.\.\.|[A-Z][A-Z_-]*)$")
#: Commands of kit.py whose first argument is a subcommand (kept in the --help form).
WITH_SUBCOMMANDS = {"site", "class"}
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def load_kit() -> ModuleType:
    """kit.py as a module (its COMMANDS)."""
    path = ROOT / "kit.py"
    spec = importlib.util.spec_from_file_location("_kit_under_test", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


KIT_MODULE = load_kit()


# -- reading the documents ---------------------------------------------------------------------


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced code block as (language, body), the body's indent taken off."""
    blocks = []
    for indent, language, body in CODE_BLOCK.findall(text):
        lines = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                 for line in body.splitlines()]  # fmt: skip
        blocks.append((language.lower(), "\n".join(lines)))
    return blocks


def prose(text: str) -> str:
    """The text without its fenced code blocks."""
    return CODE_BLOCK.sub("", text)


def shell_lines(text: str) -> list[str]:
    """The lines of the non-Python code blocks (a line ending in ``\\`` joined to the next),
    and the inline code spans of the prose, each without a trailing ``# comment``."""
    found = []
    for language, body in code_blocks(text):
        if language in PYTHON_BLOCKS:
            continue
        found += body.replace("\\\n", " ").splitlines()
    found += INLINE.findall(prose(text))
    return [" ".join(re.split(r"\s#", line)[0].split()) for line in found if line.strip()]


def kit_commands(text: str) -> list[str]:
    """The ``python3 kit.py ...`` and ``py kit.py ...`` commands a page shows (templates such
    as ``python3 kit.py COMMAND`` left out)."""
    commands = []
    for line in shell_lines(text):
        if not KIT.match(line):
            continue
        words = shlex.split(line)[2:]
        if words and PLACEHOLDER.match(words[0]):
            continue
        commands.append(line)
    return commands


def shown_commands() -> list[str]:
    return sorted({c for document in DOCUMENTS for c in kit_commands(read(document))})


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# -- running them --------------------------------------------------------------------------------


def help_form(command: str) -> list[str]:
    """The arguments after ``kit.py`` that run ``command`` in its ``--help`` form.

    >>> help_form("python3 kit.py grade class/classroom-data/handins --pick best")
    ['grade', '--help']
    >>> help_form("py kit.py site build --pyodide-packages FOLDER")
    ['site', 'build', '--help']
    >>> help_form("python3 kit.py python benchmarks/perft.py --max-depth 8")
    ['python', 'benchmarks/perft.py', '--help']
    >>> help_form("python3 kit.py run jupyter notebook")
    ['run', 'jupyter', 'notebook', '--help']
    >>> help_form('python3 kit.py test -m "not browser"')
    ['test', '--version']
    """
    words = shlex.split(command)
    assert KIT.match(command) and words[1] == "kit.py", f"{command!r} is not a kit.py command"
    args = words[2:]
    if not args or args[0] in ("-h", "--help", "help"):
        return ["--help"]
    name, rest = args[0], args[1:]
    positional = [word for word in rest if not word.startswith("-")]
    if name == "test":
        return ["test", "--version"]
    if name == "python":
        if rest[:1] == ["-m"]:
            sub = rest[2:3] if len(rest) > 2 and not rest[2].startswith("-") else []
            return ["python", "-m", rest[1], *sub, "--help"]
        return ["python", rest[0], "--help"]
    if name == "run":
        tool = rest[:2] if rest[0] == "jupyter" else rest[:1]
        return ["run", *tool, "--help"]
    if name in WITH_SUBCOMMANDS and positional:
        return [name, positional[0], "--help"]
    return [name, "--help"]


def interpreter(command: str) -> str:
    """The Python a reader would run the command with on this machine."""
    spelled = "py" if command.startswith("py ") else "python3"
    return shutil.which(spelled) or shutil.which("python3") or sys.executable


COMMANDS = shown_commands()
#: One run per distinct --help form (the first command shown that needs it).
RUNS = {" ".join(help_form(command)): command for command in reversed(COMMANDS)}


def test_the_parser_reads_blocks_spans_and_leaves_templates_out():
    text = (
        "Type `python3 kit.py lab` (`py kit.py lab` on Windows); every command has the shape\n"
        "`python3 kit.py COMMAND`, `py kit.py ...`, and `python -m course` is not ours.\n\n"
        "1. Grade:\n\n   ```\n   python3 kit.py grade class/x  # writes class/grades.csv\n   ```\n\n"
        "```python\npython3 kit.py not-a-command\n```\n"
        "```\npython3 kit.py grade a \\\n    --pick best\n```\n"
    )
    assert kit_commands(text) == [
        "python3 kit.py grade class/x",
        "python3 kit.py grade a --pick best",
        "python3 kit.py lab",
        "py kit.py lab",
    ]
    assert "python -m course" in shell_lines(text)


def test_the_documents_show_commands():
    assert any(" serve" in command for command in COMMANDS)
    assert any("benchmarks/" in command for command in COMMANDS)
    assert any(command.startswith("py kit.py") for command in COMMANDS)


def test_every_command_shown_is_one_kit_py_has():
    unknown = [c for c in COMMANDS if (help_form(c)[0] not in KIT_MODULE.COMMANDS
                                         and help_form(c) != ["--help"])]  # fmt: skip
    assert not unknown, f"commands kit.py does not have: {unknown}"


@pytest.mark.parametrize("command", sorted(RUNS.values()))
def test_each_command_runs_as_typed(command: str) -> None:
    run = subprocess.run(
        [interpreter(command), "kit.py", *help_form(command)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    output = run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback (most recent call last)" not in output, output
    assert run.returncode == 0, f"{command!r} exited {run.returncode}:\n{output}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_no_page_shows_a_command_a_fresh_machine_lacks(document: Path) -> None:
    bad = [line for line in shell_lines(read(document)) if FORBIDDEN.match(line)]
    assert not bad, (
        f"{document.name} shows commands that fail as typed on a fresh machine "
        f"(write them as python3 kit.py ...): {bad}"
    )


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_a_page_with_commands_says_how_windows_spells_them(document: Path) -> None:
    text = read(document)
    if kit_commands(text):
        assert "py kit.py" in text, f"{document.name} never says `py kit.py` (Windows)"


def test_the_readme_is_short_and_keeps_the_test_command():
    text = read(README)
    assert len(text.splitlines()) <= README_MAX_LINES
    marker = "<!-- test-command -->\n```\n"
    assert marker in text, "the README lost its test-command marker and block"
    assert text.split(marker, 1)[1].splitlines()[0] == "python3 kit.py test"


# -- links ---------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("The `reversi` package, module by module")
    'the-reversi-package-module-by-module'
    >>> slug("The teacher's overrides")
    'the-teachers-overrides'
    """
    text = heading.strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a Markdown text (a repeated one gets -1, -2...)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", prose(text), re.MULTILINE):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(text: str) -> list[str]:
    """The links of the prose that point inside the repository (no scheme, no bare #)."""
    links = LINK.findall(INLINE.sub("", prose(text)))
    return [link for link in links if not re.match(r"^[a-z][a-z0-9+.-]*:", link)]


def broken(document: Path) -> list[str]:
    bad = []
    for link in relative_links(read(document)):
        target, _, anchor = link.partition("#")
        path = (document.parent / target).resolve() if target else document
        if not path.exists() or (
            anchor and path.suffix == ".md" and anchor not in anchors(read(path))
        ):
            bad.append(link)
    return bad


def test_the_link_reader_finds_files_and_anchors():
    text = "[a](docs/x.md#top), ![b](pic.svg), [c](https://x.org/a.md), `[d](no.md)`, [e\nf](#g)"
    assert relative_links(text) == ["docs/x.md#top", "pic.svg", "#g"]
    assert anchors("# Top\n## What `grade` writes\n## Top\n```\n# not a heading\n```") == {
        "top", "what-grade-writes", "top-1"}  # fmt: skip


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_leads_somewhere(document: Path) -> None:
    assert not broken(document), f"{document.name} has links to nothing: {broken(document)}"
