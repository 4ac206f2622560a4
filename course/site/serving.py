"""The browser classroom inside ``python -m course serve``: the site, the hand-ins, the teacher's list.

:func:`prepare` builds the site on first start if it is missing and returns the routes
the class server adds beside its rooms; :func:`handins_html` is the hand-ins section
of the teacher's page (``/teacher/handins?key=KEY``), one row per student and exercise.
"""

from __future__ import annotations

import hmac
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from course.classroom.lobby import Identify
from course.i18n import gettext as _
from course.i18n import language
from course.roster.signin import SignIns
from course.roster.store import ROSTER, Places, RosterFile
from course.site.headers import ISOLATION
from course.site.routes import SiteFiles, known_exercises, site_routes
from course.site.signin_routes import Gate, signin_routes
from course.site.store import HandInStore


def handins_html(store: HandInStore) -> str:
    """The hand-ins section: who handed in which exercise, how often, and when last (in the
    teacher's language, :func:`course.i18n.language`)."""
    rows = store.summary()
    title, empty = html.escape(_("Hand-ins")), html.escape(_("No hand-ins yet."))
    heading = f"<section class='handins'><h2>{title}</h2>"
    if not rows:
        return f"{heading}<p>{empty}</p></section>"
    folder = html.escape(str(store.root))
    kept = html.escape(_("Kept in {folder}; grade them with {command}.")).format(
        folder=folder, command=f"<code>python -m course grade {folder}</code>")  # fmt: skip
    heads = (_("Student"), _("Exercise"), _("Hand-ins"), _("Last (UTC)"))
    body = "".join(
        f"<tr><td>{html.escape(str(row['student']))}</td><td>{html.escape(row['exercise'])}</td>"
        f"<td>{row['count']}</td><td>{html.escape(str(row.get('last', '')))}</td></tr>"
        for row in rows
    )
    head = "".join(f"<th>{html.escape(word)}</th>" for word in heads)
    return f"{heading}<p>{kept}</p><table><tr>{head}</tr>{body}</table></section>"


def handins_section(store: HandInStore) -> Callable[[], dict[str, Any]]:
    """The hand-ins as a section of the teacher's overview (beside the live rooms)."""

    def section() -> dict[str, Any]:
        return {
            "title": _("Hand-ins (grade them with: python -m course grade {folder})").format(folder=store.root),
            "columns": [_("Student"), _("Exercise"), _("Hand-ins"), _("Last (UTC)")],
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
            refused = html.escape(_("Give the teacher key: /teacher/handins?key=KEY"))
            return HTMLResponse(f"<p>{refused}</p>", 403, headers=ISOLATION)
        title = html.escape(_("Hand-ins"))
        document = (
            f"<!doctype html><html lang='{language()}'><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='10'><title>{title}</title>{handins_html(store)}"
        )
        return HTMLResponse(document, headers=ISOLATION)

    return Route("/teacher/handins", page)


def term_route(roster_file: RosterFile, places: Places, exercises: Sequence[str]) -> Route:
    """``/teacher/term.csv?key=KEY``: each student's term as a spreadsheet (the teacher key only)."""
    from course.roster.term import term, term_csv

    async def page(request: Request) -> Response:
        key = getattr(getattr(request.app.state, "classroom", None), "teacher_key", None)
        if key and not hmac.compare_digest(request.query_params.get("key", "").encode(), str(key).encode()):
            refused = html.escape(_("Give the teacher key: /teacher/term.csv?key=KEY"))
            return HTMLResponse(f"<p>{refused}</p>", 403, headers=ISOLATION)
        headers = {**ISOLATION, "Content-Disposition": "attachment; filename=term.csv"}
        text = term_csv(term(roster_file.load(), places, exercises))
        return Response(text, media_type="text/csv", headers=headers)

    return Route("/teacher/term.csv", page)


@dataclass
class Classroom:
    """What the browser classroom adds to the class server: routes, overview sections, who is who."""

    routes: list[BaseRoute] = field(default_factory=list)
    sections: list[Callable[[], dict[str, Any]]] = field(default_factory=list)
    identify: Identify | None = None


def signins_section(signins: SignIns) -> Callable[[], dict[str, Any]]:
    """Who is signed in on how many browsers (a roster), or the names claimed (a casual class)."""

    def section() -> dict[str, Any]:
        counts = signins.signed_in()
        if signins.casual:
            return {
                "title": _("Names taken on browsers (free one: python3 kit.py class free NAME)"),
                "columns": [_("Name"), _("Browsers")],
                "rows": [[name, counts.get(key, 0)] for key, name in signins.claims()],
            }
        return {
            "title": _("Sign-ins (cards: python3 kit.py class cards; a new code: class new-code NAME)"),
            "columns": [_("Student"), _("Key"), _("Card issued"), _("Browsers signed in")],
            "rows": [
                [s.name, s.key, _("yes") if signins.has_code(s.key) else _("no"), counts.get(s.key, 0)]
                for s in signins.roster
            ],
        }

    return section


def entrance(site: SiteFiles, gate: Gate) -> Route:
    """``/``: the site for a signed-in browser (or any, in a casual class), else the sign-in page."""

    async def page(request: Request) -> Response:
        if not gate.signins.casual and await gate.who(request) is None:
            return RedirectResponse("/signin/", 303)
        return site.response(request)

    return Route("/", page)


def prepare(site: Path, data: Path, say: Callable[[str], None] = print, roster: Path = ROSTER) -> Classroom:
    """The browser classroom's routes and sections; builds the site first if ``site`` holds none.

    ``roster`` is the class list (``class/roster.json``; none: a casual class whose
    browsers claim names); its sign-ins are kept beside it.  A site built from another
    copy of the kit is served as it is (it may hold Pyodide's own numpy, from
    ``--pyodide-packages``), with a note saying to build it again.
    """
    if not (Path(site) / "jupyter-lite.json").is_file():
        from course.site.build import SiteBuild

        say(_("No site in {site} yet: building it (once; a few minutes the first time)").format(site=site))
        SiteBuild(out=Path(site), say=say).run()
    else:
        from course.site.stamp import built_from_this_kit

        if not built_from_this_kit(Path(site)):
            say(_("Note: the site in {site} was built from another copy of the kit (older lessons "
                  "or code): build it again with  python3 kit.py site build").format(site=site))
    exercises = known_exercises(Path(site))
    store = HandInStore(Path(data), exercises)
    say(_("Browser classroom: {site} at /lab/ ; hand-ins go to {folder}").format(
        site=site, folder=store.root))  # fmt: skip
    from course.classroom.progress import Progress
    from course.roster.term import term_section
    from course.site.progress_routes import progress_routes

    places = Places(roster, Path(data))
    roster_file = RosterFile(places.roster)
    signins = SignIns(roster_file, places.signin)
    gate = Gate(signins)
    count = len(signins.roster)
    said = (_("Sign-in: {count} students on {roster}, each signs in with the code on their card")
            if count else _("Sign-in: no roster ({roster}): each browser claims the name it gives"))
    say(said.format(count=count, roster=places.roster))  # fmt: skip

    def name_of(key: str) -> str:
        if signins.casual:
            return dict(signins.claims()).get(key, key)
        student = signins.roster.get(key)
        return student.name if student else key

    progress = Progress(Path(data), names=name_of)  # the self-checks, live (course.classroom.progress)
    return Classroom(
        [
            teacher_route(store),
            term_route(roster_file, places, sorted(exercises or ())),
            *signin_routes(gate),
            *progress_routes(progress, gate),
            entrance(SiteFiles(Path(site)), gate),
            *site_routes(Path(site), store, gate),
        ],
        [signins_section(signins), term_section(roster_file, places, sorted(exercises or ())),
         progress.grid, handins_section(store)],
        gate.who,
    )
