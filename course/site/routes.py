"""Starlette routes for the browser classroom: the static site and the hand-in endpoint.

:func:`site_routes` gives the routes the class server adds beside its rooms (one port,
one origin, so the browser never blocks the room connection).  The site is served
with the MIME types a module worker and WebAssembly need, revalidated caching
(ETag, 304) and gzip taken from the ``.gz`` copies the build writes
(by :mod:`course.site.build`), so a request costs no compression work.
The kernel reads its files (``/drive``) through the site's service worker, which a
browser runs only on ``localhost`` or https, or, on a plain-http LAN address, through a
SharedArrayBuffer, which needs the cross-origin isolation headers every answer carries.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Receive, Scope, Send

from course.i18n import gettext as _
from course.roster.signin import SignInRefused
from course.schema import Field, Limits, Schema, SchemaError
from course.site.headers import ISOLATION
from course.site.signin_routes import Guard, set_session
from course.site.store import (
    MAX_NAME,
    MAX_NOTEBOOK,
    NOTEBOOK_LIMITS,
    Flood,
    HandInError,
    HandInStore,
    student_folder,
)

#: Types that Python's table may lack or get wrong on some systems.
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".whl": "application/zip",
    ".webmanifest": "application/manifest+json",
    ".map": "application/json",
}
#: Folders whose files may be reused for a while without asking (their names carry hashes).
STABLE = ("build/", "extensions/")


def content_type(path: Path) -> str:
    """The Content-Type for a file of the site."""
    known = MIME_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed, _encoding = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def _cache_control(relative: str) -> str:
    """Revalidate everything (ETag) except hashed bundles, which may be kept ten minutes."""
    return "public, max-age=600" if relative.startswith(STABLE) else "no-cache"


class SiteFiles:
    """An ASGI app serving the files of a built site (GET and HEAD, nothing outside it)."""

    def __init__(self, site: Path) -> None:
        self.site = Path(site).resolve()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self.response(Request(scope, receive))
        await response(scope, receive, send)

    def response(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return PlainTextResponse(
                _("Only GET and HEAD are served here."), 405, headers={"Allow": "GET, HEAD"}
            )
        relative = request.url.path.lstrip("/")
        path = self._find(relative)
        if path is None:
            return PlainTextResponse(_("Not found: /{path}").format(path=relative), 404, headers=ISOLATION)
        if path.is_dir():
            if relative and not relative.endswith("/"):
                query = f"?{request.url.query}" if request.url.query else ""
                return RedirectResponse(f"/{relative}/{query}", 307)
            path = path / "index.html"
            if not path.is_file():
                return PlainTextResponse(_("Not found: /{path}").format(path=relative), 404, headers=ISOLATION)
        headers = {**ISOLATION, "Cache-Control": _cache_control(relative), "Vary": "Accept-Encoding"}
        served = path
        packed = Path(f"{path}.gz")
        if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
            headers["Content-Encoding"] = "gzip"
            served = packed
        kind = content_type(path)
        response = FileResponse(
            served, headers=headers, media_type=kind, stat_result=os.stat(served)
        )
        etag = response.headers.get("etag")
        if etag and etag in request.headers.get("if-none-match", ""):
            kept = {
                k: v
                for k, v in response.headers.items()
                if k.lower() not in ("content-length", "content-type")
            }
            return Response(status_code=304, headers=kept)
        return response

    def _find(self, relative: str) -> Path | None:
        parts = [part for part in relative.split("/") if part]
        if any(
            part in (".", "..") or part.startswith(".") or "\\" in part or "\x00" in part
            for part in parts
        ):
            return None
        candidate = self.site.joinpath(*parts)
        try:
            resolved = candidate.resolve()
        except (OSError, RuntimeError):
            return None
        if resolved != self.site and self.site not in resolved.parents:
            return None
        return resolved if resolved.exists() else None


@dataclass(frozen=True)
class HandIn:
    """A hand-in as read from its request: who, which exercise, and the notebook (JSON text or object)."""

    exercise: str
    notebook: str | dict[str, Any]
    student: str | None = None


def _notebook(value: object) -> str | dict[str, Any]:
    if isinstance(value, str | dict):
        return value
    raise SchemaError(_("the hand-in's notebook must be the notebook (an object) or its JSON text"))


#: A hand-in's body: a notebook inside JSON text may grow by its escapes, and nests one level deeper.
BODY_LIMITS = Limits(
    bytes=2 * MAX_NOTEBOOK + 10_000, depth=NOTEBOOK_LIMITS.depth + 1, items=NOTEBOOK_LIMITS.items + 3
)
HAND_IN = Schema(
    "the hand-in",
    (
        Field("student", str, required=False, limit=MAX_NAME, what="the student name"),
        Field("exercise", str, limit=MAX_NAME, what="the exercise name", strip=False),
        Field("notebook", object, clean=_notebook),
    ),
    HandIn,
)


class HandInEndpoint:
    """``POST /hand-in`` with JSON ``{"exercise", "notebook"}`` (and a ``student`` claim) -> the receipt.

    Who hands in is decided by ``gate`` from the browser's sign-in, never by the body.
    """

    def __init__(self, store: HandInStore, gate: Guard, flood: Flood | None = None) -> None:
        self.store = store
        self.gate = gate
        self.flood = flood or Flood()

    async def handle(self, request: Request) -> Response:
        """Keep the hand-in and answer with its receipt, or answer why it was refused."""
        if request.method != "POST":
            refusal = {"ok": False, "error": _("hand in with hand_in() in the notebook (a POST request)")}
            return JSONResponse(refusal, 405, headers={**ISOLATION, "Allow": "POST"})
        try:
            self.flood.check(request.client.host if request.client else "unknown")
            hand_in = HAND_IN.load(await self._body(request), BODY_LIMITS)
            if hand_in.student is not None:
                student_folder(hand_in.student)  # a name the hand-ins' rules refuse is refused first
            identity, token = await self.gate.acting(request, hand_in.student)
            notebook = hand_in.notebook
            text = notebook if isinstance(notebook, str) else json.dumps(notebook)
            data = text.encode("utf-8", "surrogatepass")
            # Written and synced to disk in a thread: the rooms' moves go on meanwhile.
            receipt = await asyncio.to_thread(
                self.store.hand_in, identity.name, hand_in.exercise, data, identity.key
            )
        except SignInRefused as refused:
            return JSONResponse({"ok": False, "error": str(refused)}, refused.status, headers=ISOLATION)
        except HandInError as refused:
            return JSONResponse({"ok": False, "error": str(refused)}, refused.status, headers=ISOLATION)
        except SchemaError as refused:
            return JSONResponse({"ok": False, "error": str(refused)}, 400, headers=ISOLATION)
        except ClientDisconnect:  # the sender went away (or sent less than it announced): nobody to answer
            return Response(status_code=400, headers=ISOLATION)
        response = JSONResponse({"ok": True, "receipt": receipt.as_dict()}, headers=ISOLATION)
        if token:
            set_session(response, request, token)
        return response

    async def _body(self, request: Request) -> bytes:
        """The request's body, refused (413) as soon as it is longer than :data:`BODY_LIMITS`."""
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > BODY_LIMITS.bytes:
                raise HandInError(_("the hand-in is larger than {limit} bytes; it was not kept").format(
                    limit=BODY_LIMITS.bytes), 413)  # fmt: skip
        return bytes(body)


def known_exercises(site: Path) -> frozenset[str] | None:
    """What a built site takes hand-ins of (None when it has none: then any well-formed name).

    Its exercises, and the unit's project notebook (``lessons/project_tournament.ipynb``,
    the player the class tournament reads from the hand-ins).
    """
    files = Path(site) / "files"
    names = {path.stem for path in (files / "exercises").glob("*.ipynb")}
    names |= {path.stem for path in (files / "lessons").glob("project_*.ipynb")}
    return frozenset(names) or None


def site_routes(site: Path, store: HandInStore, gate: Guard, flood: Flood | None = None) -> list[BaseRoute]:
    """The hand-in endpoint and the site at ``/`` (put them after the server's own routes)."""
    endpoint = HandInEndpoint(store, gate, flood)
    return [
        Route("/hand-in", endpoint.handle, methods=["GET", "POST"]),
        Mount("/", app=SiteFiles(site)),
    ]
