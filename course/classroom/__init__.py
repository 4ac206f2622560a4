"""Class play over the network: a room server the teacher starts, and the board that joins it.

The layers, each using only the ones before it (``tests/course/classroom/test_layers.py``)::

    protocol (messages, limits, parsing through course.schema) -> people (roles, settings, seats)
        -> state (a room's state and shared steps) -> room (the rules, one handler per kind; sans-I/O)
        -> storage (SQLite) -> overview (the teacher's page) -> connection (outbox, rate limit)
        -> lobby (rooms and connections) -> server (the asyncio shell, the ASGI app)
        -> announce (run, what the teacher reads) -> cli (python -m course serve)
    protocol -> browser_socket -> client (a connection, asyncio) -> lesson -> board (the widget)

``python -m course serve`` starts a server; ``from course import join`` gives the
board that joins a room from a notebook.  The server imports no widget library.
"""

from course.classroom.protocol import ClassroomError, MessageError, RuleError

__all__ = ["ClassroomError", "MessageError", "RuleError"]
