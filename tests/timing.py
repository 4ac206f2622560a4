"""How long a lesson or an exercise takes a class of beginners: the estimate the plan is checked against.

The rule, stated in the teacher guide too:

- reading: 80 words a minute of text (beginners reading technical text with code, in pairs);
- each "Predict, then run" or "Check your understanding" prompt: 3 minutes (write the
  prediction, run, compare and discuss);
- each code cell of a lesson: half a minute to run it and look;
- each lesson: 5 minutes to start (open the notebook, recap) plus its activities below;
- each exercise question: 4 minutes to read it and run its check, plus 2 minutes per line
  of the reference solution (a beginner writes, runs and fixes about a line in two minutes);
  a practice warm-up counts as a question of 5 lines. The "How this notebook works" cell is
  read once, in exercise 01; the hints and the extension are not counted;
- where a reviewing teacher timed a class and measured more, the lowest time measured is the
  floor (:data:`MEASURED_LOWS`).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

PROMPT = re.compile(r"\*\*(?:Predict, then run|Check your understanding) \[")
#: Minutes of what a lesson does besides reading and prompts.
ACTIVITIES = {
    "00_welcome": 5,  # a few moves on the clickable board with a volunteer
    "01_play": 15,  # one full game against the computer
    "02_rules": 10,  # Figure 2 placed on the paper grid, one clue at a time
    "03_rules_passing_and_end": 5,  # the 4 x 4 game under two policies
    "04_computer_players": 10,  # the tree drawn on the board; the tournament runs (2 minutes)
    "04b_game_trees": 0,  # the tracing is in its prompts
    "05_cursormap": 10,  # a game of cursor-map in pairs
    "06_class_play": 15,  # a game at each table on the real server
}
WARMUP_LINES = 5
#: The lowest minutes a reviewing teacher measured with a class, where the rule gives less.
MEASURED_LOWS = {"04b_game_trees": 35, "04_flips": 50, "09_minimax": 90}


def lesson_minutes(path: Path) -> float:
    """The estimate for one lesson notebook."""
    cells = nbformat.read(path, as_version=4).cells
    text = [cell.source for cell in cells if cell.cell_type == "markdown"]
    words = sum(len(source.split()) for source in text)
    prompts = sum(len(PROMPT.findall(source)) for source in text)
    code = sum(1 for cell in cells if cell.cell_type == "code")
    rule = words / 80 + 3 * prompts + 0.5 * code + 5 + ACTIVITIES.get(path.stem, 0)
    return max(rule, MEASURED_LOWS.get(path.stem, 0))


def exercise_minutes(path: Path) -> float:
    """The estimate for one exercise (its teacher source, which holds the solutions)."""
    minutes = 0.0
    for cell in nbformat.read(path, as_version=4).cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":
            once = "## How this notebook works" in cell.source and not path.stem.startswith("01")
            if not once and "hints" not in tags and "extension" not in tags:
                minutes += len(cell.source.split()) / 80
        elif "### BEGIN SOLUTION" in cell.source:
            body = cell.source.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
            minutes += 4 + 2 * sum(1 for line in body.splitlines() if line.strip())
        elif cell.source.startswith("# Practice"):
            minutes += 4 + 2 * WARMUP_LINES
    return max(minutes, MEASURED_LOWS.get(path.stem, 0))
