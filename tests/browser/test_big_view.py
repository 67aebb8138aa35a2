"""A view at the 5,000-paper cap stays interactive, measured with a 100 ms probe on the page's main thread: loading it
blocks the page hardly longer than loading a small view does, zooming and dragging it never for a second; the
hairball is drawn as its structure."""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import pytest

from dashboard.graph.view import MAX_DRAWN_EDGES
from tests.browser.conftest import Page, serve
from tests.conftest import DEFAULT_DATA, load

BIG = "?seeds=1412.6980,1512.03385,1409.1556&limit=3000"
SMALL = "?seeds=1706.03762"
PROBE = """
window.__stall = {max: 0, last: performance.now()};
setInterval(() => { const t = performance.now(), gap = t - window.__stall.last - 100;
  if (gap > window.__stall.max) window.__stall.max = gap; window.__stall.last = t; }, 100);
"""


@pytest.fixture(scope="module")
def default_server() -> Iterator[load.Server]:
    s = serve(DEFAULT_DATA)
    yield s
    s.stop()


def stalls(p: Page, query: str) -> tuple[float, float]:
    """(longest stall from navigation to 3 s after the map is drawn, longest while zooming and dragging), in ms."""
    p.page.add_init_script(PROBE)
    p.open(query)
    p.page.wait_for_timeout(3000)
    loading = p.page.evaluate("() => window.__stall.max")
    p.page.evaluate("() => { window.__stall.max = 0; window.__stall.last = performance.now(); }")
    p.page.mouse.move(640, 400)
    for _ in range(6):
        p.page.mouse.wheel(0, -120)
        p.page.wait_for_timeout(60)
    p.page.mouse.down()
    p.page.mouse.move(520, 330, steps=12)
    p.page.mouse.up()
    p.page.wait_for_timeout(1500)
    return loading, p.page.evaluate("() => window.__stall.max")


def test_the_biggest_view_adds_little_to_the_pages_longest_stall(browser, default_server) -> None:
    """The page's own start (Dash, React, Plotly: ~0.7-1.1 s of main thread on these machines, whatever the view)
    is its longest stall; drawing 5,000 papers instead of 323 adds at most 0.6 s to it, and zooming and dragging
    the big map never blocks for a second. Medians of three loads of each, alternating."""
    small, big = [], []
    for _ in range(3):
        with Page(browser, default_server.url, (1280, 800)) as p:
            small.append(stalls(p, SMALL))
        with Page(browser, default_server.url, (1280, 800)) as p:
            big.append(stalls(p, BIG))
            drawn = p.page.evaluate("""() => ({papers: cy.nodes('.paper').length, edges: cy.edges().length,
                big: cy.edges('.big').length, hide: cy.renderer().hideEdgesOnViewport})""")
            status = p.text("#span-status")
    print(f"longest stalls (ms) loading 323 papers {[round(g[0]) for g in small]}, 5,000 papers "
          f"{[round(g[0]) for g in big]}; zooming/dragging 5,000 {[round(g[1]) for g in big]}")
    assert drawn["papers"] == 5000
    assert statistics.median(g[0] for g in big) <= statistics.median(g[0] for g in small) + 600
    assert statistics.median(g[1] for g in big) <= 1000
    # the hairball: at most MAX_DRAWN_EDGES citations drawn, faint and without arrows, hidden while moving
    assert drawn["edges"] == drawn["big"] == MAX_DRAWN_EDGES and drawn["hide"] is True
    assert f"({MAX_DRAWN_EDGES:,} drawn" in status
