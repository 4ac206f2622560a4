"""The kernel's side of the live progress: each self-check tells the class server how it went.

In the browser classroom the kernel runs in a worker of the page the class server
served, so the server is the worker's own origin: a report is a ``fetch`` that is
not awaited (the self-check never waits for it, and a page from a plain static
server, which answers 404 or 405, is silently ignored).  The name comes from a cookie
the server sets once per browser (``course.site.progress_client.my_name``), so a report
carries no name and never the student's code: exercise, question, passed or not, the
kind of mistake.

Outside the browser (JupyterLab on a laptop) nothing is reported unless the
environment names a class server (``REVERSI_CLASS_SERVER=http://HOST:PORT``); then a
report gives up after :data:`TIMEOUT` seconds, silently.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request

from course.grading.mistakes import MISTAKES
from course.grading.table import TABLE
from course.i18n import gettext as _

#: How long a report outside the browser waits for the class server.
TIMEOUT = 0.1


def class_server() -> str | None:
    """The class server's address (the page's origin in the browser), or None when there is none."""
    if sys.platform == "emscripten":
        try:
            import js  # type: ignore[import-not-found]
        except ImportError:  # not Pyodide after all
            return None
        return str(js.location.origin)
    return os.environ.get("REVERSI_CLASS_SERVER") or None


def mistake_kind(cause: str) -> str:
    """The short name of the mistake whose sentence is ``cause`` ('' when none is), in
    English or in the reader's language."""
    return next((kind.name for kind in MISTAKES if cause in (kind.sentence, _(kind.sentence))), "")


def exercise_of(check: str) -> str:
    """The exercise a check belongs to (``04_flips`` for ``flips``), or '' if none."""
    return next((e.name for e in TABLE if any(q.check == check for q in e.questions)), "")


def post(path: str, fields: dict[str, object], server: str | None = None) -> None:
    """POST ``fields`` as JSON to ``path`` of the class server; never waits long, never raises."""
    server = server if server is not None else class_server()
    if not server:
        return
    body = json.dumps(fields)
    if sys.platform == "emscripten":
        import js  # a server was found above, so this is Pyodide
        from pyodide.ffi import create_once_callable, to_js  # type: ignore[import-not-found]

        options = to_js(
            {"method": "POST", "body": body, "headers": {"Content-Type": "application/json"}},
            dict_converter=js.Object.fromEntries,
        )
        js.fetch(f"{server}{path}", options).catch(create_once_callable(lambda _error: None))
        return
    headers = {"Content-Type": "application/json"}
    if os.environ.get("JUPYTERHUB_API_TOKEN"):  # on a hub: the user's own token says who reports
        headers["Authorization"] = f"token {os.environ['JUPYTERHUB_API_TOKEN']}"
    request = urllib.request.Request(f"{server}{path}", body.encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT):
            pass
    except (OSError, ValueError):  # no server, a static one, a refusal: the check goes on
        pass


def report(check: str, passed: bool, cause: str = "") -> None:
    """Tell the class server that the self-check ``check`` passed or failed (and why)."""
    fields = {"exercise": exercise_of(check) or "other", "question": check, "passed": passed}
    kind = mistake_kind(cause) or cause[:60]
    if kind:
        fields["mistake"] = kind
    post("/progress", fields)
