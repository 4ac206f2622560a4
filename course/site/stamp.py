"""Which copy of the kit a built site comes from: a short hash of its code and notebooks,
written beside the site (:data:`STAMP_FILE`), so ``serve`` can say a site is out of date."""

from __future__ import annotations

import hashlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "notebooks"
EXERCISES = REPO / "exercises"
STAMP_FILE = "kit-stamp.txt"


def kit_stamp(lessons: Path = LESSONS, exercises: Path = EXERCISES) -> str:
    """A short hash of what a site is built from: the kit's code, the notebooks, pyproject.toml.

    A site whose :data:`STAMP_FILE` differs was built from another copy of the kit.
    """
    digest = hashlib.sha256()
    sources = [
        *sorted((REPO / "reversi").rglob("*.py")),
        *sorted((REPO / "course").rglob("*.py")),
        *sorted(Path(lessons).glob("*.ipynb")),
        *sorted(Path(exercises).glob("*.ipynb")),
        *sorted(Path(lessons).glob("*/*.ipynb")),  # the lessons in other languages
        *sorted(Path(exercises).glob("*/*.ipynb")),
        REPO / "pyproject.toml",
    ]
    for path in sources:
        if path.is_file():  # an installed kit has no pyproject.toml
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def built_from_this_kit(site: Path) -> bool:
    """Whether the site in ``site`` was built from this checkout as it is now."""
    stamp = Path(site) / STAMP_FILE
    return stamp.is_file() and stamp.read_text().strip() == kit_stamp()
