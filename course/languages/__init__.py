"""The lessons and exercises in other languages: one English source per notebook, one
gettext catalogue per notebook and language, and the translated notebooks made from them.

* :mod:`course.languages.notebooks`: a translated notebook from the English one and its
  translations (the markdown cells replaced, the code cells shared), its links moved to
  the translated notebooks' folder (plain Python, no Babel).
* :mod:`course.languages.catalogues`: the catalogues (Babel): one entry per markdown cell,
  ``msgctxt`` the cell's id, ``msgid`` its English source, ``msgstr`` the translation;
  made, updated when the English changes, read and checked.
* :mod:`course.languages.cli`: ``python -m course.languages update|build|check``.

A translated lesson ``notebooks/<code>/<stem>.ipynb`` and a translated released exercise
``exercises/<code>/<stem>.ipynb`` are made by the kit and committed, like the released
exercises; the exercises' are made by ``python3 kit.py release``.
"""
