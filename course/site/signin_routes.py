"""Sign-in on the class server: the page a student opens once per browser, and the one gate.

* ``GET /signin/``: the page (type the code on your card; a card's QR code opens it as
  ``/signin/#code=...``, and the page sends the code itself: a fragment never reaches
  the server, so no code is in a URL the server sees or logs).
* ``POST /signin/code`` ``{"code"}``: a session cookie for this browser, or why not.
* ``GET /signin/me``: who this browser is; ``POST /signin/out``: sign this browser out.
* ``POST /signin/name`` ``{"student"}``: a casual class (no roster): claim a name.

Trust boundary: every request that acts for a student (a hand-in, a self-check report,
a seat) goes through :meth:`Gate.acting`, which decides who it is from the session
cookie alone, checked against :class:`~course.roster.signin.SignIns`; a name in the
body is only a claim, refused when it is not the signed-in student.  The cookie is
``HttpOnly`` and ``SameSite=Strict``, and a POST from another site's page (its
``Origin``) is refused, so no other page a student opens can act for them.

The page and every refusal are in the server's language (``KIT_LANG``: ``kit.py serve --lang
fr``), the teacher's choice, as the teacher's overview is.
"""

from __future__ import annotations

import html
import json
from typing import Protocol
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from course.classroom.protocol import SESSION_COOKIE
from course.i18n import gettext as _
from course.i18n import language
from course.roster import codes
from course.roster.model import folder_key
from course.roster.signin import Identity, SignInRefused, SignIns
from course.schema import Field, Limits, Schema, SchemaError
from course.site.headers import ISOLATION
from course.site.store import Flood, HandInError, student_folder

#: The browser's session cookie (HttpOnly: the notebook's code cannot read it).
COOKIE = SESSION_COOKIE
#: How long a browser stays signed in without signing out (browsers keep a cookie 400 days at most).
KEEP = 400 * 86400
BODY = Limits(bytes=1_000, depth=2, items=10)
CODE: Schema[dict[str, str]] = Schema("the sign-in", (Field("code", str, limit=40, what="the code"),), dict)
NAME: Schema[dict[str, str]] = Schema(
    "the student's name", (Field("student", str, limit=40, what="the student name"),), dict
)


def same_site(request: HTTPConnection) -> bool:
    """Whether a request came from this server's own pages (or from no page at all)."""
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc.lower() == request.headers.get("host", "").lower()


def answer(payload: dict[str, object], status: int = 200) -> JSONResponse:
    return JSONResponse(payload, status, headers={**ISOLATION, "Cache-Control": "no-store"})


def refusal(refused: Exception, status: int = 403) -> JSONResponse:
    return answer({"ok": False, "error": str(refused)}, getattr(refused, "status", status))


async def read_body(request: Request, limits: Limits = BODY, what: str = "the request") -> bytes:
    """A small body, refused as soon as it is longer than ``limits``."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.bytes:
            raise SchemaError(f"{what} is larger than {limits.bytes} bytes")
    return bytes(body)


class Guard(Protocol):
    """Who a request acts for: the laptop's sign-in (:class:`Gate`) or a hub's users (course.hub)."""

    async def who(self, connection: HTTPConnection) -> Identity | None:
        """The signed-in student of a request or a WebSocket, or None."""

    async def acting(self, request: HTTPConnection, claimed: str | None) -> tuple[Identity, str | None]:
        """Who ``request`` acts for (refused with :class:`SignInRefused`), and a session to set."""


class Gate:
    """Who a request acts for, decided from its session cookie (see the module's docstring)."""

    def __init__(self, signins: SignIns) -> None:
        self.signins = signins

    async def who(self, connection: HTTPConnection) -> Identity | None:
        """The signed-in student of a request's (or a WebSocket's) cookie, or None."""
        return self.signins.who(connection.cookies.get(COOKIE))

    async def acting(self, request: HTTPConnection, claimed: str | None) -> tuple[Identity, str | None]:
        """Who ``request`` acts for, and a new session token to set when it just claimed a name.

        ``claimed`` is the name the request gives (or None).  With a roster it must be the
        signed-in student's (by name, key, id or email); in a casual class an unclaimed name
        is claimed for this browser.  Refuses (403) with a sentence for the student.
        """
        if not same_site(request):
            raise SignInRefused(_("that request came from another web site's page"), 403)
        token = request.cookies.get(COOKIE)
        identity = self.signins.who(token)
        if self.signins.casual:
            if claimed is None or (identity is not None and identity.key == folder_key(claimed)):
                if identity is None:
                    raise SignInRefused(_("give your name first: run my_name('Your name') in a cell"), 403)
                return identity, None
            new_token, identity = self.signins.claim(claimed, token, _browser(request))
            return identity, new_token
        if identity is None:
            raise SignInRefused(_(
                "you are not signed in on this browser: open {address}signin/ and type "
                "the code on your card (your teacher has it), then run this cell again"
            ).format(address=request.base_url), 403)  # fmt: skip
        if claimed is not None and identity.key not in {s.key for s in self.signins.roster.named(claimed)}:
            raise SignInRefused(_(
                "you are signed in as {name}, so you cannot act as {claimed!r}: "
                "leave the name out (hand_in() with no name) and your own name is used"
            ).format(name=identity.name, claimed=claimed), 403)  # fmt: skip
        return identity, None


def set_session(response: Response, request: HTTPConnection, token: str) -> None:
    response.set_cookie(
        COOKIE, token, max_age=KEEP, path="/", httponly=True, samesite="strict",
        secure=request.url.scheme == "https",
    )  # fmt: skip


def _browser(request: HTTPConnection) -> str:
    return request.headers.get("user-agent", "")[:120]


def _address(request: HTTPConnection) -> str:
    return request.client.host if request.client else "unknown"


def signin_routes(gate: Gate, claims: Flood | None = None) -> list[BaseRoute]:
    """The sign-in routes (put them before the site's ``/`` mount).

    ``claims`` bounds the names one computer may claim in a casual class (10 in 10 minutes).
    """
    signins = gate.signins
    claims = claims or Flood(limit=10, window=600.0)

    async def signin_page(request: Request) -> Response:
        if request.url.path == "/signin":
            return RedirectResponse("/signin/", 307)
        return HTMLResponse(page(), headers={**ISOLATION, "Cache-Control": "no-store"})

    async def me(request: Request) -> Response:
        identity = await gate.who(request)
        return answer({"ok": True, "casual": signins.casual, "signed_in": identity is not None,
                       "name": identity.name if identity else None})  # fmt: skip

    async def sign_in(request: Request) -> Response:
        try:
            if not same_site(request):
                raise SignInRefused(_("that request came from another web site's page"), 403)
            code = signins.check_code(CODE.load(await read_body(request), BODY)["code"], _address(request))
            hashed = await run_in_threadpool(codes.code_hash, code, signins.salt)
            token, identity = signins.sign_in_hashed(hashed, _address(request), _browser(request))
        except SchemaError as refused:
            return refusal(refused, 400)
        except (SignInRefused, ClientDisconnect) as refused:
            return refusal(refused)
        previous = request.cookies.get(COOKIE)
        if previous:
            signins.sign_out(previous)  # one session per browser: the earlier one ends
        response = answer({"ok": True, "name": identity.name})
        set_session(response, request, token)
        return response

    async def claim(request: Request) -> Response:
        try:
            claims.check(_address(request))
            name = NAME.load(await read_body(request), BODY)["student"]
            student_folder(name)  # the hand-ins' rule for a name
            identity, token = await gate.acting(request, name)
        except (SchemaError, HandInError) as refused:
            return refusal(refused, 400)
        except (SignInRefused, ClientDisconnect) as refused:
            return refusal(refused)
        response = answer({"ok": True, "student": identity.name})
        if token:
            set_session(response, request, token)
        return response

    async def sign_out(request: Request) -> Response:
        if not same_site(request):
            return refusal(SignInRefused(_("that request came from another web site's page")))
        token = request.cookies.get(COOKIE)
        if token:
            signins.sign_out(token)
        response = answer({"ok": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    return [
        Route("/signin", signin_page),
        Route("/signin/", signin_page),
        Route("/signin/me", me),
        Route("/signin/code", sign_in, methods=["POST"]),
        Route("/signin/name", claim, methods=["POST"]),
        Route("/signin/out", sign_out, methods=["POST"]),
    ]


def page() -> str:
    """The sign-in page in the language of now (the server's, the teacher's choice): its words,
    and the sentences its script writes (``WORDS``, placeholders in braces), escaped for HTML and JSON."""
    words = {
        "answered": _("the class server answered {status}"), "checking": _("Checking the code..."),
        "signedIn": _("Signed in as {name}."), "signedOut": _("Signed out."),
    }  # fmt: skip
    static = {
        "@@lang@@": language(), "@@title@@": _("Sign in to the class"),
        "@@type@@": _("Type the code on your card once on this browser; it keeps you signed in until you sign out."),
        "@@code@@": _("Your code"), "@@signin@@": _("Sign in"), "@@lessons@@": _("Open the lessons"),
        "@@signout@@": _("Sign out"), "@@shared@@": _("On a shared computer, sign out when you leave."),
        "@@casual@@": _("This class has no sign-in codes: your name is asked the first time you hand in "
                        "or join a game."),
    }  # fmt: skip
    text = PAGE.replace("@@words@@", json.dumps(words).replace("<", "\\u003c"))
    for token, word in static.items():
        text = text.replace(token, html.escape(word))
    who = html.escape(_("You are signed in as {name}. Your hand-ins, self-checks and games go under this name."))
    return text.replace("@@who@@", who.replace("{name}", '<strong id="name"></strong>', 1))


PAGE = r"""<!doctype html>
<html lang="@@lang@@"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>@@title@@</title>
<style>
 body { font: 18px/1.5 system-ui, sans-serif; max-width: 30em; margin: 3em auto; padding: 0 1em; color: #111; }
 h1 { font-size: 1.6em; } label { display: block; font-weight: 600; margin-top: 1em; }
 input { font: 1.4em ui-monospace, monospace; letter-spacing: .08em; width: 100%; box-sizing: border-box;
         padding: .4em; text-transform: uppercase; border: 2px solid #444; border-radius: 6px; }
 button, a.go { font: inherit; padding: .5em 1.2em; margin: 1em .5em 0 0; border-radius: 6px;
                border: 2px solid #1a4d8f; background: #1a4d8f; color: #fff; cursor: pointer; text-decoration: none;
                display: inline-block; }
 button.quiet { background: #fff; color: #1a4d8f; }
 #status { margin-top: 1em; min-height: 1.5em; } .bad { color: #a00000; } .good { color: #0a5c0a; }
 [hidden] { display: none !important; }
</style></head><body>
<main>
<h1>@@title@@</h1>
<div id="out" hidden>
  <p>@@type@@</p>
  <form id="form" autocomplete="off">
    <label for="code">@@code@@</label>
    <input id="code" name="code" inputmode="text" autocapitalize="characters" spellcheck="false"
           placeholder="K7QM4-XRT9P" maxlength="20" required aria-describedby="status">
    <button type="submit">@@signin@@</button>
  </form>
</div>
<div id="in" hidden>
  <p>@@who@@</p>
  <a class="go" href="../lab/index.html">@@lessons@@</a>
  <button class="quiet" id="signout" type="button">@@signout@@</button>
  <p>@@shared@@</p>
</div>
<div id="casual" hidden>
  <p>@@casual@@</p>
  <a class="go" href="../lab/index.html">@@lessons@@</a>
</div>
<p id="status" role="status" aria-live="polite"></p>
</main>
<script>
const WORDS = @@words@@;
const t = (key, values = {}) => String(WORDS[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
const $ = (id) => document.getElementById(id);
const say = (text, kind) => { $("status").textContent = text; $("status").className = kind || ""; };
async function call(path, body) {
  const options = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify(body)};
  const reply = await fetch(path, {credentials: "same-origin", ...options});
  try { return await reply.json(); } catch (e) { return {ok: false, error: t("answered", {status: reply.status})}; }
}
async function show() {
  const me = await call("me");
  $("out").hidden = me.casual || me.signed_in; $("casual").hidden = !me.casual;
  $("in").hidden = me.casual || !me.signed_in; $("name").textContent = me.name || "";
  if (!me.casual && !me.signed_in) $("code").focus();
}
async function signIn(code) {
  say(t("checking"));
  const reply = await call("code", {code: code});
  if (reply.ok) { say(t("signedIn", {name: reply.name}), "good"); $("code").value = ""; }
  else say(reply.error, "bad");
  await show();
}
$("form").addEventListener("submit", (event) => { event.preventDefault(); signIn($("code").value); });
$("signout").addEventListener("click", async () => { await call("out", {}); say(t("signedOut"), "good"); await show(); });
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("code")) {
  history.replaceState(null, "", location.pathname);  // the code leaves the address bar and the history
  signIn(fragment.get("code"));
} else show();
</script></body></html>
"""
