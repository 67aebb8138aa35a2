"""The field view in a browser: the default dataset's every paper drawn as a WebGL point, its points fetched once and
a state's small layer on each change, a box selection turned into the seeds of a citation map, region names that
neither overlap nor leave the plot, a story step that shows the field, and nothing of it loaded on the default
page."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from dashboard.dataset.store import Store
from dashboard.graph.state import MAX_SEEDS
from dashboard.view.field import seeds_from_selection
from tests.browser.conftest import Page, serve
from tests.conftest import DEFAULT_DATA

PLOT = "#graph-field .js-plotly-plot"
FULL_BUNDLE = "plotly-strict.min.js"
DRAWN = f"() => {{ const g = document.querySelector('{PLOT}'); return g && g.data && g.data.length; }}"
# the region names drawn: their boxes on the page, and the plot's
LABEL_BOXES = f"""() => {{
    const g = document.querySelector('{PLOT}');
    const box = r => ({{x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}});
    return {{
        plot: box(g.querySelector('.nsewdrag').getBoundingClientRect()),
        labels: [...g.querySelectorAll('g.annotation')].map(a => ({{
            text: a.textContent, ...box(a.getBoundingClientRect())
        }})),
        legend: g.querySelector('g.legend') ? box(g.querySelector('g.legend').getBoundingClientRect()) : null,
        regions: (g.layout.meta || {{}}).regions.length,
    }};
}}"""


def _drop_gl_driver_notes(p: Page) -> None:
    """Chromium's software WebGL logs a performance note when plotly.js reads its picking pixels ("GPU stall due
    to ReadPixels"): the driver's, not the page's."""
    p.errors[:] = [e for e in p.errors if "GL Driver Message" not in e]


@pytest.fixture(scope="module")
def default_store() -> Store:
    return Store.load(DEFAULT_DATA)


# where each seed's star is drawn on the page, from the plot's axes as drawn
SEED_POINTS = f"""() => {{
    const g = document.querySelector('{PLOT}'), full = g._fullLayout, box = g.querySelector('.nsewdrag');
    const r = box.getBoundingClientRect(), xr = full.xaxis.range, yr = full.yaxis.range;
    const seeds = g.data.find(t => t.name === 'seed');
    return seeds.x.map((x, k) => ({{
        row: seeds.customdata[k],
        x: r.left + (x - xr[0]) / (xr[1] - xr[0]) * r.width,
        y: r.top + (yr[1] - seeds.y[k]) / (yr[1] - yr[0]) * r.height,
    }}));
}}"""


def _hover_and_click(p: Page, store: Store) -> None:
    """The pointer over a seed's star: the hover card names a paper, and a click there selects that same paper."""
    star = p.page.evaluate(SEED_POINTS)[0]
    p.page.mouse.move(star["x"], star["y"])
    card = p.page.locator(f"{PLOT} .hoverlayer .hovertext")
    card.first.wait_for(state="visible", timeout=10000)
    p.page.wait_for_timeout(300)  # hover is throttled: let the card follow the pointer's last place
    hovered = p.page.evaluate(  # the card's first line: the paper's title
        f"() => document.querySelector('{PLOT} .hoverlayer .hovertext tspan.line').textContent"
    )
    before = p.page.url
    p.page.mouse.click(star["x"], star["y"])
    p.page.wait_for_function("b => window.location.href !== b && /selected=/.test(location.search)", arg=before)
    selected = parse_qs(urlsplit(p.page.url).query)["selected"][0]
    assert store.paper(store.row(selected))["title"].startswith(hovered.rstrip("…")), (hovered, selected)
    assert "mode=field" in p.page.url  # the field stays, with the paper selected
    p.page.wait_for_function(
        f"() => document.querySelector('{PLOT}').data.some(t => t.name === 'selected')", timeout=30000
    )


def _box_select_and_map(p: Page, store: Store) -> None:
    """A box over the middle of the field: "Map these N papers" counts what it holds, and maps its most cited."""
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
    p.page.wait_for_function("() => /seeds=/.test(location.search) && !/mode=|story=/.test(location.search)")
    query = parse_qs(urlsplit(p.page.url).query)
    seeds = query["seeds"][0].split(",")
    expected, n = seeds_from_selection(store, selected, MAX_SEEDS)
    assert seeds == expected and len(seeds) == MAX_SEEDS and n == len(selected)
    assert "mode" not in query
    # the citation map is shown again, from its seeds (a map of 20 much cited papers: over a thousand to draw)
    p.page.wait_for_function(
        "n => !document.querySelector('#div-field.on') && window.cy.nodes('.seed').length === n",
        arg=len(seeds),
        timeout=60000,
    )
    assert p.node_ids(".seed") == set(seeds)
    assert f"the {MAX_SEEDS} most cited of the {n:,} selected" in p.text("#div-notices")


def test_the_field_draws_every_paper_and_a_box_selection_becomes_the_seeds(browser, default_server, default_store):
    with Page(browser, default_server.url) as p:
        loaded: list[str] = []
        p.page.on("request", lambda r: loaded.append(r.url))
        p.open("?mode=field")
        p.page.wait_for_function(DRAWN, timeout=60000)
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
                    status: document.getElementById('span-status').textContent,
                }};
            }}"""
        )
        assert drawn["types"] == ["scattergl"]
        assert drawn["rows"] == default_store.n  # every paper once
        assert drawn["canvases"] == 1 and not drawn["noWebgl"] and drawn["boxShown"]
        assert drawn["status"].startswith(f"whole field: {default_store.n:,} papers")
        assert any(FULL_BUNDLE in u for u in loaded)
        assert not any("plotly-basic" in u for u in loaded)  # the page asked for one bundle only
        assert sum("/field/points" in u for u in loaded) == 1

        _hover_and_click(p, default_store)
        _box_select_and_map(p, default_store)

        # a change of state fetches the state's layer only: the points are the same
        loaded.clear()
        p.page.evaluate("() => window.dash_clientside.set_props('url', {search: '?mode=field&min_citations=3'})")
        p.page.wait_for_function(
            f"""() => {{
                const g = document.querySelector('{PLOT}');
                const rows = g.data.filter(t => t.type === 'scattergl').reduce((n, t) => n + t.x.length, 0);
                return rows > 0 && rows < {default_store.n};
            }}""",
            timeout=30000,
        )
        asked = [urlsplit(u) for u in loaded if "/field" in u]
        assert [u.path for u in asked] == ["/field"] and "min_citations=3" in asked[0].query
        p.page.wait_for_function("() => /filters hide/.test(document.getElementById('span-status').textContent)")

        _drop_gl_driver_notes(p)


@pytest.mark.parametrize("way", ["sidebar", "keyboard"])
def test_every_way_into_the_field_gives_the_same_working_field(browser, default_server, default_store, way):
    """The field entered once the page's charts are drawn: from the sidebar's "Map of: the whole field" (a point
    hovered is named, a click selects it, a box selection maps its papers; then the back button brings the field
    back, and a box selection there maps again), or from its radio group with the keyboard (a box selection maps),
    as in a field opened from a link."""
    with Page(browser, default_server.url) as p:
        loaded: list[str] = []
        p.page.on("request", lambda r: loaded.append(r.url))
        p.open()
        # the charts' library (the basic bundle) has drawn the field's empty plot before the field is asked for
        p.page.wait_for_function(f"() => !!document.querySelector('{PLOT}')", timeout=30000)
        assert any("plotly-basic" in u for u in loaded)
        if way == "sidebar":
            p.page.click("#radio-mode [data-value=field]")
        else:
            p.page.focus("#radio-mode [aria-checked=true]")
            p.page.keyboard.press("ArrowUp")  # from the first option round to the last, "the whole field"
        p.page.wait_for_function("() => /mode=field/.test(window.location.search)", timeout=15000)
        p.page.wait_for_function(DRAWN, timeout=60000)
        assert any(FULL_BUNDLE in u for u in loaded)
        if way == "sidebar":
            _hover_and_click(p, default_store)
        _box_select_and_map(p, default_store)
        if way == "sidebar":
            p.page.go_back()  # the field again, with the paper the click selected
            p.page.wait_for_function("() => /mode=field/.test(window.location.search)", timeout=15000)
            p.page.wait_for_function(
                f"""() => document.querySelector('#div-field.on')
                    && document.querySelector('{PLOT}').data.some(t => t.name === 'selected')""",
                timeout=30000,
            )
            _box_select_and_map(p, default_store)
        _drop_gl_driver_notes(p)


def test_the_default_page_loads_nothing_of_the_field(browser, server):
    with Page(browser, server.url) as p:
        loaded: list[str] = []
        p.page.on("request", lambda r: loaded.append(r.url))
        p.open()
        p.page.wait_for_timeout(2000)  # the charts' library loads once the map is drawn
        fetched = [urlsplit(u).path for u in loaded]  # no field answer (GET /field, /field/points), no bundle of it
        assert not any(FULL_BUNDLE in u or "package_data/plotly.min.js" in u or u.startswith("/field") for u in fetched)
        assert p.page.locator("#div-field.on").count() == 0


def _apart(a: dict, b: dict) -> bool:
    return a["x1"] <= b["x0"] or b["x1"] <= a["x0"] or a["y1"] <= b["y0"] or b["y1"] <= a["y0"]


def _inside(a: dict, box: dict) -> bool:
    return a["x0"] >= box["x0"] and a["x1"] <= box["x1"] and a["y0"] >= box["y0"] and a["y1"] <= box["y1"]


def _names_fit(p: Page) -> dict:
    """Wait for the region names, then check their drawn boxes: none overlaps another or leaves the plot."""
    p.page.wait_for_function(f"() => document.querySelectorAll('{PLOT} g.annotation').length > 0", timeout=30000)
    p.page.wait_for_timeout(300)  # placed anew after the drawing: let that settle
    got = p.page.evaluate(LABEL_BOXES)
    labels = got["labels"]
    for k, a in enumerate(labels):
        assert _inside(a, got["plot"]), (a, got["plot"])
        for b in labels[k + 1 :]:
            assert _apart(a, b), (a, b)
    return got


@pytest.mark.parametrize("size,touch", [((1280, 800), False), ((390, 844), True)])
def test_region_names_neither_overlap_nor_leave_the_plot(browser, default_server, size, touch):
    with Page(browser, default_server.url, size, touch=touch) as p:
        p.open("?mode=field&seeds=2106.03764")
        p.page.wait_for_function(DRAWN, timeout=60000)
        got = _names_fit(p)
        assert len(got["labels"]) >= (5 if size[0] > 600 else 3)
        assert got["regions"] > len(got["labels"])  # some names left out: they did not fit
        if got["legend"]:  # the legend under the field, not over it
            assert got["legend"]["y0"] >= got["plot"]["y1"] - 1
        else:
            assert size[0] < 600
        # zoomed in on the middle: names placed anew for the screen as it is
        before = {a["text"] for a in got["labels"]}
        p.page.evaluate(f"() => Plotly.relayout(document.querySelector('{PLOT}'), {{'xaxis.range': [300, 600]}})")
        p.page.wait_for_function(
            f"""b => {{
                const now = [...document.querySelectorAll('{PLOT} g.annotation')].map(a => a.textContent);
                return now.length && now.join('|') !== b.join('|');
            }}""",
            arg=sorted(before),
            timeout=15000,
        )
        _names_fit(p)
        _drop_gl_driver_notes(p)


def test_a_story_step_shows_the_field(browser, default_store, tmp_path: Path):
    """A dataset's story whose second step is the field view: presenting it draws the field there, where a box
    selection maps its papers; the back button presents the step again, and the step before draws the citation map
    again."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "builds").symlink_to(DEFAULT_DATA / "builds")
    (folder / "current").symlink_to(os.readlink(DEFAULT_DATA / "current"))
    (folder / "stories").mkdir()
    steps = [
        {"title": "A paper and its neighbours", "view": "?seeds=2106.03764"},
        {"title": "Where they sit in the field", "view": "?seeds=2106.03764&mode=field"},
    ]
    story = {"format": "citemap-story", "version": 1, "title": "Field", "steps": steps}
    (folder / "stories" / "field.json").write_text(json.dumps(story))
    server = serve(folder)
    try:
        with Page(browser, server.url, (1280, 800)) as p:
            p.open("?story=field")
            assert p.page.locator("#div-field.on").count() == 0
            p.page.keyboard.press("ArrowRight")
            p.page.wait_for_function("() => window.location.search === '?story=field&step=2'", timeout=15000)
            p.page.wait_for_function(DRAWN, timeout=60000)
            drawn = p.page.evaluate(
                f"""() => {{
                    const g = document.querySelector('{PLOT}'), box = g.getBoundingClientRect();
                    return {{
                        on: document.getElementById('div-field').classList.contains('on'),
                        presenting: !!document.querySelector('.app.presenting'),
                        names: g.data.map(t => t.name),
                        width: box.width / window.innerWidth,
                        title: document.getElementById('div-present-title').textContent,
                        titleOnTop: (() => {{  // the step's caption over the field, not under it
                            const t = document.getElementById('div-present-title').getBoundingClientRect();
                            const at = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
                            return !!(at && at.closest('#div-present'));
                        }})(),
                    }};
                }}"""
            )
            assert drawn["on"] and drawn["presenting"] and drawn["title"] == steps[1]["title"] and drawn["titleOnTop"]
            assert "current map" in drawn["names"] and "seed" in drawn["names"]  # the step's map lit in the field
            assert drawn["width"] > 0.9  # the field takes the window, as a presented map does
            _names_fit(p)
            _box_select_and_map(p, default_store)  # the step's field works as any other: its selection maps
            assert not p.page.locator(".app.presenting").count()  # a map of one's own: the story is left
            p.page.go_back()  # and the back button presents the step again
            p.page.wait_for_function("() => window.location.search === '?story=field&step=2'", timeout=15000)
            p.page.wait_for_function(
                "() => document.querySelector('#div-field.on') && document.querySelector('.app.presenting')",
                timeout=30000,
            )
            p.page.keyboard.press("ArrowLeft")
            p.page.wait_for_function("() => window.location.search === '?story=field'", timeout=15000)
            p.settle()
            assert p.page.locator("#div-field.on").count() == 0 and "2106.03764" in p.node_ids(".seed")
            _drop_gl_driver_notes(p)
    finally:
        server.stop()
