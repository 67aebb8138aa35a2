"""The first page's weight in Chromium: every byte it transfers until the page is drawn and quiet, against a
budget, on a phone as Lighthouse's mobile run sees it; the scripts it loads only when they are needed left out of it:
the exports' libraries until an export, the year charts' library until a chart is on screen (a phone's panel tab
opened; on a desktop, the panel's chart is in view, so it comes once the map's data is in)."""

from __future__ import annotations

from urllib.parse import urlparse

from tests.browser.conftest import Page

FIRST_PAGE_BUDGET = 700_000  # bytes on the wire (compressed bodies and headers) until the first view is drawn
# loaded by assets/js/export-image.js and export-story.js on an export's first use, never before
LAZY = ("/assets/vendor/jszip.min.js", "/assets/vendor/jspdf.umd.min.js", "/assets/vendor/canvas2svg.js")
CHARTS = "/assets/vendor/plotly-basic.min.js"  # assets/js/charts.js: once the map is drawn and a chart seen
PHONE = (412, 823)  # Lighthouse's mobile viewport


def quiet_for_a_second(p: Page, urls: dict[str, str], wire: dict[str, int], timeout_ms: int = 30000) -> None:
    """Wait until every request the page sent has finished and no new one came for a second."""
    for _ in range(timeout_ms // 1000):
        seen = len(urls)
        p.page.wait_for_timeout(1000)
        if len(urls) == seen and all(rid in wire for rid in urls if not urls[rid].startswith("data:")):
            return
    raise AssertionError(f"the page kept loading: {sorted(set(urls.values()) - {urls[r] for r in wire})[:5]}")


class Traffic:
    """What a page asked for and received, from the Chrome DevTools protocol's network events."""

    def __init__(self, p: Page) -> None:
        self.p = p
        self.urls: dict[str, str] = {}
        self.asked: dict[str, float] = {}  # request id -> when it was sent (Chromium's monotonic seconds)
        self.done: dict[str, float] = {}  # ... and when its last byte came
        self.encodings: dict[str, str] = {}
        self.wire: dict[str, int] = {}
        cdp = p.context.new_cdp_session(p.page)
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._answered)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _sent(self, e: dict) -> None:
        self.urls[e["requestId"]] = e["request"]["url"]
        self.asked[e["requestId"]] = float(e["timestamp"])

    def _answered(self, e: dict) -> None:
        headers = {k.lower(): v for k, v in e["response"]["headers"].items()}
        self.encodings[e["requestId"]] = headers.get("content-encoding", "")

    def _finished(self, e: dict) -> None:
        self.wire[e["requestId"]] = int(e["encodedDataLength"])  # headers and body as they came over the network
        self.done[e["requestId"]] = float(e["timestamp"])

    def quiet(self) -> None:
        quiet_for_a_second(self.p, self.urls, self.wire)

    def paths(self) -> dict[str, str]:
        return {rid: urlparse(url).path for rid, url in self.urls.items()}

    def total(self) -> tuple[int, list[tuple[int, str]]]:
        paths = self.paths()
        by_path = sorted(((self.wire[rid], paths[rid]) for rid in self.wire if rid in paths), reverse=True)
        return sum(self.wire.values()), by_path

    def first_asked(self, path: str) -> float | None:
        times = [self.asked[rid] for rid, p in self.paths().items() if p == path]
        return min(times) if times else None

    def map_data_done(self) -> float:
        times = [self.done[rid] for rid, p in self.paths().items() if p == "/graph" and rid in self.done]
        assert times, "the page drew no map"
        return min(times)


def test_the_first_page_on_a_phone_stays_within_its_byte_budget(browser, default_server) -> None:
    with Page(browser, default_server.url, PHONE, touch=True) as p:
        net = Traffic(p)
        p.open()
        net.quiet()  # what the drawn page still asks for (icons, a lazy chunk)
        total, by_path = net.total()
        print(f"first page on a phone: {total:,} bytes in {len(net.wire)} responses; largest: {by_path[:8]}")
        paths = net.paths()
        scripts = [rid for rid, path in paths.items() if path.endswith(".js") and rid in net.wire]
        biggest = max(scripts, key=lambda rid: net.wire[rid])
        assert net.encodings.get(biggest) in ("br", "gzip"), (
            f"{paths[biggest]} came uncompressed: the figure would not be the wire's (is CITEMAP_COMPRESS=0 set?)"
        )
        loaded = set(paths.values())
        assert not loaded & {*LAZY, CHARTS}, f"loaded with the first page: {sorted(loaded & {*LAZY, CHARTS})}"
        net.map_data_done()
        assert total <= FIRST_PAGE_BUDGET, (
            f"the first page transferred {total:,} bytes, over its {FIRST_PAGE_BUDGET:,}; largest: {by_path[:8]}"
        )
        # the paper's tab shows its chart: the charts' library comes then, and the chart is drawn
        p.page.click(".tab[data-tab=paper]")
        p.page.wait_for_function(
            "() => document.querySelectorAll('#graph-by-year .bars .point').length > 0", timeout=30000
        )
        assert net.first_asked(CHARTS) is not None


def test_on_a_desktop_the_charts_library_comes_after_the_map_and_exports_wait(browser, default_server) -> None:
    """At 1280x800 the panel's chart is in view: Plotly is asked for once the map's data is in, not before."""
    with Page(browser, default_server.url) as p:
        net = Traffic(p)
        p.open()
        net.quiet()
        loaded = set(net.paths().values())
        assert not loaded & set(LAZY), f"export libraries loaded with the first page: {sorted(loaded & set(LAZY))}"
        charts = net.first_asked(CHARTS)
        assert charts is not None and charts > net.map_data_done(), "the charts' library came before the map's data"
