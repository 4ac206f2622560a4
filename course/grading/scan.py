"""Read a student's answer code (without running it) for what an exercise answer never needs.

The grader zeroes a question whose answer cell reaches for the kit's own implementation
of the function being asked, or for anything that could reach past the exercise:

* an ``import`` of anything but a few plain standard modules (``math``, ``itertools``...),
  the kit's packages included: the exercise's setup cell already imports what is allowed;
* the kit's names for the asked thing, as an attribute (``board.flips`` in the
  ``flips`` exercise, ``minimax`` from ``reversi.search``...): :data:`KIT_NAMES`;
* a way around these rules: ``getattr``, ``eval``, ``exec``, ``compile``, ``open``,
  ``__import__``, ``globals``, ``vars``..., or any attribute starting with ``_``
  (``__class__``, ``__globals__``, ``_board``...), or the ``checks`` module.

This is the first line of defence; the sandbox (:mod:`course.grading.harness`) holds on
its own, and the verdict is computed outside it anyway.

>>> flags("def flips(board, square, color):\\n    return board.flips(square, color)\\n", "04_flips")
["line 2: board.flips is the kit's own answer to this exercise"]
>>> flags("import os\\n", "01_squares")
['line 1: answers may not import os']
>>> flags("import math\\nx = [n for n in range(3)]\\n", "01_squares")
[]
"""

from __future__ import annotations

import ast

#: Standard modules an answer may import.
ALLOWED_IMPORTS = frozenset(
    {"math", "itertools", "collections", "functools", "operator", "string", "re", "copy",
     "dataclasses", "typing", "enum", "heapq", "bisect", "statistics", "random"}
)  # fmt: skip

#: Names (as a name or an attribute) that would reach past the exercise.
DYNAMIC = frozenset(
    {"getattr", "setattr", "delattr", "vars", "globals", "locals", "eval", "exec", "compile",
     "open", "__import__", "breakpoint", "input", "memoryview", "help", "checks",
     # module attributes that lead to the interpreter's insides (typing.sys.modules...)
     "sys", "os", "modules", "builtins", "gc", "import_module", "get_referents",
     "get_referrers", "get_objects", "f_locals", "f_globals", "f_back", "gi_frame",
     "tb_frame", "runsource", "runcode", "system", "popen", "spawn", "fork"}
)  # fmt: skip

#: The kit's own names for what each exercise asks students to write.
KIT_NAMES: dict[str, frozenset[str]] = {
    "01_squares": frozenset({"square", "Square", "name", "squares", "notation", "parse_square"}),
    "02_counting": frozenset({"count", "winner", "outcome", "score", "disc_counts"}),
    "03_lines": frozenset({"DIRECTIONS_FROM", "ray", "rays", "neighbours", "line", "lines"}),
    "04_flips": frozenset(
        {"flips", "is_legal", "illegal_reason", "legal_moves", "play", "has_legal_move"}
    ),
    "05_play": frozenset({"play", "apply", "replay", "from_moves", "Game", "game"}),
    "06_legal_moves": frozenset(
        {
            "legal_moves",
            "has_legal_move",
            "is_finished",
            "winner",
            "outcome",
            "must_pass",
            "game_over",
            "Game",
            "game",
        }
    ),  # fmt: skip
    "07_greedy": frozenset({"choose_move", "GreedyPlayer", "players", "greedy"}),
    "08_positional": frozenset(
        {"positional", "evaluate", "evaluation", "choose_move", "PositionalPlayer", "players"}
    ),
    "09_minimax": frozenset(
        {
            "minimax",
            "negamax",
            "alphabeta",
            "search",
            "best_move",
            "choose_move",
            "players",
            "MinimaxPlayer",
            "AlphaBetaPlayer",
        }
    ),  # fmt: skip
    "10_alphabeta": frozenset(
        {
            "minimax",
            "negamax",
            "alphabeta",
            "search",
            "choose_move",
            "players",
            "MinimaxPlayer",
            "AlphaBetaPlayer",
        }
    ),  # fmt: skip
    "11_map_files": frozenset(
        {"parse_map", "parse", "mapfile", "load_map", "read_map", "load_sample", "definitions"}
    ),
    "12_cursor": frozenset(
        {"apply", "apply_cursor", "Operator", "Cursor", "rules", "truth_table", "symbol"}
    ),
}


def flags(text: str, exercise: str) -> list[str]:
    """The reasons (``'line N: ...'``) why the answer ``text`` cannot count, first ones first.

    The kit's names are looked for as attributes (``board.flips``, ``search.minimax``): as
    plain names they could only come from an import, and imports are checked apart, so a
    student's own ``flips`` or a variable named ``count`` is fine.
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []  # it will fail when it runs, and score nothing
    kit = KIT_NAMES.get(exercise, frozenset())
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [("." * node.level) + (node.module or "")]
            )
            for module in modules:
                if module.split(".")[0] not in ALLOWED_IMPORTS or module.startswith("."):
                    found.append((line, f"answers may not import {module}"))
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                found.append((line, f"'.{node.attr}' reaches inside Python or the kit"))
            elif node.attr in kit:
                found.append((line, f"{_dotted(node)} is the kit's own answer to this exercise"))
            elif node.attr in DYNAMIC:
                found.append((line, f"'.{node.attr}' is not needed in an answer"))
        elif isinstance(node, ast.Name):
            if node.id.startswith("__"):
                found.append((line, f"{node.id} reaches inside Python"))
            elif node.id in DYNAMIC:
                found.append((line, f"{node.id}() is not needed in an answer"))
    return [f"line {line}: {reason}" for line, reason in sorted(found)]


def _dotted(node: ast.Attribute) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else "..." + text[-37:]
