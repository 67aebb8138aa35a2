"""The one-line bugs that once survived the suite (scripts/planted_bugs.py: raised caps, an ETag without the build
id, inputs read or checked wrong, a title's box narrower than its text...) are each caught by the tests named for
them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_every_planted_bug_is_caught() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "planted_bugs.py")], capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "12 of 12 planted bugs caught" in run.stdout
