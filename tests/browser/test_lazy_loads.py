"""What the first page loads, and what waits until it is used: the SVG export's library comes with the first SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tests.browser.conftest import Page


def rgb(hex_colour: str) -> str:
    """``#0072b2`` as canvas2svg writes a fill: ``rgb(0,114,178)``."""
    h = hex_colour.lstrip("#")
    return "rgb({},{},{})".format(*(int(h[k : k + 2], 16) for k in (0, 2, 4)))


def test_the_svg_export_loads_canvas2svg_on_first_use_and_draws_the_map(page: Page, tmp_path) -> None:
    requested: list[str] = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.open("?seeds=2006.04862&expand=2106.03764&limit=5")
    page.page.wait_for_timeout(1000)  # what the page loads once the map is drawn (the charts' plotly)
    assert any("/dash_cytoscape/dash_cytoscape.v" in u for u in requested)  # dash-cytoscape's plain bundle
    assert not [u for u in requested if "dash_cytoscape_extra" in u or "canvas2svg" in u]
    page.page.click(".export summary")
    with page.page.expect_download(timeout=20000) as dl:
        page.page.click("#button-export-svg")
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    assert [u.split("?")[0] for u in requested if "canvas2svg" in u] == [page.base + "/assets/vendor/canvas2svg.js"]
    svg = path.read_text()
    ET.fromstring(svg)  # well-formed
    drawn = svg.split('class="citemap-legend"')[0]  # the title line and the map
    # the map's titles as text, line by line, as drawn on screen
    lines = page.page.evaluate("() => cy.nodes('.lbl, .callout').map(n => n.data('wrapped').split('\\n')).flat()")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", drawn)
    assert len(lines) >= 5 and all(any(t.startswith(line) for t in texts) for line in lines)
    # the papers' colours, their shapes and the citations as paths; a truncated paper's border dashed
    colours = page.page.evaluate("() => Array.from(new Set(cy.nodes('.paper').map(n => n.data('color'))))")
    fills = set(re.findall(r'<path fill="(rgb\([^"]*\))"', drawn))
    assert {rgb(c) for c in colours} <= fills
    shown = page.page.evaluate("() => cy.elements(':visible').length")
    assert drawn.count("<path") >= shown
    truncated = page.page.evaluate("() => cy.nodes('.truncated').length")
    assert truncated and drawn.count('stroke-dasharray="') >= truncated
    page.page.click(".export summary")  # a second SVG: the library is loaded once
    with page.page.expect_download(timeout=20000):
        page.page.click("#button-export-svg")
    assert len([u for u in requested if "canvas2svg" in u]) == 1
