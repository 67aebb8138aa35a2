"""What a visitor waits for in the browser: time to the map drawn and the longest main-thread stall, for views of
~300, ~1,500 and 5,000 papers on the default dataset, against the floor of this stack measured in the same run.

    python bench/browser.py [--rounds 3] [--data DIR]

* **citemap**: the app under gunicorn (2 workers); each round a fresh browser context opens the view's URL.
* **floor**: a bare Dash page with one dash-cytoscape component that draws the very same papers and citations at
  the same (``preset``) positions (bench/floor_app.py, elements built from the view's ``GET /graph``).
* **drawn**: milliseconds from navigation start until Cytoscape holds every paper of the view (polled each
  animation frame); median of the rounds.
* **stall**: the longest gap of a 100 ms ``setInterval`` probe (beyond its 100 ms) from navigation until 3 s after
  the map is drawn; then **pan/zoom stall**: the same while the mouse wheel zooms 6 notches and the map is dragged.
  Highest of the rounds.

Targets (issue 10): drawn <= 1.5x the floor, longest stall <= 1 s at 5,000 papers. Prints one table; exits 1 if a
target is missed. Needs Chromium (``scripts/install-test-tools``) and the test extras (playwright).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import requests

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
for p in (ROOT, BENCH):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import run  # noqa: E402  (the gunicorn helpers of the server bench)
import stall_probe  # noqa: E402

from dashboard.view.payload import payload_nodes  # noqa: E402

VIEWS = [
    ("~300", "?seeds=1706.03762"),
    ("~1,500", "?seeds=1412.6980&limit=1500"),
    ("5,000", "?seeds=1412.6980,1512.03385,1409.1556&limit=3000"),
]
DRAWN = "n => (window.cy && window.cy.nodes().length >= n) ? performance.now() : false"
STALL_TARGET_MS = 1000.0
DRAWN_TARGET = 1.5


def floor_elements(payload: dict) -> list[dict]:
    """The view's papers and citations as plain Cytoscape elements at the server's positions."""
    nodes = payload_nodes(payload)
    out: list[dict] = [
        {"data": {"id": n["id"], "size": 14}, "position": {"x": x, "y": y}}
        for n, x, y in zip(nodes, payload["x"], payload["y"], strict=True)
    ]
    ids = [n["id"] for n in nodes]
    out += [
        {"data": {"id": f"{ids[s]}>{ids[t]}", "source": ids[s], "target": ids[t]}}
        for s, t in zip(payload["edges"]["source"], payload["edges"]["target"], strict=True)
    ]
    return out


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--data", type=Path, default=ROOT / "data")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="citemap-browser-bench-") as tmp,
        run.server(args.data.resolve(), Path(tmp) / "gunicorn.log") as (port, _, _),
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        base = f"http://{run.HOST}:{port}/"
        for name, query in VIEWS:
            payload = orjson.loads(requests.get(f"{base}graph{query}", timeout=120).content)
            n = len(payload["nodes"])
            elements = Path(tmp) / "elements.json"
            elements.write_bytes(orjson.dumps(floor_elements(payload)))
            fport = run.free_port()
            floor = subprocess.Popen(
                [sys.executable, str(BENCH / "floor_app.py"), str(elements), str(fport)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            run._LIVE.append(floor)
            try:
                for _ in range(300):
                    try:
                        if requests.get(f"http://{run.HOST}:{fport}/", timeout=2).ok:
                            break
                    except requests.RequestException:
                        time.sleep(0.2)
                got: dict[str, list[dict[str, float]]] = {"citemap": [], "floor": []}
                for _ in range(args.rounds):  # alternate, so that drift hits both alike
                    got["floor"].append(measure(browser, f"http://{run.HOST}:{fport}/", n))
                    got["citemap"].append(measure(browser, base + query, n))
                    print(name, "round", {k: round(v) for k, v in got["citemap"][-1].items()}, file=sys.stderr)
            finally:
                run._stop(floor)
            med = {k: statistics.median(r["drawn"] for r in v) for k, v in got.items()}
            worst = {k: max(r["stall"] for r in v) for k, v in got.items()}
            moving = {k: max(r["moving"] for r in v) for k, v in got.items()}
            rows.append((name, n, med, worst, moving))
            print(
                f"{name} ({n:,} papers): drawn {med['citemap']:.0f} / floor {med['floor']:.0f} ms; longest stall "
                f"{worst['citemap']:.0f} / {worst['floor']:.0f} ms; pan/zoom {moving['citemap']:.0f} / "
                f"{moving['floor']:.0f} ms",
                file=sys.stderr,
                flush=True,
            )
        browser.close()
    print(
        "| view | papers | drawn citemap | drawn floor | ratio | longest stall citemap | floor | "
        "pan/zoom stall citemap | floor |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failed = 0
    for name, n, med, worst, moving in rows:
        ratio = med["citemap"] / med["floor"]
        big = n >= 4000
        failed += ratio > DRAWN_TARGET or (big and max(worst["citemap"], moving["citemap"]) > STALL_TARGET_MS)
        print(
            f"| {name} | {n:,} | {med['citemap']:,.0f} ms | {med['floor']:,.0f} ms | {ratio:.2f} | "
            f"{worst['citemap']:,.0f} ms | {worst['floor']:,.0f} ms | {moving['citemap']:,.0f} ms | "
            f"{moving['floor']:,.0f} ms |"
        )
    print(
        f"\ntargets: drawn <= {DRAWN_TARGET}x the floor; longest stall <= {STALL_TARGET_MS:.0f} ms at 5,000 papers; "
        f"{'all met' if not failed else f'{failed} view(s) miss a target'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
