"""The map's titles, measured on the real page from Cytoscape's own boxes: no title over another title or over a
paper, no two papers over each other, the papers that matter always named, titles wrapped to two lines, one size on
screen whatever the zoom, and enough of them to read a picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import Page

ROOT = Path(__file__).resolve().parents[2]
SEEDS = "2106.03764,2006.04862,2110.10090"
REFORMER = "2001.04451"  # a reference of the first seed in the first view, too little cited to be named there
SIZES = {"laptop": ((1280, 800), False), "projector": ((1920, 1080), False), "phone": ((390, 844), True)}

# Titles are drawn beside their paper (class lbl) or set apart with a line to it (a node "callout"). For each:
# its box, whose paper it names, and its font size on screen; then every pair of titles that overlap, every title
# over a paper's body (its own paper aside for a title beside it), every pair of papers whose bodies overlap.
MEASURE = """() => {
  const opts = {includeLabels: true, includeNodes: false, includeOverlays: false};
  const body = {includeLabels: false, includeOverlays: false};
  const ov = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  const z = cy.zoom(), ext = cy.extent();
  const inView = n => { const p = n.position(); return p.x > ext.x1 && p.x < ext.x2 && p.y > ext.y1 && p.y < ext.y2; };
  const titles = cy.nodes('.lbl, .callout').toArray().map(n => ({
    node: n, of: n.hasClass('callout') ? n.data('of') : n.id(), box: n.boundingBox(opts),
    px: parseFloat(n.style('font-size')) * z, text: n.data('wrapped') || ''}));
  const papers = cy.nodes('.paper').not('.lib-hidden').toArray();
  const boxes = papers.map(q => q.boundingBox(body));
  const overlaps = [], covers = [], touching = [];
  for (let i = 0; i < titles.length; i++) for (let j = i + 1; j < titles.length; j++)
    if (ov(titles[i].box, titles[j].box)) overlaps.push([titles[i].of, titles[j].of]);
  titles.forEach(t => papers.forEach((q, k) => {
    if (q.id() === t.of && !t.node.hasClass('callout')) return;
    if (ov(t.box, boxes[k])) covers.push([t.of, q.id()]);
  }));
  for (let i = 0; i < papers.length; i++) for (let j = i + 1; j < papers.length; j++) {
    const a = papers[i].position(), b = papers[j].position();
    const r = (papers[i].outerWidth() + papers[j].outerWidth()) / 2;
    if (Math.hypot(a.x - b.x, a.y - b.y) < r - 0.01) touching.push([papers[i].id(), papers[j].id()]);
  }
  const outside = titles.filter(t => t.box.x1 < ext.x1 || t.box.x2 > ext.x2 || t.box.y1 < ext.y1 || t.box.y2 > ext.y2);
  return {named: titles.map(t => t.of), texts: titles.map(t => t.text), px: titles.map(t => t.px),
          overlaps: overlaps, covers: covers, touching: touching, outside: outside.map(t => t.of),
          papers: papers.length, seeds: cy.nodes('.seed').filter(inView).map(n => n.id()),
          selected: cy.nodes('.selected').filter(inView).map(n => n.id())};
}"""


def titles(p: Page, after: int = 0) -> dict:
    """The titles drawn, once they have been chosen for the current view (more than ``after`` runs of the page's
    labeller) and no later change (a fit, a second draw) is still being labelled."""
    p.modules()
    p.page.wait_for_function("n => modules.labels.placings > n", arg=after, timeout=15000)
    p.page.wait_for_function(
        """() => new Promise(done => { const n = modules.labels.placings;
                                       setTimeout(() => done(modules.labels.placings === n), 400); })""",
        timeout=20000,
        polling=100,
    )
    return p.page.evaluate(MEASURE)


def runs(p: Page) -> int:
    p.modules()
    return p.page.evaluate("() => modules.labels.placings")


def assert_legible(got: dict, px: float, named: bool = True) -> None:
    """No title over a title or a paper, no paper over a paper, titles inside the map at one size on screen, and
    (``named``) the seeds and the selected paper in view named."""
    assert got["overlaps"] == [] and got["covers"] == [] and got["outside"] == [], got
    assert got["touching"] == []
    assert all(px - 0.01 <= size <= px + 1.01 for size in got["px"])  # one size on screen (seeds +1, bold)
    if named:
        assert set(got["seeds"]) | set(got["selected"]) <= set(got["named"]), "the papers that matter are named"


VIEWS = {
    "default": "",
    "timeline": f"?seeds={SEEDS}&layout=timeline&color=year",
    "concentric": f"?seeds={SEEDS}&layout=concentric",
    "similar": f"?seeds={SEEDS}&mode=similar",
    "path": f"?seeds={SEEDS}&path=2110.10090,2006.04862",
    "selected": f"?seeds={SEEDS}&selected=1706.03762",
    "big": "?seeds=1810.04805&limit=1462",
    "big4000": "?seeds=1412.6980,1810.04805&limit=2500",
}
BIG = ("big", "big4000")
# the papers in view, most cited first, and whether each is named (beside it or set apart)
TOP_CITED = """k => {
  const ext = cy.extent();
  const named = new Set(cy.nodes('.lbl').map(n => n.id()).concat(cy.nodes('.callout').map(n => n.data('of'))));
  return cy.nodes('.paper').filter(n => { const q = n.position();
      return q.x > ext.x1 && q.x < ext.x2 && q.y > ext.y1 && q.y < ext.y2; })
    .sort((a, b) => b.data('in_cited') - a.data('in_cited')).slice(0, k)
    .map(n => [n.id(), n.data('in_cited'), named.has(n.id())]);
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", VIEWS)
def test_no_title_over_a_paper_at_the_apps_zoom_and_after_its_buttons(
    browser, default_server, view: str, size: str
) -> None:
    """Every layout and mode, at the three sizes: at the zoom the app sets, after zooming in with its button, and
    out below the app's zoom (the papers that matter named when they are in view; in a 1,500- or 4,000-paper view,
    papers fill the whole map once zoomed in, and no place is left for a seed's title that covers none). At the fit
    of a 1,500- and a 4,000-paper view, the ten most cited papers are named."""
    (w, h), touch = SIZES[size]
    with Page(browser, default_server.url, (w, h), touch=touch) as p:
        p.open(VIEWS[view])
        px = 15 if w >= 1700 else 13
        got = titles(p)
        assert_legible(got, px)
        if view in BIG:
            top = p.page.evaluate(TOP_CITED, 10)
            assert len(top) == 10 and all(named for _, _, named in top), [t for t in top if not t[2]]
        for button, times in (("#button-zoom-in", 1), ("#button-zoom-out", 2)):  # closer, then below the fit
            before = runs(p)
            for _ in range(times):
                p.page.click(button)
            assert_legible(titles(p, before), px, named=view not in BIG)


def story_views() -> list[str]:
    story = json.loads((ROOT / "data" / "stories" / "seeds.json").read_text())
    return [step["view"] for step in story["steps"]]


@pytest.mark.parametrize("query", ["", *story_views()])
def test_the_first_picture_and_every_story_step_read_as_a_picture(browser, default_server, query: str) -> None:
    """At 1280x800: at least 15 titles (or every paper, in a smaller view), two lines where a title is long, no
    title over a paper."""
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(query)
        got = titles(p)
        assert_legible(got, 13)
        assert len(set(got["named"])) >= min(15, got["papers"]), got["named"]
        long = [t for t in got["texts"] if "\n" in t]
        assert any(len(t) > 45 for t in long), "long titles wrap to two lines where there is room"
        assert all(len(t.split("\n")) == 2 and len(t) <= 68 for t in long)  # about 60 characters, then an ellipsis


def test_titles_wrap_to_more_on_a_projector_and_the_hover_card_has_it_whole(browser, default_server) -> None:
    """Presenting: three lines at a projector's size; a title cut on the map is whole on the hover card."""
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open()
        got = titles(p)
        cut = next(pid for pid, t in zip(got["named"], got["texts"], strict=True) if t.endswith("…"))
        full = p.page.evaluate("id => cy.getElementById(id).data('title')", cut)
        p.page.evaluate("id => cy.getElementById(id).emit('mouseover')", cut)
        p.page.wait_for_function("t => document.getElementById('div-hover').textContent.includes(t)", arg=full)
        before = runs(p)
        p.page.evaluate("() => document.documentElement.classList.add('presenting')")
        p.page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        shown = titles(p, before)
        assert max(len(t.split("\n")) for t in shown["texts"]) == 3
        assert min(shown["px"]) >= 19 - 0.01


def test_zooming_in_names_more_papers_at_one_size(browser, default_server) -> None:
    with Page(browser, default_server.url) as p:
        p.open("?seeds=1412.6980&limit=1200")
        got = titles(p)
        assert len(got["named"]) >= 5
        before = runs(p)
        p.page.evaluate(
            "() => cy.zoom({level: cy.zoom() * 2.5, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}})"
        )
        zoomed = titles(p, before)
        assert_legible(zoomed, 13)
        assert set(zoomed["named"]) - set(got["named"])  # chosen again on zoom: room for titles that were blocked


# For the most important papers in view with no title (the selected paper, seeds, then by citers alone): its title
# drawn under it on one line, as the page draws a title, must overlap a title of a more important paper, a paper's
# body, or cross the viewport's edge: nothing less important took its place.
BLOCKED = """() => {
  const rank = n => n.hasClass('selected') ? 0 : n.hasClass('seed') ? 1 : 2;
  const before = (a, b) => rank(a) - rank(b) || b.data('in_cited') - a.data('in_cited') || (a.id() < b.id() ? -1 : 1);
  const opts = {includeLabels: true, includeNodes: false, includeOverlays: false};
  const body = {includeLabels: false, includeOverlays: false};
  const ov = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  const drawn = cy.nodes('.lbl').toArray().concat(cy.nodes('.callout').toArray());
  const ext = cy.extent(), z = cy.zoom();
  const inView = n => {
    const p = n.position();
    return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
  };
  const paperOf = d => d.hasClass('callout') ? cy.getElementById(d.data('of')) : d;
  const setApart = new Set(cy.nodes('.callout').map(d => d.data('of')));
  const plain = drawn.find(n => n.hasClass('lbl') && !n.hasClass('seed') && !n.hasClass('selected'));
  const undrawn = cy.nodes('.paper').not('.lbl').not('.seed').not('.selected').filter(n => inView(n)
                    && !setApart.has(n.id())).toArray().sort(before).slice(0, 40);
  const out = [];
  for (const u of undrawn) {
    const text = modules.text.wrap(u.data('label'), false, modules.page.screenPx(), 1e9, 1).text;
    u.data('wrapped', text);
    u.style({'font-size': plain.style('font-size'), 'text-max-width': 1e6, 'text-valign': 'bottom',
             'text-halign': 'center', 'text-margin-y': 4 / z, 'text-margin-x': 0,
             'text-background-padding': plain.style('text-background-padding')});
    u.addClass('lbl');
    const b = u.boundingBox(opts);
    u.removeClass('lbl');
    const edge = b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2;
    const byTitle = drawn.filter(d => before(paperOf(d), u) < 0).some(d => ov(d.boundingBox(opts), b));
    const byPaper = cy.nodes('.paper').some(q => q !== u && ov(q.boundingBox(body), b));
    out.push([u.id(), edge || byTitle || byPaper]);
  }
  return out;
}"""


def test_a_title_is_left_out_only_for_a_more_important_one_or_a_paper(browser, default_server) -> None:
    with Page(browser, default_server.url) as p:
        p.open("?seeds=1412.6980&limit=1200")
        titles(p)
        checked = p.page.evaluate(BLOCKED)
        assert len(checked) == 40 and all(ok for _, ok in checked), [pid for pid, ok in checked if not ok]


def test_a_paper_chosen_from_the_search_is_named_on_the_map(browser, default_server) -> None:
    """Choosing a paper of the map from the search suggestions selects it (a class change, no new elements): its
    title is chosen again and drawn, as if it had been clicked or named in the URL."""
    with Page(browser, default_server.url) as p:
        p.open()
        before = titles(p)
        assert REFORMER in p.node_ids() and REFORMER not in before["named"]  # in the map, not named
        runs_before = runs(p)
        p.page.fill("#input-search", "reformer the efficient transformer")
        p.page.wait_for_selector(".search-item")
        p.page.click(".search-select >> nth=0")
        p.page.wait_for_function(f"() => window.location.search.includes('selected={REFORMER}')")
        p.settle()
        after = titles(p, runs_before)
        assert REFORMER in after["named"]
        assert_legible(after, 13)
        assert p.page.evaluate(f"() => cy.getElementById('{REFORMER}').hasClass('selected')")


@pytest.mark.parametrize("route", ["click", "list", "keys"])
def test_the_paper_chosen_is_named_whatever_the_route(browser, default_server, route: str) -> None:
    """A paper chosen by a click on the map, from the panel's list or with the keyboard is named on the map, and
    no title covers a paper."""
    with Page(browser, default_server.url) as p:
        p.open()
        before = titles(p)
        pid = REFORMER  # in the map, not named at first
        assert pid in p.node_ids() and pid not in before["named"]
        after = runs(p)
        if route == "click":
            p.tap(pid)
        elif route == "list":  # the panel shows the first seed, whose references hold the paper
            p.page.click(".list-references button:text-is('Reformer: The Efficient Transformer')")
            p.page.wait_for_function("id => window.location.search.includes('selected=' + id)", arg=pid)
            p.settle()
        else:  # the keyboard's focus on the paper (arrow keys move it; here set as they do)
            p.page.focus("#div-map-region")
            p.page.keyboard.press("ArrowRight")
            p.modules()
            pid = p.page.evaluate("() => modules.focus.focusedPaper()")
            p.page.wait_for_function("() => modules.labels.placings > 0")
        got = titles(p, after)
        assert pid in got["named"], (pid, got["named"])
        assert_legible(got, 13)
