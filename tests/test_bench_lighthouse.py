"""bench/lighthouse.py: a Lighthouse run that measured nothing (its metrics carry an error instead of a value) is
told apart from a measured one, so the command runs it again rather than failing on a missing figure."""

from __future__ import annotations

import sys

from tests.conftest import ROOT


def load_lighthouse():
    sys.path.insert(0, str(ROOT / "bench"))  # its imports (common, floor_app) are bench/'s own modules
    try:
        import lighthouse
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return lighthouse


def report(**audits: dict) -> dict:
    base = {name: {"numericValue": 1234.5} for name in load_lighthouse().METRICS}
    return {"audits": {**base, **audits}}


def test_a_measured_run_is_measured() -> None:
    assert load_lighthouse().unmeasured(report()) is None


def test_a_run_without_a_largest_paint_is_not_measured() -> None:
    no_lcp = {"errorMessage": "The page did not display content that qualifies as a Largest Contentful Paint (NO_LCP)"}
    why = load_lighthouse().unmeasured(report(**{"largest-contentful-paint": no_lcp}))
    assert why is not None and why.startswith("largest-contentful-paint:") and "NO_LCP" in why
    assert load_lighthouse().unmeasured(report(**{"total-blocking-time": {}})) == "total-blocking-time: no value"
