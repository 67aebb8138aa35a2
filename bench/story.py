"""A story's step change against loading the same view, in headless Chromium, in one run.

    python bench/story.py [--rounds 3]

For each step of the default dataset's story after the first: the time from pressing Right (presenting step k-1)
until step k is drawn and its papers have stopped gliding, against the time the explorer takes to draw the same
view when the page moves to it (the view's own URL set in the page, as a click on a link does), and against
opening the step's URL in a new page. Prints the medians and the ratios; target: a step change at most 1.5x the
in-page load of its view.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import load  # noqa: E402

from dashboard.stories import read_story  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DRAWN = """q => {
  const g = document.getElementById('div-rendered-graph');
  return g && g.textContent === q && window.cy && cy.nodes('.paper').length > 0
    && cy.nodes().filter(n => n.animated()).length === 0;
}"""


def wait_drawn(page, query: str) -> float:
    page.wait_for_function(DRAWN, arg=query, timeout=60000, polling=16)
    return time.perf_counter()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    data = ROOT / "data"
    steps = read_story(data, "seeds").steps
    port = load.free_port()
    server = load.Server([sys.executable, "-m", "dashboard", "serve", "--data", str(data), "--port", str(port)],
                         port)
    change: dict[int, list[float]] = {k: [] for k in range(2, len(steps) + 1)}
    inpage: dict[int, list[float]] = {k: [] for k in change}
    fresh: dict[int, list[float]] = {k: [] for k in change}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            for _ in range(args.rounds):
                for k in change:
                    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
                    page = ctx.new_page()
                    before = f"?story=seeds&step={k - 1}" if k > 2 else "?story=seeds"
                    page.goto(server.url + "/" + before)
                    wait_drawn(page, before)
                    page.wait_for_timeout(800)
                    t = time.perf_counter()
                    page.keyboard.press("ArrowRight")
                    change[k].append(wait_drawn(page, f"?story=seeds&step={k}") - t)
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
                    page.goto(server.url + f"/?story=seeds&step={k}")
                    fresh[k].append(wait_drawn(page, f"?story=seeds&step={k}") - t)
                    ctx.close()
            browser.close()
    finally:
        server.stop()
    print(f"{'step':<6}{'step change':>13}{'same view in page':>19}{'new page':>10}{'ratio':>8}")
    ratios = []
    for k in change:
        c, i, f = (statistics.median(v) * 1000 for v in (change[k], inpage[k], fresh[k]))
        ratios.append(c / i)
        print(f"{k:<6}{c:>10.0f} ms{i:>16.0f} ms{f:>7.0f} ms{c / i:>8.2f}")
    worst = max(ratios)
    print(f"worst step change / same view in page: {worst:.2f}x (target <= 1.5x); medians of {args.rounds} rounds")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
