"""Who is who: the class's roster, sign-in codes and the browsers signed in with them.

The layers, each using only the ones before it (``tests/course/roster/test_layers.py``)::

    model (Student, Roster: names, keys, gradebook ids) -> codes (sign-in codes and tokens)
        -> store (class/roster.json) -> signin (codes, sessions, casual claims; SQLite)
        -> formats (reading a CSV, Canvas or Moodle roster) -> cards (the printable cards)
        -> term (a student's term, across lessons) -> cli (python -m course class ...)

The class server (course.site.signin_routes) asks :class:`~course.roster.signin.SignIns`
who sent a request; grading (course.grading) matches hand-ins to the roster.
"""

from course.roster.model import Roster, RosterError, Student

__all__ = ["Roster", "RosterError", "Student"]
