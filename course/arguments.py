"""Command-line values checked where argparse reads them: the types every tool of the kit uses.

The types themselves live in :mod:`reversi.arguments` (so ``python -m reversi``, which
imports nothing from ``course``, checks its flags the same way); this module is where
the teacher's tools (``python -m course ...``) take them from.  A new kind of flag goes
into :mod:`reversi.arguments` and is named here.

>>> port("8765")
8765
"""

from __future__ import annotations

from reversi.arguments import (  # noqa: F401  (the names the teacher's tools take from here)
    MAX_TEXT,
    FlagError,
    board_size,
    deadline,
    existing_file,
    existing_folder,
    host,
    moment,
    names,
    output_file,
    output_folder,
    port,
    seconds,
    whole,
)

