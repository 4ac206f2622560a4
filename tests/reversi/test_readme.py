"""The ``pycon`` examples of README.md and docs/*.md are doctests: what they show is what Python prints."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYCON_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_documents_examples_print_what_they_show():
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    blocks = 0
    for document in DOCUMENTS:
        found = PYCON_BLOCK.findall(document.read_text(encoding="utf-8"))
        for number, block in enumerate(found, start=1):
            name = f"{document.name} example {number}"
            test = parser.get_doctest(block, {}, name, str(document), 0)
            assert test.examples, f"{name} has no >>> lines"
            runner.run(test)
        blocks += len(found)
    assert blocks, "no document has a ```pycon example any more (the developer guide had one)"
    assert runner.failures == 0, "a document's example does not print what it shows (see above)"
    assert runner.tries >= 5
