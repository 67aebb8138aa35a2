"""axe-core in a test's page: injected by the test (the page's Content-Security-Policy is not involved: Playwright
evaluates the script in the page's context), run with the WCAG 2.0 and 2.1 A and AA rules.

axe-core comes from npm (``scripts/install-test-tools`` puts it in ``.test-tools/``); ``$CITEMAP_AXE`` names another
``axe.min.js``. Without it the accessibility tests fail and say how to install it: CI installs it.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

AXE_JS = Path(os.environ.get("CITEMAP_AXE") or ROOT / ".test-tools" / "node_modules" / "axe-core" / "axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]  # a CSS selector of each element that breaks the rule

    def __str__(self) -> str:
        shown = ", ".join(self.targets[:4]) + (f" and {len(self.targets) - 4} more" if len(self.targets) > 4 else "")
        return f"{self.impact} {self.rule} ({len(self.targets)}): {self.help} [{shown}]"


@functools.cache
def axe_source() -> str:
    if not AXE_JS.is_file():
        pytest.fail(
            f"axe-core not found at {AXE_JS}: run scripts/install-test-tools (it installs axe-core from npm "
            "into .test-tools/), or set CITEMAP_AXE to an axe.min.js"
        )
    return AXE_JS.read_text(encoding="utf-8")


def run_axe(page: Any, context: str | None = None) -> list[Violation]:
    """Every WCAG 2.0/2.1 A and AA violation axe-core finds in the Playwright ``page`` as it is now (``context``: a
    CSS selector to check only part of it)."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_source() + "\n;undefined")
    found = page.evaluate(
        """async ([context, tags]) => {
            const result = await window.axe.run(context ? document.querySelector(context) : document,
                {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return result.violations.map(v => ({rule: v.id, impact: v.impact || 'minor', help: v.help,
                                                 targets: v.nodes.map(n => n.target.join(' '))}));
        }""",
        [context, TAGS],
    )
    return [Violation(v["rule"], v["impact"], v["help"], tuple(v["targets"])) for v in found]


def assert_no_serious(page: Any, state: str) -> list[Violation]:
    """Fails on any serious or critical violation; prints every rule found (the moderate and minor ones too)."""
    violations = run_axe(page)
    print(f"axe-core, {state}: " + ("no violation" if not violations else f"{len(violations)} rules"))
    for v in violations:
        print("  " + str(v))
    bad = [v for v in violations if v.impact in BLOCKING]
    assert not bad, f"{state}: serious or critical axe-core violations:\n" + "\n".join(str(v) for v in bad)
    return violations
