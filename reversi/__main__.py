"""``python -m reversi``: play in a terminal."""

import sys

from reversi.terminal import main

sys.exit(main())
