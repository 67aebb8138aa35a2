"""The timeline at 1,500 papers on the real page: x follows the publication date, the papers use the canvas's width,
their bodies (as Cytoscape draws them) overlap for fewer than 1 % of pairs, and the year ticks along the bottom are
drawn apart from each other inside the map."""

from __future__ import annotations

import itertools

import pytest

from tests.browser.conftest import Page

MEASURE = """() => {
  const ps = cy.nodes('.paper').toArray();
  const opts = {includeLabels: false, includeOverlays: false};
  const boxes = ps.map(n => n.boundingBox(opts)).map((b, i) => [b.x1, b.x2, b.y1, b.y2, i]).sort((a, b) => a[0] - b[0]);
  let overlapping = 0;
  for (let i = 0; i < boxes.length; i++) {  /* sweep along x: only boxes that start before this one ends */
    for (let j = i + 1; j < boxes.length && boxes[j][0] < boxes[i][1]; j++) {
      if (boxes[i][2] < boxes[j][3] && boxes[j][2] < boxes[i][3]) { overlapping++; }
    }
  }
  const ticks = cy.nodes('.axis').not('.axis-thinned').filter(n => n.id().startsWith('axis-y')).toArray().map(n => {
    const b = n.renderedBoundingBox({includeLabels: true, includeNodes: false});
    return {label: n.data('label'), x1: b.x1, x2: b.x2, y1: b.y1, y2: b.y2};
  });
  const rb = cy.nodes('.paper').renderedBoundingBox({includeLabels: false, includeOverlays: false});
  return {n: ps.length, overlapping: overlapping, pairs: ps.length * (ps.length - 1) / 2,
          years: ps.map(n => [n.data('year'), n.position('x')]), ticks: ticks,
          width: rb.w, canvas: cy.width(), height: cy.height()};
}"""


def test_a_1500_paper_timeline_is_dated_spread_and_readable(browser, default_server) -> None:
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?seeds=1412.6980&limit=1500&layout=timeline")
        got = p.page.evaluate(MEASURE)
        assert got["n"] >= 1500
        assert got["overlapping"] < 0.01 * got["pairs"], got["overlapping"]
        by_year: dict[int, list[float]] = {}
        for year, x in got["years"]:
            if year is not None:
                by_year.setdefault(year, []).append(x)
        years = sorted(by_year)
        assert len(years) >= 5
        assert all(max(by_year[a]) <= min(by_year[b]) for a, b in itertools.pairwise(years))  # by date
        assert got["width"] >= 0.8 * got["canvas"]  # the canvas's width is used
        ticks = sorted(got["ticks"], key=lambda t: t["x1"])
        assert len(ticks) >= 5
        assert all(a["x2"] <= b["x1"] for a, b in itertools.pairwise(ticks))  # ticks apart, readable
        assert all(t["x1"] >= 0 and t["x2"] <= got["canvas"] and t["y2"] <= got["height"] for t in ticks)


FILLS = """() => {
  const rb = cy.nodes('.paper').renderedBoundingBox({includeLabels: false, includeOverlays: false});
  const ticks = cy.nodes('.axis').not('.axis-thinned').toArray();
  const years = ticks.filter(n => n.id().startsWith('axis-y')).map(n => {
    const b = n.renderedBoundingBox({includeLabels: true, includeNodes: false});
    return [b.x1, b.x2];
  }).sort((a, b) => a[0] - b[0]);
  const labels = cy.nodes('.axis').filter(n => n.id().startsWith('axis-y')).map(n => n.data('label'));
  return {w: rb.w / cy.width(), h: rb.h / cy.height(), years: years, labels: labels,
          px: ticks.map(n => parseFloat(n.style('font-size')) * cy.zoom())};
}"""


@pytest.mark.parametrize("years", ["", "&years=2021-2024"])
@pytest.mark.parametrize(("size", "touch"), [((1280, 800), False), ((1920, 1080), False), ((390, 844), True)])
def test_the_timeline_fills_the_map_and_its_ticks_are_readable(browser, default_server, size, touch, years) -> None:
    """The default view's timeline, drawn in a map about as high as wide (or higher, on a phone): its heights are
    stretched to the map's shape, so the papers span at least 80 % of the map's width and 60 % of its height; its
    ticks are at least 11 px on screen, year ticks thinned rather than drawn touching; a years filter narrows the
    year axis to its years (the papers left fill the map as well)."""
    with Page(browser, default_server.url, size, touch=touch) as p:
        p.open("?layout=timeline" + years)
        got = p.page.evaluate(FILLS)
        assert got["w"] >= 0.8 and got["h"] >= 0.6, got
        assert min(got["px"]) >= 11, got["px"]
        assert len(got["years"]) >= 3
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(got["years"])), got["years"]
        labels = sorted(int(t) for t in got["labels"])
        if years:
            assert labels[0] >= 2021 and labels[-1] <= 2024
        else:
            assert labels[0] <= 2015 and labels[-1] >= 2025
