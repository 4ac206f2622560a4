"""The site's copies of the lessons and exercises: texts as JupyterLab shows them, no dead link,
pictures that draw (trusted cells, no widget view that can never be drawn)."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path

import pytest

from course.site.build import EXERCISES, LESSONS, REPO, _released_notebooks
from course.site.notebooks import (
    LINK,
    PYODIDE_KERNELSPEC,
    WIDGET_STATE,
    WIDGET_VIEW,
    _joined,
    _site_notebook,
    copy_notebooks,
)


@pytest.fixture(scope="module")
def site_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = tmp_path_factory.mktemp("files")
    sources = {"lessons": _released_notebooks(LESSONS), "exercises": _released_notebooks(EXERCISES)}
    copy_notebooks(sources, files, REPO)
    return files


def copies(files: Path) -> list[Path]:
    found = sorted(files.rglob("*.ipynb"))
    assert len(found) > 20, f"too few notebooks in the site: {found}"
    return found


def test_every_link_in_the_site_resolves_inside_it_or_is_an_https_link(site_files: Path) -> None:
    shipped = {
        path.relative_to(site_files).as_posix() for path in site_files.rglob("*") if path.is_file()
    }
    dead = []
    for path in copies(site_files):
        folder = path.parent.relative_to(site_files).as_posix()
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for link in LINK.finditer(cell["source"] if cell["cell_type"] == "markdown" else ""):
                target = link.group(3)
                if target.startswith(("https://", "#")):
                    continue
                if posixpath.normpath(posixpath.join(folder, target.split("#")[0])) not in shipped:
                    dead.append(f"{path.name}: {target}")
    assert dead == []


def test_the_teacher_guide_is_named_in_lesson_00_where_the_site_cannot_link_it(
    site_files: Path,
) -> None:
    welcome = (site_files / "lessons" / "00_welcome.ipynb").read_text(encoding="utf-8")
    assert "docs/teacher-guide.md in the kit's folder" in welcome
    assert "](../docs/" not in welcome and "](../exercises/01_squares.ipynb)" in welcome


def test_every_text_is_one_string_and_nothing_else_changes(site_files: Path) -> None:
    """JupyterLite shows a list of lines joined by commas; the copies hold strings.  The
    only other changes: code cells are trusted, and widget views (no model stored) are left out."""
    multi_line_outputs = dropped_views = 0
    for path in copies(site_files):
        copy = json.loads(path.read_text(encoding="utf-8"))
        source = json.loads(
            (LESSONS if path.parent.name == "lessons" else EXERCISES)
            .joinpath(path.name)
            .read_text()
        )
        assert copy["metadata"]["kernelspec"] == PYODIDE_KERNELSPEC
        assert len(copy["cells"]) == len(source["cells"])
        for mine, theirs in zip(copy["cells"], source["cells"], strict=True):
            assert isinstance(mine["source"], str)
            if mine["cell_type"] == "code":
                assert mine["source"] == _joined(theirs["source"])
            for output, original in zip(
                mine.get("outputs", []), theirs.get("outputs", []), strict=True
            ):
                if "text" in original:
                    assert output["text"] == _joined(original["text"])
                    multi_line_outputs += (
                        isinstance(original["text"], list) and len(original["text"]) > 1
                    )
                for mime, value in original.get("data", {}).items():
                    if mime == WIDGET_VIEW:
                        assert mime not in output["data"], path.name
                        dropped_views += 1
                        continue
                    kept = output["data"][mime]
                    assert kept == (value if mime.endswith("json") else _joined(value)), (
                        path.name,
                        mime,
                    )
    assert multi_line_outputs > 10, "the lessons hold multi-line outputs: the test must see them"
    assert dropped_views > 5, "the lessons store boards' widget views: the test must see them"


def test_every_code_cell_is_trusted_so_its_pictures_draw(site_files: Path) -> None:
    """JupyterLab draws a stored SVG only in a cell whose metadata says trusted."""
    kinds: dict[str, set[object]] = {"code": set(), "markdown": set()}
    for path in copies(site_files):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            kinds.setdefault(cell["cell_type"], set()).add(cell["metadata"].get("trusted"))
    assert kinds["code"] == {True} and kinds["markdown"] == {None}


def board_output(model_id: str) -> dict[str, object]:
    data = {WIDGET_VIEW: {"version_major": 2, "version_minor": 0, "model_id": model_id},
            "image/svg+xml": "<svg/>", "text/plain": "GameWidget(...)"}  # fmt: skip
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": data}


def test_a_widget_view_stays_only_when_the_notebook_stores_its_model() -> None:
    state = {WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": {"kept": {}}}}
    cells = [{"cell_type": "code", "metadata": {}, "source": "play()",
              "outputs": [board_output("kept"), board_output("gone")]}]  # fmt: skip
    notebook = {"cells": cells, "metadata": {"widgets": state}, "nbformat": 4, "nbformat_minor": 5}
    copy = _site_notebook(notebook, "lessons", frozenset(), "notebooks")
    kept, gone = (output["data"] for output in copy["cells"][0]["outputs"])
    assert set(kept) == {WIDGET_VIEW, "image/svg+xml", "text/plain"}
    assert set(gone) == {"image/svg+xml", "text/plain"}
    assert copy["cells"][0]["metadata"] == {"trusted": True}
    assert "trusted" not in notebook["cells"][0]["metadata"]  # the kit's own notebook is left as it was
