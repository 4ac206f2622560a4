"""Who is who on a JupyterHub: the hub's own users, checked by the hub on every request.

On a hub the class server runs as a hub service (:mod:`course.hub.service`), and a
request acts for the hub user whose token it carries, as the hub answers for it
(JupyterHub's :class:`~jupyterhub.services.auth.HubOAuth`):

* a kernel sends its user's own token (``JUPYTERHUB_API_TOKEN``) in an
  ``Authorization: token ...`` header (hand-ins, self-check reports, a room's WebSocket);
* a browser signs in through the hub's OAuth (``/oauth_callback`` below), and the
  access token it gets is kept in an HttpOnly cookie on the service's own path.

A token the hub does not know, or no longer knows (expired, revoked, its user deleted),
acts for nobody; the hub's answers are cached for :data:`CACHE_SECONDS` at most.  The
teacher is a hub admin or a member of the group the teacher names (``--teachers``).
A hub user name becomes a hand-in folder (:func:`key_for`) that no other name gives.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import urlencode

from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from course.roster.model import SEAT_NAME, folder_key
from course.roster.signin import Identity, SignInRefused
from course.site.signin_routes import same_site

#: The cookie holding a browser's hub access token (on the service's path only).
COOKIE = "reversi-hub-token"
STATE_COOKIE = "reversi-hub-state"
#: How long the hub's answer about a token is trusted.
CACHE_SECONDS = 60
BEARER = re.compile(r"(?:token|bearer)\s+(\S{1,400})", re.IGNORECASE)


def key_for(user: str) -> str:
    """A hub user's hand-in folder: the name itself when it is one, else a form with a short hash.

    >>> key_for("ada"), key_for("ada.lovelace"), key_for("ada-lovelace")
    ('ada', 'ada-lovelace-d239a0', 'ada-lovelace')
    """
    folder = folder_key(user)
    if folder == user:
        return user
    return f"{folder[:33]}-{hashlib.sha256(user.encode()).hexdigest()[:6]}"


def identity_for(user: str) -> Identity:
    return Identity(key_for(user), user, user[:SEAT_NAME])


class HubGate:
    """The hub's users as the class server's guard (course.site.signin_routes.Guard).

    ``auth`` is a configured ``HubOAuth`` (from the service's environment); ``teachers``
    the hub group whose members are teachers (admins always are).
    """

    def __init__(self, auth: Any, teachers: str | None = None) -> None:
        self.auth = auth
        self.teachers = teachers
        auth.cache_max_age = CACHE_SECONDS

    def token(self, connection: HTTPConnection) -> str | None:
        found = BEARER.fullmatch(connection.headers.get("authorization", "").strip())
        return found.group(1) if found else connection.cookies.get(COOKIE) or None

    async def user(self, connection: HTTPConnection) -> dict[str, Any] | None:
        """The hub's model of the user whose token ``connection`` carries, or None."""
        token = self.token(connection)
        if not token:
            return None
        model = await self.auth.user_for_token(token, sync=False)
        if not isinstance(model, dict) or model.get("kind", "user") != "user" or not model.get("name"):
            return None
        return model

    async def who(self, connection: HTTPConnection) -> Identity | None:
        model = await self.user(connection)
        return identity_for(str(model["name"])) if model else None

    async def acting(self, request: HTTPConnection, claimed: str | None) -> tuple[Identity, str | None]:
        if not same_site(request):
            raise SignInRefused("that request came from another web site's page", 403)
        identity = await self.who(request)
        if identity is None:
            raise SignInRefused("the hub does not know you here: open your notebook from the hub "
                                "(log in again if your session ended) and run the cell again", 403)  # fmt: skip
        if claimed is not None and claimed.strip() not in (identity.name, identity.key):
            raise SignInRefused(f"you are logged in to the hub as {identity.name}, so you cannot act as "
                                f"{claimed!r}: leave the name out", 403)  # fmt: skip
        return identity, None

    async def is_teacher(self, connection: HTTPConnection) -> bool:
        model = await self.user(connection)
        if model is None:
            return False
        return bool(model.get("admin")) or (self.teachers is not None and self.teachers in model.get("groups", ()))

    def routes(self, teacher_key: str, prefix: str) -> list[BaseRoute]:
        """``/`` (sign in through the hub; a teacher goes on to the teacher page) and ``/oauth_callback``."""
        auth = self.auth
        cookie = {"path": prefix, "httponly": True, "samesite": "lax"}

        async def home(request: Request) -> Response:
            if await self.user(request) is None:
                verifier, challenge, method = auth.generate_pkce_code_challenge()
                state = auth.generate_state(next_url=prefix, code_verifier=verifier)
                query = urlencode({
                    "client_id": auth.oauth_client_id, "redirect_uri": auth.oauth_redirect_uri,
                    "response_type": "code", "state": state,
                    "code_challenge": challenge, "code_challenge_method": method,
                })  # fmt: skip
                response: Response = RedirectResponse(f"{auth.oauth_authorization_url}?{query}", 302)
                response.set_cookie(STATE_COOKIE, state, max_age=600, **cookie)  # type: ignore[arg-type]
                return response
            if await self.is_teacher(request):
                return RedirectResponse(f"{prefix}teacher#key={teacher_key}", 302)
            identity = await self.who(request)
            name = identity.name if identity else ""
            return Response(
                f"<!doctype html><meta charset='utf-8'><title>Reversi class</title><p>You are "
                f"logged in as {_escape(name)}. Hand in and play from your notebooks: "
                "<code>hand_in()</code>, <code>join(room=\"table-1\")</code>.</p>",
                media_type="text/html",
            )

        async def callback(request: Request) -> Response:
            state = request.query_params.get("state", "")
            code = request.query_params.get("code", "")
            if not state or state != request.cookies.get(STATE_COOKIE) or not code:
                return Response("This sign-in link is not valid any more: open the page again.", 403)
            verifier = auth.get_code_verifier(state)
            auth.clear_oauth_state(state)
            token = await auth.token_for_code(code, code_verifier=verifier, sync=False)
            response = RedirectResponse(prefix, 302)
            response.set_cookie(COOKIE, token, **cookie)  # type: ignore[arg-type]
            response.delete_cookie(STATE_COOKIE, path=prefix)
            return response

        return [Route("/", home), Route("/oauth_callback", callback)]


def _escape(text: str) -> str:
    import html

    return html.escape(text)
