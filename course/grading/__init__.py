"""Graded exercises: the checks, the sandboxed grader, the gradebook and the release.

Inside a notebook (the student's kernel), a *self-check*:

* :mod:`~course.grading.checks` gathers every check (``checks.flips(flips)``), written
  in :mod:`~course.grading.checks_board` (01-04), :mod:`~course.grading.checks_moves`
  (05-06), :mod:`~course.grading.checks_players` (07-08),
  :mod:`~course.grading.checks_search` (09-10, with the search trees of
  :mod:`~course.grading.search_tree`),
  :mod:`~course.grading.checks_mapfile` (11) and
  :mod:`~course.grading.checks_cursor` (12);
* :mod:`~course.grading.runner` runs a student's function on cases and judges the
  answers, :mod:`~course.grading.answers` reads what it returned,
  :mod:`~course.grading.views` hands it only the parts of a board the exercise allows,
  :mod:`~course.grading.cases` holds the positions (and draws grade-time ones).

Outside (the teacher's tools), the grade: :mod:`~course.grading.table` (every exercise
once: questions, points, partial credit, what its student runtime offers),
:mod:`~course.grading.exercise` (an exercise's questions with their cases),
:mod:`~course.grading.compose` (the student runtime of ``runtime/``, all a sandboxed run
holds), :mod:`~course.grading.sandbox` (bubblewrap: untrusted Python with files, limits
and a pipe), :mod:`~course.grading.wire` (bounded JSON across), :mod:`course.grading.checker`
(a notebook's verdict), :mod:`~course.grading.handins` (who handed in what, and when),
:mod:`~course.grading.gradebook` (a class: the journal, rows as students finish),
:mod:`~course.grading.sheet` (CSV for a spreadsheet, Canvas and Moodle),
:mod:`~course.grading.overrides` (the teacher's word), :mod:`~course.grading.summary`
(the class page), :mod:`~course.grading.feedback` (HTML pages), :mod:`~course.grading.similarity`,
:mod:`~course.grading.notebook` (tags and solution markers),
:mod:`course.grading.teacher` (the release) and ``python -m course``.
"""
