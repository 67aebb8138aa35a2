"""Stories in the page: the dataset's story presented (the map takes the window, keys move between steps, Esc
leaves at that view), a story written in the page, downloaded, loaded back and replayed, a malformed file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.browser.conftest import Page
from tests.conftest import DEFAULT_DATA

SEEDS = {"2106.03764", "2006.04862", "2110.10090"}


def story_steps() -> list[dict]:
    return json.loads((DEFAULT_DATA / "stories" / "seeds.json").read_text())["steps"]


def canvas_share(p: Page) -> float:
    return p.page.evaluate(
        "() => document.querySelector('#graph-citations').getBoundingClientRect().width / window.innerWidth"
    )


def drawn(p: Page) -> tuple[frozenset[str], str]:
    return frozenset(p.node_ids()), p.page.evaluate("() => window.location.search")


def load_story_file(p: Page, path: Path, says: str) -> None:
    """Load a story file with the sidebar's "Load a file", until its status line says ``says``."""
    p.page.click("#details-story summary")
    p.page.set_input_files("#upload-story input[type=file]", str(path))
    p.page.wait_for_function(
        "w => document.getElementById('div-story-status').innerText.includes(w)", arg=says, timeout=15000
    )


def test_the_default_story_presents_full_width_and_keys_move_through_it(browser, default_server) -> None:
    steps = story_steps()
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?story=seeds")
        assert canvas_share(p) >= 0.95
        assert not p.page.is_visible(".sidebar") and not p.page.is_visible(".panel")
        assert p.text("#div-present-title") == steps[0]["title"] and p.text("#span-present-count") == "1 / 5"
        assert "June 2020" in p.text("#md-present-caption")
        px = p.page.evaluate("() => cy.nodes('.lbl').map(n => parseFloat(n.style('font-size')) * cy.zoom())")
        assert px and min(px) >= 18  # a projector's labels
        edge = "() => cy.edges().not('.leader')[0].style('line-color')"
        assert p.page.evaluate(edge) == "rgb(107,114,128)"  # and darker lines
        first = drawn(p)
        p.page.keyboard.press("ArrowRight")
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=2'", timeout=15000)
        p.settle()
        second = drawn(p)
        assert second[0] != first[0] and p.node_ids(".onpath")  # the chain between two seeds
        assert p.text("#div-present-title") == steps[1]["title"] and p.text("#span-present-count") == "2 / 5"
        p.page.keyboard.press("End")
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=5'", timeout=15000)
        p.settle()
        assert p.node_ids(".similar")
        p.page.keyboard.press("PageUp")  # what a clicker sends
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=4'", timeout=15000)
        p.settle()
        p.page.keyboard.press("Escape")  # the explorer, at this step's view
        p.page.wait_for_function("() => !window.location.search.includes('story=')", timeout=15000)
        p.settle()
        assert p.query() == steps[3]["view"]
        assert p.page.is_visible(".sidebar") and not p.page.is_visible("#div-present")
        assert set(p.node_ids(".seed")) == SEEDS and "selected" in p.classes("1706.03762")
        assert p.page.evaluate(edge) in ("rgb(185,193,205)", "rgb(225,29,72)")  # the explorer's own colours again


def test_a_story_written_in_the_page_downloads_loads_back_and_replays(browser, default_server, tmp_path: Path) -> None:
    views = ["?seeds=2106.03764", "?seeds=2106.03764&layout=timeline", "?seeds=2110.10090&mode=similar"]
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(views[0])
        p.page.click("#details-story summary")
        for k, view in enumerate(views):
            if k:
                p.page.evaluate("v => window.dash_clientside.set_props('url', {search: v})", view)
                p.page.wait_for_function("v => window.location.search === v", arg=view, timeout=15000)
                p.settle()
            p.page.click("#button-story-add")
            p.page.wait_for_function(
                "n => document.querySelectorAll('.story-step').length === n", arg=k + 1, timeout=15000
            )
        title = p.page.locator(".story-step input").nth(1)
        title.fill("On a timeline")
        title.press("Enter")
        p.page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('store-story-draft')) || {steps: []})"
            ".steps.map(s => s.title).includes('On a timeline')",
            timeout=15000,
        )
        with p.page.expect_download() as got:
            p.page.click("#button-story-download")
        path = tmp_path / "story.json"
        got.value.save_as(path)
        doc = json.loads(path.read_text())
        assert doc["format"] == "citemap-story" and [s["view"] for s in doc["steps"]] == views
        assert doc["steps"][1]["title"] == "On a timeline"
    with Page(browser, default_server.url, (1280, 800)) as p:  # another visitor, nothing in their browser yet
        p.open("?seeds=1706.03762")
        load_story_file(p, path, "3 steps")
        p.page.click("#button-story-present")
        seen = []
        for k, view in enumerate(views):
            if k:
                p.page.keyboard.press("ArrowRight")
            p.page.wait_for_function("v => window.location.search === v", arg=view, timeout=15000)
            p.settle()
            seen.append((p.query(), p.text("#span-present-count")))
            assert canvas_share(p) >= 0.95
        assert seen == [(v, f"{k + 1} / 3") for k, v in enumerate(views)]
        assert p.text("#div-present-title") == doc["steps"][2]["title"]
        p.page.keyboard.press("Escape")
        p.page.wait_for_function("() => !document.querySelector('.app.presenting')", timeout=15000)
        assert p.query() == views[2]


def test_a_malformed_story_file_is_a_notice_and_changes_nothing(browser, default_server, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text(
        json.dumps(
            {
                "format": "citemap-story",
                "version": 1,
                "title": "T",
                "steps": [
                    {"title": "ok", "view": "?seeds=2106.03764"},
                    {"title": "bad", "view": "?seeds=no-such-paper"},
                ],
            }
        )
    )
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open("?seeds=2106.03764")
        load_story_file(p, bad, "broken")
        status = p.text("#div-story-status")
        assert "broken.json, step 2: field 'view': Unknown paper id in seeds: 'no-such-paper'" in status
        assert "Nothing was changed" in status and p.page.locator(".story-step").count() == 0
        p.open("?story=nope")  # a story the dataset does not ship
        assert "no story 'nope' in this dataset; there are: seeds" in p.text("#div-notices")
        assert not p.page.is_visible("#div-present")


def test_a_story_exports_as_a_zip_of_pngs_and_a_pdf_handout(browser, default_server, tmp_path: Path) -> None:
    import re
    import struct
    import zipfile

    steps = story_steps()
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open("?story=seeds&step=2")
        with p.page.expect_download(timeout=120000) as got:
            p.page.click("#button-present-zip")
        zpath = tmp_path / "steps.zip"
        got.value.save_as(zpath)
        with zipfile.ZipFile(zpath) as z:
            names = z.namelist()
            assert names == [f"seeds-step-{k:02d}.png" for k in range(1, len(steps) + 1)]
            for name in names:
                png = z.read(name)
                width, height = struct.unpack(">II", png[16:24])
                # the map down to its lowest title (not what the caption covered on screen), with its text
                assert png[:8] == b"\x89PNG\r\n\x1a\n" and width == 2 * 1280 and height > 2 * 600
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=2'", timeout=30000)
        with p.page.expect_download(timeout=120000) as got:
            p.page.click("#button-present-pdf")
        pdf = got.value.path().read_bytes() if got.value.path() else b""
        assert pdf.startswith(b"%PDF")
        assert len(re.findall(rb"/Type /Page\b(?!s)", pdf)) == len(steps)
        for step in steps:
            assert step["title"].encode("latin-1") in pdf  # the titles are text in the handout, not only pixels
        assert p.query() == "?story=seeds&step=2"  # back where it was


def test_a_steps_camera_sets_zoom_and_centre(browser, default_server, tmp_path: Path) -> None:
    path = tmp_path / "camera.json"
    path.write_text(
        json.dumps(
            {
                "format": "citemap-story",
                "version": 1,
                "title": "Camera",
                "steps": [
                    {"title": "Close on a seed", "view": "?seeds=2106.03764", "camera": {"zoom": 2.5, "x": 0, "y": 0}},
                    {"title": "Fitted", "view": "?seeds=2106.03764&layout=concentric"},
                ],
            }
        )
    )
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open("?seeds=2110.10090")
        load_story_file(p, path, "2 steps")
        p.page.click("#button-story-present")
        p.page.wait_for_function("() => window.location.search === '?seeds=2106.03764'", timeout=15000)
        p.settle()
        p.page.wait_for_function("() => Math.abs(cy.zoom() - 2.5) < 1e-6", timeout=10000)
        centre = p.page.evaluate("() => { const e = cy.extent(); return [(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2]; }")
        assert abs(centre[0]) < 1 and abs(centre[1]) < 1
        p.page.keyboard.press("ArrowRight")
        p.page.wait_for_function("() => window.location.search.includes('layout=concentric')", timeout=15000)
        p.settle()
        fitted = p.page.evaluate("""() => { const b = cy.nodes('.paper').renderedBoundingBox(
            {includeLabels: false}); return b.x1 >= 0 && b.y1 >= 0 && b.x2 <= cy.width() && b.y2 <= cy.height(); }""")
        assert fitted and abs(p.page.evaluate("() => cy.zoom()") - 2.5) > 0.01


def test_a_story_on_a_phone_fits_the_screen(browser, default_server) -> None:
    with Page(browser, default_server.url, (390, 844), touch=True) as p:
        p.open("?story=seeds&step=2")
        boxes = p.page.evaluate("""() => ['.present-text', '.present-controls'].map(s => {
            const b = document.querySelector(s).getBoundingClientRect(); return [b.left, b.right, b.width]; })""")
        assert all(left >= 0 and right <= 390 and width >= 300 for left, right, width in boxes), boxes
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert canvas_share(p) >= 0.95


DRAFT = "() => JSON.parse(localStorage.getItem('store-story-draft')) || {steps: []}"


def add_step(p: Page, count: int) -> None:
    """Click "Add this view" and wait for the list to show ``count`` steps."""
    p.page.click("#button-story-add")
    p.page.wait_for_function("n => document.querySelectorAll('.story-step').length === n", arg=count, timeout=15000)


def test_typing_a_title_and_a_caption_keeps_every_letter_and_the_focus(browser, default_server, tmp_path: Path) -> None:
    caption = "Citations from *2021* on: the three seeds cite one another, oldest first."
    title = "Three seeds, typed at a person's pace"
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open("?seeds=2106.03764")
        p.page.click("#details-story summary")
        add_step(p, 1)
        for selector, text, field in (
            (".story-step textarea", caption, "caption"),
            (".story-step input", title, "title"),
        ):
            box = p.page.locator(selector).first
            box.click()
            p.page.keyboard.press("ControlOrMeta+A")  # the title box starts with the paper's title
            p.page.keyboard.type(text, delay=60)  # a person typing: the server answers between the keys
            p.page.wait_for_function(f"t => ({DRAFT})().steps[0].{field} === t", arg=text, timeout=15000)
            p.page.wait_for_timeout(500)  # anything still on its way would land by now
            assert box.input_value() == text
            assert p.page.evaluate(f"() => document.activeElement === document.querySelector('{selector}')")
            assert p.page.evaluate(DRAFT)["steps"][0][field] == text
        with p.page.expect_download() as got:
            p.page.click("#button-story-download")
        path = tmp_path / "typed.json"
        got.value.save_as(path)
        step = json.loads(path.read_text())["steps"][0]
        assert (step["title"], step["caption"]) == (title, caption)


def covered(p: Page) -> list:
    """The papers whose drawn body (on screen) meets the caption's box or the step controls', with those boxes."""
    return p.page.evaluate("""() => {
        const c = cy.container().getBoundingClientRect();
        const boxes = ['.present-text', '.present-controls'].map(
            s => document.querySelector(s).getBoundingClientRect());
        const hit = [];
        cy.nodes('.paper').forEach(n => {
            const b = n.renderedBoundingBox({includeLabels: false, includeOverlays: false});
            const x1 = c.left + b.x1, x2 = c.left + b.x2, y1 = c.top + b.y1, y2 = c.top + b.y2;
            if (boxes.some(r => x1 < r.right && r.left < x2 && y1 < r.bottom && r.top < y2)) { hit.push(n.id()); }
        });
        return hit;
    }""")


def wait_still(p: Page) -> None:
    """Wait until no paper glides and the labels of the last zoom are chosen."""
    p.page.wait_for_function("() => cy.nodes().filter(n => n.animated()).length === 0", timeout=10000)
    p.page.wait_for_timeout(400)


def test_the_caption_covers_no_paper_on_any_step(browser, default_server) -> None:
    steps = story_steps()
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?story=seeds")
        for k in range(len(steps)):
            if k:
                p.page.keyboard.press("ArrowRight")
                p.page.wait_for_function(
                    "q => window.location.search === q", arg=f"?story=seeds&step={k + 1}", timeout=15000
                )
                p.settle()
            wait_still(p)
            assert p.text("#div-present-title") == steps[k]["title"]
            assert covered(p) == [], f"step {k + 1}: papers under the caption"


def test_a_timelines_ticks_are_a_projectors_size_when_presenting(browser, default_server) -> None:
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?story=seeds&step=3")  # the default story's timeline
        wait_still(p)
        ticks = p.page.evaluate("""() => {
            const c = cy.container().getBoundingClientRect();
            const top = document.querySelector('#div-present').getBoundingClientRect().top - c.top;
            return cy.nodes('.axis').map(n => {
                const b = n.renderedBoundingBox({includeLabels: true});
                return [n.data('label'), parseFloat(n.style('font-size')) * cy.zoom(),
                        b.x1 >= 0 && b.y1 >= 0 && b.x2 <= cy.width() && b.y2 <= top];
            });
        }""")
        assert ticks and min(px for _, px, _ in ticks) >= 18, ticks  # read from the back of the room
        assert all(inside for _, _, inside in ticks), ticks  # the fit leaves them room, above the caption
        p.page.keyboard.press("Escape")  # the explorer: its own 15 px ticks
        p.page.wait_for_function("() => !window.location.search.includes('story=')", timeout=15000)
        p.settle()
        p.page.wait_for_function(
            "() => cy.nodes('.axis').every(n => Math.abs(parseFloat(n.style('font-size')) * cy.zoom() - 15) < 0.5)",
            timeout=5000,
        )


def test_a_step_added_after_zooming_keeps_the_camera_and_replays_it(browser, default_server) -> None:
    view = "?seeds=2106.03764"
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open(view)
        p.page.click("#details-story summary")
        add_step(p, 1)  # at the fit: no camera, the step fits its map
        p.page.evaluate(
            "() => { cy.zoom({level: cy.zoom() * 2.2, renderedPosition: {x: 300, y: 250}});"
            " cy.panBy({x: -40, y: 30}); }"
        )
        shown = p.page.evaluate(
            "() => { const e = cy.extent(); return [cy.zoom(), (e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2]; }"
        )
        add_step(p, 2)
        steps = p.page.evaluate(DRAFT)["steps"]
        assert "camera" not in steps[0]
        camera = steps[1]["camera"]
        assert set(camera) == {"zoom", "x", "y"}
        assert abs(camera["zoom"] - shown[0]) < 1e-3 and abs(camera["x"] - shown[1]) < 0.1
        assert abs(camera["y"] - shown[2]) < 0.1
        p.page.click("#button-story-present")  # step 1: fitted (to a bigger canvas)
        p.page.wait_for_function(
            "() => document.querySelector('#span-present-count').innerText === '1 / 2'", timeout=15000
        )
        p.settle()
        p.page.keyboard.press("ArrowRight")  # step 2: the same view, the camera it was added with
        p.page.wait_for_function(
            "() => document.querySelector('#span-present-count').innerText === '2 / 2'", timeout=15000
        )
        p.page.wait_for_function("z => Math.abs(cy.zoom() - z) < 1e-3", arg=camera["zoom"], timeout=15000)
        centre = p.page.evaluate("() => { const e = cy.extent(); return [(e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2]; }")
        assert abs(centre[0] - camera["x"]) < 0.5 and abs(centre[1] - camera["y"]) < 0.5
        p.page.keyboard.press("ArrowLeft")  # and back to the fit
        p.page.wait_for_function("z => Math.abs(cy.zoom() - z) > 0.05", arg=camera["zoom"], timeout=15000)
        fitted = p.page.evaluate("""() => { const b = cy.nodes('.paper').renderedBoundingBox(
            {includeLabels: false}); return b.x1 >= 0 && b.y1 >= 0 && b.x2 <= cy.width() && b.y2 <= cy.height(); }""")
        assert fitted


GRAPH_FETCHES = """q => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/graph' + q))
  .map(e => ({transfer: e.transferSize, body: e.encodedBodySize, start: e.startTime}))"""


def test_the_next_steps_map_is_fetched_while_a_step_is_shown(browser, default_server) -> None:
    """Presenting step 1, the page asks for step 2's map ahead; Right then draws it from the browser's cache after
    a revalidation (the map's answers are "no-cache": a 304 of headers only crosses the network, not the map)
    instead of waiting for the server to build and send it."""
    with Page(browser, default_server.url, (1920, 1080)) as p:
        p.open("?story=seeds")
        p.page.wait_for_function(f"() => ({GRAPH_FETCHES})('?story=seeds&step=2').length === 1", timeout=15000)
        ahead = p.page.evaluate(GRAPH_FETCHES, "?story=seeds&step=2")[0]
        assert ahead["transfer"] > 0  # fetched from the server, before Right
        p.page.keyboard.press("ArrowRight")
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=2'", timeout=15000)
        p.settle()
        fetches = p.page.evaluate(GRAPH_FETCHES, "?story=seeds&step=2")
        assert len(fetches) == 2 and fetches[1]["start"] > ahead["start"], fetches
        headers = ahead["transfer"] - ahead["body"]  # what the first answer's headers took
        assert fetches[1]["body"] == ahead["body"] > 0, fetches  # the same map, from the cache
        assert fetches[1]["transfer"] < headers + 200, fetches  # a 304: headers only crossed the network
        p.page.wait_for_function(f"() => ({GRAPH_FETCHES})('?story=seeds&step=3').length === 1", timeout=15000)
        p.page.keyboard.press("End")  # the last step: nothing after it to fetch
        p.page.wait_for_function("() => window.location.search === '?story=seeds&step=5'", timeout=15000)
        p.settle()
        p.page.wait_for_timeout(500)
        assert p.page.evaluate(GRAPH_FETCHES, "?story=seeds&step=6") == []
