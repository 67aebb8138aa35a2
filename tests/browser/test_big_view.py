"""A view at the 5,000-paper cap is drawn as its structure: the hairball's citations capped, faint, without arrows
and hidden while the map moves, and the year charts' Plotly started only once the map is drawn. How long the page's
main thread is blocked loading, zooming and dragging it is measured by bench/browser.py against the bare stack."""

from __future__ import annotations

from dashboard.view.payload import MAX_DRAWN_EDGES
from tests.browser.conftest import Page

BIG = "?seeds=1412.6980,1512.03385,1409.1556&limit=3000"

PLOTLY_WATCH = """
window.__plotlyAt = null;
(function watch() {  /* each frame: the papers in Cytoscape when the real plotly.js first appears */
  if (window.Plotly && typeof window.Plotly.newPlot === "function") {
    window.__plotlyAt = window.cy ? window.cy.nodes(".paper").length : 0; return;
  }
  requestAnimationFrame(watch);
})();
"""


def test_the_biggest_view_is_drawn_as_its_structure_and_charts_start_after_it(browser, default_server) -> None:
    """5,000 papers: at most MAX_DRAWN_EDGES citations drawn, faint and without arrows, hidden while moving, and the
    status line says how many are drawn. Plotly (its start is a long task of the main thread) waits until the 5,000
    papers are drawn, and it is the basic bundle that starts, not Dash's full one; the charts are then drawn."""
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.page.add_init_script(PLOTLY_WATCH)
        p.open(BIG)
        drawn = p.page.evaluate("""() => ({papers: cy.nodes('.paper').length, edges: cy.edges(".cites").length,
            big: cy.edges('.big').length, hide: cy.renderer().hideEdgesOnViewport,
            arrows: cy.edges('.cites').filter(e => e.style('target-arrow-shape') !== 'none').length})""")
        status = p.text("#span-status")
        p.page.wait_for_function("() => window.__plotlyAt !== null", timeout=30000)
        p.page.wait_for_selector("#graph-by-year .trace.bars path", timeout=30000)
        at = p.page.evaluate("() => window.__plotlyAt")
        scripts = p.page.evaluate("""() => performance.getEntriesByType("resource")
            .map(e => new URL(e.name).pathname).filter(n => n.indexOf("plotly") >= 0)""")
        bars = p.page.locator("#graph-overview .trace.bars path").count()
    assert drawn["papers"] == 5000
    assert drawn["edges"] == drawn["big"] == MAX_DRAWN_EDGES and drawn["hide"] is True and drawn["arrows"] == 0
    assert f"({MAX_DRAWN_EDGES:,} drawn" in status
    assert at == 5000
    assert scripts == ["/assets/vendor/plotly-basic.min.js"]
    assert bars > 0


def test_from_a_thousand_papers_citations_are_faint_lines_without_arrows(browser, default_server) -> None:
    """The 1,500-paper view Lighthouse measures and a view just under 1,000 papers: the first drawn as a big view
    (every citation a faint line without an arrowhead), the second with arrows."""
    with Page(browser, default_server.url, (1280, 800)) as p:
        for query, big in (("?seeds=1810.04805&limit=1462", True), ("?seeds=1810.04805&limit=900", False)):
            p.open(query)
            got = p.page.evaluate("""() => ({papers: cy.nodes('.paper').length, edges: cy.edges('.cites').length,
                big: cy.edges('.big').length,
                arrows: cy.edges('.cites').filter(e => e.style('target-arrow-shape') !== 'none').length})""")
            assert (got["papers"] >= 1000) == big, got
            assert got["big"] == (got["edges"] if big else 0)
            assert (got["arrows"] == 0) == big and got["edges"] > 1000
