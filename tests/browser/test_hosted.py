"""The page as gunicorn serves it to the public: a working view under the Content-Security-Policy."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from tests import servers
from tests.browser.conftest import Page, first_step
from tests.conftest import seed_data


@pytest.fixture(scope="module")
def gunicorn_server():
    s = servers.Gunicorn(seed_data(), workers=2)
    yield s
    s.stop()


def test_gunicorn_page_works_under_csp(browser, gunicorn_server, store: Store) -> None:
    with Page(browser, gunicorn_server.url) as p:
        csp_reports: list[str] = []
        p.page.on("console", lambda m: "Content Security Policy" in m.text and csp_reports.append(m.text))
        resp = p.page.goto(gunicorn_server.url + "/?seeds=2110.10090&selected=2110.10090")
        assert "script-src 'self' 'sha256-" in resp.headers["content-security-policy"]
        p.wait_graph()
        before = p.node_ids()
        assert len(before) == 94
        bars, points = p.page.evaluate("""() => [document.querySelectorAll('#graph-by-year .bars .point').length,
            document.querySelectorAll('#graph-by-year .scatterlayer .point').length]""")
        assert bars >= 4 and points == 5  # the chart is drawn: its citers of 2022-2025, the source's line 2022-2026
        assert p.page.is_visible("#range-years") and p.page.is_visible("#dropdown-areas-summary")
        p.page.click("#radio-color >> text=year")
        p.page.wait_for_function("() => window.location.search.includes('color=year')")
        p.settle()
        p.tap("2106.03764")  # a reference of the seed: its most cited references and citers not on the map join
        step = first_step(store, "2106.03764", before)
        assert "expand=2106.03764" in p.query() and step and p.node_ids() == before | step
        shot = Path(os.environ.get("CITEMAP_SCREENSHOTS", "/tmp")) / "citemap-gunicorn-csp.png"
        p.page.screenshot(path=str(shot))
        assert csp_reports == []


class DyingReplica:
    """What the page meets when a replica dies under its GET /graph: the first request for each view fails, in
    turn with 502 (nginx: the replica closed the connection), a reset connection (no proxy in front) and 503;
    a later request for the same view goes through to the app. ``requests``: per URL, the seconds since the start
    at which each request came."""

    FAILURES = ("502", "reset", "503")

    def __init__(self) -> None:
        self.requests: dict[str, list[float]] = {}
        self.failed: list[str] = []
        self.start = time.monotonic()

    def __call__(self, route) -> None:
        url = route.request.url
        self.requests.setdefault(url, []).append(time.monotonic() - self.start)
        if len(self.requests[url]) > 1:
            route.continue_()
            return
        failure = self.FAILURES[len(self.failed) % len(self.FAILURES)]
        self.failed.append(failure)
        if failure == "reset":
            route.abort("connectionreset")
        else:
            body = json.dumps({"error": "the replica died", "status": int(failure)})
            route.fulfill(status=int(failure), content_type="application/json", body=body)


def test_a_graph_request_that_meets_a_dying_replica_is_asked_once_more(browser, gunicorn_server, store: Store) -> None:
    """Every view's first GET /graph fails (502, a reset connection, 503), and the page still draws each view: it
    asks once more, a moment later. A failure the retry meets too is the answer; only those failures are retried
    (not a 504, a timeout: asked again, the view would take a worker of the other replica too), and only when they
    came quickly."""
    with Page(browser, gunicorn_server.url) as p:
        dying = DyingReplica()
        p.page.route(lambda url: "/graph?" in url, dying)
        p.open("?seeds=2110.10090&selected=2110.10090")
        before = p.node_ids()
        assert len(before) == 94
        p.page.click("#radio-color >> text=year")
        p.page.wait_for_function("() => window.location.search.includes('color=year')")
        p.settle()
        p.tap("2106.03764")  # its most cited references and citers not on the map join
        step = first_step(store, "2106.03764", before)
        assert "expand=2106.03764" in p.query() and step and p.node_ids() == before | step
        p.page.click("#radio-layout >> text=timeline")
        p.page.wait_for_function("() => window.location.search.includes('layout=timeline')")
        p.settle()
        assert set(dying.failed) == set(DyingReplica.FAILURES)  # each kind of failure met at least once
        for url, times in dying.requests.items():
            assert len(times) == 2 and times[1] - times[0] >= 0.45, (url, times)  # once more, after a pause
        # the browser logs each failed request in the console: those, and nothing else
        failed = [e for e in p.errors if "Failed to load resource" in e]
        assert len(failed) == len(dying.failed), p.errors
        p.errors.clear()

        p.modules()

        def fetch(query: str) -> str:
            said = "q => modules.page.fetchGraph(q).then(r => String(r.status), e => 'rejected')"
            return p.page.evaluate(said, query)

        def always(status: int) -> None:
            def answer(route) -> None:
                dying.requests.setdefault(route.request.url, []).append(time.monotonic() - dying.start)
                if status:
                    route.fulfill(status=status, content_type="application/json", body="{}")
                else:
                    route.abort("connectionreset")

            p.page.unroute_all()
            p.page.route(lambda url: "/graph?" in url, answer)

        cases = ((502, "502", 2), (0, "rejected", 2), (504, "504", 1), (500, "500", 1), (404, "404", 1))
        for status, said, asked in cases:
            always(status)
            query = f"?seeds=2110.10090&probe={status}"
            assert fetch(query) == said
            assert len(dying.requests[gunicorn_server.url + "/graph" + query]) == asked, status
        late = """q => { let t = 0;  // a clock on which every failure comes late
            const clock = {now: () => (t += modules.graphFetch.RETRY_WITHIN_MS)};
            return modules.graphFetch.fetchRetried('/graph' + q, {}, clock)
                .then(r => String(r.status), e => 'rejected');
        }"""
        for status, said in ((502, "502"), (0, "rejected")):
            always(status)
            query = f"?seeds=2110.10090&late={status}"
            assert p.page.evaluate(late, query) == said
            assert len(dying.requests[gunicorn_server.url + "/graph" + query]) == 1, status
        p.errors.clear()  # the failed loads just made


def test_a_refusal_for_now_is_asked_again_when_it_says(browser, gunicorn_server, store: Store) -> None:
    """Each GET /graph and each callback request is refused once, with 429 (the address's budget) or 503 (a
    replica reloading onto the build this browser has seen), and ``Retry-After: 1``: the page waits that second, asks
    again, and draws every view, its status line and its panel as it would have. A refusal that says no time is
    not waited for."""
    with Page(browser, gunicorn_server.url) as p:
        refused: dict[tuple[str, str], float] = {}
        asked_again: list[float] = []

        def once(route) -> None:
            key = (route.request.url, route.request.post_data or "")
            if key in refused:
                asked_again.append(time.monotonic() - refused[key])
                route.continue_()
                return
            refused[key] = time.monotonic()
            status = (429, 503)[len(refused) % 2]
            body = json.dumps({"error": "not now", "status": status})
            route.fulfill(status=status, headers={"Retry-After": "1"}, content_type="application/json", body=body)

        p.page.route(lambda url: "/graph?" in url or "_dash-update-component" in url, once)
        p.open("?seeds=2110.10090&selected=2110.10090")
        before = p.node_ids()
        assert len(before) == 94 and "papers" in p.page.inner_text("#span-status")
        p.tap("2106.03764")  # a click: the state callback, then the map, the status line and the panel
        step = first_step(store, "2106.03764", before)
        assert "expand=2106.03764" in p.query() and step and p.node_ids() == before | step
        graphs = [k for k in refused if "/graph?" in k[0]]
        callbacks = [k for k in refused if "_dash-update-component" in k[0]]
        print(f"\nrefused once each: {len(graphs)} maps, {len(callbacks)} callbacks; asked again after {asked_again}")
        assert len(graphs) >= 2 and len(callbacks) >= 4 and len(asked_again) == len(refused)
        assert min(asked_again) >= 0.95  # after the second it was told to wait
        failed = [e for e in p.errors if "Failed to load resource" in e]
        assert len(failed) == len(refused)
        p.errors.clear()
        p.page.unroute_all()
        p.page.route(
            lambda url: "/graph?" in url,
            lambda route: route.fulfill(status=429, content_type="application/json", body="{}"),
        )
        p.modules()
        said = p.page.evaluate("q => modules.page.fetchGraph(q).then(r => String(r.status))", "?seeds=2110.10090&n=1")
        assert said == "429"  # no Retry-After: the refusal is the answer
        p.errors.clear()
