"""A real JupyterHub on this computer with the kit, to try the hub path by hand (Linux).

    python3 kit.py python scripts/local_hub.py [--students ada,grace] [--teacher teach]

Starts JupyterHub (from the kit's environment; the test extra installs it) with Node's
configurable-http-proxy (installed with npm into build/hub-cache the first time), each
user's server started by ``course.hub.singleuser`` (the lessons in their home folder) and
the kit's class service at /services/reversi/.  Users log in with the test-only
DummyAuthenticator and the password it prints: this is for trying the kit, never for a
class.  Everything lives in a temporary folder and stops with Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hub import PASSWORD, Hub  # noqa: E402 (the kit's folder first)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", default="ada,grace", help="the students' user names (default: ada,grace)")
    parser.add_argument("--teacher", default="teach", help="the teacher's user name, a hub admin (default: teach)")
    args = parser.parse_args()
    students = tuple(name.strip() for name in args.students.split(",") if name.strip())
    hub = Hub(Path(tempfile.mkdtemp(prefix="reversi-hub-")), students, args.teacher)
    print("Starting JupyterHub (the first time, npm installs its proxy)...", flush=True)
    hub.start()
    print(f"JupyterHub: {hub.base}/hub/login  users {', '.join(students)} and the teacher {args.teacher}, "
          f"password {PASSWORD!r}")
    print(f"The teacher page: {hub.service}/ (log in as {args.teacher} first)")
    print(f"Hand-ins go to {hub.data / 'handins'}; grade them with:")
    print(f"  python3 kit.py grade {hub.data / 'handins'} --no-roster")
    print("Press Ctrl-C to stop.", flush=True)
    try:
        while hub.process is not None and hub.process.poll() is None:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
