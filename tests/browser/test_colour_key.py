"""One colour key on the real page: every colour of the charts (Plotly's own data of each chart) and of the map is
a swatch of the legend beside the map, for colour by area, year and cluster; presenting, a compact legend over the
map's corner shows the map's colours."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import Page

SEEDS = "2106.03764,2006.04862,2110.10090"
ATTENTION = "1706.03762"  # its citers in the dataset reach well beyond the seeds' map

# The colours of the bars Plotly draws in each chart (gd.data), of the legend's swatches (computed), of the papers.
COLOURS = """sel => {
  const bars = id => {
    const gd = document.querySelector('#' + id + ' .js-plotly-plot');
    return gd && gd.data ? gd.data.flatMap(t => [].concat(t.marker.color)) : null;
  };
  const swatches = [...document.querySelectorAll(sel + ' .swatch, ' + sel + ' .year-step')]
    .map(el => getComputedStyle(el).backgroundColor);
  return {overview: bars('graph-overview'), cited: bars('graph-by-year'), legend: swatches,
          map: cy.nodes('.paper').not('.lib-hidden').map(n => n.data('color'))};
}"""


def hex_colour(c: str) -> str:
    """``#0072b2`` or ``rgb(0, 114, 178)`` -> ``#0072B2``."""
    m = re.fullmatch(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*[\d.]+)?\)", c.strip())
    return "#{:02X}{:02X}{:02X}".format(*map(int, m.groups())) if m else c.strip().upper()


def colours(p: Page, legend: str = "#div-legend") -> dict[str, set[str]]:
    """The colours of the charts, of the legend ``legend`` and of the map, once both charts show their data."""
    p.page.wait_for_function(
        """() => ['graph-overview', 'graph-by-year'].every(id => {
             const gd = document.querySelector('#' + id + ' .js-plotly-plot');
             return gd && gd.data && gd.data.length > 0; })""",
        timeout=30000,
    )
    p.page.wait_for_timeout(300)
    got = p.page.evaluate(COLOURS, legend)
    return {k: {hex_colour(c) for c in v or []} for k, v in got.items()}


@pytest.mark.parametrize("color", ["area", "year", "cluster"])
def test_every_colour_of_the_charts_and_the_map_is_in_the_legend(browser, default_server, color: str) -> None:
    with Page(browser, default_server.url) as p:
        p.open(f"?seeds={SEEDS}&selected={ATTENTION}&color={color}")
        got = colours(p)
        assert got["overview"] and got["cited"] and len(got["legend"]) >= 3
        assert got["overview"] <= got["legend"], got["overview"] - got["legend"]
        assert got["cited"] <= got["legend"], got["cited"] - got["legend"]
        assert got["map"] <= got["legend"], got["map"] - got["legend"]
        if color != "year":  # stacked by the key's categories: one colour a trace, as many as the colours
            traces = p.page.evaluate("() => document.querySelector('#graph-by-year .js-plotly-plot').data.length")
            assert traces == len(got["cited"]) >= 2


def test_a_source_s_counts_are_in_the_legend_too(browser, default_server) -> None:
    """2110.10090's chart has the source's counts by year beside the dataset's citers: the line's colour is the
    legend's, named after the source as the chart's own, and no paper of the map has it."""
    with Page(browser, default_server.url) as p:
        p.open(f"?seeds={SEEDS}&selected=2110.10090")
        got = colours(p)
        line = p.page.evaluate(
            """() => document.querySelector('#graph-by-year .js-plotly-plot').data
                 .filter(t => t.type === 'scatter').map(t => t.line.color)"""
        )
        assert len(line) == 1 and hex_colour(line[0]) in got["legend"] and hex_colour(line[0]) not in got["map"]
        assert got["cited"] <= got["legend"] and len(got["cited"]) >= 2
        assert "citing papers according to mlsanity.com" in p.text("#div-legend")


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_presenting_shows_a_compact_legend_of_the_maps_colours(browser, default_server, size) -> None:
    """The dataset's story: by area (step 1), then by year (step 3, a timeline); the legend sits in the map's top left
    corner, small, in a projector's letters, with the shapes and a swatch for every colour of the map."""
    with Page(browser, default_server.url, size) as p:
        p.open(f"?seeds={SEEDS}")
        assert not p.page.is_visible("#div-map-legend")  # the sidebar has the legend
        for step in (1, 3):
            p.open(f"?story=seeds&step={step}")
            assert p.page.is_visible("#div-map-legend") and not p.page.is_visible("#div-legend")
            shapes = p.text("#div-map-legend .map-legend-shapes")  # a room reads the shapes too
            assert all(s in shapes for s in ("★ seed", "■ reference", "● citing paper")), shapes
            got = p.page.evaluate(COLOURS, "#div-map-legend")
            legend = {hex_colour(c) for c in got["legend"]}
            assert {hex_colour(c) for c in got["map"]} <= legend and len(legend) >= 3
            box = p.page.locator("#div-map-legend").bounding_box()
            assert box["x"] < 30 and box["y"] < 30  # the top left corner
            assert box["width"] * box["height"] <= 0.06 * size[0] * size[1], box
            px = p.page.evaluate(
                """() => [...document.querySelectorAll('#div-map-legend .legend-item, #div-map-legend .year-ends')]
                           .map(el => parseFloat(getComputedStyle(el).fontSize))"""
            )
            assert px and min(px) >= 15, px  # a projector's letters (the map's labels: 19 px)
