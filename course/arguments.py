"""Command-line values checked where argparse reads them: the types every tool of the kit uses.

The types themselves live in :mod:`reversi.arguments` (so ``python -m reversi``, which
imports nothing from ``course``, checks its flags the same way); this module is where
the teacher's tools (``python -m course ...``) take them from.  A new kind of flag goes
into :mod:`reversi.arguments` and is named here.

>>> port("8765")
8765
"""

from __future__ import annotations

from reversi.arguments import MAX_TEXT as MAX_TEXT
from reversi.arguments import FlagError as FlagError
from reversi.arguments import board_size as board_size
from reversi.arguments import deadline as deadline
from reversi.arguments import existing_file as existing_file
from reversi.arguments import existing_folder as existing_folder
from reversi.arguments import host as host
from reversi.arguments import moment as moment
from reversi.arguments import names as names
from reversi.arguments import output_file as output_file
from reversi.arguments import output_folder as output_folder
from reversi.arguments import port as port
from reversi.arguments import seconds as seconds
from reversi.arguments import whole as whole
