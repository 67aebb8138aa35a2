"""The page as gunicorn serves it to the public: a working view under the Content-Security-Policy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import servers
from tests.browser.conftest import Page
from tests.conftest import seed_data


@pytest.fixture(scope="module")
def gunicorn_server():
    s = servers.Gunicorn(seed_data(), workers=2)
    yield s
    s.stop()


def test_gunicorn_page_works_under_csp(browser, gunicorn_server) -> None:
    with Page(browser, gunicorn_server.url) as p:
        csp_reports: list[str] = []
        p.page.on("console", lambda m: "Content Security Policy" in m.text and csp_reports.append(m.text))
        resp = p.page.goto(gunicorn_server.url + "/?seeds=2110.10090&selected=2110.10090")
        assert "script-src 'self' 'sha256-" in resp.headers["content-security-policy"]
        p.wait_graph()
        assert len(p.node_ids()) == 94
        bars = p.page.evaluate("() => document.querySelectorAll('#graph-by-year .bars .point').length")
        assert bars == 5  # the chart is drawn: 2022-2026
        assert p.page.is_visible("#range-years") and p.page.is_visible("#dropdown-areas-summary")
        p.page.click("#radio-color >> text=year")
        p.page.wait_for_function("() => window.location.search.includes('color=year')")
        p.settle()
        p.tap("2106.03764")  # a reference of the seed with 41 papers of its own to add
        assert "expand=2106.03764" in p.query() and len(p.node_ids()) == 94 + 41
        shot = Path(os.environ.get("CITEMAP_SCREENSHOTS", "/tmp")) / "citemap-gunicorn-csp.png"
        p.page.screenshot(path=str(shot))
        assert csp_reports == []
