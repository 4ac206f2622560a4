"""The kit on a JupyterHub: the class server as a hub service, known students being the hub's users.

:mod:`~course.hub.identity` (who a request acts for: the hub's OAuth and tokens) ->
:mod:`~course.hub.lessons` (each user's copy of the lessons) -> :mod:`~course.hub.service`
(the class server behind the hub's proxy) and :mod:`~course.hub.singleuser` (a user's
server, started with the lessons in place).  A kernel on the hub hands in, reports
self-checks and joins rooms with its user's own token (``course.classroom.client.hub_headers``).
See docs/jupyterhub.md.
"""
