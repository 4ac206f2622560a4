"""The README's examples are doctests: what they show is what Python prints."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
PYCON_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_readme_examples_print_what_they_show():
    blocks = PYCON_BLOCK.findall(README.read_text(encoding="utf-8"))
    assert blocks, "the README has no ```pycon example any more"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    for number, block in enumerate(blocks, start=1):
        test = parser.get_doctest(block, {}, f"README example {number}", str(README), 0)
        assert test.examples, f"README example {number} has no >>> lines"
        runner.run(test)
    assert runner.failures == 0, "a README example does not print what it shows (see above)"
    assert runner.tries >= 5
