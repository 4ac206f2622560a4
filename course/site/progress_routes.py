"""The class server's side of the live progress: the reports come in, the teacher reads them.

* ``POST /progress`` ``{"exercise", "question", "passed", "mistake"}``: one self-check of
  the browser's signed-in student (course.site.signin_routes decides who; the report
  names nobody).
* ``GET /teacher/progress.csv?key=KEY``: every self-check as CSV (teacher key only).

Trust boundary: a report comes from a student's browser, which can send anything;
its body is read by :data:`ATTEMPT` (course.schema) and bounded in size, and the
store (:class:`course.classroom.progress.Progress`) bounds the count and rate.  Only the
teacher (with the key) sees the grid, on the overview, and the CSV.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from course.classroom.progress import Progress, ProgressRefused
from course.i18n import gettext as _
from course.roster.signin import SignInRefused
from course.schema import Field, Limits, Schema, SchemaError
from course.site.headers import ISOLATION
from course.site.signin_routes import Guard, read_body
from course.site.store import MAX_NAME, Flood, HandInError

#: Reports and names from one computer in a minute (a class shares no address on its own network).
PER_COMPUTER = 120
#: A report is a few short fields.
BODY = Limits(bytes=1_000, depth=2, items=20)


@dataclass(frozen=True)
class Report:
    """One self-check as the kernel reports it."""

    exercise: str
    question: str
    passed: bool
    mistake: str = ""


ATTEMPT = Schema(
    "a self-check report",
    (
        Field("exercise", str, limit=MAX_NAME, what="the exercise name"),
        Field("question", str, limit=MAX_NAME, what="the question name"),
        Field("passed", bool),
        Field("mistake", str, required=False, limit=60, what="the mistake's kind"),
    ),
    Report,
)


def _refused(message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status, headers=ISOLATION)


def progress_routes(progress: Progress, gate: Guard, flood: Flood | None = None) -> list[BaseRoute]:
    """The two routes (put them before the site's ``/`` mount).

    ``flood`` bounds what one computer sends, whatever names it gives (the store bounds each name).
    """
    flood = flood or Flood(limit=PER_COMPUTER, window=60.0)

    def too_many(request: Request) -> Response | None:
        try:
            flood.check(request.client.host if request.client else "unknown")
        except HandInError:
            return _refused(_("too many self-checks from this computer: wait a minute"), 429)
        return None

    async def report(request: Request) -> Response:
        if refused := too_many(request):
            return refused
        try:
            identity, _token = await gate.acting(request, None)
            attempt = ATTEMPT.load(await read_body(request, BODY, "a self-check report"), BODY)
            progress.record(identity.key, attempt.exercise, attempt.question, attempt.passed, attempt.mistake)
        except SignInRefused as denied:
            return _refused(str(denied), denied.status)
        except SchemaError as refused:
            return _refused(str(refused), 400)
        except ProgressRefused as refused:
            return _refused(str(refused), refused.status)
        return JSONResponse({"ok": True}, headers=ISOLATION)

    async def csv(request: Request) -> Response:
        key = getattr(getattr(request.app.state, "classroom", None), "teacher_key", None)
        given = request.query_params.get("key", "")
        if key and not hmac.compare_digest(given.encode(), str(key).encode()):
            refused = _("Give the teacher key: /teacher/progress.csv?key=KEY")
            return PlainTextResponse(refused, 403, headers=ISOLATION)
        headers = {**ISOLATION, "Content-Disposition": "attachment; filename=progress.csv"}
        return Response(progress.csv(), media_type="text/csv", headers=headers)

    return [
        Route("/progress", report, methods=["POST"]),
        Route("/teacher/progress.csv", csv),
    ]
