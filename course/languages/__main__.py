"""``python -m course.languages``: see :mod:`course.languages.cli`."""

import sys

from course.languages.cli import main

sys.exit(main())
