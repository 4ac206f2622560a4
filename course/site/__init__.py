"""The browser classroom: a JupyterLite site of the kit, served beside the rooms.

This package owns the static site (:mod:`course.site.build` makes it with JupyterLite
and Pyodide, :mod:`course.site.wheels` packages the kit and its stand-ins), the routes
that serve it and take hand-ins (:mod:`course.site.routes`), the hand-in store
(:mod:`course.site.store`) and the student's ``hand_in()`` in the browser
(:mod:`course.site.handin_client`).  The server side imports no widget library.
"""

from __future__ import annotations

from reversi.errors import ReversiError

__all__ = [
    "SiteError",
]


class SiteError(ReversiError, ValueError):
    """The site cannot be built or served as asked (names the input and the reason)."""
