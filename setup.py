"""The kit's packages and their data; the rest of the project's settings are in pyproject.toml.

The lessons (``notebooks/``) and the student copies of the exercises (``exercises/*.ipynb``,
never the teacher sources with the answers) go into the wheel as the packages
``course.lessons`` and ``course.exercises``, so a JupyterHub image that installs the kit
has them (``python -m course.hub.lessons`` copies them into a user's home), with their
translations (``notebooks/CODE/``, ``exercises/CODE/``: one folder per language the kit has a
catalogue for, so never ``exercises/source/``).
"""

from pathlib import Path

from setuptools import find_packages, setup

LANGUAGES = sorted(
    path.parents[1].name
    for path in (Path(__file__).resolve().parent / "course" / "locale").glob("*/LC_MESSAGES/kit.po")
)
TRANSLATED = [f"{code}/*.ipynb" for code in LANGUAGES]

setup(
    packages=[*find_packages(include=["reversi*", "course*"]), "course.lessons", "course.exercises"],
    package_dir={"course.lessons": "notebooks", "course.exercises": "exercises"},
    package_data={
        "reversi": ["py.typed", "cursormap/maps/*.map", "locale/*/LC_MESSAGES/*.mo"],
        "course": ["py.typed", "pictures/assets/*", "grading/runtime/*.py", "grading/runtime/*.mjs",
                   "contest/runtime/*.py", "locale/*/LC_MESSAGES/*.mo"],
        "course.lessons": ["*.ipynb", *TRANSLATED],
        "course.exercises": ["*.ipynb", *TRANSLATED],
    },
)
