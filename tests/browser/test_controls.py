"""Map controls in the page: zoom and fit buttons, a gentle mouse wheel, lists that bring a paper into view,
the chart's double-click, notices that can be dismissed and never cover the graph, the help line."""

from __future__ import annotations

from tests.browser.conftest import Page


def zoom(p: Page) -> float:
    return p.page.evaluate("() => cy.zoom()")


def test_zoom_buttons_wheel_and_fit(page: Page) -> None:
    page.open()
    fitted = zoom(page)
    box = page.page.locator("#graph-citations").bounding_box()
    page.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.mouse.wheel(0, -100)  # one notch in
    page.page.wait_for_timeout(300)
    notch = zoom(page) / fitted
    assert 1.05 < notch <= 1.3
    page.page.click("#button-zoom-in")
    page.page.wait_for_timeout(400)
    assert abs(zoom(page) / fitted - notch * 1.3) < 0.02
    page.page.click("#button-zoom-out")
    page.page.click("#button-zoom-out")
    page.page.wait_for_timeout(500)
    assert zoom(page) < fitted * notch
    page.page.click("#button-fit")
    page.page.wait_for_timeout(500)
    assert abs(zoom(page) - fitted) / fitted < 0.05
    inside = page.page.evaluate("""() => { const e = cy.extent(),
        b = cy.elements(':visible').boundingBox({includeLabels: false, includeOverlays: false});
        return b.x1 >= e.x1 - 1 && b.x2 <= e.x2 + 1 && b.y1 >= e.y1 - 1 && b.y2 <= e.y2 + 1; }""")
    assert inside


FITS = """() => {  // the papers' box fills the map's box to its 40 px margin along one side
  const bb = cy.nodes('.paper').renderedBoundingBox({includeLabels: false, includeOverlays: false});
  return Math.min(Math.abs(bb.x1 - 40), Math.abs(cy.width() - 40 - bb.x2),
                  Math.abs(bb.y1 - 40), Math.abs(cy.height() - 40 - bb.y2));
}"""
CENTRE = "() => { const e = cy.extent(); return [(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2, cy.zoom()]; }"


def test_a_new_window_size_refits_an_untouched_map_and_keeps_a_moved_ones_centre(page: Page) -> None:
    page.open()
    page.page.wait_for_timeout(500)
    assert page.page.evaluate(FITS) < 2
    page.page.set_viewport_size({"width": 1500, "height": 950})
    page.page.wait_for_timeout(600)
    assert page.page.evaluate(FITS) < 2  # fitted again to the new box, not rescaled from an older frame
    page.page.evaluate("() => cy.panBy({x: 120, y: -60})")
    before = page.page.evaluate(CENTRE)
    page.page.set_viewport_size({"width": 1280, "height": 800})
    page.page.wait_for_timeout(600)
    after = page.page.evaluate(CENTRE)
    assert after[2] == before[2] and abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1


def test_a_paper_clicked_in_a_list_comes_into_view(page: Page) -> None:
    page.open("?seeds=2110.10090")
    # zoom far into one corner, so that most papers are off screen
    page.page.evaluate("() => cy.zoom({level: cy.zoom() * 6, renderedPosition: {x: 5, y: 5}})")
    page.page.wait_for_timeout(200)
    target = page.page.evaluate("""() => { const e = cy.extent();
        return cy.nodes('.citer').filter(n => { const p = n.position();
          return p.x < e.x1 || p.x > e.x2 || p.y < e.y1 || p.y > e.y2; }).map(n => n.id()); }""")
    title = page.page.evaluate("id => cy.getElementById(id).data('title')", target[0])
    page.page.click(f".list-citers button[id*='{target[0]}']")
    page.page.wait_for_function("id => decodeURIComponent(location.search).includes('selected=' + id)", arg=target[0])
    page.settle()
    page.page.wait_for_timeout(600)
    shown = page.page.evaluate(
        """id => { const e = cy.extent(), p = cy.getElementById(id).position();
        return p.x > e.x1 && p.x < e.x2 && p.y > e.y1 && p.y < e.y2; }""",
        target[0],
    )
    assert shown, title


def test_double_click_on_the_chart_clears_its_years(page: Page) -> None:
    page.open("?seeds=2110.10090&years=2022-2023")
    box = page.page.locator("#graph-by-year .nsewdrag").first.bounding_box()
    page.page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.wait_for_function("() => !location.search.includes('years=')", timeout=10000)
    page.settle()
    assert "years=" not in page.query()


def test_notices_can_be_dismissed_and_do_not_cover_the_graph(page: Page) -> None:
    page.open("?seeds=nope,2110.10090")
    notice = page.page.locator("#div-notices .notice").first
    assert "Unknown paper id in seeds: 'nope'" in notice.inner_text()
    n = notice.bounding_box()
    g = page.page.locator("#graph-citations").bounding_box()
    assert n["y"] + n["height"] <= g["y"] + 1  # above the graph, not over it
    notice.locator(".notice-close").click()
    assert not notice.is_visible()


def test_the_help_line_is_visible_at_1280x800(page: Page) -> None:
    page.open()
    key = page.page.locator(".status .key")
    assert key.is_visible()
    b = key.bounding_box()
    assert b["x"] + b["width"] <= 1280 and b["y"] + b["height"] <= 800
    assert "Esc" in key.inner_text()


def test_the_connect_buttons_show_the_seeds_titles_at_1280x800(page: Page) -> None:
    """Beside "Remove seed" they were squeezed to "O(…" and "In…"; on a row of their own each shows its title
    (or 250 px of it)."""
    page.open()
    got = page.page.evaluate("""() => [...document.querySelectorAll('.button.connect')].map(b =>
        ({text: b.textContent, shown: b.clientWidth, needs: b.scrollWidth}))""")
    assert len(got) == 2, got  # the other two seeds of the default view
    assert all(b["shown"] >= min(b["needs"], 250) for b in got), got


def test_colour_by_year_uses_viridis_over_the_years_in_view(page: Page) -> None:
    page.open("?seeds=2110.10090&color=year")
    got = page.page.evaluate("""() => cy.nodes('.paper').filter(n => n.data('year') !== null)
        .map(n => [n.data('year'), n.data('color').toLowerCase()])""")
    lo, hi = min(y for y, _ in got), max(y for y, _ in got)
    assert {c for y, c in got if y == lo} == {"#440154"} and {c for y, c in got if y == hi} == {"#fde725"}
    legend = page.text("#div-legend")
    assert "Colour: year (the papers in view)" in legend and str(lo) in legend and str(hi) in legend


def test_the_paper_under_the_pointer_brings_out_its_citations(page: Page) -> None:
    """Citations are faint; those of the paper under the pointer stand out (class near) until the pointer leaves."""
    page.open()
    # the paper with the most citations drawn among those with no other paper within 25 px on screen
    seed, x, y, degree = page.page.evaluate(
        """() => { const b = cy.container().getBoundingClientRect(), ps = cy.nodes('.paper').toArray();
                   const free = ps.filter(n => ps.every(o => o === n ||
                     Math.hypot(o.renderedPosition().x - n.renderedPosition().x,
                                o.renderedPosition().y - n.renderedPosition().y) > 25));
                   free.sort((a, c) => c.connectedEdges().length - a.connectedEdges().length);
                   const n = free[0], p = n.renderedPosition();
                   return [n.id(), b.left + p.x, b.top + p.y, n.connectedEdges().length]; }"""
    )
    assert degree >= 2
    faint = page.page.evaluate("() => parseFloat(cy.edges().not('.touching, .leader')[0].style('opacity'))")
    page.page.mouse.move(x - 40, y - 40)
    page.page.mouse.move(x, y, steps=5)  # a pointer that travels to the paper, as a hand does
    page.page.wait_for_function("id => cy.getElementById(id).connectedEdges('.near').length > 0", arg=seed)
    near = page.page.evaluate(
        """id => { const n = cy.getElementById(id);
                   return [n.connectedEdges('.near').length, n.connectedEdges().length, cy.edges('.near').length,
                           parseFloat(n.connectedEdges()[0].style('opacity'))]; }""",
        seed,
    )
    assert near[0] == near[1] == near[2] and near[3] == 1 and faint < 0.5
    page.page.mouse.move(5, 5)  # away from the map
    page.page.wait_for_function("() => cy.edges('.near').length === 0")
