"""End to end in headless Chromium: each part of the explorer driven through the page."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import struct

import pytest

from dashboard.graph.state import EXPAND_FIRST
from tests.browser.conftest import Page, serve
from tests.conftest import SEED_IDS


def wait_query(page: Page, needle: str, timeout: float = 15000) -> None:
    page.page.wait_for_function(
        "n => decodeURIComponent(window.location.search).includes(n)", arg=needle, timeout=timeout
    )
    page.settle()


def list_entries(page: Page, direction: str) -> list[tuple[str, str]]:
    """(title, meta) of the entries of a panel list: "references" or "citers"."""
    return page.page.evaluate(
        """d => Array.from(document.querySelectorAll('.list-' + d + ' li.entry')).map(li =>
             [li.querySelector('button').innerText, li.querySelector('.meta').innerText])""",
        direction,
    )


def test_paper_panel_lists_sort_and_reveal(page: Page) -> None:
    page.open("?seeds=2110.10090")
    head = page.text("#div-paper")
    assert (
        "First posted 2021-10-19" in head
        and "Areas: Machine learning (cs.LG), Statistical machine learning (stat.ML)" in head
    )
    assert "Builds on 43 of its 79 references in this dataset" in head
    first = list_entries(page, "references")
    assert len(first) == 20 and first[1][0] == "Attention Is All You Need"  # the first ones, the rest a click away
    page.page.click(".list-references button:text-is('Show 23 more')")
    page.page.wait_for_function("() => document.querySelectorAll('.list-references li.entry').length === 43")
    refs = list_entries(page, "references")
    assert refs[:20] == first and page.page.locator("#div-lists .more button").count() == 0
    assert refs[1][1] == "2017 · 2 citing in dataset · 59,932 according to mlsanity.com"  # the two counts, each named
    counts = [int(m.split(" · ")[1].split(" citing")[0].replace(",", "")) for _, m in refs]
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    page.page.click("#radio-list-sort >> text=according to mlsanity.com")  # the sort names the source as the lists do
    page.page.wait_for_function(
        "() => document.querySelector('.list-references li.entry .meta').innerText"
        ".endsWith('59,932 according to mlsanity.com')"
    )
    figures = [
        int(m.split(" · ")[2].split(" according")[0].replace(",", ""))
        for _, m in list_entries(page, "references")
        if m.endswith("according to mlsanity.com")
    ]
    assert figures == sorted(figures, reverse=True) and len(figures) > 20
    assert "Built on by · 50" in page.text("#div-lists")
    page.page.click("#radio-list-sort >> text=year")
    page.page.wait_for_function(
        "() => document.querySelector('.list-references li.entry .meta').innerText.startsWith('2021')"
    )
    years = [int(m[:4]) for _, m in list_entries(page, "references")]
    assert years == sorted(years, reverse=True)
    # an entry selects its paper and reveals it in the graph
    page.page.click(
        ".list-citers button:text-is('H2O: Heavy-Hitter Oracle for Efficient Generative Inference of "
        "Large Language Models')"
    )
    wait_query(page, "selected=2306.14048")
    assert "selected" in page.classes("2306.14048")
    assert page.text("#paper-title").startswith("H2O: Heavy-Hitter Oracle")


def test_selecting_a_paper_not_in_view_reveals_it(page: Page) -> None:
    page.open("?seeds=2006.04862&selected=2106.03764")
    assert "2110.10090" not in page.node_ids()
    page.page.click(
        ".list-citers button:text-is('Inductive Biases and Variable Creation in Self-Attention Mechanisms')"
    )
    wait_query(page, "selected=2110.10090")
    assert "2110.10090" in page.node_ids() and "selected" in page.classes("2110.10090")


def test_chart_selection_filters_graph_and_lists(page: Page) -> None:
    page.open("?seeds=2110.10090")
    caption = page.text("#div-chart-caption")
    assert "citing papers in this dataset" in caption and "as mlsanity.com reports them" in caption, caption
    names = page.page.eval_on_selector_all("#graph-by-year .legendtext", "els => els.map(e => e.textContent)")
    assert names == ["according to mlsanity.com"]
    box = page.page.locator("#graph-by-year .nsewdrag").bounding_box()
    # the citers' years and the source's figures cover 2022-2026: drag across the middle three (2023-2025)
    y = box["y"] + box["height"] / 2
    page.page.mouse.move(box["x"] + box["width"] * 0.25, y)
    page.page.mouse.down()
    page.page.mouse.move(box["x"] + box["width"] * 0.5, y, steps=5)
    page.page.mouse.move(box["x"] + box["width"] * 0.75, y, steps=5)
    page.page.mouse.up()
    wait_query(page, "years=2023-2025")
    years = page.page.evaluate("() => window.cy.nodes('.paper').not('.seed').map(n => n.data('year'))")
    assert years and all(2023 <= y <= 2025 for y in years), sorted(years)
    citers = list_entries(page, "citers")
    assert citers and all(2023 <= int(m[:4]) <= 2025 for _, m in citers)
    assert "(filtered)" in page.text("#div-lists")


def test_filters_update_graph_lists_and_overview(page: Page) -> None:
    page.open()
    page.page.click("#dropdown-areas-summary")
    page.page.click("#dropdown-areas [role=checkbox][data-value='cs.LG']")
    wait_query(page, "areas=cs.LG")
    assert page.page.is_checked("#dropdown-areas [data-value='cs.LG']")
    assert page.text("#dropdown-areas-summary") == "Machine learning (cs.LG)"  # the menu names it in words
    page.page.keyboard.press("Escape")
    assert not page.page.is_visible("#dropdown-areas")
    ids = page.node_ids()
    areas = page.page.evaluate("() => window.cy.nodes('.paper').not('.seed').map(n => n.data('areas'))")
    assert all("cs.LG" in a for a in areas) and set(SEED_IDS) <= ids and len(ids) < 60
    overview = page.page.evaluate(
        "() => document.getElementById('graph-overview').querySelector('.js-plotly-plot').data.map(t => t.name)"
    )
    assert overview == [
        "Machine learning (cs.LG)",
        "no area given",
    ]  # two seeds have no area; every other paper is cs.LG
    # minimum citations, typed
    page.page.fill("#input-min-citations", "2")
    wait_query(page, "min_citations=2")
    cites = page.page.evaluate("() => window.cy.nodes('.paper').not('.seed').map(n => n.data('in_cited'))")
    assert cites and all(c >= 2 for c in cites)  # citers in the dataset
    # year slider, by keyboard on its handles
    page.page.click("#button-reset")
    page.page.wait_for_function("() => !window.location.search.includes('areas')")
    page.settle()
    page.page.focus("#range-years [role=slider] >> nth=0")
    for _ in range(7):
        page.page.keyboard.press("ArrowRight")
    wait_query(page, "years=2021-2025")
    years = page.page.evaluate("() => window.cy.nodes('.paper').not('.seed').map(n => n.data('year'))")
    assert years and min(years) >= 2021


def test_search_selects_or_adds_a_seed(page: Page) -> None:
    page.open("?seeds=2006.04862")
    page.page.fill("#input-search", "attention is all")
    page.page.wait_for_selector(".search-item")
    assert page.text(".search-item >> nth=0").startswith("Attention Is All You Need")
    page.page.click(".search-select >> nth=0")
    wait_query(page, "selected=1706.03762")
    assert "1706.03762" in page.node_ids() and page.text("#paper-title") == "Attention Is All You Need"
    page.page.fill("#input-search", "inductive biases var")
    page.page.wait_for_selector(".search-item")
    page.page.click(".search-seed >> nth=0")
    wait_query(page, "seeds=2006.04862,2110.10090")
    assert page.node_ids(".seed") == {"2006.04862", "2110.10090"}
    # remove a seed, then reset
    page.page.click("#div-seeds .seed-item:has-text('O(n) Connections') .remove")
    page.page.wait_for_function("() => window.location.search.startsWith('?seeds=2110.10090')")
    page.settle()
    assert page.node_ids(".seed") == {"2110.10090"}
    page.page.click("#button-reset")
    wait_query(page, "seeds=2106.03764,2006.04862,2110.10090")
    assert page.node_ids(".seed") == set(SEED_IDS)


def test_colour_and_layout(page: Page) -> None:
    page.open()
    area_colors = page.page.evaluate("() => window.cy.nodes('.paper').map(n => n.data('color'))")
    assert "Colour: primary area" in page.text("#div-legend") and "cs.LG" in page.text("#div-legend")
    page.page.click("#radio-color >> text=year")
    wait_query(page, "color=year")
    assert page.page.evaluate("() => window.cy.nodes('.paper').map(n => n.data('color'))") != area_colors
    assert "Colour: year" in page.text("#div-legend")
    page.page.click("#radio-layout >> text=timeline")
    wait_query(page, "layout=timeline")
    pts = page.page.evaluate("() => window.cy.nodes('.paper').map(n => [n.data('year'), n.position('x')])")
    by_year = {}
    for year, x in pts:
        if year is not None:
            by_year.setdefault(year, []).append(x)
    years = sorted(by_year)
    assert all(max(by_year[a]) <= min(by_year[b]) for a, b in itertools.pairwise(years))  # by date
    assert page.node_ids(".axis") >= {"axis-y2017", "axis-y2021", "axis-c10"}  # year and citer ticks
    page.page.click("#radio-layout >> text=concentric")
    wait_query(page, "layout=concentric")
    seed = page.page.evaluate("() => window.cy.getElementById('2106.03764').position()")
    assert abs(seed["x"]) < 200 and abs(seed["y"]) < 200


def test_url_restores_the_view_after_reload(page: Page) -> None:
    q = "?seeds=2110.10090&layout=timeline&color=area&years=2021-2024"
    page.open(q)
    first = page.page.evaluate("() => window.cy.nodes('.paper').map(n => [n.id(), n.position()])")
    assert page.query() == "?seeds=2110.10090&years=2021-2024&layout=timeline"
    page.page.reload()
    page.wait_graph()
    again = page.page.evaluate("() => window.cy.nodes('.paper').map(n => [n.id(), n.position()])")
    assert sorted(map(json.dumps, first)) == sorted(map(json.dumps, again))
    assert page.page.get_attribute("#range-years [role=slider] >> nth=0", "aria-valuenow") == "2021"
    assert page.page.is_checked("#radio-layout [role=radio][data-value=timeline]")
    assert not page.page.is_checked("#radio-layout [role=radio][data-value=force]")


def test_unknown_id_and_bad_values_show_a_notice(page: Page) -> None:
    page.open("?seeds=nope&layout=spiral&years=abc")
    notices = page.text("#div-notices")
    assert "'nope'" in notices and "layout='spiral'" in notices and "years='abc'" in notices
    assert page.node_ids(".seed") == set(SEED_IDS)  # the rest of the page works
    page.tap("2110.10090")
    assert "selected=2110.10090" in page.query()


def test_exports(page: Page, tmp_path) -> None:
    page.open("?seeds=2006.04862")
    files = {}
    for button in ("csv", "bibtex", "ris", "json", "graphml", "png", "svg"):
        page.page.click(".export summary")
        with page.page.expect_download(timeout=20000) as dl:
            page.page.click(f"#button-export-{button}")
        d = dl.value
        path = tmp_path / d.suggested_filename
        d.save_as(path)
        files[button] = path
    assert files["csv"].name == "citemap-2006.04862-31-papers.csv"
    rows = list(csv.DictReader(io.StringIO(files["csv"].read_text())))
    assert len(rows) == 31 and {r["id"] for r in rows} == page.node_ids()
    assert files["bibtex"].read_text().count("@misc{") == 31
    ris = files["ris"].read_text()
    assert files["ris"].name == "citemap-2006.04862-31-papers.ris" and ris.count("TY  - ") == ris.count("ER  - ") == 31
    doc = json.loads(files["json"].read_text())
    drawn = page.page.evaluate("() => cy.edges().not('.leader').length")  # not the lines of titles set apart
    assert len(doc["papers"]) == 31 and len(doc["citations"]) == drawn
    assert "<graphml" in files["graphml"].read_text() and files["graphml"].name.endswith("subgraph.graphml")
    # images of the map as it is on screen, with a title line above and a legend below, twice the pixels for PNG
    png = files["png"].read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and files["png"].name == "citemap-2006.04862-31-graph.png"
    width, height = struct.unpack(">II", png[16:24])
    w, h = page.page.evaluate("() => [Math.round(cy.width()), Math.round(cy.height())]")
    svg = files["svg"].read_text()
    assert svg.startswith("<svg") and files["svg"].name == "citemap-2006.04862-31-graph.svg"
    size = re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    assert size is not None and int(size.group(1)) == w  # the SVG: the map's width, the map and more high
    total = int(size.group(2))
    assert (width, height) == (2 * w, 2 * total) and total >= h + 50 and len(png) > 20_000
    title = " · ".join(re.findall(r'<text class="citemap-title"[^>]*>([^<]*)</text>', svg))
    assert title.startswith("Citation map of papers from") and "seeds: O(n) Connections are Expressive" in title
    assert title.endswith("31 papers")
    legend = re.findall(r"<text[^>]*>([^<]*)</text>", svg.split('class="citemap-legend"')[1])
    page.modules()
    areas = set(  # each paper's area as the page names it: in words ("Machine learning (cs.LG)")
        page.page.evaluate(
            """() => { const names = modules.draw.viewMeta().palette.area_names;
                       return cy.nodes('.paper').map(n => modules.colours.areaLabel(n.data('areas')[0], names)); }"""
        )
    )
    assert "Machine learning (cs.LG)" in areas
    assert (
        legend[:3] == ["seed", "builds on (reference)", "built on by (citer)"]
        and set(legend[3:]) <= areas | {"other areas"}
        and len(legend) > 3
    )
    # the titles drawn on screen are in the image, line by line, at the screen's size (not the whole map at another
    # zoom)
    drawn = page.page.evaluate("() => cy.nodes('.lbl, .callout').map(n => n.data('wrapped').split('\\n'))")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg.split('class="citemap-legend"')[0])
    assert len(drawn) >= 5 and all(any(t.startswith(line) for t in texts) for lines in drawn for line in lines)


def test_escape_clears_the_selection(page: Page) -> None:
    page.open("?seeds=2006.04862&selected=2106.03764")
    assert "selected" in page.classes("2106.03764")
    page.page.keyboard.press("Escape")
    page.page.wait_for_function("() => !window.location.search.includes('selected')")
    page.settle()
    assert "selected" not in page.classes("2106.03764")


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_fits_laptop_and_projector(browser, server, size) -> None:
    with Page(browser, server.url, size) as p:
        p.open()
        dims = p.page.evaluate("""() => ({sw: document.documentElement.scrollWidth,
            sh: document.documentElement.scrollHeight,
            g: document.getElementById('graph-citations').getBoundingClientRect().toJSON(),
            panel: document.querySelector('.panel').getBoundingClientRect().toJSON(),
            side: document.querySelector('.sidebar').getBoundingClientRect().toJSON()})""")
        assert dims["sw"] <= size[0] and dims["sh"] <= size[1]
        assert dims["g"]["width"] >= size[0] * 0.45 and dims["g"]["height"] >= size[1] * 0.75
        assert dims["panel"]["right"] <= size[0] + 1 and dims["side"]["left"] >= 0
        # the labelled papers' labels are at least 11 px on screen at the fitted zoom
        px = p.page.evaluate("() => parseFloat(cy.getElementById('2110.10090').style('font-size')) * cy.zoom()")
        assert px >= 11


@pytest.fixture(scope="module")
def arxiv_server(arxiv_store):
    s = serve(arxiv_store.folder)
    yield s
    s.stop()


def test_big_neighbourhood_on_arxiv_2023(browser, arxiv_server, arxiv_store) -> None:
    citers = int(arxiv_store.in_cited[arxiv_store.row("1412.6980")])  # the dataset's own count
    assert citers > 4000
    with Page(browser, arxiv_server.url) as p:
        p.open("?seeds=1412.6980")
        status = p.text("#span-status")
        assert f"showing 300 of {citers:,} citers of “Adam: A Method for Stochastic Optimization”" in status
        assert len(p.node_ids()) == 307
        p.page.click("#button-show-more")
        wait_query(p, "limit=600")
        assert len(p.node_ids()) == 607
        # search, select, expand a paper on the big dataset (GCN: 404 citers in arxiv-2023)
        p.page.fill("#input-search", "semi-supervised classification with graph conv")
        p.page.wait_for_selector(".search-item")
        p.page.click(".search-select >> nth=0")
        wait_query(p, "selected=")
        sel = p.query().split("selected=")[1].split("&")[0]
        assert sel == "1609.02907"
        assert p.text("#paper-title") == "Semi-Supervised Classification with Graph Convolutional Networks"
        before = p.node_ids()
        p.tap(sel)
        assert f"expand={sel}" in p.query()
        after = p.node_ids()
        assert before < after and len(after) - len(before) <= EXPAND_FIRST  # its most cited neighbours first
