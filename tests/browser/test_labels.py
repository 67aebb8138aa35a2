"""Labels never collide: at the fit zoom and after zooming, no two drawn label boxes overlap (Cytoscape's own
label bounding boxes on the real page), the most important papers get theirs, and their size on screen is fixed."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

MEASURE = """() => {
  const ns = cy.nodes('.lbl').toArray();
  const bs = ns.map(n => n.boundingBox({includeLabels: true, includeNodes: false, includeOverlays: false}));
  const bad = [];
  for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {
    const a = bs[i], b = bs[j];
    if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) bad.push([ns[i].id(), ns[j].id()]);
  }
  const ext = cy.extent(), z = cy.zoom();
  const outside = bs.filter(b => b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2).length;
  return {ids: ns.map(n => n.id()), overlaps: bad, outside: outside,
          px: ns.map(n => parseFloat(n.style('font-size')) * z), papers: cy.nodes('.paper').length};
}"""


def labels(p: Page, after: int = 0) -> dict:
    """The drawn labels, once they have been chosen for the current view (more than ``after`` runs)."""
    p.page.wait_for_function("n => window.citemapLabels.runs > n", arg=after, timeout=15000)
    for _ in range(20):  # and no later change (a fit, a second draw) is still being labelled: runs stay put
        n = runs(p)
        p.page.wait_for_timeout(300)
        if runs(p) == n:
            break
    return p.page.evaluate(MEASURE)


def runs(p: Page) -> int:
    return p.page.evaluate("() => window.citemapLabels.runs")


@pytest.mark.parametrize(
    ("query", "size", "at_least"),
    [
        ("", (1280, 800), 12),
        ("", (1920, 1080), 25),
        ("?seeds=1412.6980&limit=1200", (1280, 800), 10),
        ("?seeds=1706.03762&layout=timeline", (1920, 1080), 10),
    ],
)
def test_drawn_labels_never_overlap(browser, default_server, query: str, size: tuple[int, int], at_least: int) -> None:
    with Page(browser, default_server.url, size) as p:
        p.open(query)
        got = labels(p)
        assert got["overlaps"] == [] and got["outside"] == 0
        assert len(got["ids"]) >= at_least, got["ids"]
        px = 15 if size[0] >= 1700 else 13
        assert min(got["px"]) >= px - 0.01 and max(got["px"]) <= px + 1.01  # one size on screen (seeds +1, bold)
        seeds = p.node_ids(".seed")
        assert seeds <= set(got["ids"])  # seeds first
        # zoom in around the centre: more room, more labels, still no overlap, same size on screen
        before = runs(p)
        p.page.evaluate(
            "() => cy.zoom({level: cy.zoom() * 2.5, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}})"
        )
        zoomed = labels(p, before)
        assert zoomed["overlaps"] == [] and zoomed["outside"] == 0
        assert min(zoomed["px"]) >= px - 0.01 and max(zoomed["px"]) <= px + 1.01
        assert set(zoomed["ids"]) - set(got["ids"])  # re-chosen on zoom: room for labels that were blocked


# For the most important papers in view whose label is not drawn: draw it as the page would, and measure it. It
# must overlap the label of a more important paper, or cross the viewport's edge: nothing less important took
# its place.
BLOCKED = """() => {
  const rank = n => n.hasClass('selected') ? 0 : n.hasClass('seed') ? 1 : n.hasClass('expanded') ? 2
                    : n.hasClass('labelled') ? 3 : 4;
  const before = (a, b) => rank(a) - rank(b) || b.data('in_cited') - a.data('in_cited') || (a.id() < b.id() ? -1 : 1);
  const opts = {includeLabels: true, includeNodes: false, includeOverlays: false};
  const drawn = cy.nodes('.lbl').toArray();
  const ext = cy.extent();
  const inView = n => {
    const p = n.position();
    return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
  };
  const plain = drawn.find(n => !n.hasClass('seed') && !n.hasClass('selected') && !n.hasClass('tl'));
  const undrawn = cy.nodes('.paper').not('.lbl').not('.seed').not('.selected').filter(inView).toArray().sort(before)
                    .slice(0, 40);
  const out = [];
  for (const u of undrawn) {
    const st = k => plain.style(k);
    u.style({'font-size': st('font-size'), 'text-max-width': st('text-max-width'), 'text-margin-y': st('text-margin-y'),
             'text-background-padding': st('text-background-padding')});
    u.addClass('lbl');
    const m = u.boundingBox(opts), t = 1.5 / cy.zoom();  // the page's estimate is ~1 px wider a side
    const b = {x1: m.x1 - t, x2: m.x2 + t, y1: m.y1 - t, y2: m.y2 + t};
    u.removeClass('lbl');
    const edge = b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2;
    const by = drawn.filter(d => before(d, u) < 0).some(d => {
      const a = d.boundingBox(opts);
      return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
    });
    out.push([u.id(), edge || by]);
  }
  return out;
}"""


def test_a_label_is_left_out_only_for_a_more_important_one(browser, default_server) -> None:
    with Page(browser, default_server.url) as p:
        p.open("?seeds=1412.6980&limit=1200")
        got = labels(p)
        checked = p.page.evaluate(BLOCKED)
        assert len(checked) == 40 and all(ok for _, ok in checked), [pid for pid, ok in checked if not ok]
        assert len(got["ids"]) >= 10


def test_a_paper_chosen_from_the_search_is_named_on_the_map(browser, default_server) -> None:
    """Choosing a paper of the map from the search suggestions selects it (a class change, no new elements): its
    label is chosen again and drawn, as if it had been clicked or named in the URL."""
    with Page(browser, default_server.url) as p:
        p.open()
        before = labels(p)
        assert "1706.03762" in p.node_ids() and "1706.03762" not in before["ids"]  # in the map, not named
        runs_before = runs(p)
        p.page.fill("#input-search", "attention is all")
        p.page.wait_for_selector(".search-item")
        p.page.click(".search-select >> nth=0")
        p.page.wait_for_function("() => window.location.search.includes('selected=1706.03762')")
        p.settle()
        after = labels(p, runs_before)
        assert "1706.03762" in after["ids"] and after["overlaps"] == [] and after["outside"] == 0
        assert p.page.evaluate("() => cy.getElementById('1706.03762').hasClass('selected')")
