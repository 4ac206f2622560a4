"""axe-core in a real Chromium: the WCAG 2.x level A and AA rules, run on the page Playwright has open.

axe-core is Deque's engine behind most accessibility checkers (Lighthouse, the browsers'
own audits).  The npm package is installed the first time into build/axe-cache, as
tests/hub.py installs configurable-http-proxy, and its ``axe.min.js`` is added to the
page as a script tag.  :func:`assert_accessible` fails on a "serious" or "critical"
violation and prints the lesser ones, so they show with ``pytest -s`` and in a failure.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "build" / "axe-cache"
#: The rule sets run: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices
#: (landmarks, one main heading, heading order: none of them serious, so they only print).
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")
#: Violations of these impacts fail the test; the others are printed.
BLOCKING = ("serious", "critical")

_RUN = """async ([tags, include]) => {
  const where = include ? {include: include.map(s => [s])} : document;
  const results = await axe.run(where, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  const brief = (v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary || ""})),
  });
  return {violations: results.violations.map(brief), incomplete: results.incomplete.map(brief),
          passes: results.passes.map(v => v.id)};
}"""


def axe_script() -> Path:
    """``axe.min.js``, installed with npm into build/axe-cache the first time."""
    script = CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        npm = shutil.which("npm")
        assert npm, "npm is needed to install axe-core for the accessibility tests"
        subprocess.run(
            [npm, "install", "--silent", "--prefix", str(CACHE), "axe-core@4"],
            check=True,
            timeout=600,
        )
    return script


def audit(page: Any, include: Sequence[str] = ()) -> dict[str, Any]:
    """axe-core's results for :data:`TAGS` on the page as it is now (only inside the elements
    matching the CSS selectors ``include``, when given: the kit's part of a JupyterLab page).

    ``violations`` and ``incomplete`` (what axe could not decide, e.g. text over a picture)
    are lists of {id, impact, help, nodes: [{target, summary}]}; ``passes`` the ids of the rules passed.
    Only violations name every element (axe's ``resultTypes``: the others name one, which is
    much faster on a long notebook).
    """
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    results: dict[str, Any] = page.evaluate(_RUN, [list(TAGS), list(include) or None])
    return results


def describe(found: list[dict[str, Any]]) -> str:
    """One paragraph per violation: the rule, its impact, and the elements that break it."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:5]:
            lines.append(f"    {node['target']}: {' '.join(node['summary'].split())[:300]}")
        if len(violation["nodes"]) > 5:
            lines.append(f"    ... and {len(violation['nodes']) - 5} more")
    return "\n".join(lines)


def assert_accessible(page: Any, what: str, include: Sequence[str] = ()) -> dict[str, Any]:
    """Fail on a serious or critical violation on ``page`` (called ``what``; only inside
    ``include`` when given, see :func:`audit`); print the rest.

    Returns axe's results (see :func:`audit`) for a test to check more.
    """
    __tracebackhide__ = True
    results = audit(page, include)
    found = results["violations"]
    blocking = [v for v in found if v["impact"] in BLOCKING]
    others = [v for v in found if v["impact"] not in BLOCKING]
    if others:
        print(f"\n[axe] {what}: minor or moderate violations left:\n{describe(others)}")
    if results["incomplete"]:
        print(
            f"\n[axe] {what}: for a person to check (axe could not decide):\n{describe(results['incomplete'])}"
        )
    assert not blocking, (
        f"{what}: serious or critical accessibility violations:\n{describe(blocking)}"
    )
    return results
