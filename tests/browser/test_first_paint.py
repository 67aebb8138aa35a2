"""The first page's largest paint is the map: a picture of the view's map (GET /preview.svg) where the map will be,
shown before the page's scripts have run, seen until the live map is drawn over it; nothing shifts on the way."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

# what the browser reported as the largest paint and the layout shifts, observed from the page's first moment
OBSERVE = """
window.__paints = []; window.__shifts = [];
new PerformanceObserver(l => l.getEntries().forEach(e => window.__paints.push(
  {tag: e.element ? e.element.tagName : null, cls: e.element ? e.element.className : null, size: e.size})))
  .observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver(l => l.getEntries().forEach(e => window.__shifts.push(e.value)))
  .observe({type: 'layout-shift', buffered: true});
"""


@pytest.mark.parametrize("size,touch", [((1280, 800), False), ((412, 823), True)], ids=["desktop", "phone"])
def test_the_largest_paint_is_the_picture_of_the_map_and_nothing_shifts(browser, server, size, touch) -> None:
    with Page(browser, server.url, size=size, touch=touch) as p:
        p.page.add_init_script(OBSERVE)
        p.open()
        p.page.wait_for_function("() => document.documentElement.classList.contains('map-drawn')")
        paints = p.page.evaluate("window.__paints")
        assert paints and paints[-1]["tag"] == "IMG" and paints[-1]["cls"] == "boot-map", paints
        picture = p.page.evaluate(
            "() => { const i = document.querySelector('img.boot-map'); return [i.complete, i.naturalWidth]; }"
        )
        assert picture[0] and picture[1] > 100  # loaded and drawn (an SVG of the view's size)
        # a phone (Lighthouse's mobile run) sees no shift; a desktop's filters and panel, filled by the first
        # callbacks, move a little: within what the Web Vitals call good
        shift = sum(p.page.evaluate("window.__shifts"))
        assert shift == 0 if touch else shift < 0.1, shift
        # the live map drawn: the picture and the rest of the loading frame are gone
        assert p.page.evaluate("() => getComputedStyle(document.querySelector('.boot')).display") == "none"


def test_before_the_scripts_run_the_picture_fills_the_maps_place(browser, server) -> None:
    """Without scripts (what a visitor sees while they load): the picture is drawn in the middle column, between
    the filters and the panel, and the "Loading the map" line is on it, not under it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/?seeds=2006.04862")
        page.wait_for_function("() => document.querySelector('img.boot-map').complete")
        box = page.locator("img.boot-map").bounding_box()
        assert box["x"] == 250 and box["x"] + box["width"] == 1280 - 370 and box["height"] > 600
        assert page.evaluate("() => document.querySelector('img.boot-map').naturalWidth") > 100
        line = page.get_by_text("Loading the map").bounding_box()
        assert box["x"] < line["x"] and line["x"] + line["width"] < box["x"] + box["width"]
        assert box["y"] < line["y"] and line["y"] + line["height"] < box["y"] + box["height"]
        top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).textContent",
            [line["x"] + line["width"] / 2, line["y"] + line["height"] / 2],
        )
        assert "Loading the map" in top
    finally:
        ctx.close()


def test_the_picture_colours_each_paper_as_the_live_map_does(browser, server) -> None:
    """The picture's shapes, in the payload's order, have the fills the live map gives the same papers, in each
    colour mode (the server draws the picture; the page's script colours the map)."""
    with Page(browser, server.url) as p:
        for query in ("?seeds=2006.04862", "?seeds=2006.04862&color=year", "?seeds=2006.04862&color=cluster"):
            p.open(query)
            got = p.page.evaluate(
                """async () => {
                  const q = window.location.search;
                  const svg = new DOMParser().parseFromString(
                    await (await fetch('/preview.svg' + q)).text(), 'image/svg+xml');
                  const fills = Array.from(svg.querySelectorAll('circle, rect, polygon'))
                    .map(e => e.getAttribute('fill'));
                  const payload = await (await fetch('/graph' + q)).json();
                  const ids = payload.nodes.map(n => n[payload.fields.indexOf('id')]);
                  return {fills, map: ids.map(id => cy.getElementById(id).data('color'))};
                }"""
            )
            assert len(got["fills"]) == len(got["map"]) > 10, query
            assert [f.lower() for f in got["fills"]] == [c.lower() for c in got["map"]], query
