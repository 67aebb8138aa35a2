"""Where the main thread's time goes while a page loads: citemap's page and its floor (a bare Dash page with one
dash-cytoscape component drawing the same papers, bench/floor_app.py) side by side, from a Chrome trace and a
JavaScript profile of each load.

    python bench/page_profile.py [--view QUERY] [--rounds 3] [--data DIR]

* **busy**: the main thread's tasks from navigation until 3 s after the map is drawn, CPU time in ms (the thread's
  own clock: a busy machine stretches it far less than it stretches the wall clock); **long**: the tasks of 50 ms
  or more (Lighthouse's Total Blocking Time counts what each lasts past 50 ms, on a CPU it slows 4x: a task of
  13 ms here counts there); **longest**: the longest task.
* **by script**: self time of the JavaScript profile (sampled) by the script it ran in, and the functions that took
  most; **by kind**: the trace's main-thread time by what the browser did (script, style and layout, paint, ...).

Medians of the rounds, each a fresh browser context. Prints tables; no targets (bench/lighthouse.py and
bench/browser.py hold the page to the floor). The profiles of the last round are kept in
``bench/out/page_profile/*.cpuprofile`` (open them in Chromium's DevTools, Performance panel).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import common  # first: puts the repository on sys.path
import floor_app
import orjson
import requests
from common import BENCH, OUT, log

CHROMIUM = "/usr/bin/chromium"
DRAWN = "n => (window.cy && window.cy.nodes().length >= n) ? performance.now() : false"
LONG_MS = 50.0
TOP = 12


def script_name(url: str) -> str:
    path = urlparse(url).path or url or "(native)"
    return path.rsplit("/", 2)[-2] + "/" + path.rsplit("/", 1)[-1] if path.count("/") > 1 else path


def page_thread(events: list[dict]) -> tuple[int, int]:
    """The process and main thread of the page loaded: the renderer that committed its navigation (the trace holds
    every process of the browser, the pages of earlier rounds included)."""
    pid = [e["pid"] for e in events if e.get("name") == "CommitLoad"][-1]
    tid = next(
        e["tid"]
        for e in events
        if e.get("pid") == pid and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    )
    return pid, tid


def tasks(events: list[dict], pid: int, tid: int, start: float, end: float) -> list[float]:
    """The CPU time (ms) of each of the main thread's top-level tasks between ``start`` and ``end`` (trace
    microseconds): the thread's own clock (``tdur``), which a busy machine does not stretch as it stretches the
    wall clock (``dur``, used where the trace has no thread clock)."""
    out = []
    for e in events:
        if e.get("pid") != pid or e.get("tid") != tid or e.get("ph") != "X":
            continue
        if e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask") and start <= e["ts"] <= end:
            out.append(e.get("tdur", e.get("dur", 0)) / 1000)
    return out


KINDS = {
    "EvaluateScript": "script",
    "v8.compile": "compile",
    "v8.compileModule": "compile",
    "FunctionCall": "script",
    "EventDispatch": "script",
    "TimerFire": "script",
    "FireAnimationFrame": "script",
    "v8.run": "script",
    "RunMicrotasks": "script",
    "UpdateLayoutTree": "style and layout",
    "Layout": "style and layout",
    "RecalculateStyles": "style and layout",
    "Paint": "paint",
    "PrePaint": "paint",
    "Layerize": "paint",
    "MajorGC": "garbage collection",
    "MinorGC": "garbage collection",
    "V8.GC_SCAVENGER": "garbage collection",
    "ParseHTML": "parse HTML",
}


def kinds(events: list[dict], pid: int, tid: int) -> dict[str, float]:
    """Main-thread time by kind (ms): each trace event of a kind named in KINDS, not counted again inside another."""
    spans = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0), KINDS[e["name"]])
        for e in events
        if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and e.get("name") in KINDS
    )
    out: collections.Counter = collections.Counter()
    end = -1.0
    for s, e, kind in spans:
        if s >= end:  # outermost only
            out[kind] += (e - s) / 1000
            end = e
    return dict(out)


def profile_self(profile: dict) -> tuple[dict[str, float], dict[str, float]]:
    """Self time (ms) by script and by function (``name (script:line)``) of a CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    counts: collections.Counter = collections.Counter(profile.get("samples", []))
    deltas = profile.get("timeDeltas", [])
    per_sample = (sum(deltas) / len(deltas) / 1000) if deltas else 0.1
    by_script: collections.Counter = collections.Counter()
    by_function: collections.Counter = collections.Counter()
    for node_id, n in counts.items():
        frame = nodes[node_id]["callFrame"]
        name = frame.get("functionName") or "(anonymous)"
        if name in ("(idle)", "(program)"):
            continue
        ms = n * per_sample
        where = script_name(frame.get("url", "")) if frame.get("url") else "(native)"
        by_script[where] += ms
        by_function[f"{name} ({where}:{frame.get('lineNumber', 0) + 1})"] += ms
    return dict(by_script), dict(by_function)


def measure(browser: Any, url: str, n: int, keep: Path | None) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
        browser.start_tracing(page=page, categories=["toplevel", "devtools.timeline", "v8.execute", "loading"])
        page.goto(url, wait_until="commit", timeout=120000)
        drawn = float(page.wait_for_function(DRAWN, arg=n, polling="raf", timeout=180000).json_value())
        page.wait_for_timeout(3000)
        trace = orjson.loads(browser.stop_tracing())
        profile = cdp.send("Profiler.stop")["profile"]
        if keep is not None:
            keep.write_bytes(orjson.dumps(profile))
            keep.with_suffix(".trace.json").write_bytes(orjson.dumps(trace))
    finally:
        ctx.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pid, tid = page_thread(events)
    start = min(e["ts"] for e in events if e.get("pid") == pid and "ts" in e and e.get("ph") == "X")
    got = tasks(events, pid, tid, start, float("inf"))
    by_script, by_function = profile_self(profile)
    return {
        "drawn": drawn,
        "busy": sum(got),
        "long": sum(t for t in got if t >= LONG_MS),
        "count": sum(1 for t in got if t >= LONG_MS),
        "longest": max(got, default=0.0),
        "tbt4": sum(max(0.0, 4 * t - LONG_MS) for t in got),
        "kinds": kinds(events, pid, tid),
        "scripts": by_script,
        "functions": by_function,
    }


def median_of(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def merged(runs: list[dict[str, Any]], key: str) -> dict[str, float]:
    names = {k for r in runs for k in r[key]}
    return {k: statistics.median(r[key].get(k, 0.0) for r in runs) for k in names}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--view", default="", help="the view's query, e.g. '?seeds=1810.04805&limit=1462' (default: /)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--data", type=Path, help="dataset folder (default: the default dataset)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    data = (args.data or common.default_data()).resolve()
    out = OUT / "page_profile"
    out.mkdir(parents=True, exist_ok=True)
    common.guard()
    with (
        tempfile.TemporaryDirectory(prefix="citemap-profile-") as tmp,
        common.gunicorn(data, Path(tmp) / "gunicorn.log") as (citemap, _),
        sync_playwright() as pw,
    ):
        payload = orjson.loads(requests.get(f"{citemap.url}/graph{args.view}", timeout=300).content)
        n = len(payload["nodes"])
        elements = Path(tmp) / "elements.json"
        elements.write_bytes(orjson.dumps(floor_app.floor_elements(payload)))
        fport = common.free_port()
        floor_cmd = [sys.executable, str(BENCH / "floor_app.py"), str(elements), str(fport)]
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        got: dict[str, list[dict[str, Any]]] = {"citemap": [], "floor": []}
        try:
            with common.server(floor_cmd, fport, Path(tmp) / "floor.log", health="/") as floor:
                for k in range(args.rounds):  # alternate, so that drift hits both alike
                    last = k == args.rounds - 1
                    got["floor"].append(
                        measure(browser, floor.url + "/", n, out / "floor.cpuprofile" if last else None)
                    )
                    url = f"{citemap.url}/{args.view}"
                    got["citemap"].append(measure(browser, url, n, out / "citemap.cpuprofile" if last else None))
                    log(f"round {k + 1}: " + ", ".join(f"{p} busy {r[-1]['busy']:,.0f} ms" for p, r in got.items()))
        finally:
            browser.close()
    print(f"`/{args.view}` ({n:,} papers), medians of {args.rounds} loads\n")
    print("| page | drawn | busy | tasks >= 50 ms | their time | longest task | TBT at 4x CPU (estimate) |")
    print("|---|---|---|---|---|---|---|")
    for page, runs in got.items():
        print(
            f"| {page} | {median_of(runs, 'drawn'):,.0f} ms | {median_of(runs, 'busy'):,.0f} ms | "
            f"{median_of(runs, 'count'):.0f} | {median_of(runs, 'long'):,.0f} ms | "
            f"{median_of(runs, 'longest'):,.0f} ms | {median_of(runs, 'tbt4'):,.0f} ms |"
        )
    for what, key, top in (("kind", "kinds", 8), ("script", "scripts", TOP), ("function", "functions", TOP)):
        print(f"\n| by {what} | citemap (ms) | floor (ms) |\n|---|---|---|")
        c, f = merged(got["citemap"], key), merged(got["floor"], key)
        for name in sorted(set(c) | set(f), key=lambda k: -max(c.get(k, 0), f.get(k, 0)))[:top]:
            print(f"| `{name}` | {c.get(name, 0):,.0f} | {f.get(name, 0):,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
