"""Every command the README and the teacher guide show runs as typed (its ``--help`` at least).

The commands are read from the documents themselves: each line of a code block and each
inline code span that starts with ``bash scripts/``.  Each is run from the repository's
folder through the same wrapper a reader types (``bash scripts/kit ...``), with ``--help``
in place of its own arguments (a server or a grading run would not end by itself), and must
exit 0 without a traceback.  ``bash scripts/test`` is run with ``--version`` (its style and
type checks first, then pytest's version): running the tests from inside a test would
recurse.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "docs" / "teacher-guide.md"]

CODE_BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
INLINE = re.compile(r"`(bash scripts/[^`]*)`")


def shown_commands() -> list[str]:
    found: list[str] = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for block in CODE_BLOCK.findall(text):
            lines = block.replace("\\\n", " ").splitlines()  # a line ending in \ goes on
            found += [line.split("#")[0].strip() for line in lines
                      if line.startswith("bash scripts/")]
        found += [match.strip() for match in INLINE.findall(text)]
    return sorted(set(found))


def help_form(command: str) -> list[str]:
    """The command with ``--help`` in place of its arguments (kept: the tool and subcommand)."""
    words = shlex.split(command)
    script = words[1]
    if script == "scripts/test":
        return ["bash", script, "--version"]
    if script == "scripts/lab":
        return ["bash", script, "--help"]
    assert script == "scripts/kit", f"{command!r}: an unknown script"
    tool = words[2:]
    if tool[:2] == ["python", "-m"]:
        module = tool[2]
        sub = tool[3:4] if len(tool) > 3 and not tool[3].startswith("-") else []
        return ["bash", script, "python", "-m", module, *sub, "--help"]
    if tool[0] == "python":
        return ["bash", script, "python", tool[1], "--help"]
    if tool[0] == "jupyter":
        return ["bash", script, "jupyter", tool[1], "--help"]
    return ["bash", script, tool[0], "--help"]


COMMANDS = shown_commands()
#: One run per distinct --help form (the first command shown that needs it).
RUNS = {" ".join(help_form(command)): command for command in reversed(COMMANDS)}


def test_the_documents_show_commands() -> None:
    assert any("python -m course serve" in command for command in COMMANDS)
    assert any("benchmarks/" in command for command in COMMANDS)


@pytest.mark.parametrize("command", sorted(RUNS.values()))
def test_each_command_runs_as_typed(command: str) -> None:
    run = subprocess.run(help_form(command), cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert "Traceback (most recent call last)" not in run.stderr, run.stderr[-2000:]
    assert run.returncode == 0, f"{command!r} exited {run.returncode}:\n{run.stderr[-2000:]}"
