"""The class server lesson 06 talks to: its own on a computer, the page's in the browser classroom.

On a computer the lesson starts a small :class:`~course.classroom.server.ClassServer`
inside the kernel, with the settings it asks for.  A web page cannot listen for
connections, so in the browser classroom (JupyterLite) the lesson uses the class server
that served the page instead: the teacher's, with the teacher's settings, shared with
the whole class.  There every room name gets a few letters of its own (so thirty
students running the lesson do not meet in one room), a server with other settings
than the teacher's cannot be had (:attr:`LessonServer.own` is False and one line says
so), and the games are stored on the teacher's computer, not exported here.

>>> import asyncio
>>> async def demo():
...     server = await LessonServer.start(grace=5)
...     print(server.own, server.room("table-3"), server.url.startswith("ws://127.0.0.1:"))
...     await server.close()
>>> asyncio.run(demo())
True table-3 True
"""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from course.browser import in_browser
from course.classroom.protocol import PRACTICE
from reversi.surface import Between, student

#: A lesson server's times: above 0, at most a day.
Seconds = Annotated[float, Between(0.001, 86400)]

if TYPE_CHECKING:
    from course.classroom.server import ClassServer

#: What the browser classroom says where the lesson needs a server of the kernel's own.
NOT_HERE = (
    "A web page cannot start a class server, and the teacher's server has its own settings: "
    "this part runs on a computer with the kit installed."
)
#: What the browser classroom says instead of exporting the games.
STORED_BY_TEACHER = (
    "The games of the browser classroom are stored on the teacher's server; the teacher "
    "exports them with: python -m course serve --data FOLDER --export saves/"
)


class LessonServer:
    """A class server for a lesson: :attr:`url` to join, :meth:`room` names, :meth:`close`."""

    def __init__(self, url: str, server: ClassServer | None = None) -> None:
        self.url = url
        self._server = server
        self._prefix = "" if server is not None else PRACTICE
        self._suffix = "" if server is not None else "-" + secrets.token_hex(2)

    @property
    def own(self) -> bool:
        """Whether this kernel runs the server (with the settings the lesson asked for)."""
        return self._server is not None

    @classmethod
    @student
    async def start(cls, *, move_time: Seconds | None = None, grace: Seconds = 5.0) -> LessonServer:
        """A server on 127.0.0.1 of this kernel, or in the browser classroom the page's own.

        In the browser a ``move_time`` cannot be chosen (the teacher's server decides):
        asking for one prints :data:`NOT_HERE`, and :attr:`own` is False.
        """
        if in_browser():
            from course.classroom.browser_socket import page_server

            if move_time is not None:
                print(NOT_HERE)
            return cls(page_server())
        from course.classroom.people import RoomSettings
        from course.classroom.server import ClassServer

        server = ClassServer(tempfile.mkdtemp(prefix="lesson-server-"), RoomSettings(move_time, grace))
        await server.start("127.0.0.1", 0)
        return cls(server.url, server)

    @student
    def room(self, name: str) -> str:
        """The room called ``name`` here: as it is, or this student's own practice room of that name."""
        return f"{self._prefix}{name}{self._suffix}"

    def export(self, folder: str | Path) -> list[Path]:
        """Every finished game as a save file in ``folder`` (none in the browser: one line says why)."""
        if self._server is None:
            print(STORED_BY_TEACHER)
            return []
        return self._server.storage.export(folder)

    async def close(self) -> None:
        """Stop the kernel's own server (the page's server goes on serving the class)."""
        if self._server is not None:
            await self._server.close()
