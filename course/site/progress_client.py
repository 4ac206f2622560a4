"""The student's name for the live progress, once per browser (the reports are :mod:`course.grading.reports`)."""

from __future__ import annotations

from course.grading.reports import post


def my_name(name: str) -> None:
    """In a class without sign-in codes: take your name on this browser, once.

    Your teacher then sees your self-checks under it, and nobody else's browser can use it.
    (In a class with a roster you sign in with the code on your card instead, at the
    class's address followed by ``/signin/``.)
    """
    import sys

    from course.site.store import student_folder

    student_folder(name)  # the hand-ins' rule for a name, with its message
    if sys.platform == "emscripten":
        from course.classroom.browser_socket import take_name

        take_name(name.strip())  # refused at once if another browser has the name
    else:
        post("/signin/name", {"student": name.strip()})
