"""How alike two answers are, token by token, for the teacher to look at (never a verdict).

An answer cell is read into Python tokens; comments and docstrings are dropped and every
name that is not a keyword or a builtin becomes ``N``, so renaming variables or
re-spacing a copy does not hide it.  :func:`score` is difflib's ratio of two such token
lists (1.0: the same code up to names).  :func:`flag` names, for each student, the answers
that score at least :data:`THRESHOLD` against the teacher's solution or another
student's answer.

>>> score("def f(a):\\n    return a + 1\\n", "def g(x):  # mine\\n    return x + 1\\n")
1.0
>>> score("def f(a):\\n    return a + 1\\n", "def f(a):\\n    return [a] * 3\\n") < 0.8
True
"""

from __future__ import annotations

import builtins
import difflib
import io
import keyword
import tokenize

from course.grading import notebook as nbfile
from course.grading.exercise import Exercise
from course.grading.records import Report
from course.i18n import gettext as _

THRESHOLD = 0.9
MIN_TOKENS = 25  # shorter answers are alike by necessity
_KEEP = set(keyword.kwlist) | set(dir(builtins))
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}  # fmt: skip


def tokens(text: str) -> list[str]:
    """The answer's tokens, names made anonymous (an empty list if it does not tokenize)."""
    text = "\n".join(line for line in text.splitlines()
                     if line.strip() not in (nbfile.BEGIN_SOLUTION, nbfile.END_SOLUTION))  # fmt: skip
    found: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in _SKIP:
                continue
            if token.type == tokenize.STRING and (not found or found[-1] in (":", "N")):
                continue  # a docstring
            if token.type == tokenize.NAME and token.string not in _KEEP:
                found.append("N")
            else:
                found.append(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return found
    return found


def score(first: str, second: str) -> float:
    """How alike two answers are, from 0.0 to 1.0."""
    return _ratio(tokens(first), tokens(second))


def _ratio(a: list[str], b: list[str]) -> float:
    if not a or not b:
        return 0.0
    return round(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), 2)


def flag(
    by_student: dict[str, dict[str, Report]],
    exercises: dict[str, Exercise],
    threshold: float = THRESHOLD,
) -> dict[str, list[str]]:
    """For each student, ``'04_flips answer:flips 0.97 like bob'`` for every near copy."""
    flags: dict[str, list[str]] = {}
    for name, exercise in sorted(exercises.items()):
        for tag in exercise.answers:
            starter = tokens(exercise.starters.get(tag, ""))
            written = {
                student: toks
                for student, reports in by_student.items()
                if name in reports
                and len(toks := tokens(reports[name].answers.get(tag, ""))) >= MIN_TOKENS
                and _ratio(toks, starter) < 0.95
            }
            solution = tokens(exercise.solutions.get(tag, ""))
            for student, toks in sorted(written.items()):
                alike = [(_ratio(toks, solution), _("the teacher's solution"))]
                alike += [
                    (_ratio(toks, other), who) for who, other in written.items() if who != student
                ]
                for value, who in sorted(alike, reverse=True):
                    if value >= threshold:
                        flags.setdefault(student, []).append(_("{exercise} {tag} {ratio:.2f} like {who}")
                                                             .format(exercise=name, tag=tag, ratio=value, who=who))
    return flags
