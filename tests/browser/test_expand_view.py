"""What a click does to the map, measured on the real page at a laptop's, a projector's and a phone's size: an expand
adds a few dozen papers, marked with a ring no area colour can be taken for; the camera keeps its zoom; the selected
paper stays in view and named; enough titles stay to read the picture; "Show more" adds the next few dozen; sizes
tell citers apart; on a phone a tap picks the paper nearest the finger. And presenting draws no ring."""

from __future__ import annotations

import re

import pytest

from dashboard.graph.state import EXPAND_FIRST, EXPAND_STEP
from dashboard.view.colors import NEW_MARK, NEW_MARK_COLOR
from dashboard.view.colour_vision import closest_pair
from tests.browser.conftest import Page
from tests.browser.test_labels import titles

ADAM, ATTENTION, BERT, CLIP = "1412.6980", "1706.03762", "1810.04805", "2103.00020"  # 4,039, 743, 1,671, 224 citers
SIZES = {"laptop": ((1280, 800), False), "projector": ((1920, 1080), False), "phone": ((390, 844), True)}
MIN_TITLES = {"laptop": 15, "projector": 15, "phone": 5}

# The camera, the papers marked new (their ring as drawn), the selected paper, and the drawn size of some papers.
STATE = """ids => {
  const ext = cy.extent(), sel = cy.nodes('.paper.selected');
  const inside = n => { const q = n.position();
                        return q.x >= ext.x1 && q.x <= ext.x2 && q.y >= ext.y1 && q.y <= ext.y2; };
  const fresh = cy.nodes('.paper.new');
  return {zoom: cy.zoom(), papers: cy.nodes('.paper').length, fresh: fresh.map(n => n.id()),
          rings: fresh.map(n => [n.style('outline-color'), n.style('outline-style'),
                                 parseFloat(n.style('outline-width')), parseFloat(n.style('outline-opacity'))]),
          areas: cy.nodes('.paper').map(n => n.data('color')),
          selected: sel.nonempty() ? sel.id() : null, selectedInView: sel.nonempty() && inside(sel[0]),
          widths: Object.fromEntries(ids.map(id => [id, cy.getElementById(id).renderedOuterWidth()]))};
}"""


def rgb_hex(c: str) -> str:
    m = re.fullmatch(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*[\d.]+)?\)", c.strip())
    return "#{:02X}{:02X}{:02X}".format(*map(int, m.groups())) if m else c.strip().upper()


def state(p: Page) -> dict:
    return p.page.evaluate(STATE, [ADAM, CLIP])


def screen_point(p: Page, pid: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
    """Where paper ``pid`` is on the page, px (moved by dx, dy)."""
    at = p.page.evaluate(
        """id => { const r = cy.container().getBoundingClientRect(), q = cy.getElementById(id).renderedPosition();
                   return [r.left + q.x, r.top + q.y]; }""",
        pid,
    )
    return at[0] + dx, at[1] + dy


def click(p: Page, pid: str, touch: bool) -> None:
    """A click on a paper (on a phone, a finger's tap at its place on the screen) and the map it brings."""
    if not touch:
        p.tap(pid)
        return
    before = p.page.evaluate("() => window.location.search")
    p.page.touchscreen.tap(*screen_point(p, pid))
    p.page.wait_for_function("b => window.location.search !== b", arg=before, timeout=15000)
    p.settle()


def assert_expanded(p: Page, size: str, before: dict, pid: str) -> dict:
    """After an expand of ``pid``: a few dozen new papers, each with the dotted ring; the zoom as it was; the paper
    selected, in view and named; enough titles to read the map."""
    after = state(p)
    added = after["papers"] - before["papers"]
    assert 0 < added <= EXPAND_FIRST and sorted(after["fresh"]) == sorted(set(p.node_ids()) - set(before["all"])), (
        "the papers it added, and only they, are marked"
    )
    assert after["zoom"] == pytest.approx(before["zoom"], rel=1e-9), "the camera kept its zoom"
    assert after["selected"] == pid and after["selectedInView"]
    for colour, style, width, opacity in after["rings"]:
        assert rgb_hex(colour) == NEW_MARK_COLOR and style == "dotted" and width > 0 and opacity > 0
        for area in set(after["areas"]):  # no paper's colour looks like the ring's
            assert closest_pair([rgb_hex(colour), area])[0] >= 12, area
    got = titles(p, before["runs"])
    assert pid in got["named"]
    assert len(set(got["named"])) >= MIN_TITLES[size], got["named"]
    assert got["overlaps"] == [] and got["covers"] == []
    return after


def runs(p: Page) -> int:
    p.modules()
    return p.page.evaluate("() => modules.labels.placings")


@pytest.mark.parametrize("size", SIZES)
def test_two_expands_and_show_more_keep_the_map_readable(browser, default_server, size: str) -> None:
    (w, h), touch = SIZES[size]
    with Page(browser, default_server.url, (w, h), touch=touch) as p:
        p.open()
        titles(p)
        first = state(p)
        # sizes tell citers apart: Adam (4,039 citers) drawn more than 1.6 times as wide as a paper of 224
        assert first["widths"][ADAM] > 1.6 * first["widths"][CLIP]
        # the colour key names the ring, drawn in its colour
        entry = p.page.locator("#div-legend .legend-new")
        assert entry.count() == 1 and NEW_MARK in entry.inner_text()
        ring = p.page.evaluate("() => getComputedStyle(document.querySelector('#div-legend .swatch-new')).borderColor")
        assert rgb_hex(ring) == NEW_MARK_COLOR
        view = first
        for pid in (ADAM, ATTENTION):  # two expands of well-cited papers
            view |= {"all": list(p.node_ids()), "runs": runs(p)}
            click(p, pid, touch)
            assert f"expand={ADAM}" in p.query() and f"selected={pid}" in p.query()
            view = assert_expanded(p, size, view, pid)
        # "Show N more": the next step of the selected paper's references and citers, the camera still where it was
        label = p.text("#button-show-more")
        shown = int(re.search(r"Show (\d+) more", label)[1])
        assert 0 < shown <= EXPAND_STEP
        view |= {"all": list(p.node_ids()), "runs": runs(p)}
        p.page.click("#button-show-more")
        p.page.wait_for_function(f"() => window.location.search.includes('more={ATTENTION}:1')", timeout=15000)
        p.settle()
        more = state(p)
        assert more["papers"] - view["papers"] == shown and more["zoom"] == pytest.approx(first["zoom"], rel=1e-9)
        assert sorted(more["fresh"]) == sorted(set(p.node_ids()) - set(view["all"]))


def test_a_tap_picks_the_paper_nearest_the_finger(browser, default_server) -> None:
    """On a phone at the map's fit, papers are a few pixels wide: a tap right at a paper picks it whatever lies
    within Cytoscape's own touch tolerance, and a tap a little beside a paper with no other near picks it too."""
    with Page(browser, default_server.url, (390, 844), touch=True) as p:
        p.open()
        titles(p)
        # a paper with another within Cytoscape's touch tolerance (8 px beyond its body), the other drawn above it
        pair = p.page.evaluate(
            """() => {
              const ps = cy.nodes('.paper').toArray(), z = n => n.style('z-index') + (n.hasClass('lbl') ? 0.5 : 0);
              for (const a of ps) for (const b of ps) {
                if (a === b || a.hasClass('seed') || a.hasClass('lbl') || z(b) <= z(a)) continue;
                const p = a.renderedPosition(), q = b.renderedPosition();
                if (Math.hypot(p.x - q.x, p.y - q.y) < b.renderedOuterWidth() / 2 + 8) return [a.id(), b.id()];
              }
              return null; }"""
        )
        assert pair, "no paper crowded by another drawn above it at this size"
        before = p.query()
        p.page.touchscreen.tap(*screen_point(p, pair[0]))
        p.page.wait_for_function("b => decodeURIComponent(window.location.search) !== b", arg=before, timeout=15000)
        p.settle()
        assert f"selected={pair[0]}" in p.query(), (pair, p.query())
        # a paper alone, touched 14 px beside its body (above, below, left or right of it): within a finger's reach
        # (FINGER px from its edge), beyond Cytoscape's tolerance, and no other paper within a finger's reach
        finger = p.page.evaluate("async () => (await import('/assets/js/logic/touch.js')).FINGER")
        lone = p.page.evaluate(
            """finger => {
              const ps = cy.nodes('.paper').not('.selected').toArray(), w = cy.width(), h = cy.height();
              const edge = (b, s) => Math.hypot(b.renderedPosition().x - s.x, b.renderedPosition().y - s.y)
                                     - b.renderedOuterWidth() / 2;
              const titled = s => cy.nodes('.lbl, .callout').some(t => { const bb = t.renderedBoundingBox(
                  {includeNodes: false, includeLabels: true});
                  return s.x > bb.x1 - 4 && s.x < bb.x2 + 4 && s.y > bb.y1 - 4 && s.y < bb.y2 + 4; });
              for (const a of ps) {
                const p = a.renderedPosition(), r = a.renderedOuterWidth() / 2;
                if (p.x < 60 || p.x > w - 60 || p.y < 60 || p.y > h - 60) continue;
                for (const [dx, dy] of [[0, -1], [0, 1], [-1, 0], [1, 0]]) {
                  const spot = {x: p.x + dx * (r + 14), y: p.y + dy * (r + 14)};
                  const alone = ps.every(b => b === a || edge(b, spot) > finger);
                  if (alone && !titled(spot)) return [a.id(), spot.x, spot.y];
                }
              }
              return null; }""",
            finger,
        )
        assert lone, "no paper alone at this size"
        before = p.query()
        at = p.page.evaluate("() => { const r = cy.container().getBoundingClientRect(); return [r.left, r.top]; }")
        p.page.touchscreen.tap(at[0] + lone[1], at[1] + lone[2])
        p.page.wait_for_function("b => decodeURIComponent(window.location.search) !== b", arg=before, timeout=15000)
        p.settle()
        assert f"selected={lone[0]}" in p.query()


def test_presenting_draws_no_ring_round_new_papers(browser, default_server) -> None:
    """A story's step that brings papers in marks them new, as any drawing does; the projector draws no ring round
    them, and the compact key over the map does not name one."""
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?story=seeds&step=2")  # the chains between two seeds: few papers
        p.page.keyboard.press("ArrowRight")  # the timeline of the seeds' map: many papers come in
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=3'", timeout=15000)
        p.settle()
        rings = p.page.evaluate(
            """() => cy.nodes('.paper.new').map(n => [parseFloat(n.style('outline-width')),
                                                      parseFloat(n.style('outline-opacity'))])"""
        )
        assert len(rings) > 20 and all(w == 0 or o == 0 for w, o in rings), rings[:5]
        assert NEW_MARK not in p.text("#div-map-legend")
        p.page.keyboard.press("Escape")  # the explorer again: the ring is drawn for the next action's papers
        p.page.wait_for_function("() => !window.location.search.includes('story=')", timeout=15000)
        p.settle()
        p.tap(ATTENTION)
        drawn = p.page.evaluate("() => cy.nodes('.paper.new').map(n => parseFloat(n.style('outline-width')))")
        assert drawn and min(drawn) > 0
