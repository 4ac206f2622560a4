"""Finding the players handed in: every layout, the last hand-in, tagged cells, bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course.contest.handins import MAX_BYTES, collect, player_cells
from course.grading.notebook import NotebookError


def notebook(path: Path, *cells: str, tags: tuple[tuple[str, ...], ...] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    found = [
        {"cell_type": "code", "metadata": {"tags": list(tags[i]) if i < len(tags) else []},
         "source": text, "outputs": [], "execution_count": None}
        for i, text in enumerate(cells)
    ]  # fmt: skip
    found.append({"cell_type": "markdown", "metadata": {}, "source": "# not code"})
    path.write_text(
        json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": found})
    )
    return path


def test_every_layout_gives_one_player_per_student(tmp_path):
    notebook(tmp_path / "ann" / "12_player.ipynb", "A = 1")
    notebook(tmp_path / "bob" / "player" / "20261124T100000.000000Z.ipynb", "B = 'old'")
    notebook(tmp_path / "bob" / "player" / "20261124T110000.000000Z.ipynb", "B = 'new'")
    (tmp_path / "bob" / "player" / "20261124T110000.000000Z.json").write_text("{}")
    notebook(tmp_path / "cat__project_tournament.ipynb", "C = 1")
    notebook(tmp_path / "dan" / "04_flips.ipynb", "not a player")
    notebook(tmp_path / "eve__04_flips.ipynb", "not a player")
    notebook(tmp_path / "ann" / ".ipynb_checkpoints" / "12_player.ipynb", "old copy")
    found, warnings = collect(tmp_path)
    assert {e.name: e.cells for e in found} == {
        "ann": ("A = 1",), "bob": ("B = 'new'",), "cat": ("C = 1",),
    }  # fmt: skip
    assert warnings == []
    assert all(not e.is_level for e in found)


def test_two_players_of_one_student_are_reported(tmp_path):
    notebook(tmp_path / "ann" / "12_player.ipynb", "first")
    notebook(tmp_path / "ann" / "player.ipynb", "second")
    found, warnings = collect(tmp_path)
    assert [e.cells for e in found] == [("second",)]
    assert warnings == ["ann handed in more than one player: took ann/player.ipynb"]


def test_tagged_cells_are_the_player_and_magics_are_dropped(tmp_path):
    path = notebook(
        tmp_path / "a.ipynb", "%matplotlib inline\nX = 1\n!pip list", "try_player(choose)",
        "def choose(board, color):\n    return 'd3'", tags=((), (), ("player",)),
    )  # fmt: skip
    assert player_cells(path) == ("def choose(board, color):\n    return 'd3'",)
    untagged = notebook(tmp_path / "b.ipynb", "%matplotlib inline\nX = 1\n  !pip list", "")
    assert player_cells(untagged) == ("pass\nX = 1\npass",)


def test_a_bad_or_huge_notebook_is_skipped_with_a_warning(tmp_path):
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "player.ipynb").write_text("{not json")
    huge = notebook(tmp_path / "bob" / "player.ipynb", "x = 1")
    huge.write_text(huge.read_text() + " " * MAX_BYTES)
    found, warnings = collect(tmp_path)
    assert found == []
    assert warnings[0].startswith("skipped ann: ") and "not valid JSON" in warnings[0]
    assert warnings[1].startswith("skipped bob: player.ipynb is ") and "more than" in warnings[1]
    with pytest.raises(NotebookError):
        player_cells(huge)
