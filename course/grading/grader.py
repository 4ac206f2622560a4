"""The grader of a class: notebooks graded against the teacher's folder, sandboxed, in parallel.

The :class:`Grader` keeps the teacher's folder safe: its files are read once, every
sandboxed run is refused access to it, and after each notebook their hashes are
compared; if anything changed, the files are put back and that notebook scores 0.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from course.grading import checker
from course.grading import exercise as exercise_file
from course.grading.exercise import Exercise
from course.grading.notebook import NotebookError
from course.grading.records import Report
from course.grading.sandbox import Sandbox
from course.i18n import gettext as _
from course.i18n import language


class Grader:
    """Grades notebooks against the teacher's folder ``source_dir``, sandboxed, in parallel."""

    def __init__(
        self,
        source_dir: Path = checker.SOURCE_DIR,
        timeout: float = checker.DEFAULT_TIMEOUT,
        workers: int = 1,
        seed: int | None = None,
        sandbox: str = "auto",
        progress: Callable[[int, int, str], None] | None = None,
    ) -> None:
        self.source_dir = Path(source_dir)
        self.seed = exercise_file.load_seed(self.source_dir) if seed is None else seed
        self.timeout = timeout
        self.workers = max(1, workers)
        self.progress = progress
        self.sandbox = Sandbox(sandbox)
        self._exercises: dict[tuple[str, str], Exercise] = {}
        self._files = _snapshot(self.source_dir)
        self._lock = threading.Lock()

    def exercise(self, name: str) -> Exercise:
        """The teacher's exercise ``name``, loaded once per language (its cases' names are in
        the language of now, :func:`course.i18n.language`)."""
        key = (name, language())
        if key not in self._exercises:
            sources = checker.exercises(self.source_dir)
            if name not in sources:
                raise NotebookError(f"there is no exercise {name!r} in {self.source_dir}")
            self._exercises[key] = exercise_file.load(sources[name], self.seed)
        return self._exercises[key]

    def fingerprint(self, name: str) -> str:
        """What a grade of exercise ``name`` depends on besides the notebook (for the journal)."""
        source = self._files.get(f"{name}.ipynb", b"")
        settings = f"{self.seed}:{self.timeout}:{self.sandbox.kind}:"
        return hashlib.sha256(settings.encode() + source).hexdigest()

    def grade_one(self, path: Path, name: str) -> Report:
        """Grade the notebook at ``path`` as exercise ``name`` (loaded first)."""
        with _COLLECTOR.fewer():
            report = checker.grade_notebook(self.exercise(name), path, self.sandbox, self.timeout)
        with self._lock:
            changed = self._restore()
        if changed:
            report.notes.append(
                _("the teacher's files changed while this notebook ran ({files}): "
                  "they were put back, and this notebook scores 0").format(files=changed)
            )
            for result in report.checks:
                result.passed, result.message = False, _("the teacher's files were changed")
                result.cases_passed = 0
        return report

    def grade(self, submissions: Sequence[tuple[Path, str]]) -> list[Report]:
        """One report per ``(path, exercise)``, in the same order."""
        names = list(dict.fromkeys(name for _, name in submissions))
        sources = checker.exercises(self.source_dir) if names else {}
        loaded = {name for name, _ in self._exercises}
        unknown = [name for name in names if name not in sources and name not in loaded]
        if unknown:
            raise NotebookError(f"there is no exercise {unknown[0]!r} in {self.source_dir}")
        for name in names:
            self.exercise(name)
        done = [0]

        def one(item: tuple[Path, str]) -> Report:
            path, name = item
            report = self.grade_one(Path(path), name)
            with self._lock:
                done[0] += 1
                if self.progress:
                    self.progress(done[0], len(submissions), f"{Path(path).name}")
            return report

        try:
            with ThreadPoolExecutor(max_workers=self.workers) as pool:
                return list(pool.map(one, submissions))
        finally:
            self.sandbox.close()

    def _restore(self) -> str:
        """Compare the teacher's files with the snapshot; put them back; what changed."""
        now = _snapshot(self.source_dir)
        changed = sorted(name for name in self._files.keys() | now.keys()
                         if _hash(self._files.get(name)) != _hash(now.get(name)))  # fmt: skip
        for name in changed:
            path = self.source_dir / name
            if name in self._files:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self._files[name])
            else:
                path.unlink()
        return ", ".join(changed)


class _Collector:
    """Python's cycle collector, called less often while any notebook is being graded.

    Judging a notebook makes and drops hundreds of thousands of small objects, none in a
    cycle (04_flips: 11,205 replies, each a board), while every exercise's cases stay
    loaded; at Python's default threshold the collector took about half of the grader's
    own time on such a notebook (0.53 s of processor time against 0.25 s).  Gradings overlap
    (the gradebook's threads): the first to start raises the threshold, the last to end puts
    back what it found.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._grading = 0
        self._before = gc.get_threshold()

    @contextlib.contextmanager
    def fewer(self) -> Iterator[None]:
        with self._lock:
            if not self._grading:
                self._before = gc.get_threshold()
                gc.set_threshold(max(self._before[0], 10_000), *self._before[1:])
            self._grading += 1
        try:
            yield
        finally:
            with self._lock:
                self._grading -= 1
                if not self._grading:
                    gc.set_threshold(*self._before)


_COLLECTOR = _Collector()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _hash(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()
