"""A hub user's server, with the lessons: copy them into the home folder, then start ``jupyterhub-singleuser``.

Give it to the hub as the spawner's command (``c.Spawner.cmd = ["python3", "-m",
"course.hub.singleuser"]``): each time a student's server starts, new and untouched
lessons are copied into ``~/reversi`` (:mod:`course.hub.lessons`, which never overwrites
an edited notebook), and JupyterLab is started as the hub's own single-user server with
the page's app exposed (so ``hand_in()`` can save the notebook before it is sent).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from course.hub.lessons import copy_lessons


def main() -> None:
    try:
        copy_lessons(Path.home() / "reversi")
    except OSError as error:  # a full or read-only home: the server still starts
        print(f"[reversi] could not copy the lessons: {error}", file=sys.stderr)
    program = shutil.which(
        "jupyterhub-singleuser",
        path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    )
    if program is None:
        sys.exit("jupyterhub-singleuser is not installed beside this Python")
    os.execv(program, [program, "--LabApp.expose_app_in_browser=True", *sys.argv[1:]])


if __name__ == "__main__":
    main()
