"""Exports of what the map shows: a story's PDF handout small enough to send by e-mail, and the same bytes for the same
story whatever was shown, hovered or exported before; its zip of PNGs the same each time, each PNG without an empty
band under the map; and no passing state (the dotted ring of papers an action added, a hovered paper's citations) in
an image of the map."""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import Page
from tests.conftest import DEFAULT_DATA

STEPS = len(json.loads((DEFAULT_DATA / "stories" / "seeds.json").read_text())["steps"])
PDF_PER_STEP = 1_500_000  # bytes: a handout of a few steps goes by e-mail

# The rows of a PNG (decoded by the browser) that are white from edge to edge: [True, False, ...] top to bottom.
WHITE_ROWS = """async b64 => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const bmp = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  const c = document.createElement('canvas'); c.width = bmp.width; c.height = bmp.height;
  const ctx = c.getContext('2d'); ctx.drawImage(bmp, 0, 0);
  const px = ctx.getImageData(0, 0, c.width, c.height).data, rows = [];
  for (let y = 0; y < c.height; y++) {
    let white = true;
    for (let i = y * c.width * 4, end = i + c.width * 4; i < end && white; i += 4) {
      white = px[i] === 255 && px[i + 1] === 255 && px[i + 2] === 255;
    }
    rows.push(white);
  }
  return rows;
}"""


def export(p: Page, kind: str, path: Path) -> bytes:
    """Click the presenting frame's PNGs (``zip``) or PDF button; the file, once the page is back at its step."""
    back = p.text("#span-present-count")
    with p.page.expect_download(timeout=180000) as got:
        p.page.click(f"#button-present-{kind}")
    got.value.save_as(path)
    p.modules()
    p.page.wait_for_function("() => !modules.storyExport.exporting()", timeout=60000)
    p.page.wait_for_function(
        "c => document.querySelector('#span-present-count').innerText === c", arg=back, timeout=15000
    )
    p.settle()
    return path.read_bytes()


def go_to_step(p: Page, key: str, step: int) -> None:
    p.page.keyboard.press(key)
    query = "?story=seeds" + (f"&step={step}" if step > 1 else "")
    p.page.wait_for_function("q => window.location.search === q", arg=query, timeout=15000)
    p.settle()


def hover_a_paper(p: Page) -> None:
    """Move the pointer onto the linked paper nearest the middle of the map: its citations stand out ("near")."""
    x, y = p.page.evaluate("""() => {
        const b = cy.container().getBoundingClientRect(), mx = cy.width() / 2, my = cy.height() / 2;
        const d = n => Math.hypot(n.renderedPosition().x - mx, n.renderedPosition().y - my);
        const n = cy.nodes('.paper').filter(n => n.connectedEdges().nonempty()).sort((a, c) => d(a) - d(c))[0];
        return [b.left + n.renderedPosition().x, b.top + n.renderedPosition().y]; }""")
    p.page.mouse.move(x, y)
    p.page.wait_for_function("() => cy.edges('.near').nonempty()", timeout=5000)


def longest_white_run(rows: list[bool]) -> int:
    best = run = 0
    for white in rows:
        run = run + 1 if white else 0
        best = max(best, run)
    return best


def test_a_storys_pdf_and_pngs_are_small_the_same_each_time_and_end_at_the_map(
    browser, default_server, tmp_path: Path
) -> None:
    with Page(browser, default_server.url, (1280, 800)) as p:
        p.open("?story=seeds")
        first = export(p, "pdf", tmp_path / "first.pdf")
        assert first.startswith(b"%PDF-") and len(re.findall(rb"/Type /Page\b(?!s)", first)) == STEPS
        assert len(first) <= PDF_PER_STEP * STEPS, f"{len(first):,} bytes for {STEPS} steps"
        # another step (its new papers ringed), a paper under the pointer, another export first
        go_to_step(p, "End", STEPS)
        assert p.page.evaluate("() => cy.nodes('.new').nonempty()")
        hover_a_paper(p)
        zipped = export(p, "zip", tmp_path / "from-the-end.zip")
        hover_a_paper(p)
        again = export(p, "pdf", tmp_path / "again.pdf")
        assert again == first
        go_to_step(p, "Home", 1)
        p.page.evaluate("() => { cy.zoom({level: cy.zoom() * 1.3, renderedPosition: {x: 300, y: 200}}); }")
        p.page.evaluate("() => { cy.panBy({x: 60, y: -40}); }")
        hover_a_paper(p)
        assert export(p, "zip", tmp_path / "from-the-start.zip") == zipped  # zoomed and moved by hand meanwhile
        pngs = zipfile.ZipFile(io.BytesIO(zipped))
        names = pngs.namelist()
        assert names == [f"seeds-step-{k:02d}.png" for k in range(1, STEPS + 1)]
        for name in names:
            rows = p.page.evaluate(WHITE_ROWS, base64.b64encode(pngs.read(name)).decode())
            # the map down to its lowest title, then the legend: no band of white between them where the caption
            # covered the map on screen (the image has twice the screen's pixels: 120 rows are 60 pixels there)
            bottom = rows[len(rows) * 3 // 4 :]
            assert longest_white_run(bottom) <= 120, f"{name}: {longest_white_run(bottom)} white rows near its bottom"
            assert not all(rows[-30:]), f"{name} ends in white rows"


def test_an_image_of_the_map_leaves_out_new_papers_rings_and_a_hovered_papers_links(browser, server, tmp_path) -> None:
    # Chromium's renderer has crashed once under a full suite's load, in this test only and not reproducibly: a
    # crash of the browser's own page process is tried once more in a new page; any other failure is the test's
    for attempt in (1, 2):
        try:
            with Page(browser, server.url) as page:
                rings_and_hover_left_out(page, tmp_path)
            return
        except PlaywrightError as e:
            if "Target crashed" not in str(e) or attempt == 2:
                raise


def rings_and_hover_left_out(page: Page, tmp_path: Path) -> None:
    page.open("?seeds=2106.03764")
    page.tap("2006.04862")  # expands it: the papers it brings are ringed (dotted) until the next action
    assert page.page.evaluate("() => cy.nodes('.new').nonempty()")
    files = {}
    for kind in ("svg", "png"):
        page.page.click(".export summary")
        page.page.evaluate("() => cy.getElementById('2006.04862').emit('mouseover')")  # its citations stand out
        assert page.page.evaluate("() => cy.edges('.near').nonempty()")
        with page.page.expect_download(timeout=20000) as got:
            page.page.click(f"#button-export-{kind}")
        files[kind] = tmp_path / f"with-rings.{kind}"
        got.value.save_as(files[kind])
    svg = files["svg"].read_text()
    assert "29,78,216" not in svg  # the blue of a hovered paper's citations
    # on screen they stay; the same view without them gives the same SVG and PNG, byte for byte (the dotted ring is
    # in the page's ink, a colour the SVG has elsewhere: only the whole image tells it is left out)
    assert page.page.evaluate("() => cy.nodes('.new').nonempty() && cy.edges('.near').nonempty()")
    page.page.evaluate("() => { cy.nodes('.new').removeClass('new'); cy.edges('.near').removeClass('near'); }")
    page.page.wait_for_timeout(400)  # the labels placed again
    for kind in ("svg", "png"):
        page.page.click(".export summary")
        with page.page.expect_download(timeout=20000) as got:
            page.page.click(f"#button-export-{kind}")
        got.value.save_as(tmp_path / f"without.{kind}")
        assert (tmp_path / f"without.{kind}").read_bytes() == files[kind].read_bytes(), kind
