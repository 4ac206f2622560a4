"""Starlette routes for the browser classroom: the static site and the hand-in endpoint.

:func:`_site_routes` gives the routes the class server adds beside its rooms (one port,
one origin, so the browser never blocks the room connection).  The site is served
with the MIME types a module worker and WebAssembly need, revalidated caching
(ETag, 304) and gzip taken from the ``.gz`` copies the build writes
(:func:`course.site.build._compress_site`), so a request costs no compression work.
The kernel reads its files (``/drive``) through the site's service worker, which a
browser runs only on ``localhost`` or https, or, on a plain-http LAN address, through a
SharedArrayBuffer, which needs the cross-origin isolation headers every answer carries.
"""

from __future__ import annotations

import json
import mimetypes
import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Receive, Scope, Send

from course.site.store import MAX_NOTEBOOK, HandInError, _Flood, _HandInStore

#: The routes are the class server's inside (``python -m course serve`` adds them).
__all__ = [
    "MIME_TYPES",
    "ISOLATION",
    "STABLE",
]

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
#: Headers on every answer.  Cross-origin isolation (COOP and COEP) lets the kernel read
#: its files without the site's service worker, which a browser runs only on localhost
#: or https: so the site works on a plain-http LAN address too (see course.site.patches).
ISOLATION = {
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: Folders whose files may be reused for a while without asking (their names carry hashes).
STABLE = ("build/", "extensions/")


def _content_type(path: Path) -> str:
    """The Content-Type for a file of the site."""
    known = MIME_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def _cache_control(relative: str) -> str:
    """Revalidate everything (ETag) except hashed bundles, which may be kept ten minutes."""
    return "public, max-age=600" if relative.startswith(STABLE) else "no-cache"


class _SiteFiles:
    """An ASGI app serving the files of a built site (GET and HEAD, nothing outside it)."""

    def __init__(self, site: Path) -> None:
        self.site = Path(site).resolve()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self.response(Request(scope, receive))
        await response(scope, receive, send)

    def response(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return PlainTextResponse(
                "Only GET and HEAD are served here.", 405, headers={"Allow": "GET, HEAD"}
            )
        relative = request.url.path.lstrip("/")
        path = self._find(relative)
        if path is None:
            return PlainTextResponse(f"Not found: /{relative}", 404, headers=ISOLATION)
        if path.is_dir():
            if relative and not relative.endswith("/"):
                query = f"?{request.url.query}" if request.url.query else ""
                return RedirectResponse(f"/{relative}/{query}", 307)
            path = path / "index.html"
            if not path.is_file():
                return PlainTextResponse(f"Not found: /{relative}", 404, headers=ISOLATION)
        headers = {**ISOLATION, "Cache-Control": _cache_control(relative), "Vary": "Accept-Encoding"}
        served = path
        packed = Path(f"{path}.gz")
        if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
            headers["Content-Encoding"] = "gzip"
            served = packed
        kind = _content_type(path)
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


class _HandInEndpoint:
    """``POST /hand-in`` with JSON ``{"student", "exercise", "notebook"}`` -> the receipt, or why not."""

    def __init__(self, store: _HandInStore, flood: _Flood | None = None) -> None:
        self.store = store
        self.flood = flood or _Flood()

    async def handle(self, request: Request) -> Response:
        """Keep the hand-in and answer with its receipt, or answer why it was refused."""
        if request.method != "POST":
            refusal = {
                "ok": False,
                "error": "hand in with hand_in() in the notebook (a POST request)",
            }
            return JSONResponse(refusal, 405, headers={**ISOLATION, "Allow": "POST"})
        try:
            address = request.client.host if request.client else "unknown"
            self.flood.check(address)
            fields = await self._read(request)
            notebook = fields.get("notebook")
            if isinstance(notebook, dict):
                notebook = json.dumps(notebook)
            if not isinstance(notebook, str):
                raise HandInError("the request holds no notebook")
            receipt = self.store.hand_in(
                fields.get("student"), fields.get("exercise"), notebook.encode("utf-8")
            )
        except HandInError as refused:
            return JSONResponse(
                {"ok": False, "error": str(refused)}, refused.status, headers=ISOLATION
            )
        return JSONResponse({"ok": True, "receipt": receipt.as_dict()}, headers=ISOLATION)

    async def _read(self, request: Request) -> dict[str, object]:
        limit = 2 * MAX_NOTEBOOK + 10_000  # a notebook inside JSON text may grow by its escapes
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise HandInError(f"the hand-in is larger than {limit} bytes; it was not kept", 413)
        try:
            fields = json.loads(bytes(body).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HandInError(
                "the hand-in must be JSON with the student, the exercise and the notebook"
            ) from None
        if not isinstance(fields, dict):
            raise HandInError(
                "the hand-in must be a JSON object with the student, the exercise and the notebook"
            )
        return fields


def _known_exercises(site: Path) -> frozenset[str] | None:
    """What a built site takes hand-ins of (None when it has none: then any well-formed name).

    Its exercises, and the unit's project notebook (``lessons/project_tournament.ipynb``,
    the player the class tournament reads from the hand-ins).
    """
    files = Path(site) / "files"
    names = {path.stem for path in (files / "exercises").glob("*.ipynb")}
    names |= {path.stem for path in (files / "lessons").glob("project_*.ipynb")}
    return frozenset(names) or None


def _site_routes(site: Path, store: _HandInStore, flood: _Flood | None = None) -> list[BaseRoute]:
    """The hand-in endpoint and the site at ``/`` (put them after the server's own routes)."""
    endpoint = _HandInEndpoint(store, flood)
    return [
        Route("/hand-in", endpoint.handle, methods=["GET", "POST"]),
        Mount("/", app=_SiteFiles(site)),
    ]
