"""Graded exercises: the checks that run inside the notebooks, and the grader's pieces.

Inside a notebook (the kernel):

* :mod:`~course.exercises.checks` gathers every check (``checks.flips(flips)``), written
  in :mod:`~course.exercises.checks_board` (01-04), :mod:`~course.exercises.checks_moves`
  (05-06), :mod:`~course.exercises.checks_players` (07-08),
  :mod:`~course.exercises.checks_search` (09-10) and
  :mod:`~course.exercises.checks_cursormap` (11-12);
* :mod:`~course.exercises.runner` runs a student's function on cases and reports,
  :mod:`~course.exercises.answers` reads what it returned, :mod:`~course.exercises.views`
  hands it only the parts of a board the exercise allows, :mod:`~course.exercises.cases`
  holds the positions, and :mod:`~course.exercises.guard` notices a replaced oracle.

Outside (the teacher's tools): :mod:`~course.exercises.notebook` (tags and solution
markers), :mod:`course.checker` (grading one notebook under nbval),
:mod:`~course.exercises.gradebook` (a folder into a CSV sheet), :mod:`course.teacher`
(the release) and ``python -m course``.
"""
