"""Re-run the lessons and store their outputs, each board with a picture beside its widget.

    .venv/bin/python scripts/store_outputs.py                # every notebook in notebooks/
    .venv/bin/python scripts/store_outputs.py notebooks/01_play.ipynb --timeout 120

Each notebook runs in a fresh kernel (nbclient), in a scratch copy of its folder so
saves and other files a lesson writes do not land in the repository; the outputs
are written back into the notebook.  A board's output carries ``image/svg+xml``
beside the widget (see ``GameWidget._repr_mimebundle_``); the widget state is NOT
stored, so GitHub, nbviewer, nbconvert and an untrusted notebook show the SVG
picture, and a running kernel shows the live board.  A chart's output (a Vega-Lite
description, :mod:`course.charts`) gets its static SVG here too, drawn by vl-convert:
JupyterLab draws the description, the others the picture.  Run it after changing a
lesson's code cells; a cell that raises stops with the notebook and cell named.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from course.arguments import existing_file, seconds  # noqa: E402
from course.charts import VEGA_LITE, static_svg  # noqa: E402


def store(path: Path, timeout: float) -> int:
    """Run the notebook at ``path`` and write it back with its new outputs; returns the pictures."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="store-outputs-") as scratch:
        work = Path(scratch) / path.parent.name
        shutil.copytree(path.parent, work, ignore=shutil.ignore_patterns("*.ipynb", "saves"))
        client = NotebookClient(
            notebook,
            timeout=int(timeout),
            kernel_name="python3",
            resources={"metadata": {"path": str(work)}},
            store_widget_state=False,
        )
        client.execute()
    notebook.metadata.pop("widgets", None)
    pictures = 0
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if VEGA_LITE in data and "image/svg+xml" not in data:
                data["image/svg+xml"] = static_svg(data[VEGA_LITE])
            pictures += "image/svg+xml" in data
    nbformat.write(notebook, path)
    return pictures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "notebooks",
        nargs="*",
        type=existing_file,
        help="the notebooks to re-run (default: every notebooks/*.ipynb)",
    )
    parser.add_argument("--timeout", type=seconds(1, 3600), default=300.0,
                        help="seconds a cell may run (default 300)")  # fmt: skip
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        pictures = store(path, args.timeout)
        print(f"{path}: outputs stored, {pictures} pictures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
