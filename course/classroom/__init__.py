"""Class play over the network: a room server the teacher starts, and the board that joins it.

The layers, each using only the ones before it::

    protocol (messages, limits, validation) -> people (roles, routes, seats) -> views (the state)
        -> room (the rules of a room, sans-I/O)
        -> storage (SQLite) -> server (an ASGI app: Starlette + uvicorn)
    protocol -> client (a connection, asyncio) -> board (the widget; the only one importing ipywidgets)

``python -m course serve`` starts a server; ``from course import join`` gives the
board that joins a room from a notebook.  The server imports no widget library.
"""

from course.classroom.protocol import ClassroomError, MessageError, RuleError

__all__ = ["ClassroomError", "MessageError", "RuleError"]
