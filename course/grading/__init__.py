"""Graded exercises: the checks, the runner that grades a notebook, the gradebook and release.

Inside a notebook (the kernel):

* :mod:`~course.grading.checks` gathers every check (``checks.flips(flips)``), written
  in :mod:`~course.grading.checks_board` (01-04), :mod:`~course.grading.checks_moves`
  (05-06), :mod:`~course.grading.checks_players` (07-08),
  :mod:`~course.grading.checks_search` (09-10) and
  :mod:`~course.grading.checks_cursormap` (11-12);
* :mod:`~course.grading.runner` runs a student's function on cases and reports,
  :mod:`~course.grading.answers` reads what it returned, :mod:`~course.grading.views`
  hands it only the parts of a board the exercise allows, :mod:`~course.grading.cases`
  holds the positions, and :mod:`~course.grading.guard` notices a replaced oracle.

Outside (the teacher's tools): :mod:`~course.grading.notebook` (tags and solution
markers), :mod:`course.grading.checker` (grading one notebook under nbval),
:mod:`~course.grading.gradebook` (a folder into a CSV sheet), :mod:`course.grading.teacher`
(the release) and ``python -m course``.
"""
