"""Release the exercises: student copies made from the teacher's one source of each exercise.

The teacher writes ``exercises/source/NN_name.ipynb`` with the solutions inside
``### BEGIN SOLUTION`` / ``### END SOLUTION``.  :func:`release` runs each source with
nbclient (the solutions must pass their own self-checks), keeps the outputs in the source,
and writes the student copy ``NN_name.ipynb``: the same cells, each solution replaced by a
stub that raises NotImplementedError, the check cells locked and carrying the teacher's
outputs; and the same copy in every other language the kit has, ``CODE/NN_name.ipynb``, its
markdown cells translated (:mod:`course.languages`).  Nothing else leaves the teacher folder: not the solutions, not the seed of the
grade-time cases (:mod:`course.grading.exercise`).  A source whose answer and check cells
disagree with its entry in the exercise table (:mod:`course.grading.table`) is refused.  :func:`outdated` tells whether the
committed files are what a release would write now.
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipykernel.kernelspec
import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

from course.grading import notebook as nbfile
from course.grading.checker import SOURCE_DIR, exercises
from course.grading.exercise import agrees
from course.grading.notebook import ANSWER, CHECK, CHECK_MARKER, METADATA_KEY, NotebookError
from course.grading.table import ENTRIES
from course.languages.build import translated_exercise
from course.languages.catalogues import languages
from course.languages.notebooks import notebook_text

#: _build, release and outdated are the command ``python -m course release [--check]``: each
#: runs every chosen exercise in Jupyter kernels (minutes) and release writes into exercises/;

EXERCISE_DIR = SOURCE_DIR.parent
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


class _ThisPython(KernelSpecManager):
    """Kernel specs that start ``python3`` kernels with the Python running this code."""

    def get_kernel_spec(self, kernel_name: str) -> Any:
        if kernel_name == "python3":
            spec = ipykernel.kernelspec.get_kernel_dict()
            return self.kernel_spec_class(resource_dir=ipykernel.kernelspec.RESOURCES, **spec)
        return super().get_kernel_spec(kernel_name)


def validate(source: Any, name: str) -> None:
    """Refuse a source that breaks the conventions of :mod:`course.grading.notebook`."""
    seen: set[str] = set()
    for number, cell in enumerate(source.cells, start=1):
        where = f"{name}, cell {number}"
        text, tags = nbfile.source(cell), nbfile.tags(cell)
        role = [tag for tag in tags if tag.startswith((ANSWER, CHECK))]
        if cell.cell_type != "code":
            continue
        if len(role) > 1 or (role and role[0] in seen):
            raise NotebookError(f"{where}: the tag {role[-1]} must be unique, one per cell")
        seen.update(role)
        if nbfile.has_solution(text) and not (role and role[0].startswith(ANSWER)):
            raise NotebookError(f"{where}: solution markers belong in a cell tagged {ANSWER}NAME")
        if role and role[0].startswith(ANSWER):
            nbfile.strip_solutions(text)  # raises on unbalanced markers
        if role and role[0].startswith(CHECK) and CHECK_MARKER not in text.splitlines():
            raise NotebookError(f"{where}: a check cell needs a line '{CHECK_MARKER}'")
    if not any(t.startswith(ANSWER) for t in seen) or not any(t.startswith(CHECK) for t in seen):
        raise NotebookError(f"{name}: an exercise needs answer:NAME and check:NAME cells")
    if name not in ENTRIES:
        raise NotebookError(f"{name}: add the exercise to course/grading/table.py first")
    agrees({"cells": source.cells}, ENTRIES[name], name)


async def _execute_all(notebooks: list[Any], cwd: Path, timeout: int, workers: int) -> None:
    gate = asyncio.Semaphore(workers)

    async def one(notebook: Any) -> None:
        async with gate:
            manager = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=_ThisPython())
            client = NotebookClient(
                notebook, km=manager, timeout=timeout, record_timing=False, coalesce_streams=True,
                resources={"metadata": {"path": str(cwd)}},
            )  # fmt: skip
            await client.async_execute(stderr=subprocess.DEVNULL)  # the kernel's own log

    await asyncio.gather(*(one(notebook) for notebook in notebooks))


def execute(
    notebooks: Sequence[Any], cwd: Path = EXERCISE_DIR, timeout: int = 300, workers: int = 2
) -> None:
    """Run the notebooks in place (a fresh kernel each, ``workers`` at a time); errors raise."""
    asyncio.run(_execute_all(list(notebooks), cwd, timeout, workers))


def _normalise(notebook: Any, name: str) -> None:
    """Keep only deterministic metadata, so a release is byte-for-byte repeatable."""
    notebook.metadata = nbformat.from_dict(  # type: ignore[no-untyped-call]
        {
            "kernelspec": KERNELSPEC,
            "language_info": {"name": "python"},
            METADATA_KEY: {"exercise": name},
        }
    )
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)


def student_copy(executed: Any) -> Any:
    """The student's notebook made from an executed source: stubs for solutions, checks locked."""
    student = copy.deepcopy(executed)
    for cell in student.cells:
        if nbfile.tag_with(cell, ANSWER):
            cell.source = nbfile.strip_solutions(cell.source)
            cell.outputs, cell.execution_count = [], None
        elif nbfile.tag_with(cell, CHECK):
            cell.metadata["editable"] = False
            cell.metadata["deletable"] = False
    return student


def _build(
    source_dir: Path = SOURCE_DIR, names: Sequence[str] | None = None, workers: int = 2
) -> dict[str, tuple[Any, Any]]:
    """``{name: (executed source, student copy)}`` for the chosen exercises, nothing written."""
    sources = exercises(source_dir)
    chosen = list(names) if names else list(sources)
    unknown = [name for name in chosen if name not in sources]
    if unknown:
        raise NotebookError(f"no source notebook for {', '.join(unknown)} in {source_dir}")
    notebooks = {name: _read(sources[name]) for name in chosen}
    for name, notebook in notebooks.items():
        validate(notebook, name)
    execute(list(notebooks.values()), cwd=Path(source_dir).parent, workers=workers)
    built = {}
    for name, notebook in notebooks.items():
        _normalise(notebook, name)
        built[name] = (notebook, student_copy(notebook))
    return built


def release(
    source_dir: Path = SOURCE_DIR,
    out_dir: Path = EXERCISE_DIR,
    names: Sequence[str] | None = None,
    update_sources: bool = True,
    workers: int = 2,
) -> list[Path]:
    """Write the student copies into ``out_dir`` (and refreshed outputs into the sources)."""
    written = []
    for name, (source, student) in _build(source_dir, names, workers).items():
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        target = Path(out_dir) / f"{name}.ipynb"
        nbformat.write(student, target)  # type: ignore[no-untyped-call]
        written.append(target)
        for translated, path in translations(name, student, Path(out_dir)):
            path.parent.mkdir(exist_ok=True)
            path.write_text(notebook_text(translated), encoding="utf-8")
            written.append(path)
        if update_sources:
            nbformat.write(source, Path(source_dir) / f"{name}.ipynb")  # type: ignore[no-untyped-call]
    return written


def outdated(
    source_dir: Path = SOURCE_DIR, out_dir: Path = EXERCISE_DIR, names: Sequence[str] | None = None
) -> list[str]:
    """What differs between the committed notebooks and a fresh release (empty: up to date)."""
    problems = []
    built = _build(source_dir, names)
    for name, (source, student) in built.items():
        committed = Path(out_dir) / f"{name}.ipynb"
        if not committed.exists():
            problems.append(f"{committed} is missing")
        else:
            problems += differences(committed, _plain(student))
        problems += differences(Path(source_dir) / f"{name}.ipynb", _plain(source))
        for fresh, path in translations(name, student, Path(out_dir)):
            problems += differences(path, fresh) if path.exists() else [f"{path} is missing"]
    if not names:
        extra = sorted({p.stem for p in Path(out_dir).glob("[0-9][0-9]_*.ipynb")} - set(built))
        problems += [f"{Path(out_dir) / name}.ipynb has no source" for name in extra]
    return problems


def translations(name: str, student: Any, out_dir: Path) -> list[tuple[dict[str, Any], Path]]:
    """The student copy of exercise ``name`` in every other language the kit has, each with
    where it goes (``out_dir/CODE/name.ipynb``): the same cells, ids, outputs and grading
    metadata, the markdown cells from ``course/locale/CODE/exercises/name.po``
    (:mod:`course.languages`), and ``metadata.course.language`` saying the language."""
    plain = _plain(student)
    return [
        (translated_exercise(plain, name, code), out_dir / code / f"{name}.ipynb")
        for code in languages()
    ]


def _plain(notebook: Any) -> dict[str, Any]:
    plain: dict[str, Any] = json.loads(nbformat.writes(notebook))  # type: ignore[no-untyped-call]
    return plain


def _read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


def differences(committed: Path, fresh: dict[str, Any]) -> list[str]:
    """How the notebook file ``committed`` differs from ``fresh`` (cells matched by id).

    Sources, metadata and the check cells' outputs must agree; the outputs of other cells
    (a demo's picture, drawn by another module) are refreshed by a release but not compared.
    """
    old_notebook = nbfile.read(committed)
    if old_notebook.get("metadata") != fresh.get("metadata"):
        return [f"{committed}: the notebook metadata differs"]
    old, new = old_notebook["cells"], fresh["cells"]
    if [c.get("id") for c in old] != [c.get("id") for c in new]:
        return [
            f"{committed}: the cells differ ({[c.get('id') for c in old]} vs {[c.get('id') for c in new]})"
        ]
    found = []
    for mine, theirs in zip(old, new, strict=True):
        keys = ["cell_type", "source", "metadata", "execution_count"]
        if nbfile.tag_with(theirs, CHECK):  # the expected outputs; a demo's picture may change
            keys.append("outputs")
        for key in keys:
            if mine.get(key) != theirs.get(key):
                found.append(f"{committed}: cell {mine.get('id')} differs in its {key}")
    return found
