"""Browser fixtures: the app served on a free port, and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.graph.neighbourhood import split
from dashboard.graph.state import EXPAND_FIRST
from tests import servers
from tests.conftest import DEFAULT_DATA, seed_data

CHROMIUM = os.environ.get("CITEMAP_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def first_step(store: Store, pid: str, shown: set[str]) -> set[str]:
    """The papers a click that expands ``pid`` adds to a map showing ``shown``, read from the store: the
    EXPAND_FIRST most cited of its references and citers together (half each, a short list leaving its share to
    the other) that the map does not show yet."""
    row = store.row(pid)
    refs, cites = split(store.n_references(row), store.n_citers(row), EXPAND_FIRST)
    return (set(store.ids(store.references(row, refs))) | set(store.ids(store.citers(row, cites)))) - shown


def serve(data: Path) -> servers.Server:
    port = servers.free_port()
    return servers.Server([sys.executable, "-m", "dashboard", "serve", "--data", str(data), "--port", str(port)], port)


@pytest.fixture(scope="session")
def server() -> Iterator[servers.Server]:
    s = serve(seed_data())
    yield s
    s.stop()


@pytest.fixture(scope="session")
def default_server() -> Iterator[servers.Server]:
    """The app on the default dataset in data/ (the seed pages merged with arxiv-2023)."""
    s = serve(DEFAULT_DATA)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium (scripts/install-test-tools does it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


# Runs in every document the page loads, before the app: reports each notice that carries an error id (a
# callback that failed on the server) to the test at once, even one that a later update or a reload replaces.
WATCH_ERROR_NOTICES = """
(() => {
  let last = '';
  const check = () => {
    const el = document.getElementById('div-notices');
    const text = el ? el.textContent : '';
    if (/error id/.test(text) && text !== last) { last = text; window.__citemapErrorNotice(text); }
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true});
})();
"""


# The page's modules a test reads (assets/js/): an ES module is one instance per URL, so importing one in the page
# gives the page's own, with its state. Page.modules() puts them in window.modules under these names.
MODULES = {
    "labels": "labels.js",
    "draw": "draw.js",
    "focus": "map-focus.js",
    "viewport": "viewport.js",
    "text": "text-measure.js",
    "page": "page.js",
    "storyExport": "export-story.js",
    "colours": "logic/colour-key.js",
    "graphFetch": "logic/graph-fetch.js",
    "cytoscape": "cytoscape-private.js",
    "dash": "dash-private.js",
}
IMPORT_MODULES = """async names => {
  if (window.modules) return;
  const got = {};
  for (const [name, file] of Object.entries(names)) got[name] = await import('/assets/js/' + file);
  window.modules = got;
}"""


class Page:
    """A page of the app with the console errors and warnings, page errors and error-id notices it showed, and helpers
    to drive the graph. ``with Page(...) as p:`` (or the ``page`` fixture) fails the test on any of them."""

    def __init__(
        self, browser, base: str, size: tuple[int, int] = (1280, 800), touch: bool = False, reduced_motion: bool = False
    ) -> None:
        """``touch``: a phone or tablet (a mobile viewport with touch events); ``reduced_motion``: the visitor asks
        for reduced motion (``prefers-reduced-motion: reduce``)."""
        self.base = base
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            accept_downloads=True,
            is_mobile=touch,
            has_touch=touch,
            reduced_motion="reduce" if reduced_motion else "no-preference",
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.expose_function("__citemapErrorNotice", lambda text: self.errors.append(f"notice: {text}"))
        self.page.add_init_script(WATCH_ERROR_NOTICES)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _console(self, message) -> None:
        """A console error, or a warning (``warning: ...``): a clean page logs neither."""
        if message.type == "error":
            self.errors.append(message.text)
        elif message.type == "warning":
            self.errors.append(f"warning: {message.text}")

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught page errors, and error-id notices seen so far, in order."""
        return list(self.errors)

    def assert_clean(self) -> None:
        assert self.problems() == [], "the page showed errors"

    def __enter__(self) -> Page:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc is not None and self.errors:
                exc.add_note(f"the page also showed: {self.errors}")
            if exc_type is None:
                self.assert_clean()
        finally:
            try:
                self.close()
            except Exception as e:  # a crashed browser must not hide what the test found
                if exc_type is None and not self.errors:
                    raise
                print(f"closing the page failed: {e}")

    def open(self, query: str = "") -> Page:
        self.page.goto(self.base + "/" + query)
        self.wait_graph()
        return self

    def wait_graph(self, timeout: float = 30000) -> None:
        self.page.wait_for_function("() => window.cy && window.cy.nodes('.paper').length > 0", timeout=timeout)
        self.settle()

    def settle(self, timeout: float = 30000) -> None:
        """Wait until the graph and the panel have drawn the state in the URL and nothing is loading."""
        self.page.wait_for_function(
            """() => {
                const q = window.location.search;
                const g = document.getElementById('div-rendered-graph');
                const p = document.getElementById('div-rendered-panel');
                const s = document.getElementById('div-rendered-side');
                return g && p && s && g.textContent === q && p.textContent === q && s.textContent === q
                    && !document.querySelector('[data-dash-is-loading="true"]');
            }""",
            timeout=timeout,
            polling=100,
        )
        self.page.wait_for_timeout(150)  # let Cytoscape finish drawing the new elements

    def modules(self) -> None:
        """The page's modules (MODULES) as window.modules.NAME, for the test's scripts to read."""
        self.page.evaluate(IMPORT_MODULES, MODULES)

    def node_ids(self, selector: str = ".paper") -> set[str]:
        return set(self.page.evaluate(f"() => window.cy.nodes('{selector}').map(n => n.id())"))

    def classes(self, pid: str) -> list[str]:
        return self.page.evaluate("id => window.cy.getElementById(id).classes()", pid)

    def tap(self, pid: str) -> None:
        before = self.page.evaluate("() => window.location.search")
        self.page.evaluate("id => { window.cy.getElementById(id).emit('tap'); }", pid)  # return nothing
        self.page.wait_for_function("b => window.location.search !== b", arg=before, timeout=15000)
        self.settle()

    def query(self) -> str:
        return self.page.evaluate("() => decodeURIComponent(window.location.search)")

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def close(self) -> None:
        self.context.close()


@pytest.fixture()
def page(browser, server) -> Iterator[Page]:
    with Page(browser, server.url) as p:
        yield p
