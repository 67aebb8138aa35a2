"""The field view in a browser: the default dataset's every paper drawn as a WebGL point, a box selection turned into
the seeds of a citation map, and nothing of it loaded on the default page."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from dashboard.dataset.store import Store
from dashboard.graph.state import MAX_SEEDS
from dashboard.view.field import seeds_from_selection
from tests.browser.conftest import Page
from tests.conftest import DEFAULT_DATA

PLOT = "#graph-field .js-plotly-plot"
FULL_BUNDLE = "plotly-strict.min.js"


def _drop_gl_driver_notes(p: Page) -> None:
    """Chromium's software WebGL logs a performance note when plotly.js reads its picking pixels ("GPU stall due
    to ReadPixels"): the driver's, not the page's."""
    p.errors[:] = [e for e in p.errors if "GL Driver Message" not in e]


@pytest.fixture(scope="module")
def default_store() -> Store:
    return Store.load(DEFAULT_DATA)


def test_the_field_draws_every_paper_and_a_box_selection_becomes_the_seeds(browser, default_server, default_store):
    with Page(browser, default_server.url) as p:
        loaded: list[str] = []
        p.page.on("request", lambda r: loaded.append(r.url))
        p.open("?mode=field")
        p.page.wait_for_function(
            f"() => {{ const g = document.querySelector('{PLOT}'); return g && g.data && g.data.length; }}",
            timeout=60000,
        )
        drawn = p.page.evaluate(
            f"""() => {{
                const g = document.querySelector('{PLOT}');
                const rows = new Set();
                g.data.forEach(t => t.customdata.forEach(r => rows.add(r)));
                return {{
                    types: [...new Set(g.data.map(t => t.type))],
                    rows: rows.size,
                    canvases: g.querySelectorAll('canvas.gl-canvas-context').length,
                    noWebgl: !!g.querySelector('.no-webgl'),
                    boxShown: document.getElementById('div-field').classList.contains('on'),
                    status: document.getElementById('span-field-status').textContent,
                }};
            }}"""
        )
        assert drawn["types"] == ["scattergl"]
        assert drawn["rows"] == default_store.n  # every paper once
        assert drawn["canvases"] == 1 and not drawn["noWebgl"] and drawn["boxShown"]
        assert f"{default_store.n:,} of {default_store.n:,} papers" in drawn["status"]
        assert any(FULL_BUNDLE in u for u in loaded)
        assert not any("plotly-basic" in u for u in loaded)  # the page asked for one bundle only

        # a box selection over the middle of the field
        p.page.evaluate(f"() => Plotly.relayout(document.querySelector('{PLOT}'), {{dragmode: 'select'}})")
        box = p.page.locator(f"{PLOT} .nsewdrag").bounding_box()
        x0, y0 = box["x"] + box["width"] * 0.35, box["y"] + box["height"] * 0.35
        p.page.mouse.move(x0, y0)
        p.page.mouse.down()
        p.page.mouse.move(x0 + box["width"] * 0.15, y0 + box["height"] * 0.15, steps=8)
        p.page.mouse.move(x0 + box["width"] * 0.3, y0 + box["height"] * 0.3, steps=8)
        p.page.mouse.up()
        button = p.page.locator("#button-field-map")
        button.wait_for(state="visible", timeout=15000)
        selected = p.page.evaluate(
            f"""() => {{
                const g = document.querySelector('{PLOT}');
                const rows = new Set();
                g.data.forEach(t => (t.selectedpoints || []).forEach(k => rows.add(t.customdata[k])));
                return [...rows];
            }}"""
        )
        assert len(selected) > MAX_SEEDS  # a box over the middle holds many papers
        assert button.inner_text() == f"Map these {len(selected):,} papers"
        button.click()
        p.page.wait_for_function("() => !/mode=/.test(window.location.search)", timeout=30000)
        p.settle()
        query = parse_qs(urlsplit(p.page.url).query)
        seeds = query["seeds"][0].split(",")
        expected, n = seeds_from_selection(default_store, selected, MAX_SEEDS)
        assert seeds == expected and len(seeds) == MAX_SEEDS and n == len(selected)
        assert "mode" not in query
        assert p.page.locator("#div-field.on").count() == 0  # the citation map is shown again
        assert p.node_ids(".seed") == set(seeds)
        assert f"the {MAX_SEEDS} most cited of the {n:,} selected" in p.text("#div-notices")
        _drop_gl_driver_notes(p)


def test_the_default_page_loads_nothing_of_the_field(browser, server):
    with Page(browser, server.url) as p:
        loaded: list[str] = []
        p.page.on("request", lambda r: loaded.append(r.url))
        p.open()
        p.page.wait_for_timeout(2000)  # the charts' library loads once the map is drawn
        assert not any(FULL_BUNDLE in u or "package_data/plotly.min.js" in u or "/field" in u for u in loaded)
        assert p.page.locator("#div-field.on").count() == 0
