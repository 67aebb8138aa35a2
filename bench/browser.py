"""What a visitor waits for in the browser: time to the map drawn and the longest main-thread stall, for views of
~300, ~1,500 and 5,000 papers on the default dataset, against the floor of this stack measured in the same run;
with ``--story``, a story's step change against loading the same view.

    python bench/browser.py [--rounds 3] [--data DIR]
    python bench/browser.py --story [--rounds 3]

* **citemap**: the app under gunicorn (2 workers); each round a fresh browser context opens the view's URL.
* **floor**: a bare Dash page with one dash-cytoscape component that draws the very same papers and citations at
  the same (``preset``) positions (bench/floor_app.py, elements built from the view's ``GET /graph``).
* **drawn**: milliseconds from navigation start until Cytoscape holds every paper of the view (polled each
  animation frame); median of the rounds.
* **stall**: the longest gap of a 100 ms ``setInterval`` probe (beyond its 100 ms) from navigation until 3 s after
  the map is drawn; then **pan/zoom stall**: the same while the mouse wheel zooms 6 notches and the map is dragged.
  Highest of the rounds.

Targets: drawn <= 1.5x the floor, longest stall <= 1 s at 5,000 papers. Prints one table and writes it to
bench/out/results-browser.json (``--story``: results-browser-story.json); exits 1 if a target is missed.

``--story``: for each step of the default dataset's story after the first, the time from pressing Right
(presenting step k-1) until step k is drawn (its papers on the map, those that stay beginning their glide) and
until they have stopped gliding, against the time the explorer takes to draw the same view when the page moves to
it (the view's own URL set in the page, as a click on a link does; its map comes from the browser's cache after a
304 revalidation, as the bench has drawn it just before) and against opening the step's URL in a new page, at
1920x1080. Prints the medians
and the ratios; target: a step change drawn in at most 1.5x the in-page load of its view. The glide is a fixed
GLIDE_MS on top: the second ratio says what it adds.

Needs Chromium (``scripts/install-test-tools``) and the test extras (playwright).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import common  # first: puts the repository on sys.path
import floor_app
import orjson
import requests
import stall_probe
from common import BENCH, log

from dashboard.view.stories import read_story

CHROMIUM = "/usr/bin/chromium"
VIEWS = [
    ("~300", "?seeds=1706.03762"),
    ("~1,500", "?seeds=1412.6980&limit=1500"),
    ("5,000", "?seeds=1412.6980,1512.03385,1409.1556&limit=3000"),
]
DRAWN = "n => (window.cy && window.cy.nodes().length >= n) ? performance.now() : false"
STALL_TARGET_MS = 1000.0
DRAWN_TARGET = 1.5
STORY = "seeds"  # the default dataset's story
STORY_TARGET = 1.5
GLIDE_MS = 300  # assets/js/draw.js GLIDE_MS: papers that stay glide to their new places
SHOWN = """q => {
  const g = document.getElementById('div-rendered-graph');
  return g && g.textContent === q && window.cy && cy.nodes('.paper').length > 0;
}"""  # the view's papers are on the map (a step's glide has begun)
RESTING = SHOWN.replace("length > 0;", "length > 0\n    && cy.nodes().filter(n => n.animated()).length === 0;")
# ... and have stopped moving


def measure(browser: Any, url: str, n: int) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.add_init_script(stall_probe.PROBE)
        page.goto(url, wait_until="commit", timeout=120000)
        drawn = float(page.wait_for_function(DRAWN, arg=n, polling="raf", timeout=180000).json_value())
        page.wait_for_timeout(3000)
        stall = stall_probe.longest(page)
        return {"drawn": drawn, "stall": stall, "moving": stall_probe.pan_and_zoom(page)}
    finally:
        ctx.close()


def views(browser: Any, base: str, rounds: int, tmp: Path) -> int:
    """The views of VIEWS against the floor: one table; 1 if a target is missed."""
    rows = []
    for name, query in VIEWS:
        payload = orjson.loads(requests.get(f"{base}/graph{query}", timeout=120).content)
        n = len(payload["nodes"])
        elements = tmp / "elements.json"
        elements.write_bytes(orjson.dumps(floor_app.floor_elements(payload)))
        fport = common.free_port()
        floor_cmd = [sys.executable, str(BENCH / "floor_app.py"), str(elements), str(fport)]
        got: dict[str, list[dict[str, float]]] = {"citemap": [], "floor": []}
        with common.server(floor_cmd, fport, tmp / "floor.log", health="/") as floor:
            for _ in range(rounds):  # alternate, so that drift hits both alike
                got["floor"].append(measure(browser, floor.url + "/", n))
                got["citemap"].append(measure(browser, f"{base}/{query}", n))
                log(f"{name} round { ({k: round(v) for k, v in got['citemap'][-1].items()}) }")
        med = {k: statistics.median(r["drawn"] for r in v) for k, v in got.items()}
        worst = {k: max(r["stall"] for r in v) for k, v in got.items()}
        moving = {k: max(r["moving"] for r in v) for k, v in got.items()}
        rows.append((name, n, med, worst, moving))
        log(
            f"{name} ({n:,} papers): drawn {med['citemap']:.0f} / floor {med['floor']:.0f} ms; longest stall "
            f"{worst['citemap']:.0f} / {worst['floor']:.0f} ms; pan/zoom {moving['citemap']:.0f} / "
            f"{moving['floor']:.0f} ms"
        )
    columns = [
        "view",
        "papers",
        "drawn citemap",
        "drawn floor",
        "ratio",
        "longest stall citemap",
        "floor",
        "pan/zoom stall citemap",
        "floor",
    ]
    table = []
    failed = 0
    for name, n, med, worst, moving in rows:
        ratio = med["citemap"] / med["floor"]
        big = n >= 4000
        failed += ratio > DRAWN_TARGET or (big and max(worst["citemap"], moving["citemap"]) > STALL_TARGET_MS)
        table.append(
            [
                name,
                f"{n:,}",
                f"{med['citemap']:,.0f} ms",
                f"{med['floor']:,.0f} ms",
                f"{ratio:.2f}",
                f"{worst['citemap']:,.0f} ms",
                f"{worst['floor']:,.0f} ms",
                f"{moving['citemap']:,.0f} ms",
                f"{moving['floor']:,.0f} ms",
            ]
        )
    verdict = (
        f"targets: drawn <= {DRAWN_TARGET}x the floor; longest stall <= {STALL_TARGET_MS:,.0f} ms at 5,000 papers; "
        f"{'all met' if not failed else f'{failed} view(s) miss a target'}"
    )
    print(common.markdown(columns, table))
    print(f"\n{verdict}")
    common.write_results("browser", columns, table, verdict, rounds=rounds, views=dict(VIEWS))
    return 1 if failed else 0


def wait_drawn(page: Any, query: str, until: str = RESTING) -> float:
    page.wait_for_function(until, arg=query, timeout=60000, polling=16)
    return time.perf_counter()


def story(browser: Any, base: str, rounds: int, data: Path) -> int:
    """The story's step changes against the in-page load of the same view and a new page: one table; 1 if the
    target is missed."""
    steps = read_story(data, STORY).steps
    change: dict[int, list[float]] = {k: [] for k in range(2, len(steps) + 1)}
    shown: dict[int, list[float]] = {k: [] for k in change}
    inpage: dict[int, list[float]] = {k: [] for k in change}
    fresh: dict[int, list[float]] = {k: [] for k in change}
    at = f"?story={STORY}&step={{}}"
    for _ in range(rounds):
        for k in change:
            ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
            page = ctx.new_page()
            before = at.format(k - 1) if k > 2 else f"?story={STORY}"
            page.goto(f"{base}/{before}")
            wait_drawn(page, before)
            page.wait_for_timeout(800)
            t = time.perf_counter()
            page.keyboard.press("ArrowRight")
            shown[k].append(wait_drawn(page, at.format(k), SHOWN) - t)
            change[k].append(wait_drawn(page, at.format(k)) - t)
            page.keyboard.press("Escape")  # the explorer at step k's view; then the view of step k-1 ...
            wait_drawn(page, steps[k - 1].view)
            page.evaluate("v => window.dash_clientside.set_props('url', {search: v})", steps[k - 2].view)
            wait_drawn(page, steps[k - 2].view)
            page.wait_for_timeout(800)
            t = time.perf_counter()  # ... and from it, in the page, to step k's view
            page.evaluate("v => window.dash_clientside.set_props('url', {search: v})", steps[k - 1].view)
            inpage[k].append(wait_drawn(page, steps[k - 1].view) - t)
            ctx.close()
            ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
            page = ctx.new_page()
            t = time.perf_counter()
            page.goto(f"{base}/{at.format(k)}")
            fresh[k].append(wait_drawn(page, at.format(k)) - t)
            ctx.close()
    columns = ["step", "drawn", "glide ended", "same view in page", "new page", "ratio drawn", "ratio ended"]
    table = []
    ratios, ended = [], []
    for k in change:
        d, c, i, f = (statistics.median(v) * 1000 for v in (shown[k], change[k], inpage[k], fresh[k]))
        ratios.append(d / i)
        ended.append(c / i)
        table.append(
            [str(k), f"{d:,.0f} ms", f"{c:,.0f} ms", f"{i:,.0f} ms", f"{f:,.0f} ms", f"{d / i:.2f}", f"{c / i:.2f}"]
        )
    worst = max(ratios)
    verdict = (
        f"worst step change drawn / same view in page: {worst:.2f}x (target <= {STORY_TARGET}x); until the "
        f"{GLIDE_MS} ms glide has ended: {max(ended):.2f}x; medians of {rounds} rounds"
    )
    print(common.markdown(columns, table))
    print(verdict)
    common.write_results("browser-story", columns, table, verdict, rounds=rounds, story=STORY)
    return 0 if worst <= STORY_TARGET else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--data", type=Path, help="dataset folder (default: the default dataset)")
    ap.add_argument("--story", action="store_true", help="a story's step changes instead of the views")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    data = (args.data or common.default_data()).resolve()
    common.guard()
    with (
        tempfile.TemporaryDirectory(prefix="citemap-browser-bench-") as tmp,
        common.gunicorn(data, Path(tmp) / "gunicorn.log") as (citemap, _),
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            if args.story:
                return story(browser, citemap.url, args.rounds, data)
            return views(browser, citemap.url, args.rounds, Path(tmp))
        finally:
            browser.close()


if __name__ == "__main__":
    raise SystemExit(main())
