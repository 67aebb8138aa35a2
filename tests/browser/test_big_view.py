"""A view at the 5,000-paper cap stays interactive: a 100 ms probe on the page's main thread never waits more than a
second, while the map loads and while it is zoomed and dragged; the hairball is drawn as its structure."""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import pytest

from dashboard.graph.view import MAX_DRAWN_EDGES
from tests.browser.conftest import Page, serve
from tests.conftest import DEFAULT_DATA, load

BIG = "?seeds=1412.6980,1512.03385,1409.1556&limit=3000"
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


def stalls(p: Page) -> tuple[float, float]:
    """(longest stall from navigation to 3 s after the map is drawn, longest while zooming and dragging), in ms."""
    p.page.add_init_script(PROBE)
    p.open(BIG)
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


def test_the_biggest_view_never_blocks_the_page_for_a_second(browser, default_server) -> None:
    got = []
    for _ in range(3):  # the median of three loads: one load on a busy shared machine says little
        with Page(browser, default_server.url, (1280, 800)) as p:
            got.append(stalls(p))
            drawn = p.page.evaluate("""() => ({papers: cy.nodes('.paper').length, edges: cy.edges().length,
                big: cy.edges('.big').length, hide: cy.renderer().hideEdgesOnViewport})""")
            status = p.text("#span-status")
    loading = statistics.median(g[0] for g in got)
    moving = statistics.median(g[1] for g in got)
    print(f"longest stalls (ms) loading {[round(g[0]) for g in got]}, zooming/dragging {[round(g[1]) for g in got]}")
    assert drawn["papers"] == 5000
    assert loading <= 1000 and moving <= 1000
    # the hairball: at most MAX_DRAWN_EDGES citations drawn, faint and without arrows, hidden while moving
    assert drawn["edges"] == drawn["big"] == MAX_DRAWN_EDGES and drawn["hide"] is True
    assert f"({MAX_DRAWN_EDGES:,} drawn" in status
