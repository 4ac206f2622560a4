"""The browser classroom inside ``python -m course serve``: the site, the hand-ins, the teacher's list.

:func:`prepare` builds the site on first start if it is missing and returns the routes
the class server adds beside its rooms; :func:`handins_html` is the hand-ins section
of the teacher's page (``/teacher/handins?key=KEY``), one row per student and exercise.
"""

from __future__ import annotations

import hmac
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from course.site.routes import ISOLATION, known_exercises, site_routes
from course.site.store import HandInStore


def handins_html(store: HandInStore) -> str:
    """The hand-ins section: who handed in which exercise, how often, and when last."""
    rows = store.summary()
    if not rows:
        return "<section class='handins'><h2>Hand-ins</h2><p>No hand-ins yet.</p></section>"
    body = "".join(
        f"<tr><td>{html.escape(str(row['student']))}</td><td>{html.escape(row['exercise'])}</td>"
        f"<td>{row['count']}</td><td>{html.escape(str(row.get('last', '')))}</td></tr>"
        for row in rows
    )
    return (
        "<section class='handins'><h2>Hand-ins</h2>"
        f"<p>Kept in {html.escape(str(store.root))}; grade them with "
        f"<code>python -m course grade {html.escape(str(store.root))}</code>.</p>"
        "<table><tr><th>Student</th><th>Exercise</th><th>Hand-ins</th><th>Last (UTC)</th></tr>"
        f"{body}</table></section>"
    )


def handins_section(store: HandInStore) -> Callable[[], dict[str, Any]]:
    """The hand-ins as a section of the teacher's overview (beside the live rooms)."""

    def section() -> dict[str, Any]:
        return {
            "title": f"Hand-ins (grade them with: python -m course grade {store.root})",
            "columns": ["Student", "Exercise", "Hand-ins", "Last (UTC)"],
            "rows": [
                [str(row["student"]), row["exercise"], row["count"], str(row.get("last", ""))]
                for row in store.summary()
            ],
        }

    return section


def teacher_route(store: HandInStore) -> Route:
    """``/teacher/handins?key=KEY``: the hand-ins section as a page that refreshes itself."""

    async def page(request: Request) -> Response:
        classroom = getattr(request.app.state, "classroom", None)
        key = getattr(classroom, "teacher_key", None)
        given = request.query_params.get("key", "")
        if key and not hmac.compare_digest(given.encode(), str(key).encode()):
            return HTMLResponse(
                "<p>Give the teacher key: /teacher/handins?key=KEY</p>", 403, headers=ISOLATION
            )
        document = (
            "<!doctype html><meta charset='utf-8'><meta http-equiv='refresh' content='10'>"
            f"<title>Hand-ins</title>{handins_html(store)}"
        )
        return HTMLResponse(document, headers=ISOLATION)

    return Route("/teacher/handins", page)


@dataclass
class Classroom:
    """What the browser classroom adds to the class server: routes, and overview sections."""

    routes: list[BaseRoute] = field(default_factory=list)
    sections: list[Callable[[], dict[str, Any]]] = field(default_factory=list)


def prepare(site: Path, data: Path, say: Callable[[str], None] = print) -> Classroom:
    """The browser classroom's routes and sections; builds the site first if ``site`` holds none.

    A site built from another copy of the kit is served as it is (it may hold Pyodide's
    own numpy, from ``--pyodide-packages``), with a note saying to build it again.
    """
    if not (Path(site) / "jupyter-lite.json").is_file():
        from course.site.build import SiteBuild

        say(f"No site in {site} yet: building it (once; a few minutes the first time)")
        SiteBuild(out=Path(site), say=say).run()
    else:
        from course.site.stamp import built_from_this_kit

        if not built_from_this_kit(Path(site)):
            say(
                f"Note: the site in {site} was built from another copy of the kit (older lessons "
                "or code): build it again with  python3 kit.py site build"
            )
    store = HandInStore(Path(data), known_exercises(Path(site)))
    say(f"Browser classroom: {site} at /lab/ ; hand-ins go to {store.root}")
    from course.classroom.progress import Progress
    from course.site.progress_routes import progress_routes

    progress = Progress(Path(data))  # the self-checks, live on the overview (course.classroom.progress)
    return Classroom(
        [teacher_route(store), *progress_routes(progress), *site_routes(Path(site), store)],
        [progress.grid, handins_section(store)],
    )
