"""The class server's side of the live progress: the reports come in, the teacher reads them.

* ``POST /progress/name`` ``{"student": "Ada"}``: the browser's name, kept in a cookie
  (once per browser; the kernel's reports carry it from then on).
* ``POST /progress`` ``{"exercise", "question", "passed", "mistake"}``: one self-check.
* ``GET /teacher/progress.csv?key=KEY``: every self-check as CSV (teacher key only).

Trust boundary: a report comes from a student's browser, which can send anything;
its body is read by :data:`ATTEMPT` (course.schema) and bounded in size, and the
store (:class:`course.classroom.progress.Progress`) bounds the count and rate.  Only the
teacher (with the key) sees the grid, on the overview, and the CSV.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from urllib.parse import quote, unquote

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from course.classroom.progress import Progress, ProgressRefused
from course.schema import Field, Limits, Schema, SchemaError, text
from course.site.routes import ISOLATION
from course.site.store import MAX_NAME, Flood, HandInError, student_folder

#: The cookie that holds the browser's name.
COOKIE = "reversi_student"
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


@dataclass(frozen=True)
class Name:
    student: str


def _name(value: str) -> str:
    try:
        student_folder(value)
    except HandInError as refused:
        raise SchemaError(str(refused)) from None
    return value


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
NAME = Schema("the student's name", (Field("student", str, limit=MAX_NAME, what="the student name", clean=_name),), Name)


def _refused(message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status, headers=ISOLATION)


async def _body(request: Request) -> bytes:
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY.bytes:
            raise SchemaError(f"a self-check report is larger than {BODY.bytes} bytes")
    return bytes(body)


def progress_routes(progress: Progress, flood: Flood | None = None) -> list[BaseRoute]:
    """The three routes (put them before the site's ``/`` mount).

    ``flood`` bounds what one computer sends, whatever names it gives (the store bounds each name).
    """
    flood = flood or Flood(limit=PER_COMPUTER, window=60.0)

    def too_many(request: Request) -> Response | None:
        try:
            flood.check(request.client.host if request.client else "unknown")
        except HandInError:
            return _refused("too many self-checks from this computer: wait a minute", 429)
        return None

    async def name(request: Request) -> Response:
        if refused := too_many(request):
            return refused
        try:
            chosen = NAME.load(await _body(request), BODY).student
        except SchemaError as refused:
            return _refused(str(refused), 400)
        answer = JSONResponse({"ok": True, "student": chosen}, headers=ISOLATION)
        answer.set_cookie(COOKIE, quote(chosen), max_age=365 * 86400, httponly=True, samesite="strict")
        return answer

    async def report(request: Request) -> Response:
        if refused := too_many(request):
            return refused
        try:
            student = _name(text(unquote(request.cookies.get(COOKIE, "")), "the student name", MAX_NAME))
        except SchemaError as refused:
            return _refused(f"choose your name first (my_name('Ada')): {refused}", 401)
        try:
            attempt = ATTEMPT.load(await _body(request), BODY)
            progress.record(student, attempt.exercise, attempt.question, attempt.passed, attempt.mistake)
        except SchemaError as refused:
            return _refused(str(refused), 400)
        except ProgressRefused as refused:
            return _refused(str(refused), refused.status)
        return JSONResponse({"ok": True}, headers=ISOLATION)

    async def csv(request: Request) -> Response:
        key = getattr(getattr(request.app.state, "classroom", None), "teacher_key", None)
        given = request.query_params.get("key", "")
        if key and not hmac.compare_digest(given.encode(), str(key).encode()):
            return PlainTextResponse("Give the teacher key: /teacher/progress.csv?key=KEY", 403, headers=ISOLATION)
        headers = {**ISOLATION, "Content-Disposition": "attachment; filename=progress.csv"}
        return Response(progress.csv(), media_type="text/csv", headers=headers)

    return [
        Route("/progress/name", name, methods=["POST"]),
        Route("/progress", report, methods=["POST"]),
        Route("/teacher/progress.csv", csv),
    ]
